/// A renewal the App Store is still trying to charge, in grace period or billing retry
/// (SPEC §5, rules 4 and 5): the lapsed subscription's product, and what its renewal info
/// says of the renewal.
///
/// ```swift
/// if case .billingRetry(_, _, let renewal?) = premium.status(at: now) {
///   renewal.productID    // "com.example.monthly": the product that lapsed
///   renewal.willRenew    // true: it renews once a charge succeeds
///   renewal.nextProductID  // "com.example.monthly"
/// }
/// ```
public struct PendingRenewal: Hashable, Sendable {
  /// The product of the subscription that lapsed.
  ///
  /// ```swift
  /// renewal.productID  // "com.example.monthly"
  /// ```
  public let productID: ProductID
  /// Whether it renews once a charge succeeds (`auto_renew_status`); `nil` when unknown.
  ///
  /// ```swift
  /// renewal.willRenew  // true
  /// ```
  public let willRenew: Bool?
  /// The product it renews into (`auto_renew_product_id`); `nil` when unknown.
  ///
  /// ```swift
  /// renewal.nextProductID  // "com.example.yearly"
  /// ```
  public let nextProductID: ProductID?

  /// Creates a pending renewal.
  ///
  /// - Parameters:
  ///   - productID: The product of the subscription that lapsed.
  ///   - willRenew: Whether it renews once a charge succeeds.
  ///   - nextProductID: The product it renews into.
  public init(productID: ProductID, willRenew: Bool?, nextProductID: ProductID?) {
    self.productID = productID
    self.willRenew = willRenew
    self.nextProductID = nextProductID
  }
}
