import Entitlements

/// Why a JWS must not be trusted, naming the step of SPEC §11 that failed.
///
/// ``step`` is the case's name (`"untrustedRoot"`, `"invalidSignature"`…), stable for logs and
/// for the `entitlements verify` command; ``description`` adds what was found.
///
/// ```swift
/// do {
///   _ = try verifier.verify(signedTransaction)
/// } catch {
///   error.step         // "bundleMismatch"
///   error.description  // "bundleMismatch: bundleId is \"com.other\", expected \"com.example\""
/// }
/// ```
public enum SignatureVerificationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The JWS, its header, a certificate or the payload cannot be read as what it must be; the
  /// text says what (step 1, and strict DER and base64 everywhere).
  case malformed(String)
  /// The header's `alg` is not `ES256` (`none`, an HMAC, another curve…), or the leaf's key is
  /// not a P-256 key (step 1).
  case unexpectedAlgorithm(String)
  /// `x5c` does not hold exactly three certificates: leaf, intermediate, root (step 1; one
  /// certificate is accepted only from Xcode, see ``AppStoreSignatureVerifier``).
  case invalidChainLength(Int)
  /// The last certificate is not a trusted root (step 2).
  case untrustedRoot
  /// A certificate's issuer is not the subject of the certificate after it (step 3).
  case issuerMismatch(ChainPosition)
  /// A certificate's signature does not verify with the key of the certificate after it, or
  /// uses an algorithm other than ecdsa-with-SHA256/384 (step 3).
  case invalidChainSignature(ChainPosition)
  /// A certificate that signs another is not a certificate authority: no CA flag, a key usage
  /// without certificate signing, or a path length exceeded (step 3).
  case notCertificateAuthority(ChainPosition)
  /// The intermediate lacks Apple's OID 1.2.840.113635.100.6.2.1, or the leaf lacks
  /// 1.2.840.113635.100.6.11.1 (step 3).
  case missingAppleOID(ChainPosition)
  /// A certificate marks an extension critical that this verifier does not know (RFC 5280
  /// §4.2: it must then be rejected).
  case unsupportedCriticalExtension(ChainPosition, oid: String)
  /// A certificate is not valid at the instant: expired, or not yet valid (step 4).
  case certificateExpired(ChainPosition, notBefore: Instant, notAfter: Instant, at: Instant)
  /// The JWS signature does not verify with the leaf's key over `header.payload` (step 5).
  case invalidSignature
  /// The payload's `bundleId` is not the expected one (step 6).
  case bundleMismatch(expected: String, found: String?)
  /// The payload's `appAppleId` is not the expected one (step 6, production).
  case appAppleIdMismatch(expected: Int64, found: Int64?)
  /// The payload's environment is not the expected one (step 6).
  case environmentMismatch(expected: StoreEnvironment, found: String?)
  /// A JWS nested in a notification failed (``AppStoreSignatureVerifier/verifyNotification(_:)``):
  /// its JSON path (`data.signedTransactionInfo`) and why.
  indirect case nested(jsonPath: String, SignatureVerificationError)

  /// The failed step's name: the case's name.
  public var step: String {
    switch self {
    case .malformed: "malformed"
    case .unexpectedAlgorithm: "unexpectedAlgorithm"
    case .invalidChainLength: "invalidChainLength"
    case .untrustedRoot: "untrustedRoot"
    case .issuerMismatch: "issuerMismatch"
    case .invalidChainSignature: "invalidChainSignature"
    case .notCertificateAuthority: "notCertificateAuthority"
    case .missingAppleOID: "missingAppleOID"
    case .unsupportedCriticalExtension: "unsupportedCriticalExtension"
    case .certificateExpired: "certificateExpired"
    case .invalidSignature: "invalidSignature"
    case .bundleMismatch: "bundleMismatch"
    case .appAppleIdMismatch: "appAppleIdMismatch"
    case .environmentMismatch: "environmentMismatch"
    case .nested(_, let error): error.step
    }
  }

  /// The step and what was found.
  public var description: String {
    if case .nested(let path, let error) = self { return "\(path): \(error)" }
    return "\(step): \(detail)"
  }

  private var detail: String {
    switch self {
    case .malformed(let what):
      return what
    case .unexpectedAlgorithm(let found):
      return "\(found), expected ES256 with a P-256 key"
    case .invalidChainLength(let count):
      return "x5c holds \(count) certificate\(count == 1 ? "" : "s"), expected 3"
    case .untrustedRoot:
      return "the root certificate is not a trusted root"
    case .issuerMismatch(let position):
      return "the \(position) certificate's issuer is not the next certificate's subject"
    case .invalidChainSignature(let position):
      return "the \(position) certificate's signature does not verify with its issuer's key"
    case .notCertificateAuthority(let position):
      return "the \(position) certificate signs another but is not a certificate authority"
    case .missingAppleOID(let position):
      let oid = position == .leaf ? OID.appleLeaf : OID.appleIntermediate
      return "the \(position) certificate lacks Apple's OID \(oid)"
    case .unsupportedCriticalExtension(let position, let oid):
      return "the \(position) certificate has an unknown critical extension \(oid)"
    case .certificateExpired(let position, let notBefore, let notAfter, let at):
      let state = at < notBefore ? "not yet valid" : "expired"
      return "the \(position) certificate is \(state) at \(at) (valid \(notBefore) to \(notAfter))"
    case .invalidSignature:
      return "the signature does not verify with the leaf certificate's key"
    case .bundleMismatch(let expected, let found):
      return "bundleId is \(quoted(found)), expected \(quoted(expected))"
    case .appAppleIdMismatch(let expected, let found):
      return "appAppleId is \(found.map(String.init) ?? "absent"), expected \(expected)"
    case .environmentMismatch(let expected, let found):
      return "environment is \(quoted(found)), expected \(quoted(expected.rawValue))"
    case .nested(_, let error):
      return error.detail
    }
  }

  private func quoted(_ text: String?) -> String {
    text.map { "\"\($0)\"" } ?? "absent"
  }
}
