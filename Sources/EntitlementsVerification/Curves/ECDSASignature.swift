/// The two encodings of an ECDSA signature `(r, s)`, read strictly.
enum ECDSASignature {
  /// `r ‖ s`, each exactly `byteCount` bytes big-endian (IEEE P1363; JWS ES256, RFC 7518
  /// §3.4). Any other length is rejected.
  static func raw(_ signature: [UInt8], byteCount: Int) -> (
    r: ArraySlice<UInt8>, s: ArraySlice<UInt8>
  )? {
    guard signature.count == 2 * byteCount else { return nil }
    return (signature[0..<byteCount], signature[byteCount...])
  }

  /// `SEQUENCE { INTEGER r, INTEGER s }` in DER (RFC 5480 §2.2.3; X.509 signatures): minimal
  /// lengths and integers, both non-negative and at most `byteCount` bytes, nothing after.
  static func der(_ signature: ArraySlice<UInt8>, byteCount: Int) -> (
    r: ArraySlice<UInt8>, s: ArraySlice<UInt8>
  )? {
    do {
      var outer = DERReader(signature)
      let sequence = try outer.read(DERTag.sequence)
      try outer.finish("signature")
      var inner = DERReader(sequence.content)
      let r = try DERValues.unsignedInteger(inner.read(DERTag.integer))
      let s = try DERValues.unsignedInteger(inner.read(DERTag.integer))
      try inner.finish("signature")
      guard r.count <= byteCount, s.count <= byteCount else { return nil }
      return (r, s)
    } catch {
      return nil
    }
  }
}
