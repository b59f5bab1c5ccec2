import Testing

@testable import Entitlements

/// The slots of the catalog products a history names: found by the same string first, then by
/// equal text (a long id from another storage), and none for unlisted ids or past the limit.
@Suite("Known products")
struct KnownProductsTests {
  /// A long id (too long to be held inline) in a storage of its own on each call.
  static func fresh(_ id: String) -> ProductID {
    ProductID(rawValue: String(decoding: Array(id.utf8), as: UTF8.self))
  }

  static let long = (0..<3).map { "com.example.subscription.product.\($0)" }
  static let catalog = ProductCatalog(
    (long + ["p.short"]).map {
      Product(
        id: ProductID(rawValue: $0), type: .autoRenewable, duration: CalendarPeriod(1, .month),
        entitlement: "premium")
    })

  @Test func freshIdsAreOtherStorages() {
    let (a, b) = (Self.fresh(Self.long[0]), Self.fresh(Self.long[0]))
    #expect(a == b)
    #expect(
      unsafeBitCast(a.rawValue, to: (UInt64, UInt64).self)
        != unsafeBitCast(b.rawValue, to: (UInt64, UInt64).self))
  }

  /// Each row: the ids met in turn, and the slot each gets.
  static let rows: [(name: String, ids: [ProductID], slots: [Int?])] = {
    let first = fresh(long[0])
    let second = fresh(long[1])
    return [
      ("one string per product", [first, second, first, second, second], [0, 1, 0, 1, 1]),
      (
        "equal text in other storages", [first, fresh(long[1]), fresh(long[0]), fresh(long[1])],
        [0, 1, 0, 1]
      ),
      ("short ids held inline", ["p.short", first, "p.short"], [0, 1, 0]),
      ("an unlisted id", [first, "not.listed", fresh(long[2]), "not.listed"], [0, nil, 1, nil]),
    ]
  }()

  @Test(arguments: rows.indices)
  func slotsFollowTheIdsMet(row: Int) {
    let (name, ids, slots) = Self.rows[row]
    var known = KnownProducts()
    #expect(ids.map { known.slot(of: $0, in: Self.catalog) } == slots, "\(name)")
    let products = (0..<known.count).map { known.product(at: $0, in: Self.catalog) }
    #expect(Set(products.map(\.id)).count == known.count, "\(name): one slot each")
    // Each slot holds the product its first id named, with its type.
    for (id, slot) in zip(ids, slots) {
      guard let slot else { continue }
      #expect(products[slot].id == id, "\(name)")
      #expect(known.type(at: slot) == products[slot].type, "\(name)")
      #expect(known.entitlement(at: slot, in: Self.catalog) == products[slot].entitlement)
    }
  }

  /// A catalog of few products is scanned, one of many is hashed: both find every product by
  /// id (a later duplicate id replacing the earlier), and none that is not listed.
  @Test(arguments: [3, 16, 17, 40])
  func catalogsOfAnySizeFindTheirProducts(size: Int) {
    let products = (0..<size).map {
      Product(
        id: ProductID(rawValue: "p\($0)"), type: $0 % 2 == 0 ? .autoRenewable : .nonConsumable,
        entitlement: EntitlementID(rawValue: "e\($0)"))
    }
    let replaced = Product(id: "p0", type: .nonConsumable, entitlement: "replaced")
    let catalog = ProductCatalog(products + [replaced])
    #expect(catalog.products.count == size)
    #expect(catalog["p0"] == replaced)
    for product in products.dropFirst() {
      #expect(catalog[product.id] == product, "\(size)")
      #expect(catalog[Self.fresh(product.id.rawValue)] == product, "\(size): equal text")
    }
    #expect(catalog[ProductID(rawValue: "p\(size)")] == nil)
    #expect(catalog["missing"] == nil)
    // The slots read their products in the same catalog.
    var known = KnownProducts()
    let last = products[size - 1]
    #expect(known.slot(of: last.id, in: catalog) == 0)
    #expect(known.product(at: 0, in: catalog) == last)
    #expect(known.type(at: 0) == last.type)
    #expect(known.entitlement(at: 0, in: catalog) == last.entitlement)
  }

  @Test func noSlotPastTheLimit() {
    let catalog = ProductCatalog(
      (0...KnownProducts.limit).map {
        Product(
          id: ProductID(rawValue: "p\($0)"), type: .autoRenewable,
          duration: CalendarPeriod(1, .month), entitlement: "premium")
      })
    var known = KnownProducts()
    let slots = (0...KnownProducts.limit).map {
      known.slot(of: ProductID(rawValue: "p\($0)"), in: catalog)
    }
    #expect(slots == Array(0..<KnownProducts.limit) + [nil])
    #expect(known.slot(of: "p0", in: catalog) == 0)
  }
}
