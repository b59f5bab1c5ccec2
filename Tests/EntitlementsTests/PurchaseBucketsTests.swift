import EntitlementsTesting
import Testing

@testable import Entitlements

/// The one sort of out-of-order entries, through both its users (the indices of
/// `Deduplication.canonicalOrder` and the evaluator's `CanonicalEntries`): the same order as
/// sorting the entries themselves, whatever the spread of their purchase instants.
@Suite("Purchase buckets")
struct PurchaseBucketsTests {
  typealias Fixture = CanonicalEntriesTests

  static func entry(_ id: String, _ purchase: Int64?, product: Int = 0) -> ReceiptEntry {
    Fixture.entry(id, purchase, product: product)
  }

  /// The entries in the order each user gives; `nil` when it says they are in order.
  static func arranged(_ entries: [ReceiptEntry]) -> [[ReceiptEntry]?] {
    [
      Deduplication.canonicalOrder(entries)?.map { entries[$0] },
      CanonicalEntries.make(entries, catalog: Fixture.catalog, tracksSubscriptions: true)?
        .entries(of: entries).map { entries[Int($0.index)] },
    ]
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
    #expect(Self.arranged(entries) == [nil, nil], "\(name)")
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
    let expected = entries.sorted(by: Deduplication.canonicallyPrecedes)
    #expect(Self.arranged(entries) == [expected, expected], "\(name)")
  }

  /// How a seeded history's purchase instants are spread.
  enum Spread: String, CaseIterable {
    /// About one entry per bucket.
    case even
    /// Buckets of many entries, sorted by comparison.
    case clustered
    /// A few instants, and entries with none.
    case tied
    /// Instants about 2⁶² ms apart: one bucket per entry at most, many empty.
    case farApart
    /// Instants at both ends of time: a bucket's width reaches past the largest key.
    case endsOfTime
    /// A few extremes far outside the instants of the rest, which a sample misses.
    case outliers

    /// An entry's purchase instant (ms; `nil` for none).
    func instant(_ random: inout SeededRandom) -> Int64? {
      switch self {
      case .even: random.int64(in: 0...1_000_000)
      case .clustered:
        random.chance(0.05) ? random.int64(in: 0...1 << 40) : random.int64(in: 0...40)
      case .tied: random.chance(0.02) ? nil : random.int64(in: -3...3)
      case .farApart: random.chance(0.5) ? Int64.min / 2 : random.int64(in: 0...Int64.max / 2)
      case .endsOfTime:
        random.chance(0.5)
          ? Int64.min + random.int64(in: 0...1_000)
          : Int64.max - 2_000 - random.int64(in: 0...1_000)
      case .outliers:
        random.chance(0.01)
          ? random.int64(in: -1 << 50...(1 << 50)) : random.int64(in: 0...10_000)
      }
    }

    /// Up to `limit` shuffled entries of three products, with instants spread so.
    func entries(_ random: inout SeededRandom, limit: Int) -> [ReceiptEntry] {
      let count = Int(random.int64(in: 2...Int64(limit)))
      var entries = (0..<count).map { index in
        PurchaseBucketsTests.entry(
          String(random.int64(in: 1...50_000)), instant(&random), product: index % 3)
      }
      entries.shuffle(using: &random)
      return entries
    }
  }

  /// Seeded histories of every spread, through both users.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func agreesWithSortingTheEntries(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    for spread in Spread.allCases {
      let entries = spread.entries(&random, limit: 600)
      let expected = entries.sorted(by: Deduplication.canonicallyPrecedes)
      let either: [ReceiptEntry]? = expected == entries ? nil : expected
      #expect(Self.arranged(entries) == [either, either], "seed \(seed), \(spread)")
    }
  }
}

/// The buckets themselves, in small shapes: many buckets of a few values, chains of blocks as
/// short as one value, and ranges from samples that miss most of the instants (which then go
/// to the first or the last bucket). The standard shape has one bucket below 32 768 entries.
@Suite("Purchase buckets, shapes")
struct PurchaseBucketsShapeTests {
  struct Keyed: PurchaseOrdered {
    let purchaseKey: UInt64
    let entryIndex: Int
  }

