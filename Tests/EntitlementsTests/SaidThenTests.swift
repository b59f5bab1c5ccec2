import Testing

@testable import Entitlements

/// The past as Apple said it (SPEC §5): inside an earlier lapse, dated evidence signed in it
/// gives grace or billing retry there; between a refund and its reversal, revoked.
@Suite("The past as Apple said it")
struct SaidThenTests {
  /// January, then a renewal on March 1 after a lapse from February 1.
  static let entries = [
    sub("1", "2026-01-01", "2026-02-01"), sub("2", "2026-03-01", "2026-04-01"),
  ]

  /// Renewal info signed at `signed`.
  static func info(
    _ signed: String, retry: Bool?, grace: String? = nil, intent: Int? = nil,
    dated: Bool = true
  ) -> RenewalInfo {
    RenewalInfo(
      originalTransactionID: "1", rawExpirationIntent: intent, isInBillingRetryPeriod: retry,
      gracePeriodExpiresDate: grace.map { instant($0) },
      signedDate: dated ? instant(signed) : nil)
  }

  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    var entries = SaidThenTests.entries
    var infos: [RenewalInfo] = []
    var notifications: [NotificationEvidence] = []
    let at: String
    let state: EntitlementState
    var reason: ExpiryReason? = nil
    var testDescription: String { name }
  }

  static let lapseRows: [Row] = [
    Row(
      name: "nothing dated: the lapse's reason", at: "2026-02-10", state: .expired,
      reason: .unknown),
    Row(
      name: "retry said just after the expiry: billing retry from the expiry",
      infos: [info("2026-02-01T00:00:05Z", retry: true)], at: "2026-02-01", state: .billingRetry),
    Row(
      name: "retry said: billing retry to the lapse's last instant",
      infos: [info("2026-02-01T00:00:05Z", retry: true)], at: "2026-02-28T23:59:59.999Z",
      state: .billingRetry),
    Row(
      name: "the renewal ends it", infos: [info("2026-02-01T00:00:05Z", retry: true)],
      at: "2026-03-01", state: .active),
    Row(
      name: "grace said: in grace before its end",
      infos: [info("2026-02-01T00:00:05Z", retry: true, grace: "2026-02-17")],
      at: "2026-02-16T23:59:59.999Z", state: .gracePeriod),
    Row(
      name: "grace said: billing retry from its end",
      infos: [info("2026-02-01T00:00:05Z", retry: true, grace: "2026-02-17")],
      at: "2026-02-17", state: .billingRetry),
    Row(
      name: "a grace date without a word on retry is taken at its word",
      infos: [info("2026-02-01T00:00:05Z", retry: nil, grace: "2026-02-17")],
      at: "2026-02-05", state: .gracePeriod),
    Row(
      name: "retry, then its stop: billing retry before the stop",
      infos: [
        info("2026-02-01T00:00:05Z", retry: true),
        info("2026-02-20", retry: false, intent: 1),
      ], at: "2026-02-19T23:59:59.999Z", state: .billingRetry),
    Row(
      name: "retry, then its stop: expired from it, with the reason then stated",
      infos: [
        info("2026-02-01T00:00:05Z", retry: true),
        info("2026-02-20", retry: false, intent: 1),
      ], at: "2026-02-20", state: .expired, reason: .voluntary),
    Row(
      name: "DID_FAIL_TO_RENEW in the lapse: billing retry",
      notifications: [
        NotificationEvidence(
          originalTransactionID: "1", signedDate: instant("2026-02-01T00:00:05Z"),
          rawType: "DID_FAIL_TO_RENEW")
      ], at: "2026-02-10", state: .billingRetry),
    Row(
      name: "EXPIRED / BILLING_RETRY after the failure: retry exhausted from it",
      notifications: [
        NotificationEvidence(
          originalTransactionID: "1", signedDate: instant("2026-02-01T00:00:05Z"),
          rawType: "DID_FAIL_TO_RENEW"),
        NotificationEvidence(
          originalTransactionID: "1", signedDate: instant("2026-02-25"), rawType: "EXPIRED",
          rawSubtype: "BILLING_RETRY"),
      ], at: "2026-02-26", state: .expired, reason: .billingRetryExhausted),
    Row(
      name: "retry said before the lapse: expired, for the cause the lapse shows",
      infos: [info("2026-01-20", retry: true)], at: "2026-02-10", state: .expired,
      reason: .billingError),
    Row(
      name: "retry said after the lapse says nothing of it",
      infos: [info("2026-03-05", retry: true)], at: "2026-02-10", state: .expired,
      reason: .unknown),
    Row(
      name: "undated renewal info describes the present, not an earlier lapse",
      infos: [info("", retry: true, dated: false)], at: "2026-02-10", state: .expired,
      reason: .unknown),
    Row(
      name: "a lapse longer than the window: billing retry to day 60",
      entries: [sub("1", "2026-01-01", "2026-02-01"), sub("2", "2026-05-01", "2026-06-01")],
      infos: [info("2026-02-01T00:00:05Z", retry: true)], at: "2026-04-01T23:59:59.999Z",
      state: .billingRetry),
    Row(
      name: "a lapse longer than the window: exhausted from day 60",
      entries: [sub("1", "2026-01-01", "2026-02-01"), sub("2", "2026-05-01", "2026-06-01")],
      infos: [info("2026-02-01T00:00:05Z", retry: true)], at: "2026-04-02", state: .expired,
      reason: .billingRetryExhausted),
  ]

  @Test(arguments: lapseRows)
  func insideAnEarlierLapse(_ row: Row) throws {
    let evaluation = Evaluator(catalog: magazineCatalog).evaluate(
      PurchaseHistory(
        entries: row.entries, renewalInfo: row.infos, notifications: row.notifications))
    let magazine = try #require(evaluation["magazine"])
    let status = magazine.status(at: instant(row.at))
    #expect(status.state == row.state)
    if let reason = row.reason { #expect(status.reason == reason) }
    // The lapse and its cause are the settled past, whatever was said inside it.
    #expect(
      magazine.lapses.map(\.interval) == [
        Interval(start: row.entries[0].expiresDate!, end: row.entries[1].purchaseDate!)
      ])
  }

  /// Two months; the second refunded on February 10 and the refund reversed on February 20.
  static let refunded = sub("2", "2026-02-01", "2026-03-01", cancelled: "2026-02-10")
  static let reversal = ReversedRefund(refunded: refunded, reversedAt: instant("2026-02-20"))

  struct ReversalRow: Sendable, CustomTestStringConvertible {
    let name: String
    var extra: [ReceiptEntry] = []
    var reversal = SaidThenTests.reversal
    let at: String
    let state: EntitlementState
    var reason: ExpiryReason? = nil
    var testDescription: String { name }
  }

  static let reversalRows: [ReversalRow] = [
    ReversalRow(name: "before the refund: active", at: "2026-02-09T23:59:59.999Z", state: .active),
    ReversalRow(
      name: "from the refund: revoked", at: "2026-02-10", state: .revoked, reason: .refund),
    ReversalRow(
      name: "to the reversal's last instant: revoked", at: "2026-02-19T23:59:59.999Z",
      state: .revoked, reason: .refund),
    ReversalRow(name: "from the reversal: active again", at: "2026-02-20", state: .active),
    ReversalRow(
      name: "another purchase giving access meanwhile: active",
      extra: [sub("9", "2026-02-05", "2026-03-05", original: "9")], at: "2026-02-15",
      state: .active),
    ReversalRow(
      name: "a family revocation reversed: familySharingRevoked meanwhile",
      reversal: ReversedRefund(
        refunded: sub(
          "2", "2026-02-01", "2026-03-01", cancelled: "2026-02-10", revocation: "FAMILY_REVOKE"),
        reversedAt: instant("2026-02-20")),
      at: "2026-02-15", state: .revoked, reason: .familySharingRevoked),
    ReversalRow(
      name: "reversed after the expiry: revoked past it, to the reversal",
      reversal: ReversedRefund(refunded: refunded, reversedAt: instant("2026-03-10")),
      at: "2026-03-05", state: .revoked, reason: .refund),
    ReversalRow(
      name: "reversed after the expiry: expired from the reversal",
      reversal: ReversedRefund(refunded: refunded, reversedAt: instant("2026-03-10")),
      at: "2026-03-10", state: .expired),
  ]

  @Test(arguments: reversalRows)
  func betweenARefundAndItsReversal(_ row: ReversalRow) throws {
    // The history as the record leaves it: the renewal without its refund, the reversal kept.
    let entries =
      [sub("1", "2026-01-01", "2026-02-01"), sub("2", "2026-02-01", "2026-03-01")] + row.extra
    let evaluation = Evaluator(catalog: magazineCatalog).evaluate(
      PurchaseHistory(entries: entries, reversedRefunds: [row.reversal]))
    let magazine = try #require(evaluation["magazine"])
    let status = magazine.status(at: instant(row.at))
    #expect(status.state == row.state)
    if let reason = row.reason { #expect(status.reason == reason) }
    if row.state == .revoked {
      #expect(
        status
          == .revoked(
            transactionID: "2", revokedAt: instant("2026-02-10"), reason: row.reason ?? .refund,
            rawRevocationType: row.reversal.refunded.rawRevocationType))
    }
    // The periods are the settled past: the purchase stands.
    #expect(magazine.periods.first?.interval.start == instant("2026-01-01"))
  }

  /// The record keeps the refund a `REFUND_REVERSED` notification reverses, in either order
  /// of arrival; a newer version without a refund and no such notification is no reversal.
  @Test(arguments: [true, false])
  func theRecordKeepsAReversedRefund(refundFirst: Bool) throws {
    typealias Documents = NotificationEffectTests
    let day = Documents.day
    let (start, expiry) = (Documents.start, Documents.expiry)
    let refund = Documents.notification(
      "REFUND", signed: start + 70 * day, status: 5,
      transaction: Documents.transaction(
        2_000_000_000_000_202, purchase: start + 60 * day, expires: expiry,
        signed: start + 70 * day,
        fields: #", "revocationDate": \#(start + 70 * day), "revocationReason": 0"#))
    let reversed = Documents.notification(
      "REFUND_REVERSED", signed: start + 75 * day, status: 1,
      transaction: Documents.transaction(
        2_000_000_000_000_202, purchase: start + 60 * day, expires: expiry,
        signed: start + 75 * day))
    let (_, revoked, history) = try Documents.evaluate(
      refundFirst ? [refund, reversed] : [reversed, refund], months: 3, at: start + 72 * day)
    #expect(history.reversedRefunds.count == 1)
    #expect(
      history.reversedRefunds.first?.interval?.start.millisecondsSince1970 == start + 70 * day)
    #expect(history.reversedRefunds.first?.reversedAt.millisecondsSince1970 == start + 75 * day)
    #expect(revoked.state == .revoked)
    let (_, restored, _) = try Documents.evaluate(
      [refund, reversed], months: 3, at: start + 75 * day)
    #expect(restored.state == .active)
    // A transaction document signed later without the refund is not Apple saying it reversed.
    let later = Documents.transaction(
      2_000_000_000_000_202, purchase: start + 60 * day, expires: expiry, signed: start + 75 * day)
    var record = SubscriberRecord()
    for text in [refund, later] {
      record.fold(try DocumentReader.readUnverified(Array(text.utf8)))
    }
    #expect(record.history.reversedRefunds.isEmpty)
    // Both in one page of Get Notification History: each by its own date, as apart.
    let items = [refund, reversed].map {
      #"{"signedPayload": "\#(APIResponseTests.jws($0))"}"#
    }
    let page = #"{"hasMore": false, "notificationHistory": [\#(items.joined(separator: ", "))]}"#
    var paged = SubscriberRecord()
    for text in Documents.history(months: 3) + [page] {
      paged.fold(try DocumentReader.readUnverified(Array(text.utf8)))
    }
    #expect(paged.history.reversedRefunds == history.reversedRefunds)
    #expect(paged.history.entries.allSatisfy { $0.cancellationDate == nil })
  }
}
