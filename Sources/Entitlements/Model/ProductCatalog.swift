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
  /// The same products sorted by id when there are few: comparing a product id with a handful
  /// of ids is cheaper than hashing it, and every evaluation looks up the products it meets.
  /// Derived from ``products``, so equal catalogs have equal lists.
  private var few: [Product]?

  /// Creates a catalog. When an id appears twice, the later product replaces the earlier.
  ///
  /// - Parameter products: The products.
  public init(_ products: [Product] = []) {
    var byID: [ProductID: Product] = [:]
    for product in products { byID[product.id] = product }
    self.products = byID
    few = byID.count <= 16 ? byID.values.sorted { $0.id < $1.id } : nil
  }

  /// No catalog: types and grouping are inferred from the entries (SPEC §2).
  public static let empty = ProductCatalog()

  /// Whether the catalog lists no product.
  public var isEmpty: Bool { products.isEmpty }

  /// The product with this id, if listed.
  public subscript(id: ProductID) -> Product? {
    guard let few else { return products[id] }
    for product in few where product.id == id { return product }
    return nil
  }
}
