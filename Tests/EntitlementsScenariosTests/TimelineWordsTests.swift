import Entitlements
import Testing

@testable import EntitlementsScenarios

/// How a revocation is said, from Apple's type and percentage.
@Suite("Timeline words")
struct TimelineWordsTests {
  @Test(
    arguments: [
      (67742, "67.742 %"), (50000, "50 %"), (100_000, "100 %"), (0, "0 %"), (5, "0.005 %"),
      (12_340, "12.34 %"), (-1, "-1 thousandths of a percent"),
      (100_001, "100001 thousandths of a percent"),
    ])
  func percentages(milliunits: Int, words: String) {
    #expect(TimelineWords.percent(milliunits) == words)
  }

  @Test(
    arguments: [
      ("REFUND_PRORATED", 67742, nil, "refunded pro rata (67.742 %)"),
      ("REFUND_PRORATED", nil, nil, "refunded pro rata"),
      ("REFUND_FULL", 100_000, nil, "refunded in full"),
      ("FAMILY_REVOKE", nil, "FAMILY_SHARED", "revoked: family sharing stopped"),
      ("ASSIGNMENT_REVOKE", nil, nil, "revoked (ASSIGNMENT_REVOKE)"),
      (nil, nil, "FAMILY_SHARED", "revoked"),
      (nil, nil, nil, "refunded"),
    ] as [(String?, Int?, String?, String)])
  func revocations(type: String?, percentage: Int?, ownership: String?, words: String) {
    let entry = ReceiptEntry(
      productID: "p", transactionID: "1", purchaseDate: Instant(millisecondsSince1970: 0),
      cancellationDate: Instant(millisecondsSince1970: 1), rawInAppOwnershipType: ownership,
      rawRevocationType: type, revocationPercentage: percentage)
    #expect(TimelineWords.revocation(of: entry) == words)
  }
}
