import Testing

@testable import Entitlements

/// The subscriptions the evaluator's pass meets, each in a slot (issue: performance).
@Suite("Known subscriptions")
struct KnownSubscriptionsTests {
  /// An entry of subscription `original`, in a string of its own (16 bytes or more are stored
  /// apart, so equal ids in two such strings differ in their bytes).
  static func entry(_ original: String) -> ReceiptEntry {
    ReceiptEntry(
      productID: "monthly", transactionID: "1",
      originalTransactionID: OriginalTransactionID(
        String(decoding: Array(original.utf8), as: UTF8.self)), purchaseDate: nil)
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// Each entry's subscription, by a letter.
    var subscriptions: String
    /// The slot each entry gets; `nil` for ``KnownSubscriptions/unlisted``.
    var slots: [Int?]
    var isComplete = true
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    .init(name: "none", subscriptions: "", slots: []),
    .init(name: "one", subscriptions: "aaaa", slots: [0, 0, 0, 0]),
    .init(name: "alternating", subscriptions: "abab", slots: [0, 1, 0, 1]),
    .init(name: "back to the first", subscriptions: "abcca", slots: [0, 1, 2, 2, 0]),
    .init(
      name: "eight", subscriptions: "abcdefgha", slots: [0, 1, 2, 3, 4, 5, 6, 7, 0]),
    .init(
      name: "a ninth is unlisted, the first eight keep their slots",
      subscriptions: "abcdefghiai", slots: [0, 1, 2, 3, 4, 5, 6, 7, nil, 0, nil],
      isComplete: false),
  ]

  /// Every entry's id in a string of its own: each slot is found by text, then by the bytes
  /// it took.
  @Test(arguments: cases)
  func eachSubscriptionHasOneSlot(_ test: Case) {
    let entries = test.subscriptions.map { Self.entry("100000000000000\($0)") }
    var known = KnownSubscriptions()
    let slots = entries.withUnsafeBufferPointer { buffer in
      buffer.indices.map { index -> Int? in
        let slot = known.slot(of: index, in: buffer)
        return slot == KnownSubscriptions.unlisted ? nil : Int(slot)
      }
    }
    #expect(slots == test.slots)
    #expect(known.isComplete == test.isComplete)
    #expect(known.count == Set(test.slots.compactMap { $0 }).count)
    for (index, slot) in slots.enumerated() {
      #expect(known.contains(entries[index].originalTransactionID, in: entries) == (slot != nil))
      guard let slot else { continue }
      #expect(known.id(at: slot, in: entries) == entries[index].originalTransactionID)
    }
    #expect(!known.contains("100000000000000z", in: entries))
  }
}
