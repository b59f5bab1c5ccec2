/// One product of the catalog: what it is, how long it lasts, what it unlocks (SPEC §2): one
/// entitlement or several.
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
  /// What the product unlocks, first its own: several products may unlock one entitlement,
  /// and one product several ("premium includes basic"). An empty list stands for the
  /// product id, as ``entitlement`` says.
  public private(set) var entitlements: [EntitlementID]

  /// The product's own entitlement: the first of ``entitlements`` (the product id when there
  /// is none).
  public var entitlement: EntitlementID { entitlements.first ?? EntitlementID(id.rawValue) }

  /// Every entitlement the product unlocks: ``entitlements``, or the product id for none.
  var unlocked: [EntitlementID] { entitlements.isEmpty ? [entitlement] : entitlements }

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
    self.init(
      id: id, type: type, duration: duration,
      entitlements: [entitlement ?? EntitlementID(id.rawValue)])
  }

  /// Creates a product that unlocks several entitlements (SPEC §2; a tier that includes
  /// another):
  ///
  /// ```swift
  /// CatalogProduct(
  ///   id: "com.example.premium.monthly", type: .autoRenewable,
  ///   duration: CalendarPeriod(1, .month), entitlements: ["premium", "basic"])
  /// ```
  ///
  /// - Parameters:
  ///   - id: The App Store product identifier.
  ///   - type: The kind of product.
  ///   - duration: The subscription length, if any.
  ///   - entitlements: What the product unlocks, its own first; repeats are kept once, and
  ///     the product id stands for an empty list.
  public init(
    id: ProductID, type: ProductKind, duration: CalendarPeriod? = nil,
    entitlements: [EntitlementID]
  ) {
    self.id = id
    self.type = type
    self.duration = duration
    var unique: [EntitlementID] = []
    for entitlement in entitlements where !unique.contains(entitlement) {
      unique.append(entitlement)
    }
    self.entitlements = unique.isEmpty ? [EntitlementID(id.rawValue)] : unique
  }
}
