/// The payload of a JWS in compact form (`header.payload.signature`), decoded from base64url.
///
/// - Important: `JWS.unverifiedPayload(of:)` decodes only: it verifies **nothing** (not the signature,
///   not the x5c chain to Apple Root CA - G3), so anyone can forge what it returns. To verify,
///   read with `DocumentReader.read(_:verifier:)` and an `AppStoreSignatureVerifier` from the
///   `EntitlementsVerification` library: every JWS is then verified before it is read.
///
/// ```swift
/// let json = try JWS.unverifiedPayload(of: signedTransactionInfo)
/// let transaction = try AppStoreTransaction(unverifiedJSON: json)
/// ```
public enum JWS {
  /// The decoded payload bytes of a compact JWS.
  ///
  /// - Parameter compact: `header.payload.signature`, base64url without padding.
  /// - Returns: The payload's bytes (JSON for Apple's payloads).
  /// - Throws: ``ReadError/malformedJWS(_:)`` when it has not three parts or the payload is
  ///   not base64url.
  public static func unverifiedPayload(of compact: String) throws(ReadError) -> [UInt8] {
    var compact = compact
    let result: Result<[UInt8], ReadError> = compact.withUTF8 { text in
      // The two dots, found as the bytes are read once; a third is an error.
      var dots: [Int] = []
      for (offset, byte) in text.enumerated() where byte == UInt8(ascii: ".") {
        dots.append(offset)
        if dots.count > 2 { break }
      }
      guard dots.count == 2 else {
        let parts = text.lazy.filter { $0 == UInt8(ascii: ".") }.count + 1
        return .failure(.malformedJWS("expected 3 parts separated by '.', found \(parts)"))
      }
      var payload: [UInt8] = []
      guard let count = Base64URL.decode(text, dots[0] + 1, dots[1], into: &payload) else {
        return .failure(.malformedJWS("the payload is not base64url"))
      }
      return .success(Array(payload[..<count]))
    }
    return try result.get()
  }
}
