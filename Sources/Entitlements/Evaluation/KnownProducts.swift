/// The catalog products a history names, in the order the evaluator meets them, each in a
/// numbered slot (SPEC §2: the catalog decides a listed product's type and entitlement).
///
/// A history names a handful of products, so a short scan of their ids beats hashing every
/// entry's product id. The ids kept are the entries' own strings, not the catalog's: entries
/// read from one document share one string per product, and identical strings compare equal
/// without reading their bytes (issue: performance).
///
/// ```swift
/// var known = KnownProducts()
/// known.slot(of: "com.example.monthly", in: catalog)  // 0
/// known.slot(of: "com.example.yearly", in: catalog)   // 1
/// known.slot(of: "com.example.monthly", in: catalog)  // 0, found by the scan
/// known.slot(of: "not.in.catalog", in: catalog)       // nil
/// ```
struct KnownProducts {
  /// How many products are kept: more are looked up in the catalog each time.
  static let limit = 8

  /// The products, by slot, each with the id it was first met with (an equal string).
  private(set) var products: [Product] = []

  /// The type of the product in `slot`, read in place.
  @inline(__always)
  func type(at slot: Int) -> ProductType {
    products.withUnsafeBufferPointer { $0[slot].type }
  }

  /// Whether `a` and `b` are one string: the same 16 bytes of `String` (one storage, or the
  /// same short string held inline), which are equal strings. Different bytes may still be
  /// equal strings (two storages of one text): `==` decides those.
  @inline(__always)
  private static func isSame(_ a: ProductID, _ b: ProductID) -> Bool {
    unsafeBitCast(a.rawValue, to: (UInt64, UInt64).self)
      == unsafeBitCast(b.rawValue, to: (UInt64, UInt64).self)
  }

  /// The slot of the catalog's product `id`, given one if it has none yet and fewer than
  /// ``limit`` are kept; `nil` when the catalog does not list `id`, or the slots are full.
  @inline(__always)
  mutating func slot(of id: ProductID, in catalog: ProductCatalog) -> Int? {
    // In place: a closure over the list (`firstIndex(where:)`) would retain each product.
    let found = products.withUnsafeBufferPointer { products -> Int? in
      // The same string first: `==` on two different ids reads their bytes, and an entry of
      // a history's second product paid that for its first product each time.
      for slot in products.indices where Self.isSame(products[slot].id, id) { return slot }
      for slot in products.indices where products[slot].id == id { return slot }
      return nil
    }
    if let found { return found }
    guard !catalog.isEmpty, products.count < Self.limit, var product = catalog[id] else {
      return nil
    }
    if products.isEmpty { products.reserveCapacity(Self.limit) }  // one allocation, no regrowth
    product.id = id
    products.append(product)
    return products.count - 1
  }
}
