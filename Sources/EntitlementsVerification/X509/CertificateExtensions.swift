/// What a certificate's extensions say that the chain check needs: basic constraints, key
/// usage, Apple's marker OIDs, and any critical extension not understood (RFC 5280 §4.2).
struct CertificateExtensions: Hashable, Sendable {
  var basicConstraints: BasicConstraints?
  var keyUsage: KeyUsage?
  /// Every extension's identifier.
  var identifiers: Set<OID> = []
  /// Critical extensions other than basic constraints and key usage: a certificate carrying one
  /// must be rejected.
  var unknownCritical: [OID] = []

  init() {}

  /// The extensions of `[3] EXPLICIT SEQUENCE SIZE (1..MAX) OF Extension`.
  init(der element: DERElement) throws(DERError) {
    var outer = DERReader(element.content)
    let list = try outer.read(DERTag.sequence, "extensions")
    try outer.finish("extensions")
    var reader = DERReader(list.content)
    guard !reader.isAtEnd else { throw DERError("empty extensions") }
    while !reader.isAtEnd {
      var fields = DERReader(try reader.read(DERTag.sequence, "extension").content)
      let oid = try DERValues.objectIdentifier(fields.read(DERTag.objectIdentifier, "extnID"))
      var critical = false
      if let flag = try fields.readIfPresent(DERTag.boolean) {
        guard try DERValues.boolean(flag) else {
          throw DERError("extension \(oid): critical FALSE encoded (DER omits a default)")
        }
        critical = true
      }
      let value = try fields.read(DERTag.octetString, "extnValue").content
      try fields.finish("extension \(oid)")
      guard identifiers.insert(oid).inserted else {
        throw DERError("extension \(oid) appears twice")
      }
      switch oid {
      case .basicConstraints: basicConstraints = try BasicConstraints(der: value)
      case .keyUsage: keyUsage = try KeyUsage(der: value)
      default: if critical { unknownCritical.append(oid) }
      }
    }
  }
}
