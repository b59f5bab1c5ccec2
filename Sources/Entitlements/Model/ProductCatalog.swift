/// The optional product catalog: per product id, its type, duration and entitlement (SPEC §2).
///
/// Without a catalog (``ProductCatalog/empty``) an entry with `expires_date` is taken as an
/// auto-renewable subscription, and entries are grouped into entitlements by
/// `original_transaction_id`, which then names the entitlement.
///
/// ```swift
/// let catalog = ProductCatalog([
///   Product(id: "monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
///           entitlement: "premium"),
///   Product(id: "lifetime", type: .nonConsumable, entitlement: "premium"),
/// ])
/// catalog["lifetime"]?.entitlement  // "premium"
/// ```
public struct ProductCatalog: Hashable, Sendable {
  /// The products by id.
  public private(set) var products: [ProductID: Product]

  /// Creates a catalog. When an id appears twice, the later product replaces the earlier.
  ///
  /// - Parameter products: The products.
  public init(_ products: [Product] = []) {
    var byID: [ProductID: Product] = [:]
    for product in products { byID[product.id] = product }
    self.products = byID
  }

  /// No catalog: types and grouping are inferred from the entries (SPEC §2).
  public static let empty = ProductCatalog()

  /// Whether the catalog lists no product.
  public var isEmpty: Bool { products.isEmpty }

  /// The product with this id, if listed.
  public subscript(id: ProductID) -> Product? { products[id] }
}
