import Foundation
import Testing

@testable import Entitlements

/// The App Store Server API's responses (SPEC §10), built by hand from unsigned JWS (reading
/// does not verify): read, folded in any order and with repetition, and evaluated.
@Suite("App Store Server API responses")
struct APIResponseTests {
  static let day: Int64 = 86_400_000
  static let start: Int64 = 1_750_000_000_000

  /// A JWS whose payload is `payload`; its signature is not Apple's, so only an unverifying
  /// reader reads it.
  static func jws(_ payload: String) -> String {
    ReaderTestSupport.jws(payload)
  }

  /// Renewal `month` of subscription 2000000000000100: 30 days from the start.
  static func transaction(_ month: Int, signed: Int64? = nil) -> String {
    let purchase = start + Int64(month) * 30 * day
    return jws(
      """
      {"transactionId": "\(2_000_000_000_000_200 + month)", "originalTransactionId": "2000000000000100",
       "webOrderLineItemId": "\(2_000_000_000_000_500 + month)", "bundleId": "com.example",
       "productId": "com.example.monthly", "purchaseDate": \(purchase),
       "originalPurchaseDate": \(start), "expiresDate": \(purchase + 30 * day), "quantity": 1,
       "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
       "signedDate": \(signed ?? purchase), "environment": "Sandbox"}
      """)
  }

  static func renewal(signed: Int64, retry: Bool, grace: Int64?) -> String {
    jws(
      """
      {"originalTransactionId": "2000000000000100", "autoRenewProductId": "com.example.monthly",
       "productId": "com.example.monthly", "autoRenewStatus": 1,
       "isInBillingRetryPeriod": \(retry), \(grace.map { "\"gracePeriodExpiresDate\": \($0)," } ?? "")
       "signedDate": \(signed), "environment": "Sandbox"}
      """)
  }

  static func page(_ months: [Int], hasMore: Bool) -> [UInt8] {
    let signed = months.map { "\"\(transaction($0))\"" }.joined(separator: ", ")
    return Array(
      """
      {"revision": "r\(months.last ?? 0)", "bundleId": "com.example", "appAppleId": 1234,
       "environment": "Sandbox", "hasMore": \(hasMore), "signedTransactions": [\(signed)]}
      """.utf8)
  }

  /// The reader reads `bytes` consistently: in place on a line as whole, the same record
  /// folded (``DocumentReader/_consistencyProblem(_:)``).
  static func expectReadConsistently(
    _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(DocumentReader._consistencyProblem(bytes) == nil, sourceLocation: sourceLocation)
  }

