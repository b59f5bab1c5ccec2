/// Where a certificate sits in a JWS's `x5c` chain: the error names it (SPEC §11 step 3).
///
/// ```swift
/// SignatureVerificationError.missingAppleOID(.intermediate).description
/// // "missingAppleOID: the intermediate certificate lacks Apple's OID 1.2.840.113635.100.6.2.1"
/// ```
public enum ChainPosition: String, Hashable, Sendable, CaseIterable {
  /// `x5c[0]`: the certificate whose key signs the JWS.
  case leaf
  /// `x5c[1]`: signs the leaf, signed by the root.
  case intermediate
  /// `x5c[2]`: the trust anchor, pinned or given by the caller.
  case root
}
