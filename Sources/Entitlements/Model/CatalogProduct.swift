/// One product of the catalog: what it is, how long it lasts, what it unlocks (SPEC §2).
///
/// ```swift
/// let monthly = CatalogProduct(
///   id: "com.example.magazine.monthly", type: .autoRenewable,
///   duration: CalendarPeriod(1, .month), entitlement: "magazine")
/// ```
public struct CatalogProduct: Hashable, Sendable {
  /// The App Store product identifier.
  public var id: ProductID
  /// The kind of product.
  public var type: ProductKind
  /// The subscription length (`P1M`): required for non-renewing subscriptions, informative for
  /// auto-renewable ones (their coverage comes from `expires_date`, never from this).
  public var duration: CalendarPeriod?
  /// What the product unlocks; several products may unlock one entitlement.
  public var entitlement: EntitlementID

  /// Creates a product.
  ///
  /// - Parameters:
  ///   - id: The App Store product identifier.
  ///   - type: The kind of product.
  ///   - duration: The subscription length, if any.
  ///   - entitlement: What the product unlocks; the product id when omitted.
  public init(
    id: ProductID, type: ProductKind, duration: CalendarPeriod? = nil,
    entitlement: EntitlementID? = nil
  ) {
    self.id = id
    self.type = type
    self.duration = duration
    self.entitlement = entitlement ?? EntitlementID(id.rawValue)
  }
}
