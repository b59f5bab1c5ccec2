import EntitlementsTesting
import Testing

@testable import Entitlements

/// The duplicate-detection table: the same answers as `Set`, and bounded work.
@Suite("Identifier table")
struct IdentifierTableTests {
  /// Random ids with repeats: the table says "new" exactly when `Set.insert` does.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func agreesWithSet(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let ids = (0..<2000).map { _ in String(random.int64(in: 0...1500)) + "-id" }
    let count = ids.count
    var reference = Set<String>()
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: IdentifierTable.capacity(for: count)) {
      memory in
      var table = IdentifierTable(memory: memory, count: count)
      for index in ids.indices {
        let answer = table.insert(ids[index], index: index, key: { ids[$0] })
        #expect(answer == reference.insert(ids[index]).inserted, "seed \(seed) index \(index)")
      }
    }
  }

  /// Past its probe budget the table gives up instead of probing on: here a table sized for
  /// no ids receives more ids than it has slots.
  @Test func givesUpPastItsProbeBudget() {
    let ids = (0..<100).map { "id\($0)" }
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: IdentifierTable.capacity(for: 0)) {
      memory in
      var table = IdentifierTable(memory: memory, count: 0)
      var gaveUp = false
      for index in ids.indices {
        guard let inserted = table.insert(ids[index], index: index, key: { ids[$0] }) else {
          gaveUp = true
          break
        }
        #expect(inserted)
      }
      #expect(gaveUp)
    }
  }

  /// Whichever way duplicates are found, evaluation reports them the same.
  @Test func duplicatesAreFoundBothWays() {
    let entries = (0..<40).map { index in
      ReceiptEntry(
        productID: "p", transactionID: TransactionID("t\(index % 39)"),
        purchaseDate: Instant(millisecondsSince1970: Int64(index) * 1000),
        expiresDate: Instant(millisecondsSince1970: Int64(index) * 1000 + 500))
    }
    #expect(!Deduplication.isUniqueBySet(entries))
    #expect(Deduplication.deduplicate(entries).entries.count == 39)
    #expect(Deduplication.isUniqueBySet(Array(entries.prefix(39))))
    #expect(Deduplication.deduplicate(Array(entries.prefix(39))).entries.count == 39)
  }
}

