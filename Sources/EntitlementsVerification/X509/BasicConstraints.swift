/// The basic constraints extension: whether the subject is a certificate authority, and how
/// many CAs may follow it (RFC 5280 §4.2.1.9).
struct BasicConstraints: Hashable, Sendable {
  /// `cA`; DER leaves it out when false.
  var isCertificateAuthority: Bool
  /// `pathLenConstraint`: how many intermediate CAs may follow, if limited.
  var pathLength: Int?

  /// The constraints of an extension's value, `SEQUENCE { cA BOOLEAN DEFAULT FALSE,
  /// pathLenConstraint INTEGER OPTIONAL }`.
  init(der value: ArraySlice<UInt8>) throws(DERError) {
    var outer = DERReader(value)
    let sequence = try outer.read(DERTag.sequence, "basic constraints")
    try outer.finish("basic constraints")
    var reader = DERReader(sequence.content)
    isCertificateAuthority = false
    if let flag = try reader.readIfPresent(DERTag.boolean) {
      guard try DERValues.boolean(flag) else {
        throw DERError("basic constraints: cA FALSE encoded (DER omits a default)")
      }
      isCertificateAuthority = true
    }
    pathLength = try reader.readIfPresent(DERTag.integer).map(DERValues.smallInteger)
    try reader.finish("basic constraints")
  }
}