  static let shapes: [PurchaseBuckets<Keyed>.Shape] = [
    .init(bucketSize: 4, blockShift: 1, sampleSize: 3),
    .init(bucketSize: 2, blockShift: 0, sampleSize: 1_000),
    .init(bucketSize: 16, blockShift: 2, sampleSize: 1),
    .init(bucketSize: 64, blockShift: 10, sampleSize: 8),
  ]

  /// The indices of `entries` in the order the buckets give; `nil` when they say the entries
  /// are in order.
  static func order(_ entries: [ReceiptEntry], _ shape: PurchaseBuckets<Keyed>.Shape) -> [Int]? {
    let buckets = entries.withUnsafeBufferPointer { entries in
      PurchaseBuckets(entries, shape: shape) { index, key in
        Keyed(purchaseKey: key, entryIndex: index)
      }
    }
    return buckets?.values(of: entries).map(\.entryIndex)
  }

  @Test(arguments: 0..<4, [4, 5, 6] as [UInt64])
  func agreesWithSortingTheEntries(shape: Int, seed: UInt64) {
    var random = SeededRandom(seed: seed)
    for spread in PurchaseBucketsTests.Spread.allCases {
      let entries = spread.entries(&random, limit: 700)
      let expected = entries.indices.sorted {
        Deduplication.canonicallyPrecedes(entries[$0], entries[$1])
          || (!Deduplication.canonicallyPrecedes(entries[$1], entries[$0]) && $0 < $1)
      }
      let either = expected == Array(entries.indices) ? nil : expected
      #expect(
        Self.order(entries, Self.shapes[shape]) == either,
        "shape \(shape), seed \(seed), \(spread), \(entries.count) entries")
    }
  }

  /// Entries in order: `nil`, in every shape, even when the buckets would hold them.
  @Test(arguments: 0..<4)
  func entriesInOrderNeedNone(shape: Int) {
    let entries = (0..<300).map {
      PurchaseBucketsTests.entry(String(1000 + $0), Int64($0 / 2))
    }
    #expect(Self.order(entries, Self.shapes[shape]) == nil)
  }
}

/// A history large enough for its block of canonical values to be advised huge pages
/// (`HugePages`): the values are the same and in the same order as for any other size.
@Suite("Purchase buckets, huge block")
struct PurchaseBucketsHugeBlockTests {
  @Test func aHistoryWhoseBlockIsAdvisedIsArrangedInOrder() throws {
    let count = HugePages.threshold / MemoryLayout<CanonicalEntries.Entry>.stride
    // Distinct instants, shuffled: the order is that of the instants alone.
    let product = ProductID("p1")
    let subscription = OriginalTransactionID("o1")
    var instants = (0..<Int64(count)).map { $0 * 7 }
    var random = SeededRandom(seed: 11)
    instants.shuffle(using: &random)
    let entries = instants.map { instant in
      ReceiptEntry(
        productID: product, transactionID: TransactionID(String(instant + 1)),
        originalTransactionID: subscription,
        purchaseDate: Instant(millisecondsSince1970: instant),
        expiresDate: Instant(millisecondsSince1970: instant + 7))
    }
    let canonical = try #require(
      CanonicalEntries.make(
        entries, catalog: CanonicalEntriesTests.catalog, tracksSubscriptions: true))
    #expect(canonical.buckets.byteCount >= HugePages.threshold, "the block is advised")
    let arranged = canonical.entries(of: entries)
    let order = arranged.map { instants[Int($0.index)] }
    #expect(order == (0..<Int64(count)).map { $0 * 7 })
    #expect(
      arranged.allSatisfy {
        $0.fields.expiresDate?.millisecondsSince1970 == instants[Int($0.index)] + 7
      })
  }
}
