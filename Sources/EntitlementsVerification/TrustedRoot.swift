/// A root certificate an ``AppStoreSignatureVerifier`` trusts, known by the SHA-256 fingerprint of its
/// DER encoding (SPEC §11 step 2).
///
/// The root itself travels in every JWS, as the last `x5c` certificate; trusting a root means
/// accepting a last certificate whose DER hashes to the fingerprint. Apple Root CA - G3 is
/// pinned this way by default.
///
/// ```swift
/// TrustedRoot.appleRootCAG3.fingerprint
/// // "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179"
/// let testRoot = try TrustedRoot(derRepresentation: testCA)  // Apple's test CA, your own root…
/// ```
public struct TrustedRoot: Hashable, Sendable {
  /// SHA-256 of the root certificate's DER.
  public let sha256: [UInt8]

  /// Apple Root CA - G3, which signs the App Store's production and sandbox payloads.
  public static let appleRootCAG3 = TrustedRoot(
    pinned: [
      0x63, 0x34, 0x3A, 0xBF, 0xB8, 0x9A, 0x6A, 0x03, 0xEB, 0xB5, 0x7E, 0x9B, 0x3F, 0x5F, 0xA7,
      0xBE, 0x7C, 0x4F, 0x5C, 0x75, 0x6F, 0x30, 0x17, 0xB3, 0xA8, 0xC4, 0x88, 0xC3, 0x65, 0x3E,
      0x91, 0x79,
    ])

  private init(pinned: [UInt8]) {
    sha256 = pinned
  }

  /// The root of a fingerprint already computed.
  init(pinnedFingerprint: [UInt8]) {
    sha256 = pinnedFingerprint
  }

  /// Trusts the root certificate `der` (its fingerprint is kept).
  ///
  /// ```swift
  /// let root = try TrustedRoot(derRepresentation: Array(try Data(contentsOf: rootURL)))
  /// ```
  ///
  /// - Parameter der: A DER X.509 certificate.
  /// - Throws: ``SignatureVerificationError/malformed(_:)`` when it is not one.
  public init(derRepresentation der: [UInt8]) throws(SignatureVerificationError) {
    do {
      _ = try Certificate(der: der)
    } catch {
      throw .malformed("trusted root: \(error)")
    }
    sha256 = SHA256.hash(der)
  }

  /// Trusts the root whose DER has this SHA-256 fingerprint: 64 hexadecimal digits, colons
  /// and spaces allowed, any case; nil unless it spells 32 bytes.
  ///
  /// ```swift
  /// TrustedRoot(fingerprint: "63:34:3A:BF:…:91:79")  // = .appleRootCAG3
  /// ```
  ///
  /// - Parameter fingerprint: The hexadecimal fingerprint.
  public init?(fingerprint: String) {
    let digits = fingerprint.unicodeScalars.filter { $0 != ":" && $0 != " " }
    guard digits.count == 64 else { return nil }
    var bytes: [UInt8] = []
    var high: UInt8?
    for digit in digits {
      // UInt8(_:radix:) reads ASCII digits only: a fullwidth or Arabic-Indic digit is refused.
      guard let value = UInt8(String(digit), radix: 16) else { return nil }
      if let first = high {
        bytes.append(first << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    sha256 = bytes
  }

  /// The fingerprint in uppercase hexadecimal.
  public var fingerprint: String {
    sha256.map { byte in
      let digits = String(byte, radix: 16, uppercase: true)
      return digits.count == 1 ? "0" + digits : digits
    }.joined()
  }

  /// Whether this is Apple's production root, which never signs Xcode or LocalTesting data.
  var isAppleRoot: Bool { self == .appleRootCAG3 }
}
