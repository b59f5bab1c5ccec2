/// An X.509 v1/v3 certificate, the subset a JWS chain needs, read as strict DER (RFC 5280
/// §4.1): what was signed, by which algorithm, the names that link the chain, the validity,
/// an EC public key, and the extensions the chain check reads.
///
/// ```swift
/// let root = try Certificate(der: x5c[2])
/// root.publicKey?.curve  // .p384 (Apple Root CA - G3)
/// root.signatureAlgorithm  // .ecdsaWithSHA384
/// ```
struct Certificate: Sendable {
  /// The whole encoding.
  var der: [UInt8]
  /// The encoded `tbsCertificate`: what the issuer signed.
  var signedPart: ArraySlice<UInt8>
  /// 1 or 3 (2 is read too, without extensions).
  var version: Int
  var signatureAlgorithm: SignatureAlgorithm
  /// The DER `ECDSA-Sig-Value` (or another algorithm's bytes).
  var signature: ArraySlice<UInt8>
  /// The encoded issuer `Name`, compared byte for byte with the issuer's subject.
  var issuer: ArraySlice<UInt8>
  /// The encoded subject `Name`.
  var subject: ArraySlice<UInt8>
  var validity: Validity
  /// The key, when it is an EC key on P-256 or P-384; nil for other keys.
  var publicKey: ECDSAPublicKey?
  var extensions: CertificateExtensions

  /// Reads a certificate; anything but DER of the expected shape throws.
  init(der bytes: [UInt8]) throws(DERError) {
    der = bytes
    var top = DERReader(bytes[...])
    let certificate = try top.read(DERTag.sequence, "certificate")
    try top.finish("certificate")
    var fields = DERReader(certificate.content)
    let tbs = try fields.read(DERTag.sequence, "tbsCertificate")
    signatureAlgorithm = try SignatureAlgorithm(fields.read(DERTag.sequence, "signatureAlgorithm"))
    signature = try DERValues.octetAlignedBits(fields.read(DERTag.bitString, "signatureValue"))
    try fields.finish("certificate")
    signedPart = tbs.encoded

    var reader = DERReader(tbs.content)
    version = 1
    if let explicit = try reader.readIfPresent(DERTag.explicit(0)) {
      var inner = DERReader(explicit.content)
      let number = try DERValues.smallInteger(inner.read(DERTag.integer, "version"))
      try inner.finish("version")
      guard number == 1 || number == 2 else {
        throw DERError("version \(number + 1) (v1 must be left out; only v2 and v3 are written)")
      }
      version = number + 1
    }
    _ = try DERValues.integer(reader.read(DERTag.integer, "serialNumber"))
    let innerAlgorithm = try reader.read(DERTag.sequence, "signature")
    guard try SignatureAlgorithm(innerAlgorithm) == signatureAlgorithm else {
      throw DERError("the signed algorithm differs from the certificate's")
    }
    issuer = try reader.read(DERTag.sequence, "issuer").encoded
    var times = DERReader(try reader.read(DERTag.sequence, "validity").content)
    let notBefore = try DERValues.time(times.read())
    let notAfter = try DERValues.time(times.read())
    try times.finish("validity")
    validity = Validity(notBefore: notBefore, notAfter: notAfter)
    subject = try reader.read(DERTag.sequence, "subject").encoded
    publicKey = try Self.publicKey(reader.read(DERTag.sequence, "subjectPublicKeyInfo"))
    if version >= 2 {
      _ = try reader.readIfPresent(DERTag.implicitPrimitive(1))
      _ = try reader.readIfPresent(DERTag.implicitPrimitive(2))
    }
    extensions = CertificateExtensions()
    if version == 3, let element = try reader.readIfPresent(DERTag.explicit(3)) {
      extensions = try CertificateExtensions(der: element)
    }
    try reader.finish("tbsCertificate")
  }

  /// An EC key on P-256 or P-384 from `SubjectPublicKeyInfo` (RFC 5480 §2), or nil for any
  /// other algorithm or curve.
  private static func publicKey(_ info: DERElement) throws(DERError) -> ECDSAPublicKey? {
    var reader = DERReader(info.content)
    var algorithm = DERReader(try reader.read(DERTag.sequence, "key algorithm").content)
    let keyBits = try DERValues.octetAlignedBits(reader.read(DERTag.bitString, "subjectPublicKey"))
    try reader.finish("subjectPublicKeyInfo")
    let oid = try DERValues.objectIdentifier(algorithm.read(DERTag.objectIdentifier, "key type"))
    guard oid == .ecPublicKey else { return nil }
    let curve = try DERValues.objectIdentifier(algorithm.read(DERTag.objectIdentifier, "curve"))
    try algorithm.finish("EC key algorithm")
    guard curve == .prime256v1 || curve == .secp384r1 else { return nil }
    let key: ECDSAPublicKey
    do {
      key = try ECDSAPublicKey(x963Representation: Array(keyBits))
    } catch {
      throw DERError("\(error)")
    }
    guard (key.curve == .p256) == (curve == .prime256v1) else {
      throw DERError("the key's size does not match its curve")
    }
    return key
  }

  /// Whether this certificate's signature verifies with `issuerKey`.
  func isSigned(by issuerKey: ECDSAPublicKey) -> Bool {
    guard let digest = signatureAlgorithm.digest,
      let (r, s) = ECDSASignature.der(signature, byteCount: issuerKey.byteCount)
    else { return false }
    let message = Array(signedPart)
    let hashed = digest == .sha256 ? SHA256.hash(message) : SHA384.hash(message)
    return issuerKey.isValid(r: r, s: s, digest: hashed)
  }
}
