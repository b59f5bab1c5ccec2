/// A JWS protected header, the fields SPEC §11 step 1 reads: `alg` and `x5c` (RFC 7515 §4.1).
///
/// `crit` is refused: this verifier understands no header extension, and RFC 7515 §4.1.11 says a
/// recipient must then reject the JWS. Other fields (`typ`, `kid`) are ignored.
struct JWSHeader: Sendable {
  /// The algorithm, if given.
  var algorithm: String?
  /// The certificates, DER, leaf first; nil when `x5c` is absent.
  var certificates: [[UInt8]]?

  /// The header of a decoded header segment.
  init(json: [UInt8]) throws(SignatureVerificationError) {
    var algorithm: String?
    var certificates: [[UInt8]]?
    let result = json.withUnsafeBufferPointer { bytes -> Result<Void, SignatureVerificationError> in
      var scanner = JSONScanner(bytes)
      do throws(JSONScanError) {
        try scanner.readObject { scanner, key throws(JSONScanError) in
          if key.is("alg") {
            guard algorithm == nil else { throw JSONScanError("alg appears twice") }
            algorithm = try scanner.readString()
          } else if key.is("x5c") {
            guard certificates == nil else { throw JSONScanError("x5c appears twice") }
            var list: [[UInt8]] = []
            try scanner.readArray { scanner throws(JSONScanError) in
              let text = try scanner.readString()
              guard let der = Base64.decode(Array(text.utf8), alphabet: .standard) else {
                throw JSONScanError("x5c[\(list.count)] is not base64")
              }
              list.append(der)
            }
            certificates = list
          } else if key.is("crit") {
            throw JSONScanError("crit: no header extension is understood (RFC 7515 §4.1.11)")
          } else {
            try scanner.skipValue()
          }
        }
        try scanner.finish()
        return .success(())
      } catch {
        return .failure(.malformed("JWS header: \(error)"))
      }
    }
    try result.get()
    self.algorithm = algorithm
    self.certificates = certificates
  }
}
