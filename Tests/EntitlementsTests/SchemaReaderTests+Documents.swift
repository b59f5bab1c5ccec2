import Testing

@testable import Entitlements

// Documents of every schema, Apple's usual shapes and every irregularity, each with what it
// reads as.

extension SchemaReaderTests {
  static func jws(_ payload: String) -> String { ReaderTestSupport.jws(payload) }
  static let transactionPayload = ReaderTestSupport.transactionPayload
  static let renewalPayload = ReaderTestSupport.renewalPayload
  static let notificationPayload = ReaderTestSupport.notificationPayload

  /// Documents off Apple's usual shapes, of every schema, and what each reads as (its kind and
  /// diagnostics, or its error): every irregularity the reader tolerates is a diagnostic with
  /// its JSON path, and the rest is read.
  static let irregular: [String] = [
    // v1: renewal fields only at the top; an old top-level latest_receipt_info; no unified_receipt
    #"{"notification_type": "CANCEL", "auto_renew_status": "false", "unified_receipt": {"latest_receipt_info": []}}"#,
    #"{"notification_type": "CANCEL", "latest_receipt_info": {"transaction_id": "1", "product_id": "p"}}"#,
    #"{"notification_type": "CANCEL"}"#,
    // v2: both notification keys; a signed field that is not a JWS; an object instead of one
    #"{"notificationType": "TEST", "notification_type": "TEST"}"#,
    #"{"notificationType": "TEST", "data": {"signedTransactionInfo": "not a jws"}}"#,
    #"{"notificationType": "TEST", "data": {"signedTransactionInfo": {"transactionId": "1", "productId": "p"}}}"#,
    #"{"notificationType": "TEST", "data": {"signedTransactionInfo": "\#(jws(#"{"originalTransactionId": "1"}"#))"}}"#,
    #"{"notificationType": "TEST", "data": {"signedRenewalInfo": "\#(jws(#"{"transactionId": "1", "productId": "p"}"#))"}}"#,
    #"{"notificationType": 5}"#,
    // v2: signed fields whose payloads are JSON but not objects
    #"{"notificationType": "TEST", "data": {"signedTransactionInfo": "\#(jws("[1, 2]"))"}}"#,
    #"{"notificationType": "TEST", "data": {"signedRenewalInfo": "\#(jws("5"))"}}"#,
    // decoded payloads: a missing product, a date as a string or a fraction, a flag as 2
    #"{"transactionId": "1"}"#,
    #"{"transactionId": "1", "productId": "p", "purchaseDate": "1698148900000"}"#,
    #"{"transactionId": "1", "productId": "p", "purchaseDate": 1698148900000.5}"#,
    #"{"transactionId": "1", "productId": "p", "isUpgraded": 2}"#,
    #"{"transactionId": "1", "productId": "p", "revocationReason": 1.0}"#,
    #"{"transactionId": "1", "productId": "p", "productId": "q"}"#,
    #"{"originalTransactionId": 1}"#,
    #"{"originalTransactionId": "1", "autoRenewStatus": "yes"}"#,
    #"{"appAppleId": 1, "originalApplicationVersion": "1.0"}"#,
    #"{"bundleId": "com.example"}"#,
    // v2: a subtype this version does not know (a diagnostic)
    #"{"notificationType": "EXPIRED", "subtype": "SOMETHING_NEW", "signedDate": 1}"#,
    // Transaction history: an element that is not a JWS, a JWS that does not decode (a symbol
    // outside base64url, four parts, one part, a bad length), renewal info among the
    // transactions, an escape inside a JWS, an irregular payload, fields of unusual types, a
    // key given twice
    #"{"signedTransactions": [5]}"#,
    #"{"signedTransactions": ["a.b*c.d"]}"#,
    #"{"signedTransactions": ["\#(jws(transactionPayload)).x"]}"#,
    #"{"signedTransactions": ["abc"]}"#,
    #"{"signedTransactions": ["a.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9X.c"]}"#,
    #"{"signedTransactions": ["\#(jws(renewalPayload))"]}"#,
    #"{"signedTransactions": ["eyJhbGciOiJFUzI1NiJ9\/.\#(jws(transactionPayload).split(separator: ".")[1]).c2ln"]}"#,
    #"{"signedTransactions": ["\#(jws(#"{"transactionId": "1", "productId": "p", "quantity": 1.5}"#))"]}"#,
    #"{"signedTransactions": [], "hasMore": "yes"}"#,
    #"{"signedTransactions": [], "revision": 5}"#,
    #"{"signedTransactions": [], "bundleId": null}"#,
    #"{"signedTransactions": [], "signedTransactions": []}"#,
    #"{"signedTransactions": {}}"#,
    // Subscription statuses: a group without its subscriptions, a status that is no integer,
    // renewal info in place of the transaction, an element that is no object
    #"{"data": [{"subscriptionGroupIdentifier": "g"}]}"#,
    #"{"data": [{"lastTransactions": [{"status": "active"}]}]}"#,
    #"{"data": [{"lastTransactions": [{"signedTransactionInfo": "\#(jws(renewalPayload))"}]}]}"#,
    #"{"data": [{"lastTransactions": [{"signedRenewalInfo": {"originalTransactionId": "1"}}]}]}"#,
    #"{"data": [5]}"#,
    #"{"data": [{"lastTransactions": [{"originalTransactionId": 12}]}]}"#,
    // Notification history: an item without its payload, a payload that is no notification or
    // one of a type this version does not know, no array
    #"{"notificationHistory": [{"sendAttemptResult": "SUCCESS"}]}"#,
    #"{"notificationHistory": [{"signedPayload": "\#(jws(transactionPayload))"}]}"#,
    #"{"notificationHistory": [{"signedPayload": "\#(jws(#"{"notificationType": "NEW", "signedDate": 1}"#))"}]}"#,
    #"{"notificationHistory": [{"signedPayload": "\#(jws(#"{"notification_type": "RENEWAL"}"#))"}]}"#,
    #"{"notificationHistory": {}}"#,
    // POST bodies and bare JWS: a payload that is itself a POST body or a JWS, a body that is
    // no string, a JWS of four parts or whose payload is not base64url
    #"{"signedPayload": "\#(jws(#"{"signedPayload": "\#(jws(transactionPayload))"}"#))"}"#,
    #"{"signedPayload": 5}"#,
    jws(jws(transactionPayload)), "\(jws(transactionPayload)).x", "a.b*c.d",
    "\(jws(transactionPayload))\n\(jws(transactionPayload))",
    // verifyReceipt: iOS 6 shapes, a missing id, a date of another type, a key given twice,
    // renewal fields at the top, an escape past ASCII, not JSON
    #"{"status": 0, "latest_receipt_info": {"transaction_id": "1", "product_id": "p"}}"#,
    #"{"status": 0, "receipt": {"transaction_id": "1", "product_id": "p"}}"#,
    #"{"status": 0, "latest_receipt_info": [{"product_id": "p"}]}"#,
    #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "product_id": "p", "purchase_date_ms": 5}]}"#,
    #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "transaction_id": "2", "product_id": "p"}]}"#,
    #"{"status": 0, "auto_renew_status": "0", "latest_receipt_info": []}"#,
    #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "product_id": "p\u00e9"}]}"#,
    #"{"status": 0, "latest_receipt_info": [], "latest_receipt_info": [{"transaction_id": "1", "product_id": "p"}]}"#,
    #"{"status": 01}"#, #"{"status": 0,}"#, "[]",
    // Keys of two kinds of document at once.
    #"{"notificationType": "DID_RENEW", "status": 0, "latest_receipt_info": []}"#,
    #"{"signedTransactions": [], "status": 0, "latest_receipt_info": []}"#,
    #"{"data": [], "notification_type": "INITIAL_BUY", "latest_receipt_info": []}"#,
    #"{"notificationHistory": [], "notificationType": "SUBSCRIBED", "signedDate": 1}"#,
    #"{"transactionId": "1", "productId": "p", "status": 0}"#,
    #"{"originalTransactionId": "1", "notificationType": "EXPIRED"}"#,
    #"{"signedPayload": "a.b.c", "transactionId": "1"}"#,
    // Refused, but not JSON after the object: the bytes' error wins (a mutated document the
    // fuzzer found).
    #"{"item_id": "1"}, "transaction_id": "2"}"#,
    #"{"status": 21007}]"#,
  ]

