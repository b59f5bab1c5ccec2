/// The payload of a JWS in compact form (`header.payload.signature`), decoded from base64url.
///
/// - Important: This does **not** verify the signature. A backend must verify Apple's signed
///   payloads (the x5c chain to Apple Root CA - G3) before trusting them; this library reads
///   what the backend has already verified, so that it needs no cryptography dependency.
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
    let parts = compact.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw .malformedJWS("expected 3 parts separated by '.', found \(parts.count)")
    }
    guard let payload = base64URLDecode(Array(parts[1])) else {
      throw .malformedJWS("the payload is not base64url")
    }
    return payload
  }

  /// Decodes base64url (RFC 4648 §5), with or without padding; `nil` for any other byte.
  static func base64URLDecode(_ text: [UInt8]) -> [UInt8]? {
    var symbols = text[...]
    while symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
    guard symbols.count % 4 != 1 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(symbols.count * 3 / 4)
    var buffer: UInt32 = 0
    var bits = 0
    for symbol in symbols {
      let value: UInt32
      switch symbol {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(symbol - 65)
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(symbol - 97 + 26)
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(symbol - 48 + 52)
      case UInt8(ascii: "-"), UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "_"), UInt8(ascii: "/"): value = 63
      default: return nil
      }
      buffer = buffer << 6 | value
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
    }
    return output
  }
}
