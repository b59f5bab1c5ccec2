import Entitlements
import Testing

/// The guide's timelines (SPEC §8, §9) as tables: at each row's date, the receipt as the
/// backend would have it then, and what the engine must answer.
@Suite("Guide tables 5-1 and 5-2, row by row")
struct GuideTimelineTests {
  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var at: String
    /// The transactions in the receipt on that date.
    var known: [String]
    var info: RenewalInfo?
    var recoveries: [BillingRecovery] = []
    var state: EntitlementState
    var expiresAt: String? = nil
    var willRenew: Bool? = nil
    var retryEndsAt: String? = nil
    var reason: ExpiryReason? = nil
    var periods: [Interval]
    var lapses: [Lapse] = []
    var testDescription: String { name }
  }

  static func info(
    autoRenew: Bool, intent: Int? = nil, retry: Bool? = nil
  ) -> RenewalInfo {
    RenewalInfo(
      originalTransactionID: "1", productID: "monthly", autoRenewProductID: "monthly",
      autoRenewStatus: autoRenew, rawExpirationIntent: intent, isInBillingRetryPeriod: retry)
  }

  // MARK: Table 5-1: a monthly magazine with a voluntary lapse.

  static let table51Entries = [
    sub("1", "2017-02-20T08:00:00Z", "2017-03-20T08:00:00Z"),
    sub("2", "2017-03-20T08:00:00Z", "2017-04-20T08:00:00Z"),
    sub("3", "2017-06-17T08:00:00Z", "2017-07-17T08:00:00Z"),
  ]

  static let table51Rows: [Row] = [
    Row(
      name: "5-1 Feb 20: subscribes", at: "2017-02-20T08:00:00Z", known: ["1"],
      info: info(autoRenew: true), state: .active, expiresAt: "2017-03-20T08:00:00Z",
      willRenew: true, periods: [interval("2017-02-20T08:00:00Z", "2017-03-20T08:00:00Z")]),
    Row(
      name: "5-1 Mar 20: renews", at: "2017-03-20T08:00:00Z", known: ["1", "2"],
      info: info(autoRenew: true), state: .active, expiresAt: "2017-04-20T08:00:00Z",
      willRenew: true, periods: [interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z")]),
    Row(
      name: "5-1 Apr 1: turns auto-renew off", at: "2017-04-01", known: ["1", "2"],
      info: info(autoRenew: false), state: .active, expiresAt: "2017-04-20T08:00:00Z",
      willRenew: false, periods: [interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z")]),
    Row(
      name: "5-1 Apr 20: period ends", at: "2017-04-20T08:00:00Z", known: ["1", "2"],
      info: info(autoRenew: false, intent: 1), state: .expired, reason: .voluntary,
      periods: [interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z")]),
    Row(
      name: "5-1 May 10: lapsed", at: "2017-05-10", known: ["1", "2"],
      info: info(autoRenew: false, intent: 1), state: .expired, reason: .voluntary,
      periods: [interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z")]),
    Row(
      name: "5-1 Jun 17: resubscribes", at: "2017-06-17T08:00:00Z", known: ["1", "2", "3"],
      info: info(autoRenew: true), state: .active, expiresAt: "2017-07-17T08:00:00Z",
      willRenew: true,
      periods: [
        interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z"),
        interval("2017-06-17T08:00:00Z", "2017-07-17T08:00:00Z"),
      ],
      lapses: [
        Lapse(
          interval: interval("2017-04-20T08:00:00Z", "2017-06-17T08:00:00Z"), cause: .unknown)
      ]),
    // With the later receipt, the renewal info describes June: nothing says why the customer
    // left in April any more, so the lapse's cause is unknown (SPEC §5: never guess).
    Row(
      name: "5-1 May 10 seen from July", at: "2017-05-10", known: ["1", "2", "3"],
      info: info(autoRenew: true), state: .expired, reason: .unknown,
      periods: [
        interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z"),
        interval("2017-06-17T08:00:00Z", "2017-07-17T08:00:00Z"),
      ],
      lapses: [
        Lapse(
          interval: interval("2017-04-20T08:00:00Z", "2017-06-17T08:00:00Z"), cause: .unknown)
      ]),
  ]

  @Test(arguments: table51Rows)
  func table51(_ row: Row) throws {
    try check(row, entries: Self.table51Entries)
  }

  // MARK: Table 5-2: billing retry, recovered May 5 with a new renewal date.

  static let table52Entries = [
    sub("1", "2017-02-20T08:00:00Z", "2017-03-20T08:00:00Z"),
    sub("2", "2017-03-20T08:00:00Z", "2017-04-20T08:00:00Z"),
    sub("3", "2017-05-05T08:00:00Z", "2017-06-05T08:00:00Z"),
    sub("4", "2017-06-05T08:00:00Z", "2017-07-05T08:00:00Z"),
  ]

  static let recovery = [
    BillingRecovery(originalTransactionID: "1", renewedAt: instant("2017-05-05T08:00:00Z"))
  ]

  static let lapse52 = Lapse(
    interval: interval("2017-04-20T08:00:00Z", "2017-05-05T08:00:00Z"), cause: .billingError)

  static let table52Rows: [Row] = [
    Row(
      name: "5-2 Feb 20: subscribes", at: "2017-02-20T08:00:00Z", known: ["1"],
      info: info(autoRenew: true), state: .active, expiresAt: "2017-03-20T08:00:00Z",
      periods: [interval("2017-02-20T08:00:00Z", "2017-03-20T08:00:00Z")]),
    Row(
      name: "5-2 Apr 19: payment method expires", at: "2017-04-19", known: ["1", "2"],
      info: info(autoRenew: true), state: .active, expiresAt: "2017-04-20T08:00:00Z",
      periods: [interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z")]),
    Row(
      name: "5-2 Apr 20: renewal fails, billing retry", at: "2017-04-20T08:00:00Z",
      known: ["1", "2"], info: info(autoRenew: true, intent: 2, retry: true),
      state: .billingRetry, retryEndsAt: "2017-06-19T08:00:00Z",
      periods: [interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z")]),
    Row(
      name: "5-2 May 1: still retrying", at: "2017-05-01", known: ["1", "2"],
      info: info(autoRenew: true, intent: 2, retry: true), state: .billingRetry,
      retryEndsAt: "2017-06-19T08:00:00Z",
      periods: [interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z")]),
    Row(
      name: "5-2 May 5: payment updated, service at once, new renewal date",
      at: "2017-05-05T08:00:00Z", known: ["1", "2", "3"], info: info(autoRenew: true),
      recoveries: recovery, state: .active, expiresAt: "2017-06-05T08:00:00Z",
      periods: [
        interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z"),
        interval("2017-05-05T08:00:00Z", "2017-06-05T08:00:00Z"),
      ], lapses: [lapse52]),
    Row(
      name: "5-2 Jun 5: renews", at: "2017-06-05T08:00:00Z", known: ["1", "2", "3", "4"],
      info: info(autoRenew: true), recoveries: recovery, state: .active,
      expiresAt: "2017-07-05T08:00:00Z",
      periods: [
        interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z"),
        interval("2017-05-05T08:00:00Z", "2017-07-05T08:00:00Z"),
      ], lapses: [lapse52]),
    Row(
      name: "5-2 Apr 25 seen from June: expired in the lapse, billing error",
      at: "2017-04-25", known: ["1", "2", "3", "4"], info: info(autoRenew: true),
      recoveries: recovery, state: .expired, reason: .billingError,
      periods: [
        interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z"),
        interval("2017-05-05T08:00:00Z", "2017-07-05T08:00:00Z"),
      ], lapses: [lapse52]),
  ]

  @Test(arguments: table52Rows)
  func table52(_ row: Row) throws {
    try check(row, entries: Self.table52Entries)
  }

  private func check(_ row: Row, entries: [ReceiptEntry]) throws {
    let known = entries.filter { row.known.contains($0.transactionID.rawValue) }
    let evaluation = try evaluateOne(
      known, renewalInfo: row.info.map { [$0] } ?? [], recoveries: row.recoveries)
    #expect(evaluation.periods.map(\.interval) == row.periods)
    #expect(evaluation.lapses == row.lapses)
    let status = evaluation.status(at: instant(row.at))
    #expect(status.state == row.state)
    #expect(status.isEntitled == (row.state == .active || row.state == .gracePeriod))
    #expect(status.expiresAt == row.expiresAt.map { instant($0) })
    #expect(status.retryEndsAt == row.retryEndsAt.map { instant($0) })
    #expect(status.reason == row.reason)
    if let willRenew = row.willRenew { #expect(status.willRenew == willRenew) }
  }
}