  /// What each of irregular reads as.
  static let irregularOutcomes: [String] = [
    #"StatusUpdateNotification; original_transaction_id: missing: the renewal info describes no subscription"#,
    #"StatusUpdateNotification"#,
    #"StatusUpdateNotification"#,
    #"error: unrecognized document: keys of 2 kinds of document at once (notificationType, notification_type): no document Apple sends has them together"#,
    #"ServerNotification; data.signedTransactionInfo: cannot decode the JWS payload: not a JWS: expected 3 parts separated by '.', found 1"#,
    #"ServerNotification"#,
    #"ServerNotification; data.signedTransactionInfo.transactionId: missing: the transaction cannot be keyed and is left out"#,
    #"ServerNotification; data.signedRenewalInfo.originalTransactionId: missing: the renewal info describes nothing"#,
    #"ServerNotification; notificationType: 5 is a notification type this version does not know: read as carrying no evidence"#,
    #"ServerNotification; data.signedTransactionInfo: the signed payload holds no AppStoreTransaction: data.signedTransactionInfo: expected an object, found an array"#,
    #"ServerNotification; data.signedRenewalInfo: the signed payload holds no AppStoreRenewalInfo: data.signedRenewalInfo: expected an object, found a number"#,
    #"AppStoreTransaction; productId: missing"#,
    #"AppStoreTransaction"#,
    #"AppStoreTransaction"#,
    #"AppStoreTransaction; isUpgraded: expected a boolean (true, false, "1", "0"), found 2"#,
    #"AppStoreTransaction"#,
    #"AppStoreTransaction"#,
    #"AppStoreRenewalInfo"#,
    #"AppStoreRenewalInfo; autoRenewStatus: expected a boolean (true, false, "1", "0"), found "yes""#,
    #"error: unrecognized document: an app transaction: it records the app's purchase, not an in-app one"#,
    #"error: unrecognized document: none of notificationType, notification_type, signedTransactions, notificationHistory, data, status, receipt, latest_receipt_info, transactionId, originalTransactionId"#,
    #"ServerNotification; subtype: SOMETHING_NEW is a subtype this version does not know: the notification is read by its type alone"#,
    #"TransactionHistoryResponse; signedTransactions[0]: expected a JWS string, found a number: left out"#,
    #"TransactionHistoryResponse; signedTransactions[0]: cannot read the signed transaction: not a JWS: the payload is not base64url"#,
    #"TransactionHistoryResponse; signedTransactions[0]: cannot read the signed transaction: not a JWS: expected 3 parts separated by '.', found 4"#,
    #"TransactionHistoryResponse; signedTransactions[0]: cannot read the signed transaction: not a JWS: expected 3 parts separated by '.', found 1"#,
    #"TransactionHistoryResponse; signedTransactions[0]: cannot read the signed transaction: not a JWS: the payload is not base64url"#,
    #"TransactionHistoryResponse; signedTransactions[0].transactionId: missing: the transaction cannot be keyed and is left out"#,
    #"TransactionHistoryResponse"#,
    #"TransactionHistoryResponse; signedTransactions[0].quantity: "1.5" is not an integer"#,
    #"TransactionHistoryResponse; hasMore: expected a boolean (true, false, "1", "0"), found "yes""#,
    #"TransactionHistoryResponse"#,
    #"TransactionHistoryResponse"#,
    #"TransactionHistoryResponse"#,
    #"TransactionHistoryResponse; signedTransactions: expected an array, found an object"#,
    #"SubscriptionStatusesResponse; data[0].lastTransactions: expected an array of the group's subscriptions"#,
    #"SubscriptionStatusesResponse; data[0].lastTransactions[0].status: "active" is not an integer"#,
    #"SubscriptionStatusesResponse; data[0].lastTransactions[0].signedTransactionInfo.transactionId: missing: the transaction cannot be keyed and is left out"#,
    #"SubscriptionStatusesResponse"#,
    #"SubscriptionStatusesResponse; data[0]: expected an object, found a number: left out"#,
    #"SubscriptionStatusesResponse"#,
    #"NotificationHistoryPage; notificationHistory[0].signedPayload: missing: the notification is left out"#,
    #"NotificationHistoryPage"#,
    #"NotificationHistoryPage; notificationHistory[0].signedPayload.notificationType: NEW is a notification type this version does not know: read as carrying no evidence"#,
    #"NotificationHistoryPage"#,
    #"NotificationHistoryPage; notificationHistory: expected an array of notifications"#,
    #"AppStoreTransaction"#,
    #"error: unrecognized document: none of notificationType, notification_type, signedTransactions, notificationHistory, data, status, receipt, latest_receipt_info, transactionId, originalTransactionId"#,
    #"error: not JSON: at byte 0: expected a value"#,
    #"error: not JSON: at byte 0: expected a value"#,
    #"error: not a JWS: the payload is not base64url"#,
    #"error: not JSON: at byte 0: expected a value"#,
    #"VerifyReceiptResponse"#,
    #"VerifyReceiptResponse"#,
    #"VerifyReceiptResponse; latest_receipt_info[0].transaction_id: missing: the entry cannot be keyed and is left out"#,
    #"VerifyReceiptResponse"#,
    #"VerifyReceiptResponse"#,
    #"VerifyReceiptResponse; original_transaction_id: missing: the renewal info describes no subscription"#,
    #"VerifyReceiptResponse"#,
    #"VerifyReceiptResponse"#,
    #"error: not JSON: at byte 12: a number may not start with 0"#,
    #"error: not JSON: at byte 13: expected a member name in quotes"#,
    #"error: (document): expected an object, found an array"#,
    #"error: unrecognized document: keys of 2 kinds of document at once (notificationType, status): no document Apple sends has them together"#,
    #"error: unrecognized document: keys of 2 kinds of document at once (signedTransactions, status): no document Apple sends has them together"#,
    #"error: unrecognized document: keys of 2 kinds of document at once (notification_type, data): no document Apple sends has them together"#,
    #"error: unrecognized document: keys of 2 kinds of document at once (notificationType, notificationHistory): no document Apple sends has them together"#,
    #"error: unrecognized document: keys of 2 kinds of document at once (status, transactionId): no document Apple sends has them together"#,
    #"error: unrecognized document: keys of 2 kinds of document at once (notificationType, originalTransactionId): no document Apple sends has them together"#,
    #"error: unrecognized document: keys of 2 kinds of document at once (signedPayload, transactionId): no document Apple sends has them together"#,
    #"error: not JSON: at byte 16: unexpected data after the document"#,
    #"error: not JSON: at byte 17: unexpected data after the document"#,
  ]

