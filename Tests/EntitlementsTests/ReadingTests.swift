import Entitlements
import EntitlementsTesting
import Testing

/// Documents written from Apple's documented fields, each showing one reading rule.
@Suite("Reading realistic documents")
struct ReadingTests {
  static func read(_ json: String) throws -> any PurchaseDocument {
    try DocumentReader.readUnverified(Array(json.utf8)).document
  }

  static func entry(
    _ transaction: String, _ purchase: String, _ expires: String, product: String = "monthly",
    extra: String = ""
  ) -> String {
    """
    {"product_id": "\(product)", "transaction_id": "\(transaction)",
     "original_transaction_id": "1000", "web_order_line_item_id": "w\(transaction)",
     "quantity": "1", "purchase_date_ms": "\(instant(purchase).millisecondsSince1970)",
     "purchase_date": "\(purchase)", "expires_date_ms": "\(instant(expires).millisecondsSince1970)",
     "is_trial_period": "false", "is_in_intro_offer_period": "false"\(extra)}
    """
  }

  @Test func productionMonthlyRenewalsWithARefund() throws {
    let document = try Self.read(
      """
      {"status": 0, "environment": "Production",
       "receipt": {"receipt_type": "Production", "request_date_ms": "1500000000000",
                   "in_app": [\(Self.entry("1", "2017-01-01T00:00:00Z", "2017-02-01T00:00:00Z"))]},
       "latest_receipt_info": [
         \(Self.entry("1", "2017-01-01T00:00:00Z", "2017-02-01T00:00:00Z")),
         \(Self.entry("2", "2017-02-01T00:00:00Z", "2017-03-01T00:00:00Z",
             extra: #", "cancellation_date_ms": "1486598400000", "cancellation_reason": "1""#)),
         \(Self.entry("3", "2017-03-01T00:00:00Z", "2017-04-01T00:00:00Z"))],
       "pending_renewal_info": [{"original_transaction_id": "1000", "auto_renew_status": "1",
                                 "auto_renew_product_id": "monthly"}],
       "latest_receipt": "MIIT..."}
      """)
    #expect(document.environment == .production)
    #expect(document.timestamp == Instant(millisecondsSince1970: 1_500_000_000_000))
    let evaluation = Evaluator().evaluate(document.history)
    let subscription = try #require(evaluation["1000"])
    #expect(subscription.coverage.count == 3)
    #expect(subscription.lapses.map(\.cause) == [.refund])
    #expect(subscription.coverage[1].entry.cancellationReason == .appIssue)
    #expect(subscription.status(at: instant("2017-02-15")).state == .revoked)
    #expect(subscription.status(at: instant("2017-03-15")).willRenew == true)
  }

