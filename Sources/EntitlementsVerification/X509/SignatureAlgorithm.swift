/// A certificate's signature algorithm: the two this verifier checks, or another (RFC 5758
/// §3.2: the ECDSA identifiers carry no parameters).
enum SignatureAlgorithm: Hashable, Sendable {
  case ecdsaWithSHA256
  case ecdsaWithSHA384
  /// Any other algorithm (RSA, EdDSA…): a certificate signed with it cannot verify here.
  case other(OID)

  /// The algorithm of an `AlgorithmIdentifier` SEQUENCE.
  init(_ element: DERElement) throws(DERError) {
    var reader = DERReader(element.content)
    let oid = try DERValues.objectIdentifier(reader.read(DERTag.objectIdentifier, "algorithm"))
    switch oid {
    case .ecdsaWithSHA256: self = .ecdsaWithSHA256
    case .ecdsaWithSHA384: self = .ecdsaWithSHA384
    default:
      // Parameters of other algorithms are not ours to judge.
      self = .other(oid)
      return
    }
    try reader.finish("ECDSA algorithm identifier (parameters must be absent)")
  }

  /// The digest the signature is made over, for ECDSA.
  var digest: ECDSAPublicKey.Digest? {
    switch self {
    case .ecdsaWithSHA256: .sha256
    case .ecdsaWithSHA384: .sha384
    case .other: nil
    }
  }
}