  /// Documents of every schema in Apple's usual shapes.
  static let regular: [String] = [
    #"""
    {"notification_type": "DID_RECOVER", "environment": "PROD", "auto_renew_status": "true",
     "password": "x", "unified_receipt": {"environment": "Sandbox", "status": 0,
       "latest_receipt": "MII\/T", "latest_receipt_info": [
       {"product_id": "p", "transaction_id": "2", "original_transaction_id": "1",
        "purchase_date_ms": "1487577600000", "expires_date_ms": "1490000000000"},
       {"product_id": "p", "transaction_id": "3", "original_transaction_id": "1",
        "purchase_date_ms": "1490000000000", "expires_date_ms": "1492000000000"}],
       "pending_renewal_info": [{"original_transaction_id": "1", "auto_renew_status": "1"}]}}
    """#,
    #"""
    {"notificationType": "DID_RENEW", "subtype": "BILLING_RECOVERY", "version": "2.0",
     "notificationUUID": "u", "signedDate": 1698148902000, "data": {"appAppleId": 1,
       "bundleId": "com.example", "environment": "Sandbox", "status": 1,
       "signedTransactionInfo": "\#(jws(transactionPayload))",
       "signedRenewalInfo": "\#(jws(renewalPayload))"}}
    """#,
    #"""
    {"notificationType": "DID_CHANGE_RENEWAL_PREF", "subtype": "UPGRADE",
     "signedDate": 1698148902000, "data": {"environment": "Production",
       "signedTransactionInfo": "\#(jws(transactionPayload))", "signedRenewalInfo": null}}
    """#,
    transactionPayload, renewalPayload,
    // A bare JWS (a stored payload, a line of a file) and a POST body.
    jws(transactionPayload), "\n  \(jws(renewalPayload))\r\n",
    #"{"signedPayload": "\#(jws(#"{"notificationType": "TEST", "signedDate": 1}"#))"}"#,
    #"{"signedPayload": "\#(jws(notificationPayload))"}"#,
    // The App Store Server API's pages, every JWS in them read.
    #"""
    {"revision": "1698148901000_2000000123", "bundleId": "com.example", "appAppleId": 1234,
     "environment": "Sandbox", "hasMore": true,
     "signedTransactions": ["\#(jws(transactionPayload))", "\#(jws(transactionPayload))"]}
    """#,
    #"{"signedTransactions": [], "hasMore": "0", "environment": "Production"}"#,
    #"""
    {"environment": "Sandbox", "bundleId": "com.example", "appAppleId": 1234, "data": [
      {"subscriptionGroupIdentifier": "21000000", "lastTransactions": [
        {"originalTransactionId": "2000000100", "status": "4",
         "signedTransactionInfo": "\#(jws(transactionPayload))",
         "signedRenewalInfo": "\#(jws(renewalPayload))"},
        {"originalTransactionId": "2000000200", "status": 2,
         "signedTransactionInfo": null, "signedRenewalInfo": null}]},
      {"lastTransactions": [], "extra": {"a": [1]}}]}
    """#,
    #"{"data": []}"#,
    // A notification whose data is null: absent, as any null field is.
    #"{"notificationType": "TEST", "signedDate": 1, "data": null}"#,
    #"""
    {"hasMore": false, "paginationToken": "t1", "notificationHistory": [
      {"signedPayload": "\#(jws(notificationPayload))",
       "sendAttempts": [{"attemptDate": 1698148902000, "sendAttemptResult": "SUCCESS"}]},
      {"signedPayload": "\#(jws(#"{"notificationType": "TEST", "signedDate": 1}"#))"}]}
    """#,
  ]

  /// The kind of each of ``regular``.
  static let regularKinds = [
    "StatusUpdateNotification", "ServerNotification", "ServerNotification", "AppStoreTransaction",
    "AppStoreRenewalInfo", "AppStoreTransaction", "AppStoreRenewalInfo", "ServerNotification",
    "ServerNotification", "TransactionHistoryResponse", "TransactionHistoryResponse",
    "SubscriptionStatusesResponse", "SubscriptionStatusesResponse", "ServerNotification",
    "NotificationHistoryPage",
  ]

  /// Every document has its outcome or its kind (`zip` would drop the documents past the
  /// last).
  @Test func everyDocumentHasItsOutcome() {
    #expect(Self.irregular.count == Self.irregularOutcomes.count)
    #expect(Self.regular.count == Self.regularKinds.count)
  }

  /// Each irregular document reads as its outcome says, consistently.
  @Test(arguments: zip(irregular, irregularOutcomes))
  func irregularDocumentsOfEverySchema(_ json: String, outcome: String) {
    ReaderTestSupport.expectRead(json, as: outcome)
  }

  /// Each regular document reads as its kind, with no diagnostic, consistently.
  @Test(arguments: zip(regular, regularKinds))
  func regularDocumentsOfEverySchema(_ json: String, kind: String) {
    ReaderTestSupport.expectRead(json, as: kind)
  }
}
