/// The payload of a JWS in compact form (`header.payload.signature`), decoded from base64url.
///
/// - Important: `JWS.payload(of:)` decodes only: it verifies **nothing** (not the signature,
///   not the x5c chain to Apple Root CA - G3), so anyone can forge what it returns. To verify,
///   read with `DocumentReader.read(_:verifier:)` and a `SignedDataVerifier` from the
///   `EntitlementsVerification` library: every JWS is then verified before it is read.
///
/// ```swift
/// let json = try JWS.payload(of: signedTransactionInfo)
/// let transaction = try AppStoreTransaction(json: json)
/// ```
public enum JWS {
  /// The decoded payload bytes of a compact JWS.
  ///
  /// - Parameter compact: `header.payload.signature`, base64url without padding.
  /// - Returns: The payload's bytes (JSON for Apple's payloads).
  /// - Throws: ``ReadError/malformedJWS(_:)`` when it has not three parts or the payload is
  ///   not base64url.
  public static func payload(of compact: String) throws(ReadError) -> [UInt8] {
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
      guard
        let payload = base64URLDecode(
          UnsafeBufferPointer(rebasing: text[(dots[0] + 1)..<dots[1]]))
      else {
        return .failure(.malformedJWS("the payload is not base64url"))
      }
      return .success(payload)
    }
    return try result.get()
  }

  /// The value of each base64url (and base64) symbol; 255 for any other byte. The byte-level
  /// reader copies it into its own table.
  static let symbolValues: [UInt8] = (0...255).map { byte in
    switch byte {
    case 65...90: UInt8(byte - 65)
    case 97...122: UInt8(byte - 97 + 26)
    case 48...57: UInt8(byte - 48 + 52)
    case 45, 43: 62  // "-" and "+"
    case 95, 47: 63  // "_" and "/"
    default: 255
    }
  }

  /// Decodes base64url (RFC 4648 §5), with or without padding; `nil` for any other byte.
  static func base64URLDecode(_ text: [UInt8]) -> [UInt8]? {
    text.withUnsafeBufferPointer { base64URLDecode($0) }
  }

  /// Decodes base64url (RFC 4648 §5), with or without padding; `nil` for any other byte.
  static func base64URLDecode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    var count = text.count
    while count > 0, text[count - 1] == UInt8(ascii: "=") { count -= 1 }
    guard count % 4 != 1 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(count * 3 / 4)
    var buffer: UInt32 = 0
    var bits = 0
    var invalid: UInt8 = 0
    for index in 0..<count {
      let value = symbolValues[Int(text[index])]
      invalid |= value & 0x80
      buffer = buffer << 6 | UInt32(value & 63)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
    }
    return invalid == 0 ? output : nil
  }
}
