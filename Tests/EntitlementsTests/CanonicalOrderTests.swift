import EntitlementsTesting
import Testing

@testable import Entitlements

/// The canonical order of long histories (a radix sort of purchase instant and index, ties put
/// in canonical order) agrees with a comparison sort by ``ReceiptEntry/canonicallyPrecedes``.
@Suite("Canonical order: the radix sort of long histories")
struct CanonicalOrderTests {
  /// Shuffled histories on both sides of the 64-entry threshold, with many entries bought at
  /// one instant (ids of 15 and 16 digits, whose text and number orders differ), with and
  /// without entries lacking a purchase date, and instants decades apart. The radix sort is
  /// also asked directly, at every size: it must answer, and agree.
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
      let radix = try #require(entries.withUnsafeBufferPointer(ReceiptEntry.radixOrder(of:)))
      for order in [ReceiptEntry.canonicalOrder(of: entries), radix] {
        // Ids are all different: the order of ids is the order of entries.
        #expect(
          order.map { entries[$0].transactionID } == expected.map { entries[$0].transactionID },
          "\(count) entries, 1 in \(undatedShare) undated")
        #expect(order.sorted() == Array(entries.indices), "each index once")
      }
    }
  }

  /// Instants thousands of years apart leave no room for the index in whole bytes: it takes
  /// the bits it needs, and the radix order still answers, as the comparison sort does.
  @Test func radixOrderOfAWideSpanKeepsTheIndexInFewerBits() throws {
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
    let radix = try #require(entries.withUnsafeBufferPointer(ReceiptEntry.radixOrder(of:)))
    #expect(radix == expected)
  }

  /// The radix sort agrees with the standard library's sort, keys with few varying bytes
  /// and keys with all of them.
  @Test(arguments: [UInt64(0xFF), 0xFFFF_FFFF, .max])
  func radixSortAgreesWithSort(mask: UInt64) {
    var random = SeededRandom(seed: mask)
    for count in [0, 1, 2, 100, 5_000] {
      var keys = (0..<count).map { _ in random.next(upperBound: .max) & mask }
      let expected = keys.sorted()
      keys.radixSort()
      #expect(keys == expected, "\(count) keys under \(mask)")
    }
  }

  /// Above its low bytes, the sort orders by the other bytes only and keeps the order of keys
  /// equal there: keys carrying their position in the low bytes come out by value, then
  /// position, with no pass over the position.
  @Test(arguments: [1, 2, 3])
  func radixSortAboveLowBytesIsStable(lowBytes: Int) {
    var random = SeededRandom(seed: UInt64(lowBytes))
    let shift = UInt64(8 * lowBytes)
    for count in [2, 100, 5_000] {
      // Few distinct values, so that many keys tie above the low bytes.
      // The low bytes count down, so that a sort that reads them reverses ties.
      var keys = (0..<count).map { position in
        random.next(upperBound: 50) << shift | (UInt64(count - position) & ((1 << shift) - 1))
      }
      let expected = keys.indices.sorted { a, b in
        keys[a] >> shift != keys[b] >> shift ? keys[a] >> shift < keys[b] >> shift : a < b
      }.map { keys[$0] }
      keys.radixSort(above: lowBytes)
      #expect(keys == expected, "\(count) keys above \(lowBytes) bytes")
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
