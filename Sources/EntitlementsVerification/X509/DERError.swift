/// Bytes that are not the DER this verifier reads (X.690 §10, RFC 5280), with what is wrong.
struct DERError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, in a few words.
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
