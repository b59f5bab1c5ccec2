import Testing

@testable import EntitlementsVerification

/// The strict JSON reader, the header and the claims read with it.
@Suite("JSON scanner and claims")
struct JSONScannerTests {
  static func check(_ text: String) throws(JSONScanError) {
    let result = Array(text.utf8).withUnsafeBufferPointer { bytes -> Result<Void, JSONScanError> in
      var scanner = JSONScanner(bytes)
      do throws(JSONScanError) {
        try scanner.skipValue()
        try scanner.finish()
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }

  @Test(arguments: [
    #"{}"#, #"[]"#, #"{"a": [1, -2.5e+3, 0, true, false, null, "x\n\u00e9\ud83d\ude00"]}"#,
    " { \"a\" : { \"b\" : [ ] } } ", #""\/\\\"""#, "-0", "1E5",
  ])
  func acceptsJSON(_ text: String) {
    #expect(throws: Never.self) { try Self.check(text) }
  }

  @Test(arguments: [
    #"{"a": 1,}"#, #"[1,]"#, #"{'a': 1}"#, #"{"a" 1}"#, "01", "1.", ".5", "1e", "+1", "tru",
    #"{"a": 1} x"#, "\"a\u{01}\"", #""\x""#, #""\u12""#, #"{"a": 1"#, "\"abc", "",
    "// c\n{}", "NaN", #"[1 2]"#,
    String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
  ])
  func refusesWhatIsNotJSON(_ text: String) {
    #expect(throws: JSONScanError.self) { try Self.check(text) }
  }

  /// Long strings are scanned a word at a time: a control character, an escape or the end
  /// is found at every offset within a word.
  @Test func longStringsAreScannedExactly() throws {
    for offset in 0..<24 {
      let before = String(repeating: "x", count: offset)
      let after = String(repeating: "y", count: 30)
      #expect(throws: JSONScanError.self) { try Self.check("\"\(before)\u{1F}\(after)\"") }
      #expect(throws: Never.self) { try Self.check("\"\(before)\\n\(after)\"") }
      #expect(throws: Never.self) { try Self.check("[\"\(before)\", \"\(after)é\"]") }
      let claims = try Self.claims("{\"bundleId\":\"\(before)\\u0041\(after)\"}")
      #expect(claims.bundleId == before + "A" + after)
    }
  }

  @Test func nestingUpToTheLimitIsRead() {
    let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(throws: Never.self) { try Self.check(deep) }
  }

  static func claims(_ text: String) throws(JSONScanError) -> PayloadClaims {
    try PayloadClaims(json: Array(text.utf8))
  }

  @Test func claimsOfATransaction() throws {
    let claims = try Self.claims(
      #"{"transactionId":"1","bundleId":"com.a","environment":"Sandbox","signedDate":1.7e12,"#
        + #""appAppleId":42,"nested":{"bundleId":"ignored"}}"#)
    #expect(claims.bundleId == "com.a")
    #expect(claims.environment == "Sandbox")
    #expect(claims.signedDate == 1_700_000_000_000)
    #expect(claims.appAppleId == 42)
    #expect(!claims.isNotification)
  }

  @Test func claimsOfANotificationComeFromData() throws {
    let claims = try Self.claims(
      #"{"notificationType":"TEST","bundleId":"top","data":{"bundleId":"com.a","#
        + #""environment":"Production","appAppleId":7,"signedTransactionInfo":"t.x.y"},"#
        + #""signedDate":1759320000000.9}"#)
    #expect(claims.isNotification)
    #expect(claims.bundleId == "com.a")
    #expect(claims.appAppleId == 7)
    #expect(claims.signedTransactionInfo == "t.x.y")
    #expect(claims.signedRenewalInfo == nil)
    #expect(claims.signedDate == 1_759_320_000_000)
  }

  @Test func claimsOfAnAppTransactionAndAnExternalPurchaseToken() throws {
    let app = try Self.claims(
      #"{"bundleId":"com.a","receiptType":"Xcode","receiptCreationDate":5,"appAppleId":null}"#)
    #expect(app.environment == "Xcode")
    #expect(app.signedDate == 5)
    #expect(app.appAppleId == nil)
    let token = try Self.claims(
      #"{"notificationType":"EXTERNAL_PURCHASE_TOKEN","signedDate":1,"#
        + #""externalPurchaseToken":{"externalPurchaseId":"SANDBOX_x","bundleId":"com.a"}}"#)
    #expect(token.environment == "Sandbox")
    let production = try Self.claims(
      #"{"notificationType":"EXTERNAL_PURCHASE_TOKEN","signedDate":1,"#
        + #""externalPurchaseToken":{"externalPurchaseId":"x","bundleId":"com.a"}}"#)
    #expect(production.environment == "Production")
  }

  @Test(arguments: [
    #"{"bundleId":"a","bundleId":"b"}"#, #"{"bundleId":1}"#, #"{"appAppleId":"1"}"#,
    #"{"appAppleId":1.5}"#, #"{"signedDate":"1"}"#, #"{"signedDate":1e400}"#,
    #"{"data":{},"summary":{}}"#, #"{"data":{"environment":"a","environment":"b"}}"#, "[]",
  ])
  func claimsThatCannotBeTrustedAreRefused(_ text: String) {
    #expect(throws: JSONScanError.self) { try Self.claims(text) }
  }

  @Test func headers() throws {
    let header = try JWSHeader(
      json: Array(#"{"alg":"ES256","x5c":["AQI=","Aw=="],"kid":"k"}"#.utf8))
    #expect(header.algorithm == "ES256")
    #expect(header.certificates == [[1, 2], [3]])
    let escaped = try JWSHeader(json: Array(#"{"alg":"ES\u0032\u00356","x5c":["A\/8="]}"#.utf8))
    #expect(escaped.algorithm == "ES256")
    #expect(escaped.certificates == [[3, 255]])
    for refused in [
      #"{"alg":"ES256","alg":"none"}"#, #"{"x5c":[],"x5c":[]}"#, #"{"x5c":["A"]}"#,
      #"{"x5c":"AQI="}"#, #"{"alg":1}"#, #"{"crit":["exp"]}"#, #"["alg"]"#,
    ] {
      #expect(throws: SignatureVerificationError.self, "\(refused)") {
        try JWSHeader(json: Array(refused.utf8))
      }
    }
  }
}
