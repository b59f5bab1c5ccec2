/// How a reader turns the JWS strings of a document into payloads: decoded only, or verified
/// first by the caller's ``SignedPayloadVerifier`` (SPEC §11).
///
/// Every JWS a document holds goes through the same one, nested ones included, so that a
/// verifying reader never trusts a payload it did not verify.
package struct SignedPayloads: Sendable {
  /// The verifier; `nil` to decode without verifying.
  package let verifier: (any SignedPayloadVerifier)?

  /// Payloads verified by `verifier`, or decoded only when `nil`.
  package init(verifier: (any SignedPayloadVerifier)?) {
    self.verifier = verifier
  }

  /// Decoding only: the payloads are trusted as they are.
  package static let unverified = SignedPayloads(verifier: nil)

  /// Whether payloads are verified.
  package var verifies: Bool { verifier != nil }

  /// The payload of the JWS `compact`, found at `path` of its document.
  ///
  /// - Throws: ``ReadError/signatureRejected(path:reason:)`` when the verifier refuses it;
  ///   ``ReadError/malformedJWS(_:)`` when, unverified, it cannot be decoded.
  package func payload(of compact: String, at path: String) throws(ReadError) -> [UInt8] {
    guard let verifier else { return try JWS.unverifiedPayload(of: compact) }
    do {
      return try verifier.verifiedPayload(of: compact)
    } catch {
      throw .signatureRejected(path: path.isEmpty ? "(document)" : path, reason: "\(error)")
    }
  }
}
