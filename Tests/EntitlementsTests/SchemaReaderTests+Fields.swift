import Testing

@testable import Entitlements

// Every field of the notifications and the API responses, each value written by hand.
extension SchemaReaderTests {
  /// A document read with no diagnostic, as the kind `pattern` extracts.
  static func read<Document>(
    _ json: String, _ pattern: (AppStoreDocument) -> Document?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Document {
    let document = try DocumentReader.read(Array(json.utf8))
    #expect(document.diagnostics.isEmpty, sourceLocation: sourceLocation)
    return try #require(pattern(document), sourceLocation: sourceLocation)
  }

  @Test func everyFieldOfANotification() throws {
    let v2 = try Self.read(
      #"""
      {"notificationType": "DID_CHANGE_RENEWAL_STATUS", "subtype": "AUTO_RENEW_DISABLED",
       "signedDate": 1698148902000, "data": {"environment": "Sandbox", "status": 2,
         "signedTransactionInfo": "\#(Self.jws(Self.transactionPayload))",
         "signedRenewalInfo": "\#(Self.jws(Self.renewalPayload))"}}
      """#
    ) { if case .notificationV2(let n) = $0 { n } else { nil } }
    #expect(v2.rawNotificationType == "DID_CHANGE_RENEWAL_STATUS")
    #expect(v2.rawSubtype == "AUTO_RENEW_DISABLED")
    #expect(v2.timestamp == Instant(millisecondsSince1970: 1_698_148_902_000))
    #expect(v2.environment == .sandbox)
    #expect(v2.appleStatus == 2)
    #expect(v2.entries.map(\.transactionID) == ["2000000123"])
    #expect(v2.renewalInfo.map(\.autoRenewProductID) == ["yearly"])

    let v1 = try Self.read(
      #"""
      {"notification_type": "DID_CHANGE_RENEWAL_STATUS", "environment": "PROD",
       "auto_renew_status": "false", "auto_renew_product_id": "monthly",
       "unified_receipt": {"environment": "Production", "status": 0,
         "latest_receipt_info": [{"transaction_id": "7", "original_transaction_id": "7",
           "product_id": "monthly", "purchase_date_ms": "1698148900000"}],
         "pending_renewal_info": [{"original_transaction_id": "7", "product_id": "monthly",
           "auto_renew_status": "0"}]}}
      """#
    ) { if case .notificationV1(let n) = $0 { n } else { nil } }
    #expect(v1.rawNotificationType == "DID_CHANGE_RENEWAL_STATUS")
    #expect(v1.environment == .production)
    #expect(v1.entries.map(\.transactionID) == ["7"])
    #expect(v1.renewalInfo.map(\.autoRenewStatus) == [false])
  }

  @Test func everyFieldOfTheAPIResponses() throws {
    let page = try Self.read(
      #"""
      {"revision": "r7", "bundleId": "com.example", "appAppleId": 1, "environment": "Sandbox",
       "hasMore": true, "signedTransactions": ["\#(Self.jws(Self.transactionPayload))"]}
      """#
    ) { if case .transactionHistory(let p) = $0 { p } else { nil } }
    #expect(page.revision == "r7" && page.bundleID == "com.example" && page.hasMore == true)
    #expect(page.environment == .sandbox)
    #expect(page.transactions.map(\.entry?.transactionID) == ["2000000123"])

    let statuses = try Self.read(
      #"""
      {"environment": "Production", "bundleId": "com.example", "appAppleId": 1, "data": [
        {"subscriptionGroupIdentifier": "21000000", "lastTransactions": [
          {"originalTransactionId": "2000000100", "status": 3,
           "signedTransactionInfo": "\#(Self.jws(Self.transactionPayload))",
           "signedRenewalInfo": "\#(Self.jws(Self.renewalPayload))"}]}]}
      """#
    ) { if case .subscriptionStatuses(let s) = $0 { s } else { nil } }
    #expect(statuses.environment == .production && statuses.bundleID == "com.example")
    let last = try #require(statuses.lastTransactions.first)
    #expect(last.subscriptionGroupIdentifier == "21000000")
    #expect(last.originalTransactionID == "2000000100" && last.rawStatus == 3)
    #expect(last.transaction?.entry?.transactionID == "2000000123")
    #expect(last.renewal?.info?.autoRenewProductID == "yearly")

    let history = try Self.read(
      #"""
      {"hasMore": true, "paginationToken": "t9", "notificationHistory": [
        {"signedPayload": "\#(Self.jws(Self.notificationPayload))",
         "sendAttempts": [{"attemptDate": 1698148902000, "sendAttemptResult": "SUCCESS"}]}]}
      """#
    ) { if case .notificationHistory(let h) = $0 { h } else { nil } }
    #expect(history.hasMore == true && history.paginationToken == "t9")
    #expect(history.notificationPayloads.map(\.rawNotificationType) == ["DID_FAIL_TO_RENEW"])
  }
}