  @Test func sandboxSixFiveMinuteRenewals() throws {
    let start = instant("2020-07-16T14:00:00Z")
    let entries = (0...6).map { index in
      Self.entry(
        "\(index + 1)", (start + .minutes(5 * Int64(index))).description,
        (start + .minutes(5 * Int64(index + 1))).description)
    }
    let document = try Self.read(
      """
      {"status": 0, "environment": "Sandbox", "receipt": {"in_app": []},
       "latest_receipt_info": [\(entries.joined(separator: ","))],
       "pending_renewal_info": [{"original_transaction_id": "1000", "auto_renew_status": "0",
         "expiration_intent": "1", "is_in_billing_retry_period": "0"}]}
      """)
    #expect(document.environment == .sandbox)
    let subscription = try #require(Evaluator().evaluate(document.history)["1000"])
    #expect(
      subscription.periods.map(\.interval) == [Interval(start: start, end: start + .minutes(35))])
    #expect(subscription.status(at: start + .minutes(35)).reason == .voluntary)
    #expect(subscription.windows.last?.billingRetry.length == .minutes(10))
  }

  @Test func billingRetryWithAGracePeriod() throws {
    let document = try Self.read(
      """
      {"status": 0, "receipt": {"in_app": []},
       "latest_receipt_info": [\(Self.entry("1", "2017-03-20T08:00:00Z", "2017-04-20T08:00:00Z"))],
       "pending_renewal_info": [{"original_transaction_id": "1000", "auto_renew_status": "1",
         "expiration_intent": "2", "is_in_billing_retry_period": "1",
         "grace_period_expires_date": "2017-05-06 08:00:00 Etc/GMT",
         "grace_period_expires_date_ms": "1494057600000",
         "grace_period_expires_date_pst": "2017-05-06 01:00:00 America/Los_Angeles"}]}
      """)
    let subscription = try #require(Evaluator().evaluate(document.history)["1000"])
    #expect(subscription.status(at: instant("2017-05-01")).state == .gracePeriod)
    #expect(
      subscription.status(at: instant("2017-05-01")).gracePeriodEndsAt
        == instant("2017-05-06T08:00:00Z"))
    #expect(subscription.status(at: instant("2017-05-10")).state == .billingRetry)
    #expect(
      subscription.status(at: instant("2017-06-19T08:00:00Z")).reason == .billingRetryExhausted)
  }

  @Test func upgradeAndPendingDowngrade() throws {
    let document = try Self.read(
      """
      {"status": 0, "receipt": {"in_app": []},
       "latest_receipt_info": [
         \(Self.entry("1", "2017-01-01T00:00:00Z", "2017-02-01T00:00:00Z", product: "basic",
            extra: #", "is_upgraded": "true", "cancellation_date_ms": "1484524800000""#)),
         \(Self.entry("2", "2017-01-16T00:00:00Z", "2018-01-16T00:00:00Z", product: "premium"))],
       "pending_renewal_info": [{"original_transaction_id": "1000", "product_id": "premium",
         "auto_renew_product_id": "basic", "auto_renew_status": "1"}]}
      """)
    let subscription = try #require(Evaluator().evaluate(document.history)["1000"])
    #expect(subscription.coverage[0].interval == interval("2017-01-01", "2017-01-16"))
    #expect(subscription.lapses.isEmpty)
    guard case .active(let active) = subscription.status(at: instant("2017-06-01")) else {
      Issue.record("expected active")
      return
    }
    #expect(active.productID == "premium")
    #expect(active.nextProductID == "basic")
  }

  @Test func millisecondsWinAndEverySpellingReads() throws {
    let document = try Self.read(
      """
      {"status": 0, "receipt": {"in_app": [
        {"product_id": "p", "transaction_id": "1",
         "purchase_date": "2017-02-20 08:00:00 Etc/GMT", "purchase_date_ms": "1487577600123",
         "expires_date": "2017-03-20 00:00:00 America/Los_Angeles"},
        {"product_id": "p", "transaction_id": "2", "purchase_date": "2017-07-01T00:00:00-07:00",
         "expires_date_ms": 1501545600000, "is_trial_period": true, "quantity": 2},
        {"product_id": "p", "transaction_id": "3",
         "purchase_date_pst": "2017-12-01 00:00:00 America/Los_Angeles",
         "purchase_date": "2017-12-01 08:00:00 Etc/GMT", "expires_date": "1514764800000"}]}}
      """)
    #expect(document.diagnostics.isEmpty)
    let entries = document.entries
    // _ms wins over the string (which lacks the milliseconds).
    #expect(entries[0].purchaseDate?.millisecondsSince1970 == 1_487_577_600_123)
    // Pacific daylight time (it began on 12 March 2017): UTC-7.
    #expect(entries[0].expiresDate == instant("2017-03-20T07:00:00Z"))
    #expect(entries[1].purchaseDate == instant("2017-07-01T07:00:00Z"))
    #expect(entries[1].expiresDate == instant("2017-08-01T00:00:00Z"))
    #expect(entries[1].isTrialPeriod)
    #expect(entries[1].quantity == 2)
    #expect(entries[2].purchaseDate == instant("2017-12-01T08:00:00Z"))
    #expect(entries[2].expiresDate == instant("2018-01-01T00:00:00Z"))
  }

  @Test func unreadableFieldsAreReportedWithTheirPathAndTheRestIsKept() throws {
    let document = try Self.read(
      """
      {"status": 0, "receipt": {"in_app": [
        {"product_id": "p", "transaction_id": "1", "purchase_date_ms": "soon",
         "purchase_date": "2017-02-20T08:00:00Z", "expires_date_ms": "1487664000000",
         "is_trial_period": "maybe"},
        {"product_id": "p", "purchase_date_ms": "1487577600000"},
        42]}}
      """)
    #expect(document.entries.count == 1)
    #expect(document.entries.first?.purchaseDate == instant("2017-02-20T08:00:00Z"))
    #expect(
      document.diagnostics.map(\.field) == [
        "receipt.in_app[0].purchase_date_ms", "receipt.in_app[0].is_trial_period",
        "receipt.in_app[1].transaction_id", "receipt.in_app[2]",
      ])
    #expect(document.diagnostics.first?.transactionID == "1")
    #expect(document.diagnostics.allSatisfy { $0.kind == .unreadableField })
  }

  /// SPEC §10: a verifyReceipt status other than 0 and 21006 is an error naming the code, its
  /// meaning and whether retrying can help, never an empty history; from the document reader
  /// and from the typed entry point alike.
  @Test(arguments: [
    (21000, "POST", false), (21002, "malformed", true), (21003, "authenticated", false),
    (21004, "shared secret", false), (21005, "temporarily unable", true),
    (21007, "test environment", true), (21008, "production environment", true),
    (21009, "Internal data access", true), (21010, "cannot be found", false),
    (21150, "Internal data access", true),
  ])
  func aStatusThatCarriesNoReceiptIsAnError(code: Int, meaning: String, retryable: Bool) {
    let body = Array(#"{"status": \#(code), "receipt": {"in_app": []}}"#.utf8)
    let expected = ReadError.verifyReceiptStatus(VerifyReceiptStatusError(code: code))
    #expect(throws: expected) { try DocumentReader.readUnverified(body) }
    #expect(throws: expected) { try VerifyReceiptResponse(unverifiedJSON: body) }
    let error = VerifyReceiptStatusError(code: code)
    #expect(error.isRetryable == retryable)
    #expect(error.description.hasPrefix("status \(code): "))
    #expect(error.meaning.contains(meaning), "\(error.meaning)")
  }

  @Test func theEnvironmentErrorsSayWhereToVerify() {
    #expect(VerifyReceiptStatusError(code: 21007).retryEnvironment == .sandbox)
    #expect(VerifyReceiptStatusError(code: 21008).retryEnvironment == .production)
    #expect(
      ReadError.verifyReceiptStatus(VerifyReceiptStatusError(code: 21007)).description.hasSuffix(
        "(verify it against the sandbox)"))
    #expect(VerifyReceiptStatusError(code: 21004).description.hasSuffix("(retrying will not help)"))
  }

  /// 0 and 21006 (an expired iOS 6 style receipt, still returned) carry a history.
  @Test(arguments: [0, 21006])
  func statusesThatCarryAReceiptRead(code: Int) throws {
    let document = try DocumentReader.readUnverified(
      Array(#"{"status": \#(code), "receipt": {"in_app": []}}"#.utf8))
    guard case .verifyReceipt(let response) = document else {
      Issue.record("read as \(document)")
      return
    }
    #expect(response.status == code)
    #expect(throws: Never.self) { try response.requireSuccess() }
  }

  @Test func unknownNotificationTypesAreKept() throws {
    let document = try Self.read(#"{"notification_type": "SOMETHING_NEW", "environment": "PROD"}"#)
    let notification = try #require(document as? StatusUpdateNotification)
    #expect(notification.rawNotificationType == "SOMETHING_NEW")
    #expect(notification.notificationType == nil)
    #expect(notification.environment == .production)
  }

  @Test func v1NotificationTypesAreTyped() throws {
    for type in [
      "INITIAL_BUY", "CANCEL", "RENEWAL", "INTERACTIVE_RENEWAL", "DID_CHANGE_RENEWAL_PREF",
    ] {
      let notification = try #require(
        try Self.read(#"{"notification_type": "\#(type)"}"#) as? StatusUpdateNotification)
      #expect(notification.notificationType?.rawValue == type)
    }
  }

  @Test func malformedDocumentsAreTypedErrorsWithTheByteOffset() {
    #expect(
      throws: ReadError.malformedJSON(JSONSyntaxError(offset: 10, message: "expected a value"))
    ) {
      try Self.read(#"{"status":}"#)
    }
    #expect(throws: ReadError.self) { try Self.read("[1, 2]") }
    #expect(throws: ReadError.self) { try Self.read(#"{"hello": "world"}"#) }
    #expect(throws: ReadError.self) { try Self.read("abc.def.ghi") }
  }
}

@Suite("SubscriberRecord: any order, any number of times, one result")
struct SubscriberRecordTests {
  static let receipt = """
    {"status": 0, "receipt": {"receipt_creation_date_ms": "1490000000000", "in_app": []},
     "latest_receipt_info": [
       \(ReadingTests.entry("1", "2017-01-01T00:00:00Z", "2017-02-01T00:00:00Z")),
       \(ReadingTests.entry("2", "2017-02-01T00:00:00Z", "2017-03-01T00:00:00Z",
           extra: #", "cancellation_date_ms": "1486598400000""#))],
     "pending_renewal_info": [{"original_transaction_id": "1000", "auto_renew_status": "1"}]}
    """
  /// Later (newer timestamp): the refund of transaction 2 was reversed, and auto-renew is off.
  static let laterReceipt = """
    {"status": 0, "receipt": {"receipt_creation_date_ms": "1495000000000", "in_app": []},
     "latest_receipt_info": [
       \(ReadingTests.entry("2", "2017-02-01T00:00:00Z", "2017-03-01T00:00:00Z")),
       \(ReadingTests.entry("3", "2017-03-10T00:00:00Z", "2017-04-10T00:00:00Z"))],
     "pending_renewal_info": [{"original_transaction_id": "1000", "auto_renew_status": "0"}]}
    """
  static let renewal = """
    {"notification_type": "RENEWAL", "environment": "PROD", "unified_receipt": {
      "latest_receipt_info": [
        \(ReadingTests.entry("3", "2017-03-10T00:00:00Z", "2017-04-10T00:00:00Z"))]}}
    """

  static func documents() throws -> [any PurchaseDocument] {
    try [receipt, laterReceipt, renewal].map { try DocumentReader.readUnverified(Array($0.utf8)) }
  }

  @Test func theNewerDocumentWinsSoAReversedRefundComesBack() throws {
    var record = SubscriberRecord()
    for document in try Self.documents() { record.fold(document) }
    let subscription = try #require(Evaluator().evaluate(record.history)["1000"])
    #expect(subscription.coverage.allSatisfy { $0.entry.cancellationDate == nil })
    #expect(subscription.renewalInfo?.autoRenewStatus == false)
    // RENEWAL of an expired subscription: the Mar 1 – Mar 10 lapse was a billing recovery.
    #expect(subscription.lapses.map(\.cause) == [.billingError])
  }

  @Test(arguments: 0..<100 as Range<UInt64>)
  func anyOrderAnyRepetition(seed: UInt64) throws {
    let documents = try Self.documents()
    var reference = SubscriberRecord()
    for document in documents { reference.fold(document) }
    var random = SeededRandom(seed: seed)
    var sequence =
      documents
      + (0..<Int.random(in: 0...6, using: &random)).compactMap { _ in
        documents.randomElement(using: &random)
      }
    sequence.shuffle(using: &random)
    var record = SubscriberRecord()
    for document in sequence { record.fold(document) }
    #expect(record == reference, "seed \(seed)")
    #expect(record.history == reference.history)
  }
}

extension SubscriberRecordTests {
  /// A document made in memory: entries and upgrade evidence only.
  struct Evidence: PurchaseDocument {
    var entries: [ReceiptEntry]
    var upgrades: [UpgradeEvidence]
    var renewalInfo: [RenewalInfo] { [] }
    var billingRecoveries: [BillingRecovery] { [] }
    var environment: StoreEnvironment? { nil }
    var timestamp: Instant? { nil }
    var diagnostics: [Diagnostic] { [] }
  }

  /// Upgrade evidence marks exactly the entries of its subscription that it falls strictly
  /// inside, except the entry it upgraded to, on seeded records with evidence at the entries'
  /// edges, evidence naming the entry itself, and several subscriptions (the record finds
  /// the evidence by a search; the expected marks by a scan of all of it).
  @Test(arguments: 0..<20 as Range<UInt64>)
  func upgradeEvidenceMarksTheEntriesItFallsInside(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let start = instant("2020-01-01")
    let entries = (0..<60).map { index in
      let purchase = start + .days(random.int64(in: 0...200))
      return ReceiptEntry(
        productID: "monthly", transactionID: TransactionID("\(100 + index)"),
        originalTransactionID: OriginalTransactionID("\(random.int64(in: 1...3))"),
        purchaseDate: purchase, expiresDate: purchase + .days(random.int64(in: 0...40)),
        isUpgraded: random.chance(0.1))
    }
    let upgrades = (0..<40).map { _ in
      // On an entry's edge, or the entry itself as the new transaction, now and then.
      let entry = entries[Int(random.int64(in: 0...59))]
      let edge = random.chance(0.5) ? entry.purchaseDate : entry.expiresDate
      return UpgradeEvidence(
        originalTransactionID: random.chance(0.8)
          ? entry.originalTransactionID
          : OriginalTransactionID("\(random.int64(in: 1...3))"),
        newTransactionID: random.chance(0.3)
          ? entry.transactionID : TransactionID("\(900 + random.int64(in: 0...99))"),
        upgradedAt: random.chance(0.3)
          ? edge ?? start : start + .hours(random.int64(in: 0...(240 * 24))))
    }
    var record = SubscriberRecord()
    record.fold(Evidence(entries: entries, upgrades: upgrades))
    let marked = Dictionary(
      uniqueKeysWithValues: record.history.entries.map { ($0.transactionID, $0.isUpgraded) })
    for entry in entries {
      let expected =
        entry.isUpgraded
        || upgrades.contains { upgrade in
          upgrade.originalTransactionID == entry.originalTransactionID
            && upgrade.newTransactionID != entry.transactionID
            && entry.purchaseDate! < upgrade.upgradedAt
            && upgrade.upgradedAt < entry.expiresDate!
        }
      #expect(marked[entry.transactionID] == expected, "seed \(seed), \(entry.transactionID)")
    }
  }
}

@Suite("JSON reader")
struct JSONParserTests {
  @Test(arguments: [
    (#"{"a": [1, -2.5e3, true, false, null, "x\u00e9\ud83d\ude00\n"]}"#, true),
    ("  [ ]  ", true), ("0", true), (#""\/""#, true),
    ("[1,]", false), (#"{"a":1,}"#, false), ("01", false), ("1.", false), ("-", false),
    (#""\ud83d""#, false), ("\"\u{01}\"", false), ("[1] [2]", false), ("", false),
    ("tru", false), (#"{"a" 1}"#, false), ("1e", false), (#""\x""#, false),
  ])
  func acceptsJSONAndRefusesTheRest(text: String, valid: Bool) {
    let result = Result { () throws(JSONSyntaxError) in try JSONValue(parsing: Array(text.utf8)) }
    #expect(((try? result.get()) != nil) == valid, "\(text)")
  }

  @Test func decodesStringsAndKeepsNumberText() throws {
    let value = try JSONValue(
      parsing: Array(#"{"s": "a\"b\u00e9😀", "n": 1697679936049.7297}"#.utf8))
    #expect(value["s"] == .string("a\"bé😀"))
    #expect(value["n"] == .number("1697679936049.7297"))
  }

  @Test func errorsNameTheByteOffset() {
    #expect(throws: JSONSyntaxError(offset: 6, message: "expected true")) {
      try JSONValue(parsing: Array(#"{"a": tru}"#.utf8))
    }
    // Invalid UTF-8 inside a string: the offset of the bad byte.
    #expect(throws: JSONSyntaxError(offset: 3, message: "invalid UTF-8 in a string")) {
      try JSONValue(parsing: [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D])
    }
  }

  @Test func deepNestingIsRefusedNotACrash() {
    let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deep) }
    let fine =
      Array(repeating: UInt8(ascii: "["), count: 200)
      + Array(repeating: UInt8(ascii: "]"), count: 200)
    #expect(throws: Never.self) { try JSONValue(parsing: fine) }
  }
}

@Suite("JWS payloads")
struct JWSPayloadTests {
  @Test(arguments: [
    ("h.eyJhIjoxfQ.s", #"{"a":1}"#),
    ("h.eyJhIjoxfQ==.s", #"{"a":1}"#),
    ("h.eyJhIjoxfQ.", #"{"a":1}"#),
    ("..", ""),
    ("h.-_8.s", "\u{FB}\u{FF}"),
  ])
  func decodesThePayload(compact: String, payload: String) throws {
    let expected: [UInt8] =
      payload.unicodeScalars.allSatisfy(\.isASCII)
      ? Array(payload.utf8) : payload.unicodeScalars.map { UInt8($0.value) }
    #expect(try JWS.unverifiedPayload(of: compact) == expected)
  }

  @Test(arguments: [
    ("h.eyJhIjoxfQ", "expected 3 parts separated by '.', found 2"),
    ("eyJhIjoxfQ", "expected 3 parts separated by '.', found 1"),
    ("a.b.c.d", "expected 3 parts separated by '.', found 4"),
    ("h.eyJh@joxfQ.s", "the payload is not base64url"),
    ("h.eyJhI.s", "the payload is not base64url"),
    ("h.eyJ hIjoxfQ.s", "the payload is not base64url"),
  ])
  func refusesAMalformedJWS(compact: String, message: String) {
    #expect(throws: ReadError.malformedJWS(message)) { try JWS.unverifiedPayload(of: compact) }
  }
}
