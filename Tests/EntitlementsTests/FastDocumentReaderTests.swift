import EntitlementsTesting
import Foundation
import Testing

@testable import Entitlements

/// The byte-level reader gives the same answer as the general reader on every document of
/// every receipt schema, or gives up (and the general reader answers).
@Suite("Fast document reader agrees with the general reader")
struct FastDocumentReaderTests {
  /// Both readers on one document: the same document, or the byte-level reader gives up
  /// (`DocumentReader._readersDisagreement`); and the public entry point (fast first, general
  /// after) agrees with the general reader, document or error. `fast`: whether the byte-level
  /// reader read it.
  static func agree(_ bytes: [UInt8]) -> (agree: Bool, fast: Bool) {
    let general = Result { () throws(ReadError) in try DocumentReader.readGeneral(bytes) }
    let combined = Result { () throws(ReadError) in try DocumentReader.read(bytes) }
    let entryPointAgrees =
      switch (general, combined) {
      case (.success(let a), .success(let b)): DocumentReader.isSame(a, b)
      case (.failure(let a), .failure(let b)): a == b
      default: false
      }
    return (
      DocumentReader._readersDisagreement(bytes) == nil && entryPointAgrees,
      FastDocumentReader.read(bytes) != nil
    )
  }

  /// Whether two identifiers' strings are one allocation: the address of their UTF-8 bytes
  /// (ids longer than 15 bytes are never held inline, so equal text alone does not pass).
  static func shareStorage<ID: TypedIdentifier>(_ first: ID, _ second: ID) -> Bool {
    func address(_ id: ID) -> UnsafeRawPointer? {
      id.rawValue.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) }
        ?? nil
    }
    // A short string is held inline: equal text would pass for one allocation.
    guard first.rawValue.utf8.count > 15 else { return false }
    return first == second && address(first) != nil && address(first) == address(second)
  }

  /// A verifyReceipt response with these entries in `latest_receipt_info`, which both readers
  /// must read alike and the fast one must read itself.
  static func readFastly(
    entries: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> VerifyReceiptResponse {
    let json = #"{"status": 0, "latest_receipt_info": ["# + entries.joined(separator: ",") + "]}"
    let result = agree(Array(json.utf8))
    #expect(result.agree, sourceLocation: sourceLocation)
    #expect(result.fast, sourceLocation: sourceLocation)
    return try VerifyReceiptResponse(json: Array(json.utf8))
  }

  /// The comparison behind the agreement: the same value of the same type, nothing else.
  /// Keys of two kinds of document at once: neither reader picks one kind and drops the other
  /// kind's keys; both refuse the document, naming the kinds.
  @Test(arguments: [
    #"{"notificationType": "DID_RENEW", "status": 0, "latest_receipt_info": []}"#,
    #"{"signedTransactions": [], "status": 0, "latest_receipt_info": []}"#,
    #"{"data": [], "notification_type": "INITIAL_BUY", "latest_receipt_info": []}"#,
    #"{"notificationHistory": [], "notificationType": "SUBSCRIBED", "signedDate": 1}"#,
    #"{"transactionId": "1", "productId": "p", "status": 0}"#,
    #"{"originalTransactionId": "1", "notificationType": "EXPIRED"}"#,
    #"{"signedPayload": "a.b.c", "transactionId": "1"}"#,
  ])
  func documentsOfTwoKindsAreRefused(_ text: String) {
    let bytes = Array(text.utf8)
    #expect(FastDocumentReader.read(bytes) == nil)
    do {
      let document = try DocumentReader.read(bytes)
      Issue.record("read as \(document)")
    } catch {
      guard case .unrecognizedDocument(let reason) = error else {
        Issue.record("not refused as ambiguous: \(error)")
        return
      }
      #expect(reason.contains("2 kinds of document at once"), "\(reason)")
    }
  }

  @Test func documentsAreTheSameOnlyWhenEqualAndOfOneType() throws {
    let receipt = Array(#"{"status": 0, "latest_receipt_info": []}"#.utf8)
    let otherStatus = Array(#"{"status": 21006, "latest_receipt_info": []}"#.utf8)
    let transaction = Array(
      #"{"transactionId": "1", "originalTransactionId": "1", "productId": "p"}"#.utf8)
    let (a, b) = (try DocumentReader.readGeneral(receipt), try DocumentReader.read(receipt))
    let other = try DocumentReader.readGeneral(otherStatus)
    let another = try DocumentReader.readGeneral(transaction)
    #expect(DocumentReader.isSame(a, b))
    #expect(!DocumentReader.isSame(a, other))
    #expect(!DocumentReader.isSame(a, another) && !DocumentReader.isSame(another, a))
    // Read by the byte-level reader, then by the general reader alone.
    #expect(FastDocumentReader.read(receipt) != nil)
    #expect(DocumentReader._readersDisagreement(receipt) == nil)
    // Not JSON: the byte-level reader gives up, and there is nothing to compare.
    #expect(FastDocumentReader.read(Array("{".utf8)) == nil)
    #expect(DocumentReader._readersDisagreement(Array("{".utf8)) == nil)
  }

  @Test func everyFieldOfARegularDocument() throws {
    let json = #"""
      {"status": "0", "environment": "Production", "latest_receipt": "MII\/T+=",
       "receipt": {"receipt_type": "ProductionSandbox", "request_date_ms": "1490000000000",
         "receipt_creation_date": "2017-03-20 08:00:00 Etc/GMT", "in_app": [
         {"product_id": "p", "transaction_id": "1", "original_transaction_id": "1",
          "web_order_line_item_id": "w1", "quantity": 2, "purchase_date": "2017-02-20T08:00:00Z",
          "original_purchase_date_ms": "1487577600000", "expires_date_formatted":
          "2017-03-20 00:00:00 America/Los_Angeles", "cancellation_date_ms": "1488000000000",
          "cancellation_reason": "1", "is_trial_period": true, "is_in_intro_offer_period": "0",
          "is_upgraded": "false", "in_app_ownership_type": "FAMILY_SHARED",
          "offer_code_ref_name": "spring", "promotional_offer_id": "promo",
          "unknown": [1, {"a": null}, -2.5e3]}]},
       "latest_receipt_info": [],
       "pending_renewal_info": [{"original_transaction_id": "1", "product_id": "p",
          "auto_renew_product_id": "q", "auto_renew_status": "1", "expiration_intent": "2",
          "is_in_billing_retry_period": "1", "grace_period_expires_date_ms": "1490500000000",
          "price_consent_status": "0", "extra": true}]}
      """#
    let result = Self.agree(Array(json.utf8))
    #expect(result.agree)
    #expect(result.fast)
  }

  /// Product ids of one length that differ only inside, repeated and alternating: each entry
  /// keeps its own (the reader reuses the last id's `String` only for the same bytes), and
  /// names one byte away from a known key are unknown keys, skipped as the general reader
  /// skips them.
  /// The reader scans strings eight bytes at a time: an escape, a quote, a control character
  /// or a non-ASCII byte at any offset of a word must still be seen, in a value it keeps
  /// (`transaction_id`), a value it matches (`product_id`), a value it skips and a member name.
  @Test(
    arguments: [
      (#"\/"#, "/"), (#"\""#, "\""), (#"\n"#, "\n"), (#"\u0041"#, "A"), ("é", "é"),
      ("\u{7F}", "\u{7F}"), ("\u{01}", nil),  // a raw control character: not JSON
    ] as [(String, String?)])
  func specialBytesAtEveryOffsetOfAWord(special: String, decoded: String?) throws {
    let plain = "abcdefghijklmnopqrstuvwxyz0123456789"
    for offset in 0...20 {
      let prefix = String(plain.prefix(offset))
      let suffix = String(plain.dropFirst(offset).prefix(11))
      let text = prefix + special + suffix
      let documents = [
        #"{"status": 0, "latest_receipt_info": [{"product_id": "p", "transaction_id": "\#(text)"}]}"#,
        #"{"status": 0, "latest_receipt_info": [{"product_id": "\#(text)", "transaction_id": "1"}]}"#,
        #"{"status": 0, "latest_receipt_info": [{"product_id": "p", "transaction_id": "1", "x": "\#(text)"}]}"#,
        #"{"status": 0, "latest_receipt_info": [{"product_id": "p", "transaction_id": "1", "\#(text)": 1}]}"#,
      ]
      for json in documents {
        let result = Self.agree(Array(json.utf8))
        #expect(result.agree, "\(json)")
      }
      // A value the reader keeps is decoded exactly, whichever reader takes it.
      let response = try? VerifyReceiptResponse(json: Array(documents[0].utf8))
      #expect(
        response?.entries.first?.transactionID.rawValue == decoded.map { prefix + $0 + suffix })
    }
  }

  @Test func repeatedAndNearlyEqualNames() throws {
    let products = [
      "com.example.monthly.aaaa", "com.example.monthly.aaaa", "com.example.monthly.aaab",
      "com.example.monthly.aaaa", "com.example.weekly.aaaaa", "com.example.weekly.aaaaa",
      #"com.example\/weekly.aaa"#, #"com.example\/weekly.aaa"#, "com.example/weekly.aaa",
      "com.example.yearly.ab1", "com.example.yearly.ab2", "com.example.yearly.ab2",
    ]
    let entries = products.enumerated().map { number, product in
      """
      {"product_id": "\(product)", "transaction_id": "\(number)", "purchase_date_ms": "\(number)000",
       "expires_date_ms": "\(number)500", "product_ie": "x", "transaction_iD": "9",
       "purchase_date_mt": "1", "expires_date_ms2": "2"}
      """
    }
    let response = try Self.readFastly(entries: entries)
    #expect(
      response.entries.map(\.productID.rawValue)
        == products.map { $0.replacingOccurrences(of: "\\/", with: "/") })
    #expect(response.entries.map(\.transactionID.rawValue) == products.indices.map(String.init))
  }

  /// Product ids and original transaction ids recur among more than the reader remembers of
  /// each kind (four): each is read exactly, whichever place it took. Ids that alternate
  /// among a few share one string per id (one allocation, not one per entry).
  @Test func recurringIDsAreReadExactlyAndShared() throws {
    let products = (0..<40).map { "com.example.product.\([0, 1, 2, 0, 3, 4, 5, 1, 0][$0 % 9])" }
    let originals = (0..<40).map { "100000000000000\([0, 1, 0, 2, 3, 4, 0][$0 % 7])" }
    let entries = products.indices.map { number in
      """
      {"product_id": "\(products[number])", "transaction_id": "\(number)", \
      "original_transaction_id": "\(originals[number])", "purchase_date_ms": "\(number)000"}
      """
    }
    let read = try Self.readFastly(entries: entries).entries
    #expect(read.map(\.productID.rawValue) == products)
    #expect(read.map(\.originalTransactionID.rawValue) == originals)
    // Two products and two subscriptions alternating: one string each.
    let alternating = try Self.readFastly(entries: Array(entries.prefix(2) + entries.prefix(2)))
      .entries
    #expect(Self.shareStorage(alternating[0].productID, alternating[2].productID))
    #expect(Self.shareStorage(alternating[1].productID, alternating[3].productID))
    #expect(
      Self.shareStorage(alternating[0].originalTransactionID, alternating[2].originalTransactionID))
    #expect(
      Self.shareStorage(alternating[1].originalTransactionID, alternating[3].originalTransactionID))
  }

  /// Documents read one after another from one buffer with what the reader learnt carried
  /// over (as `entitlements evaluate` reads a line): each is the document read alone, whatever
  /// ids of the same length and keys in another order came before it, and each ends where the
  /// next begins; an id met in an earlier document shares its string.
  @Test func documentsReadInTurnWithOneMemoAreEachReadExactly() throws {
    let products = [0, 1, 0, 2, 3, 4, 0, 1].map { "com.example.product.\($0)" }
    let originals = [0, 1, 0, 2, 0, 3, 4, 0].map { "100000000000000\($0)" }
    let documents = products.indices.map { number in
      // Every other document lists its keys in another order, one with a near-miss name.
      number % 2 == 0
        ? """
        {"transactionId": "200000000000000\(number)", "productId": "\(products[number])", \
        "originalTransactionId": "\(originals[number])", "purchaseDate": \(number + 1)000}
        """
        : """
        {"originalTransactionId": "\(originals[number])", "productId": "\(products[number])", \
        "purchaseDatf": 1, "transactionId": "200000000000000\(number)", "purchaseDate": \(number + 1)000}
        """
    }
    let buffer = Array(documents.joined(separator: ", ").utf8)
    var reader = FastDocumentReader()
    var start = 0
    var read: [AppStoreDocument] = []
    try buffer.withUnsafeBufferPointer { buffer in
      for document in documents {
        let end = try #require(
          FastDocumentReader.read(buffer, objectAt: start, reusing: &reader) { read.append($0) })
        #expect(end == start + document.utf8.count)
        start = end + 2
      }
    }
    try #require(read.count == documents.count)
    for (document, inTurn) in zip(documents, read) {
      let alone = try DocumentReader.read(Array(document.utf8))
      #expect(DocumentReader.isSame(inTurn, alone), "\(document)")
    }
    // Folded in turn with one memo, as `entitlements evaluate` folds a line: the same record.
    var memo = DocumentReader.Memo()
    var record = SubscriberRecord()
    var expected = SubscriberRecord()
    start = 0
    try buffer.withUnsafeBufferPointer { buffer in
      for document in documents {
        let (end, refusal) = try #require(
          DocumentReader.fold(buffer, objectAt: start, into: &record, memo: &memo))
        #expect(refusal == nil)
        expected.fold(try DocumentReader.read(Array(document.utf8)))
        start = end + 2
      }
    }
    #expect(record == expected)
    // A second line, in a buffer of its own, read with the memo of the first: ids are read
    // from its bytes, never from where the first line had them.
    let second = Array(documents.reversed().joined(separator: ",").utf8)
    var again = SubscriberRecord()
    start = 0
    try second.withUnsafeBufferPointer { buffer in
      for document in documents.reversed() {
        let (end, _) = try #require(
          DocumentReader.fold(buffer, objectAt: start, into: &again, memo: &memo))
        #expect(end == start + document.utf8.count)
        start = end + 1
      }
    }
    #expect(again == expected)
    guard case .transaction(let first) = read[0], case .transaction(let third) = read[2],
      let a = first.entry, let b = third.entry
    else {
      Issue.record("not transactions: \(read)")
      return
    }
    #expect(Self.shareStorage(a.productID, b.productID))
    #expect(Self.shareStorage(a.originalTransactionID, b.originalTransactionID))
  }

  /// The keys that the reading of every kind (`anyDocument`) reads for other kinds than
  /// payloads: each makes the short reading of payloads hand the document over.
  static let keysOfOtherKinds = [
    "status", "receipt", "latest_receipt_info", "latest_expired_receipt_info", "signedPayload",
    "notificationType", "notification_type", "signedTransactions", "notificationHistory", "data",
    "latest_receipt", "pending_renewal_info", "unified_receipt", "subtype",
  ]

  /// Every key the reader knows (its `Key` cases, so that a key added later is covered with
  /// no change here), and one it does not.
  static let everyKey =
    FastDocumentReader.Key.allCases.filter { $0 != .unknown }.map { "\($0.name)" } + ["unlisted"]

  /// The members of payloads that the reader skips without asking `payloadField` are members
  /// `payloadField` declines: no field it reads is skipped.
  @Test func membersSkippedInPayloadsAreMembersNoFieldIsReadFrom() {
    let value = Array(#""1""#.utf8)
    var skipped: [FastDocumentReader.Key] = []
    value.withUnsafeBufferPointer { buffer in
      for key in FastDocumentReader.Key.allCases
      where FastDocumentReader.isUnreadPayloadMember(key) {
        skipped.append(key)
        var reader = FastDocumentReader(bytes: buffer)
        var fields = FastDocumentReader.PayloadFields()
        #expect((try? reader.payloadField(key, &fields)) == false, "\(key)")
      }
    }
    // The transaction's own fields are read, not skipped.
    #expect(!skipped.contains(.transactionId) && !skipped.contains(.productId))
    #expect(skipped.contains(.bundleId) && skipped.contains(.unknown))
  }

  /// Each key's spelt-out name, which the reader matches member names against, is its case's
  /// name: Apple's JSON key.
  @Test func eachKeysNameIsItsCasesName() {
    for key in FastDocumentReader.Key.allCases where key != .unknown {
      #expect("\(key.name)" == "\(key)")
    }
    #expect("\(FastDocumentReader.Key.unknown.name)".isEmpty)
  }

  /// A transaction or renewal payload with a key of another kind of document is handed by the
  /// short reading of payloads to the reading of every kind, which then reads it from its
  /// start; with any other key it is read short (or given up on, for a payload's own key with
  /// a value of the wrong type). Whatever the key and its value, the answer is the reading of
  /// every kind's, and the general reader's: a key that the reading of every kind reads for
  /// another kind, missing from the short reading's list, fails here.
  @Test(
    arguments: everyKey,
    [#"0"#, #""DID_RENEW""#, #"[]"#, #"{}"#, #"[{"original_transaction_id": "1"}]"#])
  func aPayloadWithAnyKeyIsReadAsTheReadingOfEveryKindReadsIt(key: String, value: String) {
    for id in ["transactionId", "originalTransactionId"] {
      let json = """
        {"\(id)": "2000000000000001", "productId": "com.example.a", "\(key)": \(value), \
        "purchaseDate": 1000}
        """
      let bytes = Array(json.utf8)
      let (short, entry, every) = bytes.withUnsafeBufferPointer { buffer in
        var reader = FastDocumentReader(bytes: buffer)
        let short: String
        do throws(FastDocumentReader.GiveUp) {
          _ = try reader.transactionOrRenewal(alone: true)
          short = "read"
        } catch {
          short = error.otherKind ? "handed over" : "gave up"
        }
        var entry = FastDocumentReader(bytes: buffer)
        var every = FastDocumentReader(bytes: buffer)
        return (short, try? entry.document(.document), try? every.anyDocument(.document))
      }
      if Self.keysOfOtherKinds.contains(key) {
        #expect(short == "handed over", "\(json)")
      } else if every != nil {
        // A payload the reading of every kind reads is read short too.
        #expect(short == "read", "\(json)")
      } else {
        // A payload's own key with a value of the wrong type: both readings give up.
        #expect(short == "gave up", "\(json)")
      }
      switch (entry, every) {
      case (nil, nil): break
      case (let entry?, let every?): #expect(DocumentReader.isSame(entry, every), "\(json)")
      default: Issue.record("one reading gives up, the other does not: \(json)")
      }
      #expect(Self.agree(bytes).agree, "\(json)")
    }
  }

  /// A payload's environment, matched on its bytes for Apple's two usual spellings, is the one
  /// the general reader names for every spelling: in a transaction, in a renewal info, in a
  /// bare JWS and in a signed field of a page; the byte-level reader reads each but an escaped
  /// spelling and a number, which it leaves to the general reader.
  @Test(arguments: [
    (#""Production""#, StoreEnvironment.production, true), (#""Sandbox""#, .sandbox, true),
    (#""Xcode""#, .xcode, true), (#""LocalTesting""#, .localTesting, true),
    (#""PROD""#, .production, true), (#""sandbox""#, .sandbox, true),
    (#""Productio""#, nil, true), (#""Sandboxes""#, nil, true),
    (#""Prod\u0075ction""#, .production, false), (#"5"#, nil, false),
  ])
  func aPayloadsEnvironmentIsNamedAsTheGeneralReaderNamesIt(
    value: String, environment: StoreEnvironment?, readFast: Bool
  ) throws {
    let transaction = """
      {"transactionId": "2000000000000001", "productId": "com.example.a", \
      "environment": \(value), "purchaseDate": 1000}
      """
    let renewal = """
      {"originalTransactionId": "2000000000000001", "environment": \(value), \
      "autoRenewStatus": 1}
      """
    let page = #"{"signedTransactions": ["\#(Self.jws(transaction))"], "hasMore": false}"#
    for document in [transaction, renewal, Self.jws(transaction), page] {
      let agreement = Self.agree(Array(document.utf8))
      #expect(agreement.agree, "\(document)")
      #expect(agreement.fast == readFast, "\(document)")
      let named: StoreEnvironment?? =
        switch try DocumentReader.read(Array(document.utf8)) {
        case .transaction(let read): read.environment
        case .renewal(let read): read.environment
        case .transactionHistory(let read): read.transactions.first?.environment
        default: .none
        }
      #expect(named == .some(environment), "\(document)")
    }
  }

  /// A reader reused for the next document forgets where the ids of the one before were: the
  /// same bytes in another buffer, with other ids at the same places, are read from their own
  /// bytes, and a shorter buffer, which ends before the places of the ids read last, too.
  @Test(arguments: [
    ("com.example.product.b", "1000000000000002"),
    ("com.example.product.a", "1000000000000002"),
    ("com.example.product.b", "1000000000000001"),
  ])
  func aReusedReaderReadsEachBufferOnItsOwn(product: String, original: String) throws {
    func response(_ products: [String], _ original: String) -> String {
      let entries = products.map { product in
        """
        {"product_id": "\(product)", "transaction_id": "2000000000000001", \
        "original_transaction_id": "\(original)", "purchase_date_ms": "1000"}
        """
      }
      return #"{"status": 0, "latest_receipt_info": [\#(entries.joined(separator: ", "))]}"#
    }
    var memo = DocumentReader.Memo()
    var first = SubscriberRecord()
    let products = ["a", "c", "d"].map { "com.example.product.\($0)" }
    let firstBytes = Array(response(products, "1000000000000001").utf8)
    _ = try firstBytes.withUnsafeBufferPointer { buffer in
      try #require(DocumentReader.fold(buffer, objectAt: 0, into: &first, memo: &memo))
    }
    for count in [1, 3] {
      let text = response(Array(repeating: product, count: count), original)
      var inPlace = SubscriberRecord()
      _ = try Array(text.utf8).withUnsafeBufferPointer { buffer in
        try #require(DocumentReader.fold(buffer, objectAt: 0, into: &inPlace, memo: &memo))
      }
      var alone = SubscriberRecord()
      alone.fold(try DocumentReader.read(Array(text.utf8)))
      #expect(inPlace == alone, "\(count) entries")
      let entry = try #require(inPlace.history.entries.first)
      #expect(entry.productID.rawValue == product)
      #expect(entry.originalTransactionID.rawValue == original)
    }
  }

  /// Every kind of document folded in place (``DocumentReader/fold(_:objectAt:into:memo:)``,
  /// which folds a transaction or a renewal info from its fields, with no document made) gives
  /// the record that reading it and folding the document gives, after the same documents
  /// before it; a verifyReceipt status that carries no receipt is refused and folds nothing; a
  /// document the byte-level reader does not read (here, a key given twice) folds nothing and
  /// is left to the general reader.
  @Test(arguments: [
    (
      #"{"transactionId": "2000000000000007", "originalTransactionId": "2000000000000001", "productId": "com.example.monthly", "purchaseDate": 1700000000000, "expiresDate": 1702592000000, "signedDate": 1700000001000, "environment": "Sandbox"}"#,
      "folded"
    ),
    (
      #"{"transactionId": "2000000000000002", "originalTransactionId": "2000000000000001", "productId": "com.example.monthly", "purchaseDate": 1, "revocationDate": 2, "environment": "Production"}"#,
      "folded"
    ),
    (
      #"{"originalTransactionId": "2000000000000001", "autoRenewProductId": "com.example.monthly", "autoRenewStatus": 0, "expirationIntent": 1, "signedDate": 1700000002000}"#,
      "folded"
    ),
    (
      #"{"status": 0, "environment": "Production", "latest_receipt_info": [{"product_id": "com.example.monthly", "transaction_id": "2000000000000003", "original_transaction_id": "2000000000000001", "purchase_date_ms": "1000"}]}"#,
      "folded"
    ),
    (
      #"{"notificationType": "DID_RENEW", "data": {"environment": "Sandbox", "status": 1}, "signedDate": 5}"#,
      "folded"
    ),
    (#"{"status": 21010}"#, "refused"),
    (#"{"transactionId": "2000000000000009", "productId": "a", "productId": "b"}"#, "left"),
  ])
  func everyKindFoldsInPlaceAsReadAndFolded(document: String, outcome: String) throws {
    let before =
      #"{"transactionId": "2000000000000001", "originalTransactionId": "2000000000000001", "productId": "com.example.monthly", "purchaseDate": 1, "environment": "Production"}"#
    var memo = DocumentReader.Memo()
    var inPlace = SubscriberRecord()
    var expected = SubscriberRecord()
    for (text, last) in [(before, false), (document, true)] {
      let bytes = Array(text.utf8)
      let folded = bytes.withUnsafeBufferPointer { buffer in
        DocumentReader.fold(buffer, objectAt: 0, into: &inPlace, memo: &memo)
      }
      // The general reader's document: the fold in place must not be checked against the
      // byte-level reader's own reading.
      let read = Result { () throws(ReadError) in try DocumentReader.readGeneral(bytes) }
      guard last else {
        expected.fold(try read.get())
        continue
      }
      switch outcome {
      case "folded":
        #expect(folded?.end == bytes.count && folded?.refusal == nil)
        expected.fold(try read.get())
      case "refused":
        #expect(folded?.end == bytes.count)
        guard case .failure(let error) = read else {
          Issue.record("read, not refused")
          return
        }
        #expect(folded?.refusal == error)
      default:
        #expect(folded == nil)
      }
    }
    #expect(inPlace == expected)
  }

  /// A reader reused for the next document forgets where the last JWS header was: a page whose
  /// header lies far into a long buffer, then a page in a short buffer, are each read as alone
  /// (a debug build traps reading past the short buffer's end when the header is not forgotten).
  @Test func aReusedReaderForgetsWhereTheLastHeaderWas() throws {
    let short = #"{"transactionId": "1", "productId": "p", "purchaseDate": 1}"#
    let pages = [Self.transactionPayload, short].map {
      #"{"signedTransactions": ["\#(Self.jws($0))"], "hasMore": false}"#
    }
    let long = Array(String(repeating: " ", count: 4_096).utf8) + Array(pages[0].utf8)
    let buffers = [(long, 4_096), (Array(pages[1].utf8), 0)]
    var memo = DocumentReader.Memo()
    for ((bytes, start), page) in zip(buffers, pages) {
      var inPlace = SubscriberRecord()
      let folded = bytes.withUnsafeBufferPointer { buffer in
        DocumentReader.fold(buffer, objectAt: start, into: &inPlace, memo: &memo)
      }
      #expect(folded?.end == bytes.count)
      // Between documents the reader holds no place in bytes it read.
      #expect(memo.reader.lastHeader == nil)
      #expect(memo.reader.bytes.isEmpty && memo.reader.index == 0)
      var alone = SubscriberRecord()
      alone.fold(try DocumentReader.read(Array(page.utf8)))
      #expect(inPlace == alone)
    }
  }

  /// Renewal info names its subscription and products in the strings of the entries before
  /// it (one allocation per id, not one per mention).
  @Test func renewalInfoSharesTheEntriesIDs() throws {
    let json = """
      {"status": 0, "latest_receipt_info": [{"product_id": "com.example.product.monthly", \
      "transaction_id": "1000000000000005", "original_transaction_id": "1000000000000001", \
      "purchase_date_ms": "1000"}], "pending_renewal_info": [{"auto_renew_product_id": \
      "com.example.product.monthly", "original_transaction_id": "1000000000000001", \
      "product_id": "com.example.product.monthly", "auto_renew_status": "1"}]}
      """
    let result = Self.agree(Array(json.utf8))
    #expect(result.agree && result.fast)
    let response = try VerifyReceiptResponse(json: Array(json.utf8))
    let entry = try #require(response.entries.first)
    let info = try #require(response.renewalInfo.first)
    let (product, autoRenewProduct) = try (
      #require(info.productID), #require(info.autoRenewProductID)
    )
    #expect(Self.shareStorage(info.originalTransactionID, entry.originalTransactionID))
    #expect(Self.shareStorage(product, entry.productID))
    #expect(Self.shareStorage(autoRenewProduct, entry.productID))
  }

  /// The reader predicts each key from the one before it in the previous object and checks
  /// the prediction on the bytes: names of the same length, names one byte apart, a name
  /// that the predicted one begins, and short names after the same key must all be told
  /// apart.
  @Test func predictedKeysAreCheckedOnTheirBytes() throws {
    let third = [
      "purchase_date_ms", "expires_date_pst", "purchase_date_ms", "purchase_date_ms2",
      "purchase_date_ms", "purchase_date_mt",
      "expires_date_ms", "expires_date_mt", "expires_date_ms", "a", "ab", "a", "quantity",
      "quantitz", "purchase_date_ms",
    ]
    let entries = third.enumerated().map { number, name in
      #"{"product_id": "p", "transaction_id": "\#(number)", "\#(name)": "\#(number + 1)000"}"#
    }
    let response = try Self.readFastly(entries: entries)
    #expect(
      response.entries.map { $0.purchaseDate?.millisecondsSince1970 }
        == third.enumerated().map { $1 == "purchase_date_ms" ? Int64($0 + 1) * 1000 : nil })
    #expect(
      response.entries.map { $0.expiresDate?.millisecondsSince1970 }
        == third.enumerated().map { $1 == "expires_date_ms" ? Int64($0 + 1) * 1000 : nil })
    #expect(
      response.entries.map(\.quantity)
        == third.enumerated().map { $1 == "quantity" ? ($0 + 1) * 1000 : 1 })
  }

  /// Ids of equal length that differ only in one word (bytes 0–7, 8–15, 16–23 or the last
  /// eight), and ids one of which begins the other, are told apart when read in turn with one
  /// memo, short ones (under 8 bytes) too; ids too long (over 32) for the words are still read
  /// exactly and shared.
  @Test(arguments: [
    ("com.example.product.monthly", "com.exbmple.product.monthly"),
    ("com.example.product.monthly", "com.example.prodact.monthly"),
    ("com.example.product.monthly", "com.examplE.product.monthly"),
    ("com.example.product.monthly", "com.example.product.monthlY"),
    ("2000000000000001", "2000000000000011"),
    ("200000000000000000001", "200000000100000000001"),
    ("prod", "prud"),
    ("p", "q"),
    ("abcdefg", "abcdefh"),
    ("com.example.product.monthly", "com.example.product.monthly.2"),
    ("com.example.product.monthly.2", "com.example.product.monthly"),
    (
      "com.example.app.subscriptions.premium.yearly", "com.example.app.subscriptions.premium.yearlY"
    ),
  ])
  func memoizedIDsAreToldApartByEveryWord(first: String, second: String) throws {
    let order = [first, second, second, first, first, second]
    let documents = order.enumerated().map { number, id in
      #"{"transactionId": "\#(number + 1)", "originalTransactionId": "\#(id)", "productId": "\#(id)", "purchaseDate": 1}"#
    }
    let buffer = Array(documents.joined(separator: ",").utf8)
    var reader = FastDocumentReader()
    var read: [ReceiptEntry] = []
    var start = 0
    try buffer.withUnsafeBufferPointer { buffer in
      for _ in documents {
        let end = try #require(
          FastDocumentReader.read(buffer, objectAt: start, reusing: &reader) { document in
            if case .transaction(let transaction) = document, let entry = transaction.entry {
              read.append(entry)
            }
          })
        start = end + 1
      }
    }
    #expect(read.map(\.productID.rawValue) == order)
    #expect(read.map(\.originalTransactionID.rawValue) == order)
    if first.utf8.count > 15 {
      #expect(Self.shareStorage(read[0].productID, read[3].productID))
      #expect(Self.shareStorage(read[1].productID, read[5].productID))
      #expect(Self.shareStorage(read[0].originalTransactionID, read[4].originalTransactionID))
    }
  }

  /// Ids of 1 to 9 bytes that differ only in their last byte, written as the last member of
  /// the last payload, so that fewer than eight bytes follow where the short ones start (their
  /// word is then read byte by byte): each is read exactly, in every order, with one memo.
  @Test(arguments: 1...9)
  func shortIDsAtTheEndOfTheBytesAreToldApart(length: Int) throws {
    let first = String(repeating: "p", count: length)
    let second = String(repeating: "p", count: length - 1) + "q"
    let order = [first, second, second, first, first, second]
    let documents = order.enumerated().map { number, id in
      #"{"transactionId": "\#(number + 1)", "purchaseDate": 1, "productId": "\#(id)"}"#
    }
    var read: [String] = []
    var reader = FastDocumentReader()
    // Each payload alone in its own bytes: the id is two bytes from their end.
    for document in documents {
      let bytes = Array(document.utf8)
      try bytes.withUnsafeBufferPointer { buffer in
        _ = try #require(
          FastDocumentReader.read(buffer, objectAt: 0, reusing: &reader) { document in
            if case .transaction(let transaction) = document, let entry = transaction.entry {
              read.append(entry.productID.rawValue)
            }
          })
      }
    }
    #expect(read == order)
  }

  @Test(arguments: [
    #"{"status": 0, "latest_receipt_info": {"transaction_id": "1", "product_id": "p"}}"#,
    #"{"status": 0, "receipt": {"transaction_id": "1", "product_id": "p"}}"#,
    #"{"status": 0, "latest_receipt_info": [{"product_id": "p"}]}"#,
    #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "product_id": "p", "purchase_date_ms": 5}]}"#,
    #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "transaction_id": "2", "product_id": "p"}]}"#,
    #"{"status": 0, "auto_renew_status": "0", "latest_receipt_info": []}"#,
    #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "product_id": "p\u00e9"}]}"#,
    #"{"status": 0, "latest_receipt_info": [], "latest_receipt_info": [{"transaction_id": "1", "product_id": "p"}]}"#,
    #"{"status": 01}"#, #"{"status": 0,}"#, "[]",
  ])
  func irregularDocumentsFallBackAndAgree(_ json: String) {
    let result = Self.agree(Array(json.utf8))
    #expect(result.agree)
    #expect(!result.fast)
  }

  /// A memo's buffers of decoded payloads keep a page's capacity from document to document,
  /// and are freed by `trim()` once a payload has grown them past `bytesKept`; what the reader
  /// learnt stays (the next page is read alike).
  @Test func aMemoTrimsOnlyBuffersGrownPastTheirBound() throws {
    func page(padding: Int) -> [UInt8] {
      let payload = Self.transactionPayload.replacingOccurrences(
        of: #""offerPeriod": "P1M"}"#,
        with: #""offerPeriod": "P1M", "padding": "\#(String(repeating: "x", count: padding))"}"#)
      return Array(
        #"{"signedTransactions": ["\#(Self.jws(payload))"], "hasMore": false, "revision": "r"}"#
          .utf8)
    }
    var memo = DocumentReader.Memo()
    func fold(_ bytes: [UInt8]) throws -> SubscriberRecord {
      var record = SubscriberRecord()
      let folded = bytes.withUnsafeBufferPointer { buffer in
        DocumentReader.fold(buffer, objectAt: 0, into: &record, memo: &memo)
      }
      let (end, refusal) = try #require(folded)
      #expect(end == bytes.count && refusal == nil)
      return record
    }
    let small = try fold(page(padding: 10))
    let smallCapacity = memo.bufferCapacities.payloads
    #expect(smallCapacity > 0 && smallCapacity <= DocumentReader.Memo.bytesKept)
    memo.trim()
    #expect(memo.bufferCapacities.payloads == smallCapacity)
    _ = try fold(page(padding: DocumentReader.Memo.bytesKept + 1))
    #expect(memo.bufferCapacities.payloads > DocumentReader.Memo.bytesKept)
    memo.trim()
    #expect(memo.bufferCapacities.payloads == 0)
    #expect(try fold(page(padding: 10)) == small)
  }

  /// A compact JWS around a payload (unsigned: the readers do not verify signatures).
  static func jws(_ payload: String) -> String {
    let encoded = Data(payload.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    return "eyJhbGciOiJFUzI1NiJ9.\(encoded).c2ln"
  }

  static let transactionPayload = #"""
    {"transactionId": "2000000123", "originalTransactionId": "2000000100",
     "webOrderLineItemId": "2000000050", "bundleId": "com.example", "productId": "monthly",
     "subscriptionGroupIdentifier": "21000000", "purchaseDate": 1698148900000,
     "originalPurchaseDate": 1698148000000, "expiresDate": 1700827300000, "quantity": 1,
     "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
     "signedDate": 1698148901000, "revocationDate": 1698149000000, "revocationReason": 1,
     "offerType": 3, "offerIdentifier": "SPRING", "isUpgraded": false,
     "environment": "Sandbox", "transactionReason": "PURCHASE", "storefront": "USA",
     "price": 4990, "currency": "USD", "offerPeriod": "P1M"}
    """#
  static let renewalPayload = #"""
    {"originalTransactionId": "2000000100", "autoRenewProductId": "yearly",
     "productId": "monthly", "autoRenewStatus": 1, "expirationIntent": 2,
     "isInBillingRetryPeriod": true, "gracePeriodExpiresDate": 1700900000000,
     "priceIncreaseStatus": 0, "signedDate": 1698148901000, "environment": "Sandbox",
     "recentSubscriptionStartDate": 1698148000000, "renewalDate": 1700827300000}
    """#

  /// Every field each schema's reader reads, in a regular document: the fast path is taken
  /// and agrees field by field.
  @Test(arguments: [
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
    // The App Store Server API's pages, every JWS in them read by the byte-level reader.
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
    #"""
    {"hasMore": false, "paginationToken": "t1", "notificationHistory": [
      {"signedPayload": "\#(jws(notificationPayload))",
       "sendAttempts": [{"attemptDate": 1698148902000, "sendAttemptResult": "SUCCESS"}]},
      {"signedPayload": "\#(jws(#"{"notificationType": "TEST", "signedDate": 1}"#))"}]}
    """#,
  ])
  func regularDocumentsOfEverySchema(_ json: String) {
    let result = Self.agree(Array(json.utf8))
    #expect(result.agree)
    #expect(result.fast)
  }

  /// A v2 notification whose signed fields are JWS (as Apple sends it, decoded).
  static let notificationPayload = #"""
    {"notificationType": "DID_FAIL_TO_RENEW", "subtype": "GRACE_PERIOD", "version": "2.0",
     "notificationUUID": "u", "signedDate": 1698148902000, "data": {"appAppleId": 1,
       "bundleId": "com.example", "environment": "Sandbox", "status": 4,
       "signedTransactionInfo": "\#(jws(transactionPayload))",
       "signedRenewalInfo": "\#(jws(renewalPayload))"}}
    """#

  /// Documents the fast reader must leave to the general reader: it gives up, and both agree.
  @Test(arguments: [
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
  ])
  func irregularDocumentsOfEverySchemaFallBack(_ json: String) {
    let result = Self.agree(Array(json.utf8))
    #expect(result.agree)
    #expect(!result.fast)
  }

  /// A signed field whose payload is JSON but not an object is reported, naming the field, not
  /// dropped (DEVELOPERS.md: nothing silently dropped).
  @Test(arguments: [
    ("signedTransactionInfo", "[1, 2]", "an array"), ("signedRenewalInfo", "5", "a number"),
  ])
  func aSignedPayloadThatIsNoObjectIsReported(field: String, payload: String, found: String)
    throws
  {
    let json = #"{"notificationType": "TEST", "data": {"\#(field)": "\#(Self.jws(payload))"}}"#
    let notification = try ServerNotification(json: Array(json.utf8))
    #expect(notification.entries.isEmpty && notification.renewalInfo.isEmpty)
    #expect(notification.rawNotificationType == "TEST")  // the rest of the document is kept
    let diagnostic = try #require(notification.diagnostics.first)
    #expect(notification.diagnostics.count == 1)
    #expect(diagnostic.kind == .unreadableField)
    #expect(diagnostic.field == "data.\(field)")
    #expect(diagnostic.message.contains(found), "\(diagnostic.message)")
  }

  /// The byte-level reader decodes a JWS payload into its own buffer: exactly as `JWS` decodes
  /// base64url, on every length, with and without padding, with base64's `+` and `/`, and on
  /// texts with a byte outside the alphabet anywhere (seeded).
  @Test(arguments: 0..<4 as Range<UInt64>)
  func base64URLIsDecodedAsJWSDecodesIt(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/".utf8)
    let others = Array("=.\"\\ *\u{0}".utf8) + [0x80, 0xFF]
    var decoded = 0
    for round in 0..<2_000 {
      let count = Int.random(in: 0...40, using: &random)
      var text = (0..<count).map { _ in alphabet.randomElement(using: &random) ?? 65 }
      if round % 3 == 0 { text += Array(repeating: UInt8(ascii: "="), count: round % 4) }
      if round % 5 == 0, !text.isEmpty {
        text[Int.random(in: 0..<text.count, using: &random)] =
          others.randomElement(using: &random) ?? 0
      }
      let expected = JWS.base64URLDecode(text)
      #expect(FastDocumentReader.base64URLDecode(text) == expected, "seed \(seed): \(text)")
      if expected != nil { decoded += 1 }
    }
    #expect(decoded > 800 && decoded < 2_000)  // both outcomes exercised
  }

  /// An app's JWS share one long header (Apple's certificate chain): the reader compares a
  /// header with the one before instead of scanning it. A header equal to it, longer or
  /// shorter, differing in any of its last bytes, or holding an escape, is read exactly as the
  /// general reader reads it.
  @Test func repeatedJWSHeadersAreComparedNotTrusted() {
    let header = Data(#"{"alg":"ES256","x5c":["\#(String(repeating: "MIIB", count: 90))"]}"#.utf8)
      .base64EncodedString().replacingOccurrences(of: "=", with: "")
    let payload = Self.jws(Self.transactionPayload).split(separator: ".")[1]
    func page(_ second: String) -> [UInt8] {
      Array(
        #"{"signedTransactions": ["\#(header).\#(payload).c2ln", "\#(second).\#(payload).c2ln"]}"#
          .utf8)
    }
    var variants: [(String, Bool)] = [
      (header, true), (header + "QQ", true), (String(header.dropLast(3)), true),
      (String(header.dropLast(1)) + #"\/"#, false), (String(header.dropLast(40)) + #"""#, false),
    ]
    // One byte changed at each of the last 40 places (the comparison's tail and last words).
    for offset in 1...40 {
      var bytes = Array(header.utf8)
      bytes[bytes.count - offset] = bytes[bytes.count - offset] == UInt8(ascii: "A") ? 66 : 65
      variants.append((String(decoding: bytes, as: UTF8.self), true))
    }
    for (second, regular) in variants {
      let result = Self.agree(page(second))
      #expect(result.agree, "\(second.suffix(12))")
      #expect(result.fast == regular, "\(second.suffix(12))")
    }
  }

  /// The transactions of a page are separate payloads: their product and subscription ids
  /// still share one `String` per id (one allocation, not one per transaction), with two
  /// subscriptions alternating.
  @Test func thePayloadsOfAPageShareTheirIDs() throws {
    func transaction(_ id: Int, subscription: Int) -> String {
      let product = "com.example.subscription.product\(subscription)"
      return Self.jws(
        #"{"transactionId": "\#(id)", "originalTransactionId": "200000000000000\#(subscription)", "productId": "\#(product)", "purchaseDate": 1}"#
      )
    }
    let signed = [(1, 0), (2, 1), (3, 0), (4, 1)].map { "\"\(transaction($0, subscription: $1))\"" }
    let bytes = Array(#"{"signedTransactions": [\#(signed.joined(separator: ","))]}"#.utf8)
    let result = Self.agree(bytes)
    #expect(result.agree && result.fast)
    let entries = try DocumentReader.read(bytes).entries
    #expect(entries.map(\.productID.rawValue).map { $0.suffix(1) } == ["0", "1", "0", "1"])
    #expect(Self.shareStorage(entries[0].productID, entries[2].productID))
    #expect(Self.shareStorage(entries[1].productID, entries[3].productID))
    #expect(Self.shareStorage(entries[0].originalTransactionID, entries[2].originalTransactionID))
  }

  /// A value nested to the general reader's depth limit (256), wherever a reader skips it: the
  /// byte-level reader refuses exactly what the general reader refuses, at every place an
  /// unknown value can stand (at the top, in an entry of each list, in renewal info, in the
  /// pages' items).
  @Test(arguments: 248...256)
  func nestingAtTheDepthLimitIsCountedAlike(depth: Int) {
    let deep = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    let entry = #"{"product_id": "p", "transaction_id": "1", "x": \#(deep)}"#
    let info = #"{"original_transaction_id": "1", "x": \#(deep)}"#
    let documents = [
      #"{"status": 0, "x": \#(deep)}"#,
      #"{"status": 0, "latest_receipt_info": [\#(entry)]}"#,
      #"{"status": 0, "receipt": {"in_app": [\#(entry)]}}"#,
      #"{"status": 0, "receipt": {"x": \#(deep)}}"#,
      #"{"status": 0, "pending_renewal_info": [\#(info)]}"#,
      #"{"status": 0, "receipt": {"pending_renewal_info": [\#(info)]}}"#,
      #"{"notification_type": "RENEWAL", "unified_receipt": {"latest_receipt_info": [\#(entry)]}}"#,
      #"{"notificationType": "TEST", "data": {"x": \#(deep)}}"#,
      #"{"signedTransactions": [], "x": \#(deep)}"#,
      #"{"notificationHistory": [{"signedPayload": "\#(Self.jws(#"{"notificationType": "TEST"}"#))", "x": \#(deep)}]}"#,
      #"{"data": [{"lastTransactions": [], "x": \#(deep)}]}"#,
      #"{"data": [{"lastTransactions": [{"status": 1, "x": \#(deep)}]}]}"#,
    ]
    for json in documents {
      let bytes = Array(json.utf8)
      let result = Self.agree(bytes)
      #expect(result.agree, "depth \(depth): \(json.prefix(60))")
      let general = (try? DocumentReader.readGeneral(bytes)) != nil
      #expect(result.fast == general, "depth \(depth): \(json.prefix(60))")
    }
  }

  /// The robustness corpus: every seed document (verifyReceipt, v1, decoded transaction, v2
  /// notification) mutated.
  @Test(arguments: 0..<4 as Range<UInt64>)
  func theRobustnessCorpus(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    var fast = 0
    for round in 0..<5000 {
      let original = Array(RobustnessTests.seeds[round % RobustnessTests.seeds.count].utf8)
      let mutation = RobustnessTests.Mutation.allCases[
        (round / RobustnessTests.seeds.count) % RobustnessTests.Mutation.allCases.count]
      let bytes = RobustnessTests.mutate(original, mutation, &random)
      let result = Self.agree(bytes)
      #expect(result.agree, "seed \(seed) round \(round)")
      if result.fast { fast += 1 }
    }
    // Some mutations leave a regular document (a flipped digit, a shorter id).
    #expect(fast > 0)
  }
}