/// Ids that strictly increase in canonical order prove uniqueness without a table; anything
/// else goes to the table, which still finds every duplicate.
@Suite("Increasing ids")
struct IncreasingIDsTests {
  /// (transaction id, order line, has expires_date) per entry, in purchase order.
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var ids: [(String, String, Bool)]
    var increase: Bool
    var kept: Int
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "both increase", ids: [("t1", "w1", true), ("t2", "w2", true), ("t3", "w3", true)],
      increase: true, kept: 3),
    Case(
      name: "transaction ids fall, all unique",
      ids: [("t3", "w1", true), ("t2", "w2", true), ("t1", "w3", true)], increase: false,
      kept: 3),
    Case(
      name: "order lines fall, all unique",
      ids: [("t1", "w3", true), ("t2", "w2", true), ("t3", "w1", true)], increase: false,
      kept: 3),
    Case(
      name: "a transaction id repeats later",
      ids: [("t1", "w1", true), ("t2", "w2", true), ("t1", "w3", true)], increase: false,
      kept: 2),
    Case(
      name: "an order line repeats (restore)",
      ids: [("t1", "w1", true), ("t2", "w2", true), ("t3", "w2", true)], increase: false,
      kept: 2),
    Case(
      name: "order lines of entries without expires_date do not count",
      ids: [("t1", "w1", false), ("t2", "w1", false)], increase: true, kept: 2),
    Case(
      name: "order line 0 does not count",
      ids: [("t1", "0", true), ("t2", "0", true)], increase: true, kept: 2),
    // Apple's ids are plain numbers: compared as numbers, not as strings.
    Case(
      name: "plain numbers increase by value",
      ids: [("9", "9", true), ("10", "10", true), ("11", "11", true)], increase: true, kept: 3),
    Case(
      name: "a plain order line repeats",
      ids: [("1", "100", true), ("2", "100", true)], increase: false, kept: 1),
    // Plain numbers come before other ids, whatever their strings: mixing the two orders
    // would let 9 < 10 < "1x" < "9" pass with 9 twice.
    Case(
      name: "a plain id repeats after text",
      ids: [("9", "w1", true), ("10", "w2", true), ("1x", "w3", true), ("9", "w4", true)],
      increase: false, kept: 3),
    Case(
      name: "text before a plain number",
      ids: [("1x", "w1", true), ("2", "w2", true)], increase: false, kept: 2),
    Case(
      name: "a leading zero is text, not the same number",
      ids: [("7", "w1", true), ("07", "w2", true)], increase: true, kept: 2),
  ]

  @Test(arguments: cases)
  func shortcutAndTableAgree(_ testCase: Case) {
    let entries = testCase.ids.enumerated().map { index, ids in
      let purchase = Instant(millisecondsSince1970: Int64(index) * 1000)
      return ReceiptEntry(
        productID: "p", transactionID: TransactionID(ids.0),
        webOrderLineItemID: WebOrderLineItemID(ids.1), purchaseDate: purchase,
        expiresDate: ids.2 ? purchase + .milliseconds(500) : nil)
    }
    #expect(Deduplication.idsIncrease(entries) == testCase.increase)
    #expect(Deduplication.isUnique(entries) == (testCase.kept == entries.count))
    #expect(Deduplication.isUniqueBySet(entries) == (testCase.kept == entries.count))
    #expect(Deduplication.deduplicate(entries).entries.count == testCase.kept)
  }

  /// Canonical order breaks a tie on the date by the ids' strings, where "10" comes before
  /// "9": the numbers prove the ids unique, but not that such entries are in order.
  @Test func tiesOnTheDateFollowTheStringsNotTheNumbers() {
    let entries = ["9", "10"].map { id in
      ReceiptEntry(
        productID: "p", transactionID: TransactionID(id),
        purchaseDate: Instant(millisecondsSince1970: 1000),
        expiresDate: Instant(millisecondsSince1970: 1500))
    }
    #expect(Deduplication.idsIncrease(entries))
    #expect(!Deduplication.idsIncrease(entries, checkingOrder: true))
    #expect(Deduplication.deduplicate(entries).sorted.map(\.transactionID) == ["10", "9"])
  }

  /// Checking the order too, one pass accepts only entries in canonical order: dates never
  /// decrease, and on equal dates transaction ids increase. Anything else is sorted first.
  @Test(
    arguments: [
      ([0, 1, 2], true), ([0, 0, 1], true), ([2, 1, 0], false), ([0, 2, 1], false),
    ] as [([Int64], Bool)])
  func checkingTheOrderToo(dates: [Int64], inOrder: Bool) {
    let entries = dates.enumerated().map { index, date in
      ReceiptEntry(
        productID: "p", transactionID: TransactionID("t\(index)"),
        purchaseDate: Instant(millisecondsSince1970: date * 1000),
        expiresDate: Instant(millisecondsSince1970: date * 1000 + 500))
    }
    #expect(Deduplication.idsIncrease(entries))
    #expect(Deduplication.idsIncrease(entries, checkingOrder: true) == inOrder)
    let result = Deduplication.deduplicate(entries).sorted
    #expect(result == entries.sorted(by: Deduplication.canonicallyPrecedes))
    #expect(
      result.map(\.purchaseDate)
        == result.map(\.purchaseDate).sorted { ($0 ?? .distantPast) < ($1 ?? .distantPast) })
  }
}

extension Deduplication.Result where Order == [Int] {
  /// The records in canonical order, for the tests to compare.
  fileprivate var sorted: [ReceiptEntry] { order.map { $0.map { entries[$0] } } ?? entries }
}
