import EntitlementsTesting
import Testing

@testable import Entitlements

/// What the evaluator reads of out-of-order entries, in canonical order: the same order as
/// sorting the entries themselves, whatever the spread of their purchase instants.
@Suite("Canonical entries")
struct CanonicalEntriesTests {
  static let catalog = ProductCatalog(
    (0..<10).map {
      Product(
        id: ProductID("p\($0)"), type: .autoRenewable, duration: CalendarPeriod(1, .month),
        entitlement: "premium")
    })

  /// An entry of product `p<product>` bought at `purchase` (ms; `nil` for none).
  static func entry(_ id: String, _ purchase: Int64?, product: Int = 0) -> ReceiptEntry {
    ReceiptEntry(
      productID: ProductID("p\(product)"), transactionID: TransactionID(id),
      webOrderLineItemID: WebOrderLineItemID("w\(id)"),
      purchaseDate: purchase.map { Instant(millisecondsSince1970: $0) },
      expiresDate: purchase.map { Instant(millisecondsSince1970: $0 + 1000) },
      cancellationDate: id.hasSuffix("7")
        ? purchase.map { Instant(millisecondsSince1970: $0) } : nil,
      isTrialPeriod: id.hasSuffix("3"))
  }

  /// The entries the canonical entries list, in their order.
  static func arranged(_ entries: [ReceiptEntry]) -> [ReceiptEntry]? {
    CanonicalEntries.make(entries, catalog: catalog)?.entries.map { entries[Int($0.index)] }
  }

  @Test(
    arguments: [
      ("no entry", []),
      ("one entry", [entry("1", 5)]),
      ("in order", [entry("1", 5), entry("2", 6), entry("3", 6)]),
      // One instant: the ids' `String` order decides, and "10" comes before "9".
      ("a tie in order", [entry("10", 5), entry("9", 5)]),
      ("no purchase date first", [entry("1", nil), entry("2", -5), entry("3", 0)]),
    ] as [(String, [ReceiptEntry])])
  func entriesInCanonicalOrderNeedNone(name: String, entries: [ReceiptEntry]) {
    #expect(CanonicalEntries.make(entries, catalog: Self.catalog) == nil, "\(name)")
  }

  @Test(
    arguments: [
      ("reversed", [entry("2", 6), entry("1", 5)]),
      ("a tie out of order", [entry("9", 5), entry("10", 5)]),
      ("no purchase date last", [entry("2", -5), entry("1", nil)]),
      // Entries with one instant and equal fields but their product: kept apart by their
      // printed fields.
      ("equal but the product", [entry("1", 5, product: 2), entry("1", 5, product: 1)]),
      // Equal entries keep their order.
      ("equal", [entry("1", 6), entry("1", 5), entry("1", 5)]),
    ] as [(String, [ReceiptEntry])])
  func outOfOrderEntriesAreSorted(name: String, entries: [ReceiptEntry]) {
    #expect(
      Self.arranged(entries) == entries.sorted(by: Deduplication.canonicallyPrecedes), "\(name)")
  }

  /// Seeded histories whose instants are spread evenly, clustered (buckets of many entries,
  /// sorted by comparison), tied, or far apart (one bucket per entry at most, many empty).
  @Test(arguments: [1, 2, 3] as [UInt64])
  func agreesWithSortingTheEntries(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let spreads: [(String, () -> Int64?)] = [
      ("even", { random.int64(in: 0...1_000_000) }),
      (
        "clustered",
        { random.chance(0.05) ? random.int64(in: 0...1 << 40) : random.int64(in: 0...40) }
      ),
      ("tied", { random.chance(0.02) ? nil : random.int64(in: -3...3) }),
      ("far apart", { random.chance(0.5) ? Int64.min / 2 : random.int64(in: 0...Int64.max / 2) }),
    ]
    for (name, purchase) in spreads {
      let count = Int(random.int64(in: 2...600))
      var entries = (0..<count).map { index in
        Self.entry(String(random.int64(in: 1...50_000)), purchase(), product: index % 3)
      }
      entries.shuffle(using: &random)
      let expected = entries.sorted(by: Deduplication.canonicallyPrecedes)
      if expected == entries {
        #expect(CanonicalEntries.make(entries, catalog: Self.catalog) == nil)
      } else {
        #expect(Self.arranged(entries) == expected, "seed \(seed), \(name)")
      }
    }
  }

  @Test func eachEntryKeepsItsFieldsAndProduct() throws {
    // Eleven products, p10 down to p0: the first eight listed ones met (p9...p2) take the
    // slots; p1 and p0 are listed beyond them, and p10 is not listed.
    let entries = (0...10).reversed().map { Self.entry(String(20 + $0), Int64($0), product: $0) }
    let canonical = try #require(CanonicalEntries.make(entries, catalog: Self.catalog))
    #expect(canonical.products.products.map(\.id) == (2...9).reversed().map { ProductID("p\($0)") })
    for arranged in canonical.entries {
      let entry = entries[Int(arranged.index)]
      #expect(arranged.fields.purchaseDate == entry.purchaseDate)
      #expect(arranged.fields.expiresDate == entry.expiresDate)
      #expect(arranged.fields.cancellationDate == entry.cancellationDate)
      #expect(arranged.fields.isTrialPeriod == entry.isTrialPeriod)
      #expect(arranged.fields.transactionNumber == entry.transactionNumber)
      #expect(arranged.fields.orderLineNumber == entry.orderLineNumber)
      if arranged.product == CanonicalEntries.Entry.unlisted {
        #expect(["p0", "p1", "p10"].contains(entry.productID.rawValue))
      } else {
        #expect(canonical.products.products[Int(arranged.product)].id == entry.productID)
      }
    }
  }
}
