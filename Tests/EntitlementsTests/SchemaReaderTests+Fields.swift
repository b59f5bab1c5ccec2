import Testing

@testable import Entitlements

// Every field of the notifications and the API responses, each value written by hand.
extension SchemaReaderTests {
  /// A document read with no diagnostic, as the kind `pattern` extracts.
  static func read<Document>(
    _ json: String, _ pattern: (AppStoreDocument) -> Document?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Document {
    let document = try DocumentReader.readUnverified(Array(json.utf8))
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

// Apple's 2026 fields (App Store Server API 1.19 and 1.21), each value written by hand.
extension SchemaReaderTests {
  /// A billing period of a commitment, refunded pro rata: every new field of a transaction.
  static let commitmentTransaction = #"""
    {"transactionId": "2000000400000003", "originalTransactionId": "2000000400000001",
     "productId": "com.example.yearly.monthly", "purchaseDate": 1772323200000,
     "expiresDate": 1775001600000, "revocationDate": 1773187200000, "revocationReason": 0,
     "revocationType": "REFUND_PRORATED", "revocationPercentage": 67742,
     "billingPlanType": "MONTHLY", "commitmentInfo": {"billingPeriodNumber": 3,
       "totalBillingPeriods": 12, "commitmentExpiresDate": 1798761600000,
       "commitmentPrice": 131880}, "signedDate": 1773187201000, "environment": "Production"}
    """#
  /// Renewal info inside a commitment whose own renewal is off: every new field.
  static let commitmentRenewal = #"""
    {"originalTransactionId": "2000000400000001", "productId": "com.example.yearly.monthly",
     "autoRenewProductId": "com.example.yearly.monthly", "autoRenewStatus": 1,
     "renewalBillingPlanType": "MONTHLY", "commitmentInfo": {"commitmentAutoRenewStatus": 0,
       "commitmentAutoRenewProductId": "com.example.yearly",
       "commitmentRenewalBillingPlanType": "BILLED_UPFRONT",
       "commitmentRenewalDate": 1798761600000, "commitmentRenewalPrice": 10990},
     "signedDate": 1773187201000, "environment": "Production"}
    """#

  static let expectedCommitmentEntry = ReceiptEntry(
    productID: "com.example.yearly.monthly", transactionID: "2000000400000003",
    originalTransactionID: "2000000400000001",
    purchaseDate: Instant(millisecondsSince1970: 1_772_323_200_000),
    expiresDate: Instant(millisecondsSince1970: 1_775_001_600_000),
    cancellationDate: Instant(millisecondsSince1970: 1_773_187_200_000),
    rawCancellationReason: "0", rawRevocationType: "REFUND_PRORATED",
    revocationPercentage: 67742, rawBillingPlanType: "MONTHLY",
    commitment: ReceiptEntry.Commitment(
      billingPeriodNumber: 3, totalBillingPeriods: 12,
      expiresDate: Instant(millisecondsSince1970: 1_798_761_600_000), price: 131880))

  static let expectedCommitmentRenewal = RenewalInfo(
    originalTransactionID: "2000000400000001", productID: "com.example.yearly.monthly",
    autoRenewProductID: "com.example.yearly.monthly", autoRenewStatus: true,
    signedDate: Instant(millisecondsSince1970: 1_773_187_201_000),
    rawRenewalBillingPlanType: "MONTHLY",
    commitment: RenewalInfo.Commitment(
      autoRenewStatus: false, autoRenewProductID: "com.example.yearly",
      rawRenewalBillingPlanType: "BILLED_UPFRONT",
      renewalDate: Instant(millisecondsSince1970: 1_798_761_600_000), renewalPrice: 10990))

  /// The new fields, wherever transactions and renewal info come: decoded alone, signed in a
  /// notification, decoded in place in Get All Subscription Statuses, signed in a history page.
  @Test func every2026FieldWhereverTransactionsCome() throws {
    let (transaction, renewal) = (Self.commitmentTransaction, Self.commitmentRenewal)
    let alone = try Self.read(transaction) { if case .transaction(let t) = $0 { t } else { nil } }
    #expect(alone.entry == Self.expectedCommitmentEntry)
    #expect(alone.entry?.revocationType == .refundProrated)
    #expect(alone.entry?.billingPlanType == .monthly)
    let info = try Self.read(renewal) { if case .renewal(let r) = $0 { r } else { nil } }
    #expect(info.info?.dated(info.timestamp) == Self.expectedCommitmentRenewal)

    // A notification carrying both, read alone and inside Get Notification History.
    let refund = #"""
      {"notificationType": "REFUND", "signedDate": 1773187202000, "data": {
        "signedTransactionInfo": "\#(Self.jws(transaction))",
        "signedRenewalInfo": "\#(Self.jws(renewal))"}}
      """#
    let notification = try Self.read(refund) {
      if case .notificationV2(let n) = $0 { n } else { nil }
    }
    #expect(notification.entries == [Self.expectedCommitmentEntry])
    #expect(notification.renewalInfo == [Self.expectedCommitmentRenewal])

    let statuses = try Self.read(
      #"""
      {"environment": "Production", "data": [{"subscriptionGroupIdentifier": "1",
        "lastTransactions": [{"originalTransactionId": "2000000400000001", "status": 1,
          "signedTransactionInfo": \#(transaction), "signedRenewalInfo": \#(renewal)}]}]}
      """#
    ) { if case .subscriptionStatuses(let s) = $0 { s } else { nil } }
    #expect(statuses.entries == [Self.expectedCommitmentEntry])
    #expect(statuses.renewalInfo == [Self.expectedCommitmentRenewal])

    let page = try Self.read(
      #"{"hasMore": false, "signedTransactions": ["\#(Self.jws(transaction))"]}"#
    ) { if case .transactionHistory(let p) = $0 { p } else { nil } }
    #expect(page.entries == [Self.expectedCommitmentEntry])

    let history = try Self.read(
      #"{"hasMore": false, "notificationHistory": [{"signedPayload": "\#(Self.jws(refund))"}]}"#
    ) { if case .notificationHistory(let h) = $0 { h } else { nil } }
    #expect(history.entries == [Self.expectedCommitmentEntry])
    #expect(history.renewalInfo == [Self.expectedCommitmentRenewal])
  }

  /// A commitment that is no object, or lacks its numbers, is a diagnostic at its path; the
  /// rest of the transaction is kept.
  @Test(
    arguments: [
      (#""commitmentInfo": 5"#, "commitmentInfo: expected an object, found a number"),
      (
        #""commitmentInfo": {"billingPeriodNumber": 2}"#,
        "commitmentInfo: missing billingPeriodNumber or totalBillingPeriods: "
          + "the commitment is left out"
      ),
      (#""commitmentInfo": null"#, nil),
      (#""revocationPercentage": "half""#, #"revocationPercentage: "half" is not an integer"#),
      (
        #""revocationPercentage": 150000"#,
        "revocationPercentage: 150000 is not between 0 and 100000 "
          + "(thousandths of a percent): left out"
      ),
      (
        #""revocationPercentage": -1"#,
        "revocationPercentage: -1 is not between 0 and 100000 (thousandths of a percent): left out"
      ),
    ] as [(String, String?)])
  func irregular2026Fields(member: String, diagnostic: String?) throws {
    let json = #"{"transactionId": "7", "productId": "p", "purchaseDate": 1, \#(member)}"#
    let document = try DocumentReader.readUnverified(Array(json.utf8))
    guard case .transaction(let transaction) = document else {
      Issue.record("not a transaction: \(document)")
      return
    }
    #expect(transaction.entry?.transactionID == "7")
    #expect(transaction.entry?.commitment == nil)
    #expect(
      transaction.diagnostics.map { "\($0.field): \($0.message)" }
        == (diagnostic.map { [$0] } ?? []))
  }
}
