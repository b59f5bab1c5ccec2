import EntitlementsTesting
import Foundation
import Testing

@testable import Entitlements

/// The reader of Apple's documents on the shapes its fast paths take and on every shape they
/// do not: each value read exactly, ids shared, keys predicted and checked, documents read in
/// place as whole.
@Suite("The document reader")
struct SchemaReaderTests {
  /// A verifyReceipt response with these entries in `latest_receipt_info`, read with no
  /// diagnostic and consistently.
  static func readRegularly(
    entries: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> VerifyReceiptResponse {
    let json = #"{"status": 0, "latest_receipt_info": ["# + entries.joined(separator: ",") + "]}"
    ReaderTestSupport.expectRead(json, as: "VerifyReceiptResponse", sourceLocation: sourceLocation)
    return try VerifyReceiptResponse(unverifiedJSON: Array(json.utf8))
  }

  /// Every field of a verifyReceipt response, each value as written by hand.
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
    ReaderTestSupport.expectRead(json, as: "VerifyReceiptResponse")
    let response = try VerifyReceiptResponse(unverifiedJSON: Array(json.utf8))
    #expect(response.status == 0)
    // The receipt's type says sandbox, whatever the top says.
    #expect(response.environment == .sandbox)
    #expect(response.latestReceipt == "MII/T+=")
    // The creation date wins over the request date.
    #expect(response.timestamp == instant("2017-03-20T08:00:00Z"))
    let entry = try #require(response.inApp.first)
    #expect(
      entry
        == ReceiptEntry(
          productID: "p", transactionID: "1", originalTransactionID: "1",
          webOrderLineItemID: "w1", quantity: 2, purchaseDate: instant("2017-02-20T08:00:00Z"),
          originalPurchaseDate: Instant(millisecondsSince1970: 1_487_577_600_000),
          expiresDate: instant("2017-03-20T07:00:00Z"),
          cancellationDate: Instant(millisecondsSince1970: 1_488_000_000_000),
          rawCancellationReason: "1", isTrialPeriod: true, isInIntroOfferPeriod: false,
          isUpgraded: false, rawInAppOwnershipType: "FAMILY_SHARED", offerCodeRefName: "spring",
          promotionalOfferID: "promo"))
    #expect(
      response.renewalInfo
        == [
          RenewalInfo(
            originalTransactionID: "1", productID: "p", autoRenewProductID: "q",
            autoRenewStatus: true, rawExpirationIntent: 2, isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: Instant(millisecondsSince1970: 1_490_500_000_000),
            priceConsentStatus: false)
        ])
  }

  /// Every field of a decoded transaction and of renewal info, each value as written by hand.
  @Test func everyFieldOfAPayload() throws {
    let transaction = try AppStoreTransaction(unverifiedJSON: Array(Self.transactionPayload.utf8))
    #expect(transaction.diagnostics.isEmpty)
    #expect(transaction.type == "Auto-Renewable Subscription")
    #expect(transaction.environment == .sandbox)
    #expect(transaction.timestamp == Instant(millisecondsSince1970: 1_698_148_901_000))
    #expect(
      transaction.entry
        == ReceiptEntry(
          productID: "monthly", transactionID: "2000000123", originalTransactionID: "2000000100",
          webOrderLineItemID: "2000000050", quantity: 1,
          purchaseDate: Instant(millisecondsSince1970: 1_698_148_900_000),
          originalPurchaseDate: Instant(millisecondsSince1970: 1_698_148_000_000),
          expiresDate: Instant(millisecondsSince1970: 1_700_827_300_000),
          cancellationDate: Instant(millisecondsSince1970: 1_698_149_000_000),
          rawCancellationReason: "1", isUpgraded: false, rawInAppOwnershipType: "PURCHASED",
          offerCodeRefName: "SPRING", appleProductType: .autoRenewable))
    let renewal = try AppStoreRenewalInfo(unverifiedJSON: Array(Self.renewalPayload.utf8))
    #expect(renewal.diagnostics.isEmpty)
    #expect(renewal.environment == .sandbox)
    #expect(
      renewal.info
        == RenewalInfo(
          originalTransactionID: "2000000100", productID: "monthly", autoRenewProductID: "yearly",
          autoRenewStatus: true, rawExpirationIntent: 2, isInBillingRetryPeriod: true,
          gracePeriodExpiresDate: Instant(millisecondsSince1970: 1_700_900_000_000),
          priceConsentStatus: false))
  }

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
        if decoded != nil {
          ReaderTestSupport.expectRead(json, as: "VerifyReceiptResponse")
        } else {
          #expect(ReaderTestSupport.outcome(json).hasSuffix("control character in a string"))
          #expect(DocumentReader._consistencyProblem(Array(json.utf8)) == nil, "\(json)")
        }
      }
      // A value the reader keeps is decoded exactly, and one it matches too.
      let kept = try? VerifyReceiptResponse(unverifiedJSON: Array(documents[0].utf8))
      #expect(kept?.entries.first?.transactionID.rawValue == decoded.map { prefix + $0 + suffix })
      let matched = try? VerifyReceiptResponse(unverifiedJSON: Array(documents[1].utf8))
      #expect(matched?.entries.first?.productID.rawValue == decoded.map { prefix + $0 + suffix })
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
    let response = try Self.readRegularly(entries: entries)
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
    let read = try Self.readRegularly(entries: entries).entries
    #expect(read.map(\.productID.rawValue) == products)
    #expect(read.map(\.originalTransactionID.rawValue) == originals)
    // Two products and two subscriptions alternating: one string each.
    let alternating = try Self.readRegularly(entries: Array(entries.prefix(2) + entries.prefix(2)))
      .entries
    #expect(ReaderTestSupport.shareStorage(alternating[0].productID, alternating[2].productID))
    #expect(ReaderTestSupport.shareStorage(alternating[1].productID, alternating[3].productID))
    #expect(
      ReaderTestSupport.shareStorage(
        alternating[0].originalTransactionID, alternating[2].originalTransactionID))
    #expect(
      ReaderTestSupport.shareStorage(
        alternating[1].originalTransactionID, alternating[3].originalTransactionID))
  }

  /// The entries of documents folded in place one after another, each alone into a record
  /// reset in between, with one memo (as `entitlements evaluate` folds lines): the entry of
  /// each, in order.
  static func foldedInTurn(_ documents: [String], separator: String = ",") throws -> [ReceiptEntry]
  {
    let buffer = Array(documents.joined(separator: separator).utf8)
    var memo = DocumentReader.Memo()
    var record = SubscriberRecord()
    var entries: [ReceiptEntry] = []
    var start = 0
    try buffer.withUnsafeBufferPointer { buffer in
      for document in documents {
        record.reset()
        let (end, refusal) = try #require(
          DocumentReader.fold(buffer, objectAt: start, into: &record, memo: &memo))
        #expect(refusal == nil)
        #expect(end == start + document.utf8.count)
        entries += record.history.entries
        start = end + separator.utf8.count
      }
    }
    return entries
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
    let inTurn = try Self.foldedInTurn(documents, separator: ", ")
    #expect(inTurn.map(\.productID.rawValue) == products)
    #expect(inTurn.map(\.originalTransactionID.rawValue) == originals)
    #expect(
      inTurn.map(\.purchaseDate)
        == products.indices.map { Instant(millisecondsSince1970: Int64($0 + 1) * 1000) })
    // Folded in turn into one record, with one memo: the record of the documents read alone.
    var memo = DocumentReader.Memo()
    var record = SubscriberRecord()
    var expected = SubscriberRecord()
    let buffer = Array(documents.joined(separator: ", ").utf8)
    var start = 0
    try buffer.withUnsafeBufferPointer { buffer in
      for document in documents {
        let (end, refusal) = try #require(
          DocumentReader.fold(buffer, objectAt: start, into: &record, memo: &memo))
        #expect(refusal == nil)
        expected.fold(try DocumentReader.readUnverified(Array(document.utf8)))
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
    #expect(ReaderTestSupport.shareStorage(inTurn[0].productID, inTurn[2].productID))
    #expect(
      ReaderTestSupport.shareStorage(
        inTurn[0].originalTransactionID, inTurn[2].originalTransactionID))
  }

  /// A transaction or renewal payload with any key the reader knows (every name of every
  /// schema, so that a key added later is covered with no change here), and one it does not,
  /// with values of every type: read first as a payload, it is read as the table of every
  /// kind of document reads it, whichever hands it over.
  @Test(
    arguments: Schemas.shared.keys.names + ["unlisted"],
    [#"0"#, #""DID_RENEW""#, #"[]"#, #"{}"#, #"[{"original_transaction_id": "1"}]"#])
  func aPayloadWithAnyKeyIsReadAsEveryKindReadsIt(key: String, value: String) {
    for id in ["transactionId", "originalTransactionId"] {
      let json = """
        {"\(id)": "2000000000000001", "productId": "com.example.a", "\(key)": \(value), \
        "purchaseDate": 1000}
        """
      let bytes = Array(json.utf8)
      let (payloadFirst, everyKind) = bytes.withUnsafeBufferPointer { buffer in
        var first = SchemaReader(bytes: buffer)
        var every = SchemaReader(bytes: buffer)
        return (
          Result { () throws(ReadError) in
            try first.ending { reader throws(SchemaReader.Stop) in try reader.objectDocument() }
          },
          Result { () throws(ReadError) in
            try every.ending { reader throws(SchemaReader.Stop) in
              try reader.objectDocument(payloadFirst: false)
            }
          }
        )
      }
      #expect(payloadFirst == everyKind, "\(json)")
      #expect(DocumentReader._consistencyProblem(bytes) == nil, "\(json)")
    }
  }

  /// Every name of every schema is in the key table, found by its bytes, and the key found is
  /// spelt as the name.
  @Test func everyNameOfEverySchemaIsAKey() {
    let keys = Schemas.shared.keys
    #expect(!keys.names.isEmpty && keys.names.count < KeyID.capacity)
    for name in keys.names {
      let key = keys.key(named: name)
      #expect(key != .unknown && keys.name(of: key) == name, "\(name)")
    }
    #expect(keys.key(named: "unlisted") == .unknown)
    #expect(keys.key(named: "transaction_iD") == .unknown)
  }

  /// A payload's environment, matched on its bytes for Apple's two usual spellings, is named as
  /// ``StoreEnvironment/init(appleName:)`` names every spelling: in a transaction, in a renewal
  /// info, in a bare JWS and in a signed field of a page.
  @Test(
    arguments: [
      (#""Production""#, StoreEnvironment.production, ""),
      (#""Sandbox""#, .sandbox, ""), (#""Xcode""#, .xcode, ""),
      (#""LocalTesting""#, .localTesting, ""), (#""PROD""#, .production, ""),
      (#""sandbox""#, .sandbox, ""), (#""Productio""#, nil, ""), (#""Sandboxes""#, nil, ""),
      (#""Prod\u0075ction""#, .production, ""), (#"5"#, nil, ""),
      (#"[]"#, nil, "environment: expected a string, found an array"),
    ] as [(String, StoreEnvironment?, String)])
  func aPayloadsEnvironmentIsNamedAsStoreEnvironmentNamesIt(
    value: String, environment: StoreEnvironment?, diagnostic: String
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
      #expect(DocumentReader._consistencyProblem(Array(document.utf8)) == nil, "\(document)")
      let read = try DocumentReader.readUnverified(Array(document.utf8))
      let named: StoreEnvironment?? =
        switch read {
        case .transaction(let read): read.environment
        case .renewal(let read): read.environment
        case .transactionHistory(let read): read.transactions.first?.environment
        default: .none
        }
      #expect(named == .some(environment), "\(document)")
      #expect(
        read.diagnostics.map { "\($0.field): \($0.message)" }.allSatisfy {
          $0.hasSuffix(diagnostic)
        } && read.diagnostics.isEmpty == diagnostic.isEmpty, "\(document)")
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
      let entry = try #require(inPlace.history.entries.first)
      #expect(entry.productID.rawValue == product)
      #expect(entry.originalTransactionID.rawValue == original)
    }
  }

  /// Every kind of document folded in place (``DocumentReader/fold(_:objectAt:into:memo:)``,
  /// which folds a transaction or a renewal info from its fields, with no document made) gives
  /// the record that reading it and folding the document gives, after the same documents
  /// before it; a verifyReceipt status that carries no receipt is refused and folds nothing; a
  /// document of no kind folds nothing and is left to the reading of its bytes, which says
  /// why.
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
    (#"{"transactionId": "2000000000000009", "productId": "a", "productId": "b"}"#, "folded"),
    (#"{"transactionId": "2000000000000009", "purchaseDate": "soon"}"#, "folded"),
    (#"{"status": 21010}"#, "refused"),
    (#"{"hello": "world"}"#, "left"),
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
      let read = Result { () throws(ReadError) in try DocumentReader.readUnverified(bytes) }
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
        #expect(throws: ReadError.self) { try read.get() }
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
      alone.fold(try DocumentReader.readUnverified(Array(page.utf8)))
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
    ReaderTestSupport.expectRead(json, as: "VerifyReceiptResponse")
    let response = try VerifyReceiptResponse(unverifiedJSON: Array(json.utf8))
    let entry = try #require(response.entries.first)
    let info = try #require(response.renewalInfo.first)
    let (product, autoRenewProduct) = try (
      #require(info.productID), #require(info.autoRenewProductID)
    )
    #expect(ReaderTestSupport.shareStorage(info.originalTransactionID, entry.originalTransactionID))
    #expect(ReaderTestSupport.shareStorage(product, entry.productID))
    #expect(ReaderTestSupport.shareStorage(autoRenewProduct, entry.productID))
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
    let response = try Self.readRegularly(entries: entries)
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
    let read = try Self.foldedInTurn(documents)
    #expect(read.map(\.productID.rawValue) == order)
    #expect(read.map(\.originalTransactionID.rawValue) == order)
    if first.utf8.count > 15 {
      #expect(ReaderTestSupport.shareStorage(read[0].productID, read[3].productID))
      #expect(ReaderTestSupport.shareStorage(read[1].productID, read[5].productID))
      #expect(
        ReaderTestSupport.shareStorage(read[0].originalTransactionID, read[4].originalTransactionID)
      )
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
    var read: [String] = []
    var memo = DocumentReader.Memo()
    // Each payload alone in its own bytes: the id is two bytes from their end.
    for (number, id) in order.enumerated() {
      let bytes = Array(
        #"{"transactionId": "\#(number + 1)", "purchaseDate": 1, "productId": "\#(id)"}"#.utf8)
      var record = SubscriberRecord()
      _ = try bytes.withUnsafeBufferPointer { buffer in
        try #require(DocumentReader.fold(buffer, objectAt: 0, into: &record, memo: &memo))
      }
      read += record.history.entries.map(\.productID.rawValue)
    }
    #expect(read == order)
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

  /// A signed field whose payload is JSON but not an object is reported, naming the field, not
  /// dropped (DEVELOPERS.md: nothing silently dropped).
  @Test(arguments: [
    ("signedTransactionInfo", "[1, 2]", "an array"), ("signedRenewalInfo", "5", "a number"),
  ])
  func aSignedPayloadThatIsNoObjectIsReported(field: String, payload: String, found: String)
    throws
  {
    let json = #"{"notificationType": "TEST", "data": {"\#(field)": "\#(Self.jws(payload))"}}"#
    let notification = try ServerNotification(unverifiedJSON: Array(json.utf8))
    #expect(notification.entries.isEmpty && notification.renewalInfo.isEmpty)
    #expect(notification.rawNotificationType == "TEST")  // the rest of the document is kept
    let diagnostic = try #require(notification.diagnostics.first)
    #expect(notification.diagnostics.count == 1)
    #expect(diagnostic.kind == .unreadableField)
    #expect(diagnostic.field == "data.\(field)")
    #expect(diagnostic.message.contains(found), "\(diagnostic.message)")
  }

  /// The reader decodes a JWS payload into its own buffer: as Foundation decodes base64 the
  /// same text with `-` and `_` for `+` and `/`, on every length, with and without padding, with
  /// base64's `+` and `/`, and on texts with a byte outside the alphabet anywhere (seeded).
  @Test(arguments: 0..<4 as Range<UInt64>)
  func base64URLIsDecodedAsFoundationDecodesBase64(seed: UInt64) {
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
      // Foundation's base64: padding to a whole group, the URL symbols mapped back.
      var standard = String(decoding: text, as: UTF8.self).replacingOccurrences(of: "=", with: "")
        .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
      if standard.utf8.count % 4 != 1 {
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
      }
      let trailingPadding = text.reversed().prefix { $0 == UInt8(ascii: "=") }.count
      let innerPadding = text.dropLast(trailingPadding).contains(UInt8(ascii: "="))
      let expected =
        innerPadding ? nil : Data(base64Encoded: standard).map { [UInt8]($0) }
      #expect(Base64URL.decode(text) == expected, "seed \(seed): \(text)")
      if expected != nil { decoded += 1 }
    }
    #expect(decoded > 800 && decoded < 2_000)  // both outcomes exercised
  }

  /// An app's JWS share one long header (Apple's certificate chain): the reader compares a
  /// header with the one before instead of scanning it. A header equal to it, longer or
  /// shorter, differing in any of its last bytes, or holding an escape, is read exactly; one
  /// holding a quote ends the string, and the page is not JSON.
  @Test func repeatedJWSHeadersAreComparedNotTrusted() throws {
    let header = Data(#"{"alg":"ES256","x5c":["\#(String(repeating: "MIIB", count: 90))"]}"#.utf8)
      .base64EncodedString().replacingOccurrences(of: "=", with: "")
    let payload = Self.jws(Self.transactionPayload).split(separator: ".")[1]
    func page(_ second: String) -> [UInt8] {
      Array(
        #"{"signedTransactions": ["\#(header).\#(payload).c2ln", "\#(second).\#(payload).c2ln"]}"#
          .utf8)
    }
    var variants: [String] = [
      header, header + "QQ", String(header.dropLast(3)), String(header.dropLast(1)) + #"\/"#,
    ]
    // One byte changed at each of the last 40 places (the comparison's tail and last words).
    for offset in 1...40 {
      var bytes = Array(header.utf8)
      bytes[bytes.count - offset] = bytes[bytes.count - offset] == UInt8(ascii: "A") ? 66 : 65
      variants.append(String(decoding: bytes, as: UTF8.self))
    }
    let expected = try #require(
      try AppStoreTransaction(unverifiedJSON: Array(Self.transactionPayload.utf8)).entry)
    for second in variants {
      let bytes = page(second)
      #expect(DocumentReader._consistencyProblem(bytes) == nil, "\(second.suffix(12))")
      let read = try DocumentReader.readUnverified(bytes)
      #expect(read.entries == [expected, expected], "\(second.suffix(12))")
      #expect(read.diagnostics.isEmpty, "\(second.suffix(12))")
    }
    let quoted = page(String(header.dropLast(40)) + #"""#)
    #expect(DocumentReader._consistencyProblem(quoted) == nil)
    #expect(ReaderTestSupport.outcome(quoted).hasPrefix("error: not JSON: "))
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
    let json = #"{"signedTransactions": [\#(signed.joined(separator: ","))]}"#
    ReaderTestSupport.expectRead(json, as: "TransactionHistoryResponse")
    let entries = try DocumentReader.readUnverified(Array(json.utf8)).entries
    #expect(entries.map(\.productID.rawValue).map { $0.suffix(1) } == ["0", "1", "0", "1"])
    #expect(ReaderTestSupport.shareStorage(entries[0].productID, entries[2].productID))
    #expect(ReaderTestSupport.shareStorage(entries[1].productID, entries[3].productID))
    #expect(
      ReaderTestSupport.shareStorage(
        entries[0].originalTransactionID, entries[2].originalTransactionID))
  }

  /// A value nested to the JSON parser's depth limit (256), wherever the reader skips it: the
  /// reader refuses exactly what the parser refuses, at every place an unknown value can stand
  /// (at the top, in an entry of each list, in renewal info, in the pages' items).
  @Test(arguments: 248...256)
  func nestingAtTheDepthLimitIsCountedAsTheParserCountsIt(depth: Int) {
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
      #expect(
        DocumentReader._consistencyProblem(bytes) == nil, "depth \(depth): \(json.prefix(60))")
      let parsed = (try? JSONValue(parsing: bytes)) != nil
      let read = (try? DocumentReader.readUnverified(bytes)) != nil
      #expect(read == parsed, "depth \(depth): \(json.prefix(60))")
    }
  }

  /// The robustness corpus (every seed document: verifyReceipt, v1, decoded transaction, v2
  /// notification, the API's pages) mutated: the reader is consistent on each.
  @Test(arguments: 0..<4 as Range<UInt64>)
  func theRobustnessCorpus(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    var clean = 0
    for round in 0..<5000 {
      let original = Array(RobustnessTests.seeds[round % RobustnessTests.seeds.count].utf8)
      let mutation = RobustnessTests.Mutation.allCases[
        (round / RobustnessTests.seeds.count) % RobustnessTests.Mutation.allCases.count]
      let bytes = RobustnessTests.mutate(original, mutation, &random)
      #expect(
        DocumentReader._consistencyProblem(bytes) == nil, "seed \(seed) round \(round)")
      if (try? DocumentReader.readUnverified(bytes))?.diagnostics.isEmpty == true { clean += 1 }
    }
    // Some mutations leave a regular document (a flipped digit, a shorter id).
    #expect(clean > 0)
  }
}
