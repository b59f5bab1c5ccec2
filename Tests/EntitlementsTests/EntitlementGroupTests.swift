import EntitlementsTesting
import Testing

@testable import Entitlements

/// The room an entitlement's group makes for its periods when the pass reads canonical
/// entries (an out-of-order history): one period per eight remaining entries for the first
/// group only. Made for every new group, it was quadratic in a history of many entitlements
/// (time and memory); the time is shown by the benchmark's shapes (README, "Performance").
@Suite("Entitlement groups")
struct EntitlementGroupTests {
  @Test(arguments: [false, true])
  func onlyTheFirstGroupOfAnOutOfOrderHistoryMakesRoomAtOnce(isShuffled: Bool) throws {
    // 20 subscriptions (no catalog: an entitlement each) of 40 monthly entries.
    let start = instant("2020-01-01")
    let inOrder = (0..<800).map { index in
      let from = start + .days(Int64(30 * (index / 20)))
      return ReceiptEntry(
        productID: "monthly", transactionID: TransactionID("\(1_000 + index)"),
        originalTransactionID: OriginalTransactionID("\(index % 20)"),
        purchaseDate: from + .minutes(Int64(index % 20)),
        expiresDate: from + .days(30) + .minutes(Int64(index % 20)))
    }
    var random = SeededRandom(seed: 800)
    let entries = isShuffled ? random.shuffled(inOrder) : inOrder
    let evaluator = Evaluator()
    let canonical = CanonicalEntries.make(entries, catalog: .empty, tracksSubscriptions: false)
    #expect((canonical != nil) == isShuffled)
    var result = Evaluator.Classification(minimumLapse: evaluator.policy.minimumLapse)
    #expect(
      evaluator.classify(
        entries, canonical: canonical, proving: nil, tracksSubscriptions: false, into: &result))
    if let currentID = result.currentID { result.groups[currentID] = result.current }
    #expect(result.groups.count == 20)
    // The group of the earliest purchase was made first.
    let limits = result.groups.map { ($0.key, $0.value.merger.spanLimit) }
    #expect(limits.filter { $0.1 != nil }.map(\.0) == (isShuffled ? ["0"] : []))
    #expect(result.groups["0"]?.merger.spanLimit == (isShuffled ? 100 : nil))
    // Every group still merged all of its periods as it went.
    #expect(result.groups.values.allSatisfy { $0.merger.isMerging })
  }
}
