import Entitlements
import Testing

extension RealDocuments {
  /// The duration tables of SPEC §7 against real sandbox histories.
  @Suite("Sandbox durations of real histories (SPEC §7)")
  struct RealSandboxDurationsTests {
    typealias FixtureCase = SandboxDurationsTests.FixtureCase
    static let month = SandboxDurationsTests.month
    static let week = SandboxDurationsTests.week
    static let year = SandboxDurationsTests.year

    /// Real sandbox histories (shared/fixtures/MANIFEST.txt). 2016–2020 data follows the guide's
    /// table; 2025 data the 3-minute rate.
    static let fixtureCases: [FixtureCase] = [
      .init(
        file: "verifyreceipt_v1/dollabill-apple__subscription_renewed.json", profile: .guide,
        expected: ["test_subscription": [week: 14], "test_sub2": [month: 2]]),
      .init(
        file: "verifyreceipt_v1/itunes-iap__autorenew_response2_middleage.json", profile: .guide,
        expected: ["testproduct": [month: 31]]),
      .init(
        file: "notifications_v1/monza__renewal_with_unified_receipt_RENEWAL.json",
        profile: .guide, expected: ["product_id.monthly": [month: 22]]),
      .init(
        file:
          "notifications_v1/imdhemy-appstore-iap__server-notification_DID_CHANGE_RENEWAL_STATUS.json",
        profile: .guide,
        expected: ["one_month_subscription": [month: 48], "one_year_subscription": [year: 6]]),
      // One one_year entry lasts 5 minutes: a cross-grade cut in the capture; the table reads it
      // as a month, which is what its length stands for.
      .init(
        file: "verifyreceipt_v1/imdhemy-appstore-iap__verify_receipt_response.json",
        profile: .guide,
        expected: [
          "one_month_subscription": [month: 37], "one_year_subscription": [year: 5, month: 1],
        ]),
      // Two 4-minute entries (an introductory period) stand for no row of the table.
      .init(
        file:
          "local_receipts/TPInAppReceipt__receipt-sandbox-legacy.DECODED_by_apple-purchase-receipt-verifier.json",
        profile: .guide,
        expected: [
          "com.nutcallalert.inapp.lite": [month: 32],
          "com.nutcallalert.inapp.optimum": [month: 115, .noMatch: 1],
          "com.nutcallalert.inapp.pro": [month: 39],
        ]),
      .init(
        file: "jws_v2/session-pro-backend__sandbox_v2_notification_sequences.json",
        profile: .renewalRate(.threeMinutes),
        expected: [
          "com.getsession.org.pro_sub": [.ambiguous([.init(1, .week), .init(1, .month)]): 12],
          "com.getsession.org.pro_sub_3_months": [.recognized(.init(3, .month)): 2],
        ]),
      // The same 2025 data read with the guide's table: the 9-minute entries match nothing,
      // which is why the profile is a policy.
      .init(
        file: "jws_v2/session-pro-backend__sandbox_v2_notification_sequences.json",
        profile: .guide,
        expected: [
          "com.getsession.org.pro_sub": [week: 12],
          "com.getsession.org.pro_sub_3_months": [.noMatch: 2],
        ]),
    ]

    @Test(arguments: fixtureCases)
    func recognisesRealSandboxHistories(_ test: FixtureCase) throws {
      var found: [String: [SandboxDurationMatch: Int]] = [:]
      for span in try subscriptionSpans(inFixture: test.file) {
        found[span.product, default: [:]][
          test.profile.productionDuration(forObserved: span.length), default: 0] += 1
      }
      #expect(found == test.expected)
    }
  }
}
