extension AppStoreSignatureVerifier {
  /// Runs every parser of the verifier on `bytes`, as a JWS header's JSON, a payload's JSON, a
  /// certificate, a DER signature and base64 of both alphabets: for the fuzz target
  /// (`Sources/entitlements-fuzz-verify`), which must reach the payload's parser without a
  /// valid signature. Nothing here may trap.
  ///
  /// ```swift
  /// AppStoreSignatureVerifier._exerciseParsers(Array("{\"alg\":\"ES256\"}".utf8))
  /// ```
  ///
  /// - Parameter bytes: Any bytes.
  package static func _exerciseParsers(_ bytes: [UInt8]) {
    _ = try? JWSHeader(json: bytes)
    _ = try? PayloadClaims(json: bytes)
    if let certificate = try? Certificate(der: bytes), let key = certificate.publicKey {
      _ = certificate.isSigned(by: key)
    }
    _ = ECDSASignature.der(bytes[...], byteCount: 32)
    _ = Base64.decode(bytes, alphabet: .url)
    _ = Base64.decode(bytes, alphabet: .standard)
    _ = try? ECDSAPublicKey(x963Representation: bytes)
  }
}
