import EntitlementsTesting
import Testing

@testable import Entitlements

/// The canonical order of long histories (a bucket sort of purchase instant and index, ties put
/// in canonical order) agrees with a comparison sort by ``ReceiptEntry/canonicallyPrecedes``.
@Suite("Canonical order: the bucket sort of long histories")
struct CanonicalOrderTests {
  /// Shuffled histories on both sides of the 64-entry threshold, with many entries bought at
  /// one instant (ids of 15 and 16 digits, whose text and number orders differ), with and
  /// without entries lacking a purchase date, and instants decades apart. The instant order
  /// (the bucket sort's) is also asked directly, at every size: it must answer, and agree.
  @Test(arguments: [1 as UInt64, 2, 3, 4, 5, 6, 7, 8])
  func agreesWithAComparisonSort(seed: UInt64) throws {
    print("CanonicalOrderTests seed \(seed)")
    var random = SeededRandom(seed: seed)
    let base = Instant(millisecondsSince1970: 1_600_000_000_000)
    for (count, undatedShare) in [10, 63, 64, 65, 300, 2_000].flatMap({ [($0, 0), ($0, 20)] }) {
      var entries: [ReceiptEntry] = []
      for index in 0..<count {
        // About one entry in four shares an instant with others; a few have none.
        let slot = Int64(random.next(upperBound: UInt64(max(count / 4, 1))))
        let purchase: Instant? =
          undatedShare > 0 && random.next(upperBound: UInt64(undatedShare)) == 0
          ? nil : base + .days(slot * 3_000 / Int64(count) * 7)
        let first: Int =
          random.next(upperBound: UInt64(2)) == 0 ? 100_000_000_000_000 : 1_000_000_000_000_000
        let id = String(first + index * 7)
        entries.append(
          ReceiptEntry(
            productID: "com.example.monthly", transactionID: TransactionID(id),
            originalTransactionID: "1000000000000001", purchaseDate: purchase,
            expiresDate: purchase.map { $0 + .days(30) }))
      }
      let expected = entries.indices.sorted {
        ReceiptEntry.canonicallyPrecedes(entries[$0], entries[$1])
      }
      let byInstant = try #require(entries.withUnsafeBufferPointer(ReceiptEntry.instantOrder(of:)))
      for order in [ReceiptEntry.canonicalOrder(of: entries), byInstant] {
        // Ids are all different: the order of ids is the order of entries.
        #expect(
          order.map { entries[$0].transactionID } == expected.map { entries[$0].transactionID },
          "\(count) entries, 1 in \(undatedShare) undated")
        #expect(order.sorted() == Array(entries.indices), "each index once")
      }
    }
  }

  /// Instants thousands of years apart still leave room for the index beside them: the
  /// instant order answers, as the comparison sort does.
  @Test func instantOrderOfAWideSpanAnswers() throws {
    let step = Int64(1) << 47  // about 4 460 years
    let entries = (0..<300).map { index in
      let purchase = Instant(millisecondsSince1970: Int64(index % 7) * step - 3 * step)
      return ReceiptEntry(
        productID: "com.example.monthly", transactionID: TransactionID(String(1_000_000 + index)),
        originalTransactionID: "1000000000000001", purchaseDate: purchase,
        expiresDate: purchase + .days(30))
    }
    let expected = entries.indices.sorted {
      ReceiptEntry.canonicallyPrecedes(entries[$0], entries[$1])
    }
    let byInstant = try #require(entries.withUnsafeBufferPointer(ReceiptEntry.instantOrder(of:)))
    #expect(byInstant == expected)
  }

  /// The widest span the key holds beside the index answers; one millisecond more does not,
  /// and the canonical order then comes from the comparison sort. 100 entries take 7 bits of
  /// index, which leaves 57 for the span.
  @Test(arguments: [(Int64(1) << 57) - 1, Int64(1) << 57])
  func instantOrderAnswersUpToTheWidestSpan(span: Int64) throws {
    let entries = (0..<100).map { index in
      // The first entry at the start of the span, the last at its end, the rest between.
      let offset = index == 99 ? span : Int64(index) * (span / 100)
      let purchase = Instant(millisecondsSince1970: offset - (Int64(1) << 56))
      return ReceiptEntry(
        productID: "com.example.monthly", transactionID: TransactionID(String(5_000 - index)),
        originalTransactionID: "1000000000000001", purchaseDate: purchase,
        expiresDate: purchase + .days(30))
    }.reversed().map { $0 }
    let expected = entries.indices.sorted {
      ReceiptEntry.canonicallyPrecedes(entries[$0], entries[$1])
    }
    let byInstant = entries.withUnsafeBufferPointer(ReceiptEntry.instantOrder(of:))
    if span < Int64(1) << 57 {
      #expect(byInstant == expected)
    } else {
      #expect(byInstant == nil)
    }
    #expect(ReceiptEntry.canonicalOrder(of: entries) == expected)
  }

  /// Entries bought at `Instant.distantPast` tie with an undated one, which counts as bought
  /// then, and all are ordered by id: the undated one (id 99) after those of ids 11 to 79, not
  /// first. (With an entry of any other date beside them, the span is too wide for the key.)
  @Test func entriesBoughtAtTheDistantPastTieWithUndatedOnes() throws {
    let entries = (0..<70).map { index -> ReceiptEntry in
      let id: Int = index == 0 ? 99 : 10 + index
      let purchase: Instant? = index == 0 ? nil : .distantPast
      return ReceiptEntry(
        productID: "com.example.monthly", transactionID: TransactionID(String(id)),
        originalTransactionID: "1000000000000001", purchaseDate: purchase)
    }
    let expected = entries.indices.sorted {
      ReceiptEntry.canonicallyPrecedes(entries[$0], entries[$1])
    }
    #expect(entries.withUnsafeBufferPointer(ReceiptEntry.instantOrder(of:)) == nil)
    #expect(ReceiptEntry.canonicalOrder(of: entries) == expected)
    #expect(expected == Array(1..<70) + [0])
  }

  /// The bucket sort agrees with the standard library's sort on keys spread evenly, keys
  /// crowded into a few buckets by one far key (each crowded bucket sorted by comparison, past
  /// 16 keys), keys repeated, and keys spanning all 64 bits.
  @Test(arguments: ["spread", "crowded", "repeated", "full width"])
  func bucketSortAgreesWithSort(shape: String) {
    let seed = UInt64(shape.utf8.count)
    print("bucketSortAgreesWithSort seed \(seed)")
    var random = SeededRandom(seed: seed)
    for count in [0, 1, 2, 17, 100, 5_000] {
      var keys: [UInt64] = (0..<count).map { _ in
        switch shape {
        case "spread": random.next(upperBound: 1 << 40)
        case "crowded": 1_000_000 + random.next(upperBound: 1_000)
        case "repeated": random.next(upperBound: 3) << 20
        default: random.next(upperBound: .max) | (random.next(upperBound: 2) << 63)
        }
      }
      if shape == "crowded", count > 1 { keys[count / 2] = 1 << 50 }
      let expected = keys.sorted()
      keys.bucketSort()
      let agrees = keys == expected
      #expect(agrees, "\(count) keys, \(shape)")
    }
  }

  /// Text equality from bytes gives `==`'s answer: equal bytes, different ASCII, and
  /// canonically equivalent texts with different bytes.
  @Test(arguments: [
    ("com.example.monthly", "com.example.monthly"), ("com.example.monthly", "com.example.yearly"),
    // Made at run time: separate storage, equal or differing in the last bytes.
    (String(repeating: "com.example.", count: 2) + "monthly", "com.example.com.example.monthly"),
    ("com.example." + String(repeating: "z", count: 7), "com.example.zzzzzzy"),
    ("1000000000000001" + String(1), "10000000000000011"),
    ("", ""), ("a", ""), ("\u{212A}", "K"), ("caf\u{E9}", "cafe\u{301}"), ("é", "e"),
    ("1000000000000001", "1000000000000002"),
  ])
  func textEqualityIsStringEquality(a: String, b: String) {
    #expect(a.isSameText(as: b) == (a == b))
    #expect(b.isSameText(as: a) == (a == b))
  }
}
