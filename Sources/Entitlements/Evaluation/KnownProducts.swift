/// The catalog products a history names, in the order the evaluator meets them, each in a
/// numbered slot (SPEC §2: the catalog decides a listed product's type and entitlement).
///
/// A history names a handful of products, so a short scan of their ids beats hashing every
/// entry's product id. Each slot keeps the product's position in the catalog, its type, and
/// the 16 bytes of the entry's id string that last named it: entries read from one document
/// share one string per product (the byte reader remembers the last four of each kind), and
/// the same bytes are the same string, found without reading its text. No slot holds a
/// reference: a product met costs no copy of the catalog's product (with its strings
/// retained), the list is freed without a pass over it, and a product is read in the catalog
/// only when an entry enters a group (issue: performance).
///
/// Every call is given the same catalog, and the entries whose ids were met are alive while
/// the slots are used (one evaluation): the bytes kept are compared, never read as a string.
///
/// ```swift
/// var known = KnownProducts()
/// known.slot(of: "com.example.monthly", in: catalog)  // 0
/// known.slot(of: "com.example.yearly", in: catalog)   // 1
/// known.slot(of: "com.example.monthly", in: catalog)  // 0, found by the scan
/// known.slot(of: "not.in.catalog", in: catalog)       // nil
/// known.product(at: 1, in: catalog).id                // "com.example.yearly"
/// ```
struct KnownProducts {
  /// How many products are kept: more are looked up in the catalog each time.
  static let limit = 8

  /// One product met: the 16 bytes of the id that last named it, its position in the
  /// catalog's ``ProductCatalog/listed``, and its type. No reference: the list is freed
  /// without a pass over it, and a slot is read with no retain.
  private struct Slot {
    var bytes: (UInt64, UInt64)
    let position: Int
    let type: ProductType
  }

  /// The slots, in the order the products were met.
  private var slots: [Slot] = []

  /// How many slots are taken.
  var count: Int { slots.count }

  /// The type of the product in `slot`.
  @inline(__always)
  func type(at slot: Int) -> ProductType {
    slots.withUnsafeBufferPointer { $0[slot].type }
  }

  /// The product in `slot`, read in `catalog` (the catalog the slots were given).
  func product(at slot: Int, in catalog: ProductCatalog) -> Product {
    catalog.listed[slots[slot].position]
  }

  /// The entitlement of the product in `slot`, read in place in `catalog`.
  func entitlement(at slot: Int, in catalog: ProductCatalog) -> EntitlementID {
    catalog.listed.withUnsafeBufferPointer { $0[slots[slot].position].entitlement }
  }

  /// The slot of the catalog's product `id`, given one if it has none yet and fewer than
  /// ``limit`` are kept; `nil` when the catalog does not list `id`, or the slots are full.
  @inline(__always)
  mutating func slot(of id: ProductID, in catalog: ProductCatalog) -> Int? {
    // The same string first: `==` on two different ids reads their bytes, and an entry of a
    // history's second product paid that for its first product each time.
    let bytes = id.storageBits
    let found = slots.withUnsafeBufferPointer { slots -> Int? in
      for slot in slots.indices where slots[slot].bytes == bytes { return slot }
      return nil
    }
    return found ?? slot(ofText: id, in: catalog)
  }

  /// ``slot(of:in:)`` for an id not held in a slot's bytes: equal text in another storage, a
  /// product met for the first time, or none. Out of line: the usual entry needs none of it.
  ///
  /// A slot found by its text takes the bytes of `id`: one product may still come in several
  /// strings (entries of several documents, or of a document with more than four products),
  /// and the entries that follow usually hold the latest, compared by text only once.
  @inline(never)
  private mutating func slot(ofText id: ProductID, in catalog: ProductCatalog) -> Int? {
    guard !catalog.isEmpty else { return nil }
    let found = catalog.listed.withUnsafeBufferPointer { listed in
      slots.withUnsafeBufferPointer { slots -> Int? in
        for slot in slots.indices where listed[slots[slot].position].id == id { return slot }
        return nil
      }
    }
    if let found {
      slots[found].bytes = id.storageBits
      return found
    }
    guard slots.count < Self.limit, let position = catalog.position(of: id) else { return nil }
    if slots.isEmpty { slots.reserveCapacity(Self.limit) }  // one allocation, no regrowth
    let type = catalog.listed.withUnsafeBufferPointer { $0[position].type }
    slots.append(Slot(bytes: id.storageBits, position: position, type: type))
    return slots.count - 1
  }
}
