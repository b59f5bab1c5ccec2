import EntitlementsTesting
import Testing

@testable import Entitlements

/// The canonical order's tie-break on transaction ids (SPEC §3), which the evaluator reads
/// from the ids' numbers when both are plain numbers, with no `String` made.
@Suite("Deduplication: canonical order")
struct DeduplicationTests {
  static let purchase = instant("2020-01-01")

  static func entry(_ id: String, purchase: Instant = purchase) -> ReceiptEntry {
    ReceiptEntry(
      productID: "monthly", transactionID: TransactionID(id), originalTransactionID: "1",
      purchaseDate: purchase, expiresDate: purchase + .days(30))
  }

  /// Entries bought at one instant are in `String` order of their ids, plain numbers or not,
  /// and equal ids go on to the other fields.
  @Test(arguments: [
    ("10", "9", true), ("9", "10", false), ("12", "120", true), ("120", "12", false),
    ("1000000318407192", "1000000318407193", true), ("99", "100", false),
    ("1x", "2", true), ("2", "1x", false), ("10", "1x", true), ("a", "b", true),
  ])
  func tiesOnThePurchaseInstantFollowTheIdsText(a: String, b: String, precedes: Bool) {
    #expect(Deduplication.canonicallyPrecedes(Self.entry(a), Self.entry(b)) == precedes)
    #expect(precedes == (a < b))
  }

  @Test func equalIdsGoOnToTheOtherFields() {
    var later = Self.entry("10")
    later.expiresDate = Self.purchase + .days(31)
    #expect(Deduplication.canonicallyPrecedes(Self.entry("10"), later))
    #expect(!Deduplication.canonicallyPrecedes(later, Self.entry("10")))
    #expect(!Deduplication.canonicallyPrecedes(Self.entry("10"), Self.entry("10")))
  }

  /// The one pass that proves entries in canonical order with increasing ids: at one purchase
  /// instant, "9" then "10" increase as numbers but are out of canonical order ("10" comes
  /// first in `String` order); "1" then "12" are in both orders.
  @Test func theProofOfOrderReadsTiesInStringOrder() {
    #expect(!Deduplication.idsIncrease([Self.entry("9"), Self.entry("10")], checkingOrder: true))
    #expect(Deduplication.idsIncrease([Self.entry("9"), Self.entry("10")], checkingOrder: false))
    #expect(Deduplication.idsIncrease([Self.entry("1"), Self.entry("12")], checkingOrder: true))
    let later = Self.entry("9", purchase: Self.purchase + .days(1))
    #expect(Deduplication.idsIncrease([Self.entry("1"), later], checkingOrder: true))
  }

  /// A shuffled history whose entries share one purchase instant is put in the ids' `String`
  /// order, as the tie-break says.
  @Test func aShuffledHistoryAtOneInstantIsInTheIdsTextOrder() {
    let ids = (1...300).map { String($0) }
    var random = SeededRandom(seed: 300)
    let entries = random.shuffled(ids.map { Self.entry($0) })
    let order = Deduplication.canonicalOrder(entries)?.map { entries[$0].transactionID.rawValue }
    #expect(order == ids.sorted())
  }
}
