import EntitlementsTesting
import Testing

@testable import Entitlements

// Predicted keys taken from their whole token only when every byte matches.

extension FastDocumentReaderTests {
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
  func predictedTokensAreComparedInEveryByte(name: String, value: String) {
    func response(_ second: String) -> String {
      """
      {"status": 0, "latest_receipt_info": [\
      {"product_id": "p", "transaction_id": "1", "\(name)": \(value)}, \
      {"product_id": "p", "transaction_id": "2", \(second) \(value)}]}
      """
    }
    let token = Array("\"\(name)\":".utf8)
    for position in token.indices {
      var changed = token
      changed[position] =
        changed[position] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
      let json = response(String(decoding: changed, as: UTF8.self))
      #expect(Self.agree(Array(json.utf8)).agree, "\(json)")
    }
    let spaced = response("\"\(name)\" :")
    let result = Self.agree(Array(spaced.utf8))
    #expect(result.agree && result.fast, "\(spaced)")
  }

  /// A key's token is taken only where it lies whole within the bytes: where the bytes end
  /// inside it, it is not taken, even when the memory after their end goes on with the rest
  /// of the token (and no load reads past their end: run under the address sanitizer).
  @Test(arguments: FastDocumentReader.Key.allCases.filter { $0 != .unknown })
  func aTokenIsTakenOnlyWhereItLiesWhole(key: FastDocumentReader.Key) {
    let token = #"""# + key.name.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } + #"":"#
    let bytes = Array(token.utf8) + Array(#" "x"}"#.utf8)
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      let keys = FastDocumentReader.KeyTable.shared
      for available in 0..<token.utf8.count {
        #expect(
          keys.tokenLength(of: key.rawValue, at: 0, in: base, available) == nil,
          "\(token) taken from \(available) bytes")
      }
      #expect(keys.tokenLength(of: key.rawValue, at: 0, in: base, bytes.count) == token.utf8.count)
    }
  }

  /// A decoded payload cut at every byte, each prefix in memory of its own, read by a reader
  /// that has read the whole payload (so it predicts every key): no prefix is read as a
  /// document, and no load reads past its end (run under the address sanitizer).
  @Test func aPayloadCutAtEveryByteIsNotReadPastItsEnd() {
    let whole = Array(Self.transactionPayload.utf8)
    var reader = FastDocumentReader()
    let read = whole.withUnsafeBufferPointer { buffer in
      FastDocumentReader.read(buffer, objectAt: 0, reusing: &reader) { _ in }
    }
    #expect(read != nil, "the whole payload is read")
    for cut in 1..<whole.count {
      let prefix = Array(whole[..<cut])
      let end = prefix.withUnsafeBufferPointer { buffer in
        FastDocumentReader.read(buffer, objectAt: 0, reusing: &reader) { _ in }
      }
      #expect(end == nil, "read from its first \(cut) bytes")
    }
  }

  /// The same for a token shorter than a word (`"type":`, seven bytes), predicted from one
  /// payload of a page to the next.
  @Test func shortPredictedTokensAreComparedInEveryByte() {
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
      #expect(Self.agree(Array(json.utf8)).agree, "\(json)")
    }
    let result = Self.agree(Array(page(#""type":"#).utf8))
    #expect(result.agree && result.fast)
  }

  /// Predictions cross objects: a short name seen after a key in an entry is predicted after
  /// that key at the top, where a name one byte away must not be taken for it.
  @Test func shortPredictedKeysAreCheckedOnTheirBytes() throws {
    let json = """
      {"latest_receipt_info": [{"product_id": "p", "transaction_id": "1", \
      "latest_receipt_info": 0, "status": 0}], "statuz": 21007}
      """
    let result = Self.agree(Array(json.utf8))
    #expect(result.agree)
    #expect(result.fast)
    #expect(try VerifyReceiptResponse(json: Array(json.utf8)).entries.count == 1)
  }

  /// After a predicted name the colon is taken at once when it follows at once; whitespace
  /// before it is allowed, anything else is invalid JSON, which the general reader reports.
  @Test(arguments: [(" :", true), ("\n\t:", true), (";", false), (" ", false), ("", false)])
  func colonAfterAPredictedName(separator: String, valid: Bool) throws {
    let json = """
      {"status": 0, "latest_receipt_info": [{"product_id": "p", "transaction_id": "1"}, \
      {"product_id": "p", "transaction_id"\(separator) "2"}]}
      """
    let result = Self.agree(Array(json.utf8))
    #expect(result.agree)
    #expect(result.fast == valid)
    #expect(
      (try? VerifyReceiptResponse(json: Array(json.utf8)))?.entries.count == (valid ? 2 : nil))
  }
}
