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

// Every member of verifyReceipt's receipt, entries and renewal infos, and of the decoded
// payloads, each value written by hand (SchemaFieldCoverageTests checks that none is left out).
extension SchemaReaderTests {
  @Test func everyFieldOfAVerifyReceiptResponse() throws {
    let response = try Self.read(
      #"""
      {"status": 0, "environment": "Production", "latest_receipt": "MIIbase64",
       "receipt": {"receipt_type": "ProductionSandbox",
         "receipt_creation_date": "2017-03-20 00:00:00 Etc/GMT",
         "receipt_creation_date_ms": "1490054400000",
         "request_date": "2017-03-22 00:00:00 Etc/GMT", "request_date_ms": "1490140800000",
         "in_app": [{"quantity": "2", "product_id": "monthly", "transaction_id": "11",
           "original_transaction_id": "10",
           "purchase_date": "2017-02-20 08:00:00 Etc/GMT",
           "original_purchase_date": "2017-01-20 08:00:00 Etc/GMT",
           "expires_date": "2017-03-20 08:00:00 Etc/GMT",
           "web_order_line_item_id": "1000000034321234", "is_trial_period": "true",
           "is_in_intro_offer_period": "false", "in_app_ownership_type": "FAMILY_SHARED",
           "cancellation_date": "2017-03-01 08:00:00 Etc/GMT", "cancellation_reason": "1",
           "is_upgraded": "true", "offer_code_ref_name": "SPRING",
           "promotional_offer_id": "winback1"}]},
       "latest_receipt_info": [{"product_id": "monthly", "transaction_id": "12",
         "original_transaction_id": "10", "purchase_date_ms": "1490000000000",
         "original_purchase_date_ms": "1484899200000", "expires_date_ms": "1492600000000",
         "cancellation_date_ms": "1491000000000", "is_trial_period": "false",
         "is_in_intro_offer_period": "true"}],
       "latest_expired_receipt_info": [{"product_id": "old", "transaction_id": "9",
         "original_transaction_id": "9", "purchase_date_ms": "1356998400000",
         "expires_date_formatted": "2013-02-01 00:00:00 Etc/GMT"}],
       "pending_renewal_info": [{"original_transaction_id": "10", "product_id": "monthly",
         "auto_renew_product_id": "yearly", "auto_renew_status": "1", "expiration_intent": "2",
         "is_in_billing_retry_period": "1",
         "grace_period_expires_date": "2017-04-05 08:00:00 Etc/GMT",
         "grace_period_expires_date_ms": "1491465600000", "price_consent_status": "0"},
        {"original_transaction_id": "12", "grace_period_expires_date": "2017-04-05 08:00:00 Etc/GMT"}]}
      """#
    ) { if case .verifyReceipt(let r) = $0 { r } else { nil } }
    #expect(response.status == 0)
    // The receipt's own type wins over the top's environment.
    #expect(response.environment == .sandbox)
    #expect(response.latestReceipt == "MIIbase64")
    // receipt_creation_date_ms (Mar 21) wins over its text (Mar 20); request_date only
    // without either.
    #expect(response.timestamp == Instant(millisecondsSince1970: 1_490_054_400_000))
    let entry = try #require(response.inApp.first)
    #expect(entry.quantity == 2)
    #expect(entry.productID == "monthly" && entry.transactionID == "11")
    #expect(entry.originalTransactionID == "10")
    #expect(entry.purchaseDate == instant("2017-02-20T08:00:00Z"))
    #expect(entry.originalPurchaseDate == instant("2017-01-20T08:00:00Z"))
    #expect(entry.expiresDate == instant("2017-03-20T08:00:00Z"))
    #expect(entry.webOrderLineItemID == "1000000034321234")
    #expect(entry.isTrialPeriod && !entry.isInIntroOfferPeriod)
    #expect(entry.inAppOwnershipType == .familyShared)
    #expect(entry.cancellationDate == instant("2017-03-01T08:00:00Z"))
    #expect(entry.cancellationReason == .appIssue)
    #expect(entry.isUpgraded)
    #expect(entry.offerCodeRefName == "SPRING")
    #expect(entry.promotionalOfferID == "winback1")
    // The same dates in milliseconds.
    let latest = try #require(response.latestReceiptInfo.first { $0.transactionID == "12" })
    #expect(latest.purchaseDate == Instant(millisecondsSince1970: 1_490_000_000_000))
    #expect(latest.originalPurchaseDate == Instant(millisecondsSince1970: 1_484_899_200_000))
    #expect(latest.expiresDate == Instant(millisecondsSince1970: 1_492_600_000_000))
    #expect(latest.cancellationDate == Instant(millisecondsSince1970: 1_491_000_000_000))
    #expect(!latest.isTrialPeriod && latest.isInIntroOfferPeriod)
    #expect(latest.quantity == 1)
    // iOS 6: an expired transaction, its expiry in expires_date_formatted.
    let expired = try #require(response.latestReceiptInfo.first { $0.transactionID == "9" })
    #expect(expired.expiresDate == instant("2013-02-01T00:00:00Z"))
    let info = try #require(response.renewalInfo.first)
    #expect(info.originalTransactionID == "10" && info.productID == "monthly")
    #expect(info.autoRenewProductID == "yearly" && info.autoRenewStatus == true)
    #expect(info.expirationIntent == .billingError)
    #expect(info.isInBillingRetryPeriod == true)
    // grace_period_expires_date_ms (Apr 6) wins over its text (Apr 5); the text alone is read.
    #expect(info.gracePeriodExpiresDate == Instant(millisecondsSince1970: 1_491_465_600_000))
    #expect(info.priceConsentStatus == false)
    #expect(
      response.renewalInfo.first { $0.originalTransactionID == "12" }?.gracePeriodExpiresDate
        == instant("2017-04-05T08:00:00Z"))
  }

  @Test func aReceiptIsDatedByItsRequestWithoutACreationDate() throws {
    let response = try Self.read(
      #"""
      {"status": 0, "receipt": {"request_date": "2017-03-22 00:00:00 Etc/GMT", "in_app": []}}
      """#
    ) { if case .verifyReceipt(let r) = $0 { r } else { nil } }
    #expect(response.timestamp == instant("2017-03-22T00:00:00Z"))
    let inMilliseconds = try Self.read(
      #"{"status": 0, "receipt": {"request_date_ms": "1490140800000", "in_app": []}}"#
    ) { if case .verifyReceipt(let r) = $0 { r } else { nil } }
    #expect(inMilliseconds.timestamp == Instant(millisecondsSince1970: 1_490_140_800_000))
    #expect(response.inApp.isEmpty)
    #expect(response.environment == nil)
  }

  @Test func anAppTransactionIsRefusedByName() {
    #expect(
      throws: ReadError.unrecognizedDocument(
        "an app transaction: it records the app's purchase, not an in-app one")
    ) {
      try DocumentReader.readUnverified(
        Array(#"{"appAppleId": 1, "originalApplicationVersion": "1.0", "bundleId": "b"}"#.utf8))
    }
  }

  @Test func everyFieldOfADecodedTransactionAndRenewalInfo() throws {
    let transaction = try Self.read(
      #"""
      {"transactionId": "2000000777", "originalTransactionId": "2000000700",
       "productId": "monthly", "webOrderLineItemId": "2000000055", "quantity": 3,
       "purchaseDate": 1700000000000, "originalPurchaseDate": 1690000000000,
       "expiresDate": 1702592000000, "isUpgraded": true, "inAppOwnershipType": "PURCHASED",
       "type": "Auto-Renewable Subscription", "offerType": 1, "offerDiscountType": "FREE_TRIAL",
       "offerIdentifier": "intro1", "signedDate": 1700000001000, "environment": "Sandbox"}
      """#
    ) { if case .transaction(let t) = $0 { t } else { nil } }
    let entry = try #require(transaction.entry)
    #expect(entry.transactionID == "2000000777" && entry.originalTransactionID == "2000000700")
    #expect(entry.webOrderLineItemID == "2000000055")
    #expect(entry.quantity == 3)
    #expect(entry.purchaseDate == Instant(millisecondsSince1970: 1_700_000_000_000))
    #expect(entry.originalPurchaseDate == Instant(millisecondsSince1970: 1_690_000_000_000))
    #expect(entry.expiresDate == Instant(millisecondsSince1970: 1_702_592_000_000))
    #expect(entry.isUpgraded)
    #expect(entry.inAppOwnershipType == .purchased)
    #expect(transaction.type == "Auto-Renewable Subscription")
    // offerType 1 with a FREE_TRIAL discount: a free trial, not an intro price.
    #expect(entry.isTrialPeriod && !entry.isInIntroOfferPeriod)
    #expect(entry.offerCodeRefName == nil && entry.promotionalOfferID == nil)

    // offerType 2 names a promotional offer, 3 an offer code; an intro price without a trial.
    for (offerType, promotional, code, intro) in [
      (2, "winback1", nil, false), (3, nil, "SPRING", false), (1, nil, nil, true),
    ] as [(Int, String?, String?, Bool)] {
      let offered = try Self.read(
        #"""
        {"transactionId": "1", "productId": "monthly", "offerType": \#(offerType),
         "offerDiscountType": "PAY_AS_YOU_GO", "offerIdentifier": "\#(promotional ?? code ?? "x")"}
        """#
      ) { if case .transaction(let t) = $0 { t.entry } else { nil } }
      #expect(offered.promotionalOfferID == promotional, "offerType \(offerType)")
      #expect(offered.offerCodeRefName == code, "offerType \(offerType)")
      #expect(offered.isInIntroOfferPeriod == intro && !offered.isTrialPeriod)
    }

    let renewal = try Self.read(
      #"""
      {"originalTransactionId": "2000000700", "autoRenewProductId": "yearly",
       "autoRenewStatus": 0, "expirationIntent": 3, "isInBillingRetryPeriod": false,
       "gracePeriodExpiresDate": 1703000000000, "priceIncreaseStatus": 1,
       "signedDate": 1700000002000}
      """#
    ) { if case .renewal(let r) = $0 { r.info } else { nil } }
    #expect(renewal.originalTransactionID == "2000000700")
    #expect(renewal.autoRenewProductID == "yearly" && renewal.autoRenewStatus == false)
    #expect(renewal.expirationIntent == .customerDidNotConsentToPriceIncrease)
    #expect(renewal.isInBillingRetryPeriod == false)
    #expect(renewal.gracePeriodExpiresDate == Instant(millisecondsSince1970: 1_703_000_000_000))
    // priceIncreaseStatus 1: the customer consented.
    #expect(renewal.priceConsentStatus == true)
    // The info is dated by its payload's signedDate when it is folded.
    let signed = try Self.read(
      #"{"originalTransactionId": "2000000700", "signedDate": 1700000002000}"#
    ) { if case .renewal(let r) = $0 { r } else { nil } }
    #expect(signed.timestamp == Instant(millisecondsSince1970: 1_700_000_002_000))
    #expect(
      signed.renewalInfo.map(\.signedDate) == [Instant(millisecondsSince1970: 1_700_000_002_000)])
  }
}
