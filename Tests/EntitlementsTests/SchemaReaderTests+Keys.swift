import EntitlementsTesting
import Testing

@testable import Entitlements

// Predicted keys taken from their whole token only when every byte matches.

extension SchemaReaderTests {
  /// A predicted key is taken from its whole token (`"name":`, compared in words) only when
  /// every byte matches: a name that differs from the prediction in any one byte, or a quote or
  /// colon of the token changed, is not taken for it, at every length of name and place of the
  /// difference in the words; with whitespace before the colon the name is still the key.
  @Test(arguments: [
    ("quantity", #""3""#), ("expires_date_ms", #""5000""#), ("is_trial_period", #""true""#),
    ("purchase_date_ms", #""7000""#), ("web_order_line_item_id", #""9""#),
    ("original_transaction_id", #""11""#), ("in_app_ownership_type", #""FAMILY_SHARED""#),
    ("promotional_offer_id", #""spring""#), ("original_purchase_date_ms", #""3000""#),
    ("is_in_intro_offer_period", #""true""#),
  ])
  func predictedTokensAreComparedInEveryByte(name: String, value: String) throws {
    func response(_ second: String) -> String {
      """
      {"status": 0, "latest_receipt_info": [\
      {"product_id": "p", "transaction_id": "1", "\(name)": \(value)}, \
      {"product_id": "p", "transaction_id": "2", \(second) \(value)}]}
      """
    }
    // The second entry as read with the name spelt right.
    let expected = try #require(
      try VerifyReceiptResponse(unverifiedJSON: Array(response("\"\(name)\":").utf8)).entries.last)
    let token = Array("\"\(name)\":".utf8)
    for position in token.indices {
      var changed = token
      changed[position] =
        changed[position] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
      let json = response(String(decoding: changed, as: UTF8.self))
      #expect(DocumentReader._consistencyProblem(Array(json.utf8)) == nil, "\(json)")
      // A name changed inside is another name, unknown: the second entry lacks the field.
      if let second = (try? VerifyReceiptResponse(unverifiedJSON: Array(json.utf8)))?.entries.last,
        position > 0, position < token.count - 2
      {
        #expect(second != expected, "\(json)")
      }
    }
    let spaced = response("\"\(name)\" :")
    ReaderTestSupport.expectRead(spaced, as: "VerifyReceiptResponse")
    let read = try VerifyReceiptResponse(unverifiedJSON: Array(spaced.utf8))
    #expect(read.entries.last == expected)
  }

  /// A key's token is taken only where it lies whole within the bytes: where the bytes end
  /// inside it, it is not taken, even when the memory after their end goes on with the rest
  /// of the token (and no load reads past their end: run under the address sanitizer).
  @Test(arguments: Schemas.shared.keys.names)
  func aTokenIsTakenOnlyWhereItLiesWhole(name: String) {
    let keys = Schemas.shared.keys
    let key = keys.key(named: name)
    let token = #"""# + name + #"":"#
    let bytes = Array(token.utf8) + Array(#" "x"}"#.utf8)
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      for available in 0..<token.utf8.count {
        #expect(
          keys.tokenLength(of: key, at: 0, in: base, available) == nil,
          "\(token) taken from \(available) bytes")
      }
      // A token of up to 32 bytes is compared in words; a longer one is not predicted.
      let expected = token.utf8.count <= Spelling.longest ? token.utf8.count : nil
      #expect(keys.tokenLength(of: key, at: 0, in: base, bytes.count) == expected)
    }
  }

  /// A decoded payload cut at every byte, each prefix in memory of its own, read by a reader
  /// that has read the whole payload (so it predicts every key): no prefix is read as a
  /// document, and no load reads past its end (run under the address sanitizer).
  @Test func aPayloadCutAtEveryByteIsNotReadPastItsEnd() {
    let whole = Array(Self.transactionPayload.utf8)
    var memo = DocumentReader.Memo()
    var record = SubscriberRecord()
    let read = whole.withUnsafeBufferPointer { buffer in
      DocumentReader.fold(buffer, objectAt: 0, into: &record, memo: &memo)
    }
    #expect(read?.end == whole.count, "the whole payload is read")
    for cut in 1..<whole.count {
      let prefix = Array(whole[..<cut])
      var partial = SubscriberRecord()
      let end = prefix.withUnsafeBufferPointer { buffer in
        DocumentReader.fold(buffer, objectAt: 0, into: &partial, memo: &memo)
      }
      #expect(end == nil, "read from its first \(cut) bytes")
      #expect(partial == SubscriberRecord(), "folded from its first \(cut) bytes")
    }
  }

  /// The same for a token shorter than a word (`"type":`, seven bytes), predicted from one
  /// payload of a page to the next.
  @Test func shortPredictedTokensAreComparedInEveryByte() throws {
    func page(_ second: String) -> String {
      let first = #"{"transactionId": "1", "productId": "p", "type": "Consumable"}"#
      let next = #"{"transactionId": "2", "productId": "p", \#(second) "Consumable"}"#
      return #"{"signedTransactions": ["\#(Self.jws(first))", "\#(Self.jws(next))"]}"#
    }
    let token = Array(#""type":"#.utf8)
    for position in token.indices {
      var changed = token
      changed[position] = UInt8(ascii: "x")
      let json = page(String(decoding: changed, as: UTF8.self))
      #expect(DocumentReader._consistencyProblem(Array(json.utf8)) == nil, "\(json)")
      // The second payload is no JSON, or has no `type`.
      let page = try? DocumentReader.readUnverified(Array(json.utf8))
      if case .transactionHistory(let read)? = page, read.transactions.count == 2 {
        #expect(read.transactions[1].type == nil, "\(json)")
      }
    }
    ReaderTestSupport.expectRead(page(#""type":"#), as: "TransactionHistoryResponse")
    guard
      case .transactionHistory(let read) = try DocumentReader.readUnverified(
        Array(page(#""type":"#).utf8))
    else { return }
    #expect(read.transactions.map(\.type) == ["Consumable", "Consumable"])
  }

  /// Predictions cross objects: a short name seen after a key in an entry is predicted after
  /// that key at the top, where a name one byte away must not be taken for it.
  @Test func shortPredictedKeysAreCheckedOnTheirBytes() throws {
    let json = """
      {"latest_receipt_info": [{"product_id": "p", "transaction_id": "1", \
      "latest_receipt_info": 0, "status": 0}], "statuz": 21007}
      """
    ReaderTestSupport.expectRead(json, as: "VerifyReceiptResponse")
    let response = try VerifyReceiptResponse(unverifiedJSON: Array(json.utf8))
    #expect(response.entries.count == 1)
    #expect(response.status == nil)
  }

  /// After a predicted name the colon is taken at once when it follows at once; whitespace
  /// before it is allowed, anything else is invalid JSON, in the JSON parser's words.
  @Test(
    arguments: [
      (" :", nil), ("\n\t:", nil), (";", "expected ':' after a member name"),
      (" ", "expected ':' after a member name"), ("", "expected ':' after a member name"),
    ] as [(String, String?)])
  func colonAfterAPredictedName(separator: String, error: String?) throws {
    let json = """
      {"status": 0, "latest_receipt_info": [{"product_id": "p", "transaction_id": "1"}, \
      {"product_id": "p", "transaction_id"\(separator) "2"}]}
      """
    #expect(DocumentReader._consistencyProblem(Array(json.utf8)) == nil)
    if let error {
      #expect(ReaderTestSupport.outcome(json).hasSuffix(error), "\(json)")
    } else {
      #expect(try VerifyReceiptResponse(unverifiedJSON: Array(json.utf8)).entries.count == 2)
    }
  }
}
