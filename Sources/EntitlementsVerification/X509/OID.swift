/// An ASN.1 object identifier, kept as its DER contents (X.690 §8.19).
///
/// ```swift
/// OID.appleLeaf.description  // "1.2.840.113635.100.6.11.1"
/// ```
struct OID: Hashable, Sendable, CustomStringConvertible {
  /// The contents octets: base-128 arcs, the first two joined as `40·a + b`.
  var der: [UInt8]

  /// ecdsa-with-SHA256, 1.2.840.10045.4.3.2 (RFC 5758 §3.2).
  static let ecdsaWithSHA256 = OID(der: [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02])
  /// ecdsa-with-SHA384, 1.2.840.10045.4.3.3.
  static let ecdsaWithSHA384 = OID(der: [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x03])
  /// id-ecPublicKey, 1.2.840.10045.2.1 (RFC 5480 §2.1.1).
  static let ecPublicKey = OID(der: [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])
  /// prime256v1 (P-256), 1.2.840.10045.3.1.7.
  static let prime256v1 = OID(der: [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07])
  /// secp384r1 (P-384), 1.3.132.0.34.
  static let secp384r1 = OID(der: [0x2B, 0x81, 0x04, 0x00, 0x22])
  /// Basic constraints, 2.5.29.19 (RFC 5280 §4.2.1.9).
  static let basicConstraints = OID(der: [0x55, 0x1D, 0x13])
  /// Key usage, 2.5.29.15 (RFC 5280 §4.2.1.3).
  static let keyUsage = OID(der: [0x55, 0x1D, 0x0F])
  /// Apple's marker of its WWDR intermediate certificates, 1.2.840.113635.100.6.2.1.
  static let appleIntermediate = OID(der: [
    0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x02, 0x01,
  ])
  /// Apple's marker of App Store receipt-signing leaf certificates, 1.2.840.113635.100.6.11.1.
  static let appleLeaf = OID(der: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x0B, 0x01])

  /// The dotted form, `1.2.840.…`.
  var description: String {
    var arcs: [UInt64] = []
    var value: UInt64 = 0
    for byte in der {
      value = value << 7 | UInt64(byte & 0x7F)
      if byte & 0x80 == 0 {
        arcs.append(value)
        value = 0
      }
    }
    guard let first = arcs.first else { return "" }
    let head: [UInt64] = first < 80 ? [first / 40, first % 40] : [2, first - 80]
    return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
  }
}
