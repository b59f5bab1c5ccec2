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
