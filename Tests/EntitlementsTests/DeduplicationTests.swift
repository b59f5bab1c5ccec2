import EntitlementsTesting
import Testing

@testable import Entitlements

/// One record per purchase, in canonical order (SPEC §3).
@Suite("Deduplication: one record per purchase, in canonical order")
struct DeduplicationTests {
  static let purchase = instant("2020-01-01")

  static func entry(
    _ id: String, purchase: Instant = purchase, webOrder: String? = nil,
    cancelled: Instant? = nil
  ) -> ReceiptEntry {
    ReceiptEntry(
      productID: "monthly", transactionID: TransactionID(id), originalTransactionID: "1",
      webOrderLineItemID: webOrder.map(WebOrderLineItemID.init(rawValue:)),
      purchaseDate: purchase, expiresDate: purchase + .days(30), cancellationDate: cancelled)
  }

  /// Entries bought at one instant are in `String` order of their ids, plain numbers or not,
  /// and equal ids go on to the other fields.
  @Test(arguments: [
    ("10", "9", true), ("9", "10", false), ("12", "120", true), ("120", "12", false),
    ("1000000318407192", "1000000318407193", true), ("99", "100", false),
    ("1x", "2", true), ("2", "1x", false), ("10", "1x", true), ("a", "b", true),
  ])
  func tiesOnThePurchaseInstantFollowTheIdsText(a: String, b: String, precedes: Bool) {
    #expect(ReceiptEntry.canonicallyPrecedes(Self.entry(a), Self.entry(b)) == precedes)
    #expect(precedes == (a < b))
  }

  /// Two records of one transaction bought at one instant are ordered by the fields after the
  /// id, in the documented order; an entry never precedes itself.
  @Test func equalIdsGoOnToTheOtherFields() {
    var later = Self.entry("10")
    later.expiresDate = Self.purchase + .days(31)
    #expect(ReceiptEntry.canonicallyPrecedes(Self.entry("10"), later))
    #expect(!ReceiptEntry.canonicallyPrecedes(later, Self.entry("10")))
    #expect(!ReceiptEntry.canonicallyPrecedes(Self.entry("10"), Self.entry("10")))
    // The cancellation comes before the expiry: a record with one comes first.
    let refunded = Self.entry("10", cancelled: Self.purchase + .days(2))
    #expect(ReceiptEntry.canonicallyPrecedes(refunded, later))
    // Fields further down the order: ownership, then the offer code.
    var shared = Self.entry("10")
    shared.rawInAppOwnershipType = "FAMILY_SHARED"
    var offered = Self.entry("10")
    offered.offerCodeRefName = "SPRING"
    #expect(ReceiptEntry.canonicallyPrecedes(Self.entry("10"), shared))
    #expect(ReceiptEntry.canonicallyPrecedes(offered, shared))
    #expect(!ReceiptEntry.canonicallyPrecedes(shared, offered))
  }

  /// The one pass that proves entries in canonical order with increasing ids: at one purchase
  /// instant, "9" then "10" increase as numbers but are out of canonical order ("10" comes
  /// first in `String` order); "1" then "12" are in both orders.
  @Test func theProofOfOrderReadsTiesInStringOrder() {
    func proves(_ entries: [ReceiptEntry]) -> Bool {
      entries.withUnsafeBufferPointer {
        Deduplication.isCanonicalAndUnique($0)
      }
    }
    #expect(!proves([Self.entry("9"), Self.entry("10")]))
    #expect(proves([Self.entry("1"), Self.entry("12")]))
    #expect(proves([Self.entry("1"), Self.entry("9", purchase: Self.purchase + .days(1))]))
    // In order, but the order lines do not increase: not proved.
    #expect(!proves([Self.entry("1", webOrder: "20"), Self.entry("2", webOrder: "10")]))
  }

  /// A shuffled history whose entries share one purchase instant is put in the ids' `String`
  /// order, as the tie-break says.
  @Test func aShuffledHistoryAtOneInstantIsInTheIdsTextOrder() {
    let ids = (1...300).map { String($0) }
    var random = SeededRandom(seed: 300)
    let entries = random.shuffled(ids.map { Self.entry($0) })
    let order = Deduplication.purchases(entries).order?.map { entries[$0].transactionID.rawValue }
    #expect(order == ids.sorted())
  }

  /// Records of one purchase count once, by transaction id or by order line; the one with a
  /// cancellation is kept, whichever comes first.
  @Test(arguments: [false, true])
  func duplicatesCountOnceAndTheCancellationIsKept(reversed: Bool) throws {
    let cancelled = Self.purchase + .days(3)
    var entries = [
      Self.entry("1", webOrder: "100"), Self.entry("1", webOrder: "100", cancelled: cancelled),
      Self.entry("2", purchase: Self.purchase + .days(30), webOrder: "101"),
      Self.entry("3", purchase: Self.purchase + .days(30), webOrder: "101"),
    ]
    if reversed { entries.reverse() }
    let order = try #require(Deduplication.purchases(entries).order)
    #expect(order.map { entries[$0].cancellationDate } == [cancelled, nil])
    #expect(order.map { entries[$0].transactionID } == ["1", "2"])
    #expect(Deduplication.purchases(entries).diagnostics.isEmpty)
  }

  /// Records of one purchase that disagree on a date are reported, and one is kept.
  @Test func conflictingRecordsAreReported() {
    let entries = [Self.entry("1"), Self.entry("1", purchase: Self.purchase + .days(1))]
    let purchases = Deduplication.purchases(entries)
    #expect(purchases.order == [0])
    #expect(purchases.diagnostics.map(\.kind) == [.conflictingDuplicate])
  }

  /// Two subscriptions renewing in turn: the history is in canonical order though its ids do
  /// not increase. It is kept in its own order (no sort), and the same entries shuffled come
  /// out in that order; entries of one instant out of `String` order are not in canonical
  /// order.
  @Test func aHistoryInCanonicalOrderWithIdsThatDoNotIncreaseIsKeptAsItIs() {
    let start = Self.purchase
    let entries = [
      Self.entry("1000000000000100", purchase: start, webOrder: "2000000000000100"),
      Self.entry("1000000000000200", purchase: start + .days(1), webOrder: "2000000000000200"),
      Self.entry("1000000000000101", purchase: start + .days(30), webOrder: "2000000000000101"),
      Self.entry("1000000000000201", purchase: start + .days(31), webOrder: "2000000000000201"),
    ]
    entries.withUnsafeBufferPointer {
      #expect(!Deduplication.isCanonicalAndUnique($0))
      #expect(Deduplication.isInCanonicalOrder($0))
    }
    let kept = Deduplication.purchases(entries)
    #expect(kept.order == nil)
    #expect(kept.diagnostics.isEmpty)
    let shuffled = [entries[2], entries[0], entries[3], entries[1]]
    #expect(Deduplication.purchases(shuffled).order == [1, 3, 0, 2])
    // At one instant, "9" comes after "10" in `String` order.
    let tie = [Self.entry("9"), Self.entry("10")]
    tie.withUnsafeBufferPointer { #expect(!Deduplication.isInCanonicalOrder($0)) }
    #expect(Deduplication.purchases(tie).order == [1, 0])
  }
}