  /// Pages of one history overlap; folded in any order, any number of times, they give one
  /// record, and one evaluation: four touching months, one period.
  @Test func overlappingPagesFoldInAnyOrder() throws {
    let pages = [
      Self.page([0, 1], hasMore: true), Self.page([1, 2], hasMore: true),
      Self.page([2, 3], hasMore: false),
    ]
    for page in pages { Self.expectReadConsistently(page) }
    var results = Set<SubscriberRecord>()
    for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0, 1, 2]] {
      var record = SubscriberRecord()
      for index in order { record.fold(try DocumentReader.readUnverified(pages[index])) }
      results.insert(record)
    }
    #expect(results.count == 1)
    let record = try #require(results.first)
    #expect(record.history.entries.count == 4)
    #expect(record.history.environment == .sandbox)
    guard case .transactionHistory(let first) = try DocumentReader.readUnverified(pages[0]) else {
      Issue.record("not read as a history page")
      return
    }
    #expect(first.hasMore == true && first.revision == "r1")
    let evaluation = try #require(Evaluator().evaluate(record.history).entitlements.first)
    #expect(evaluation.periods.count == 1)
  }

  /// Get All Subscription Statuses: the last transaction, the renewal info (in grace) and
  /// Apple's status 4, which the evaluation agrees with at the response's instant.
  @Test func subscriptionStatusesReportApplesStatus() throws {
    let expiry = Self.start + 30 * Self.day
    let signed = expiry + Self.day
    let body = Array(
      """
      {"environment": "Sandbox", "bundleId": "com.example", "appAppleId": 1234,
       "data": [{"subscriptionGroupIdentifier": "21000000", "lastTransactions": [
         {"originalTransactionId": "2000000000000100", "status": 4,
          "signedTransactionInfo": "\(Self.transaction(0))",
          "signedRenewalInfo": "\(Self.renewal(signed: signed, retry: true, grace: expiry + 6 * Self.day))"}]}]}
      """.utf8)
    Self.expectReadConsistently(body)
    let document = try DocumentReader.readUnverified(body)
    guard case .subscriptionStatuses(let response) = document else {
      Issue.record("read as \(document)")
      return
    }
    #expect(response.lastTransactions.count == 1)
    #expect(response.appleStatuses.map(\.status) == [.billingGracePeriod])
    #expect(response.renewalInfo.first?.signedDate == Instant(millisecondsSince1970: signed))
    let evaluation = try #require(
      Evaluator().evaluate(
        PurchaseHistory(
          entries: response.entries, renewalInfo: response.renewalInfo,
          appleStatuses: response.appleStatuses)
      ).entitlements.first)
    #expect(evaluation.appleAgreement.map(\.agrees) == [true])
    #expect(evaluation.status(at: Instant(millisecondsSince1970: signed)).state == .gracePeriod)
  }

  /// Get Notification History: each `signedPayload` read as a notification, its evidence and
  /// Apple's status kept.
  @Test func notificationHistoryReadsEveryNotification() throws {
    let expiry = Self.start + 30 * Self.day
    func notification(_ type: String, _ subtype: String?, status: Int, signed: Int64) -> String {
      Self.jws(
        """
        {"notificationType": "\(type)", \(subtype.map { "\"subtype\": \"\($0)\"," } ?? "")
         "notificationUUID": "u\(signed)", "version": "2.0", "signedDate": \(signed),
         "data": {"bundleId": "com.example", "environment": "Sandbox", "status": \(status),
           "signedTransactionInfo": "\(Self.transaction(0))",
           "signedRenewalInfo": "\(Self.renewal(signed: signed, retry: status == 3, grace: nil))"}}
        """)
    }
    let body = Array(
      """
      {"hasMore": false, "paginationToken": "p1", "notificationHistory": [
        {"signedPayload": "\(notification("DID_FAIL_TO_RENEW", nil, status: 3, signed: expiry + 1000))"},
        {"signedPayload": "\(notification("SUBSCRIBED", "INITIAL_BUY", status: 1, signed: Self.start + 1000))"},
        {"sendAttemptResult": "SUCCESS"}]}
      """.utf8)
    // The item without a payload is a diagnostic (below); without it, none.
    Self.expectReadConsistently(body)
    let regular = Array(
      """
      {"hasMore": false, "paginationToken": "p1", "notificationHistory": [
        {"signedPayload": "\(notification("DID_FAIL_TO_RENEW", nil, status: 3, signed: expiry + 1000))",
         "sendAttempts": [{"attemptDate": \(expiry + 2000), "sendAttemptResult": "SUCCESS"}]}]}
      """.utf8)
    Self.expectReadConsistently(regular)
    #expect(try DocumentReader.readUnverified(regular).diagnostics.isEmpty)
    let document = try DocumentReader.readUnverified(body)
    guard case .notificationHistory(let page) = document else {
      Issue.record("read as \(document)")
      return
    }
    #expect(
      page.notificationPayloads.map(\.rawNotificationType) == ["DID_FAIL_TO_RENEW", "SUBSCRIBED"])
    #expect(page.notifications.map(\.type) == [.didFailToRenew, .subscribed])
    // The third item has no payload: a diagnostic, never dropped silently.
    #expect(page.diagnostics.map(\.field) == ["notificationHistory[2].signedPayload"])
    let evaluation = try #require(Evaluator().evaluate(page.history).entitlements.first)
    #expect(evaluation.appleAgreement.count == 2)
    #expect(evaluation.appleAgreement.allSatisfy { $0.agrees }, "\(evaluation.appleAgreement)")
    #expect(evaluation.billingIssueDetectedAt == Instant(millisecondsSince1970: expiry + 1000))
  }

  /// An unknown future notification type is a diagnostic, never an error, and no evidence.
  @Test func anUnknownNotificationTypeIsADiagnostic() throws {
    let body = Array(
      #"{"notificationType": "SOMETHING_NEW", "signedDate": 1750000000000, "data": {"status": 1}}"#
        .utf8)
    let document = try DocumentReader.readUnverified(body)
    #expect(document.diagnostics.map(\.field) == ["notificationType"])
    #expect(document.notifications.isEmpty)
  }

  /// An unknown future subtype is a diagnostic too, never an error: the notification keeps its
  /// subtype's raw text and is evidence by its type alone (an `EXPIRED` still ends billing
  /// retry), wherever it is read: decoded, as a POST body, inside a notification history.
  @Test func anUnknownSubtypeIsADiagnosticAndTheTypeStillCounts() throws {
    let expiry = Self.start + 30 * Self.day
    let payload = """
      {"notificationType": "EXPIRED", "subtype": "SOMETHING_NEW", "signedDate": \(expiry + 1000),
       "data": {"status": 2, "environment": "Sandbox",
         "signedTransactionInfo": "\(Self.transaction(0))",
         "signedRenewalInfo": "\(Self.renewal(signed: expiry, retry: true, grace: nil))"}}
      """
    let bodies: [(String, [UInt8], String)] = [
      ("decoded", Array(payload.utf8), "subtype"),
      ("POST body", Array(#"{"signedPayload": "\#(Self.jws(payload))"}"#.utf8), "subtype"),
      (
        "notification history",
        Array(#"{"notificationHistory": [{"signedPayload": "\#(Self.jws(payload))"}]}"#.utf8),
        "notificationHistory[0].signedPayload.subtype"
      ),
    ]
    for (name, body, field) in bodies {
      Self.expectReadConsistently(body)
      let document = try DocumentReader.readUnverified(body)
      #expect(document.diagnostics.map(\.field) == [field], "\(name)")
      #expect(
        document.diagnostics.first?.message.contains("SOMETHING_NEW is a subtype") == true,
        "\(name)")
      let evidence = try #require(document.notifications.first, "\(name)")
      #expect(evidence.type == .expired && evidence.subtype == nil)
      #expect(evidence.rawSubtype == "SOMETHING_NEW")
      // The renewal info says billing retry; the EXPIRED signed after it ends it.
      var record = SubscriberRecord()
      record.fold(document)
      let evaluation = try #require(Evaluator().evaluate(record.history).entitlements.first)
      let status = evaluation.status(at: Instant(millisecondsSince1970: expiry + 2000))
      #expect(status.state == .expired, "\(name): \(status)")
    }
    // A known subtype gives no diagnostic.
    let known = payload.replacingOccurrences(of: "SOMETHING_NEW", with: "VOLUNTARY")
    #expect(try DocumentReader.readUnverified(Array(known.utf8)).diagnostics.isEmpty)
  }
}

/// Every notification type and subtype Apple documents is recognised (SPEC §10): no
/// diagnostic, and the evidence keeps it typed.
@Suite("v2 notification types and subtypes")
struct NotificationTypeTests {
  @Test(arguments: NotificationEvidence.NotificationType.allCases)
  func everyDocumentedTypeIsRecognised(_ type: NotificationEvidence.NotificationType) throws {
    let body = Array(
      """
      {"notificationType": "\(type.rawValue)", "signedDate": 1750000000000,
       "data": {"status": 1, "signedTransactionInfo": {"transactionId": "2000000000000002",
         "originalTransactionId": "2000000000000001", "productId": "p",
         "purchaseDate": 1749990000000, "expiresDate": 1752592000000}}}
      """.utf8)
    let document = try DocumentReader.readUnverified(body)
    #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
    #expect(document.notifications.map(\.type) == [type])
  }

  @Test(arguments: NotificationEvidence.Subtype.allCases)
  func everyDocumentedSubtypeIsTyped(_ subtype: NotificationEvidence.Subtype) {
    let evidence = NotificationEvidence(
      originalTransactionID: "2000000000000001", signedDate: .distantPast, rawType: "EXPIRED",
      rawSubtype: subtype.rawValue)
    #expect(evidence.subtype == subtype)
  }
}
