/// The optional product catalog: per product id, its type, duration and entitlements (SPEC §2).
///
/// Without a catalog (``ProductCatalog/empty``) an entry with `expires_date` is taken as an
/// auto-renewable subscription, and entries are grouped into entitlements by
/// `original_transaction_id`, which then names the entitlement.
///
/// ```swift
/// let catalog = ProductCatalog([
///   CatalogProduct(id: "monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
///           entitlement: "premium"),
///   CatalogProduct(id: "lifetime", type: .nonConsumable, entitlement: "premium"),
/// ])
/// catalog["lifetime"]?.entitlement  // "premium"
/// ```
public struct ProductCatalog: Hashable, Sendable {
  /// The products by id.
  public private(set) var products: [ProductID: CatalogProduct]
  /// The same products sorted by id, read in place by ``subscript(id:)`` and by
  /// classification (a short list is scanned). Derived from ``products``, so equal catalogs
  /// have equal lists.
  let listed: [CatalogProduct]
  /// The position in ``listed`` of each id, when there are many products; `nil` for a few,
  /// which are scanned: comparing a product id with a handful of ids is cheaper than hashing
  /// it, and every evaluation looks up the products it meets.
  private let positions: [ProductID: Int]?
  /// The entitlements some product unlocks besides its own, sorted: their groups gather the
  /// entries of several products (``ProductClassification``). Empty in most catalogs.
  let sharedEntitlements: [EntitlementID]

  /// Creates a catalog. When an id appears twice, the later product replaces the earlier.
  ///
  /// - Parameter products: The products.
  public init(_ products: [CatalogProduct] = []) {
    var byID: [ProductID: CatalogProduct] = [:]
    for product in products { byID[product.id] = product }
    self.products = byID
    let listed = byID.values.sorted { $0.id < $1.id }
    self.listed = listed
    positions =
      listed.count <= 16
      ? nil : Dictionary(uniqueKeysWithValues: listed.indices.map { (listed[$0].id, $0) })
    sharedEntitlements = Set(listed.flatMap { $0.unlocked.dropFirst() }).sorted()
  }

  /// No catalog: types and grouping are inferred from the entries (SPEC §2).
  public static let empty = ProductCatalog()

  /// Whether the catalog lists no product.
  public var isEmpty: Bool { products.isEmpty }

  /// The product with this id, if listed.
  public subscript(id: ProductID) -> CatalogProduct? {
    position(of: id).map { listed[$0] }
  }

  /// The position in ``listed`` of the product with this id, if listed. Out of line: a scan
  /// and a table lookup are long code, and the loops over the entries call it seldom
  /// (classification once per change of product; only non-renewing entries and sandbox
  /// windows for their duration).
  @inline(never)
  func position(of id: ProductID) -> Int? {
    guard let positions else {
      // In place: a closure over the list (`firstIndex(where:)`) would retain each product.
      return listed.withUnsafeBufferPointer { listed in
        for position in listed.indices
        where listed[position].id.rawValue.isSameText(as: id.rawValue) {
          return position
        }
        return nil
      }
    }
    return positions[id]
  }
}
