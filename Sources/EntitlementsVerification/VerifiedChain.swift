import Entitlements

/// An `x5c` chain that passed SPEC §11 steps 1–3 for a set of trusted roots: what every
/// payload signed under it still needs (the leaf's key, each certificate's validity for step 4).
///
/// It holds no verdict about time: validity depends on each payload's instant, and is checked
/// per payload (``checkValidity(at:)``).
final class VerifiedChain: Sendable {
  /// The certificates, DER, leaf first.
  let certificates: [[UInt8]]
  /// The leaf's P-256 key.
  let leafKey: ECDSAPublicKey
  /// Each certificate's validity, leaf first.
  let validities: [(position: ChainPosition, validity: Validity)]
  /// Whether this is Xcode's single self-signed certificate, trusted by the caller: the
  /// payload must then say environment Xcode.
  let isSingleCertificate: Bool

  /// Checks a chain: exactly leaf, intermediate and root (or Xcode's one certificate, when
  /// the caller trusts it), the root trusted, each certificate issued and signed by the next,
  /// the signers certificate authorities, Apple's OIDs, a P-256 leaf key.
  ///
  /// - Throws: The first failed step, in this order: chain length, malformed certificate,
  ///   untrusted root, unknown critical extension, issuer mismatch, chain signature, CA,
  ///   Apple OIDs, leaf key.
  init(certificates der: [[UInt8]], trustedRoots: [TrustedRoot]) throws(SignatureVerificationError)
  {
    let isSingle = der.count == 1
    guard der.count == 3 || isSingle else { throw .invalidChainLength(der.count) }
    let positions: [ChainPosition] = isSingle ? [.leaf] : [.leaf, .intermediate, .root]
    var certificates: [Certificate] = []
    for (position, bytes) in zip(positions, der) {
      do {
        certificates.append(try Certificate(der: bytes))
      } catch {
        throw .malformed("\(position) certificate: \(error)")
      }
    }
    guard let last = der.last else { throw .invalidChainLength(0) }
    let fingerprint = SHA256.hash(last)
    let trusted = trustedRoots.contains { $0.sha256 == fingerprint }
    if isSingle {
      // Xcode signs with one self-signed certificate: acceptable only when the caller trusts
      // that very certificate (never Apple's root).
      guard trusted, !TrustedRoot(pinnedFingerprint: fingerprint).isAppleRoot else {
        throw .invalidChainLength(1)
      }
    } else {
      guard trusted else { throw .untrustedRoot }
    }
    for (position, certificate) in zip(positions, certificates) {
      if let oid = certificate.extensions.unknownCritical.first {
        throw .unsupportedCriticalExtension(position, oid: oid.description)
      }
    }
    if !isSingle {
      let (leaf, intermediate, root) = (certificates[0], certificates[1], certificates[2])
      for (child, parent, position) in [
        (leaf, intermediate, ChainPosition.leaf), (intermediate, root, .intermediate),
      ] where child.issuer != parent.subject {
        throw .issuerMismatch(position)
      }
      for (child, parent, position) in [
        (leaf, intermediate, ChainPosition.leaf), (intermediate, root, .intermediate),
      ] {
        guard let key = parent.publicKey, child.isSigned(by: key) else {
          throw .invalidChainSignature(position)
        }
      }
      // The intermediate signs the leaf: a CA, by its basic constraints; the root signs the
      // intermediate, a CA below it: a CA if it says (a v1 root, like Apple's test CA, has no
      // extensions and is trusted as given), allowing one CA below.
      guard Self.mayIssue(intermediate, cAsBelow: 0, required: true) else {
        throw .notCertificateAuthority(.intermediate)
      }
      guard Self.mayIssue(root, cAsBelow: 1, required: false) else {
        throw .notCertificateAuthority(.root)
      }
      guard intermediate.extensions.identifiers.contains(.appleIntermediate) else {
        throw .missingAppleOID(.intermediate)
      }
      guard leaf.extensions.identifiers.contains(.appleLeaf) else {
        throw .missingAppleOID(.leaf)
      }
    }
    guard let key = certificates[0].publicKey, key.curve == .p256 else {
      let found = certificates[0].publicKey.map { "a \($0.curve.rawValue) key" } ?? "a non-EC key"
      throw .unexpectedAlgorithm("ES256 with \(found) in the leaf certificate")
    }
    self.certificates = der
    leafKey = key
    validities = zip(positions, certificates).map { ($0, $1.validity) }
    isSingleCertificate = isSingle
  }

  /// Whether `certificate` may sign certificates with `cAsBelow` CAs under it (RFC 5280
  /// §6.1.4 (k), (l), (n)).
  private static func mayIssue(_ certificate: Certificate, cAsBelow: Int, required: Bool) -> Bool {
    let extensions = certificate.extensions
    if let constraints = extensions.basicConstraints {
      guard constraints.isCertificateAuthority else { return false }
      if let limit = constraints.pathLength, limit < cAsBelow { return false }
    } else if required || certificate.version == 3 {
      return false
    }
    if let usage = extensions.keyUsage, !usage.keyCertSign { return false }
    return true
  }

  /// Step 4: every certificate valid at `instant`.
  func checkValidity(at instant: Instant) throws(SignatureVerificationError) {
    for (position, validity) in validities where !validity.contains(instant) {
      let (notBefore, notAfter) = validity.instants
      throw .certificateExpired(position, notBefore: notBefore, notAfter: notAfter, at: instant)
    }
  }
}
