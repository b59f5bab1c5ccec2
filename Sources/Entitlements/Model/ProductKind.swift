/// The four kinds of in-app product (SPEC §2), with the guide's names.
///
/// | type | guide name | who computes the period |
/// |---|---|---|
/// | ``autoRenewable`` | auto-renewable subscription | the App Store: `expires_date` |
/// | ``nonRenewing`` | non-renewing subscription | the app: the catalog's duration, stacked |
/// | ``nonConsumable`` | non-consumable | owned from purchase, forever |
/// | ``consumable`` | consumable | no entitlement: a purchase event only |
///
/// ```swift
/// ProductKind(rawValue: "autoRenewable")  // .autoRenewable
/// ```
public enum ProductKind: String, Hashable, Sendable, CaseIterable {
  /// An auto-renewable subscription: coverage `[purchase_date, expires_date)`.
  case autoRenewable
  /// A non-renewing subscription: coverage computed from the catalog's duration (SPEC §6).
  case nonRenewing
  /// A non-consumable: owned from purchase, forever.
  case nonConsumable
  /// A consumable: a purchase event, no coverage.
  case consumable

  /// Apple's spelling of the kind: the `type` of an App Store Server API transaction.
  ///
  /// ```swift
  /// ProductKind.nonConsumable.appleName  // "Non-Consumable"
  /// ```
  public var appleName: String {
    switch self {
    case .autoRenewable: "Auto-Renewable Subscription"
    case .nonRenewing: "Non-Renewing Subscription"
    case .nonConsumable: "Non-Consumable"
    case .consumable: "Consumable"
    }
  }
}
