/// An ECDSA public key on P-256 or P-384, verifying signatures in pure Swift.
///
/// The building block of ``AppStoreSignatureVerifier``, visible inside the package (the
/// benchmark, the tests), not to users: the library verifies Apple's signed data, not any
/// ECDSA. Keys are checked when made: coordinates below the field prime, the point on the
/// curve. Signatures are read strictly: raw `r ‖ s` of exactly twice
/// the curve's size, or DER with minimal lengths and integers and nothing after; `r` and `s`
/// must lie in `[1, n−1]`. Every Wycheproof vector marked valid is accepted and every one
/// marked invalid rejected (`Tests/EntitlementsVerificationTests/WycheproofTests.swift`).
///
/// ```swift
/// let key = try ECDSAPublicKey(x963Representation: uncompressedPoint)  // 65 bytes: P-256
/// key.curve  // .p256
/// key.isValidSignature(rawRepresentation: signature, for: Array("header.payload".utf8))
/// // true when signature is r ‖ s over SHA-256 of the message
/// ```
///
/// - Note: Verification handles public data only; it is not constant time, and need not be.
package struct ECDSAPublicKey: Hashable, Sendable {
  /// The curves this key may lie on.
  package enum Curve: String, Hashable, Sendable {
    /// NIST P-256 (secp256r1), with SHA-256: ES256.
    case p256 = "P-256"
    /// NIST P-384 (secp384r1), with SHA-384: ES384.
    case p384 = "P-384"
  }

  /// The message digests a signature may be made over.
  package enum Digest: Hashable, Sendable {
    /// SHA-256.
    case sha256
    /// SHA-384.
    case sha384
  }

  enum Point: Hashable, Sendable {
    case p256(AffinePoint<P256>)
    case p384(AffinePoint<P384>)
  }

  let point: Point

  init(point: Point) {
    self.point = point
  }

  /// A key from its uncompressed encoding `04 ‖ x ‖ y` (SEC 1 §2.3.4): 65 bytes for P-256,
  /// 97 for P-384.
  ///
  /// ```swift
  /// try ECDSAPublicKey(x963Representation: [0x04] + x + y).curve  // .p256 for 32-byte x, y
  /// ```
  ///
  /// - Parameter x963Representation: The encoded point.
  /// - Throws: ``SignatureVerificationError/malformed(_:)`` for another length or form (a
  ///   compressed point), a coordinate not below the prime, or a point not on the curve.
  package init(x963Representation: [UInt8]) throws(SignatureVerificationError) {
    let bytes = x963Representation
    guard bytes.first == 0x04 else {
      throw .malformed("public key: not an uncompressed point (04 ‖ x ‖ y)")
    }
    switch bytes.count {
    case 65:
      guard let x = UInt256(bigEndian: bytes[1..<33]), let y = UInt256(bigEndian: bytes[33...]),
        let point = P256.point(x: x, y: y)
      else { throw .malformed("public key: not a point of P-256") }
      self.point = .p256(point)
    case 97:
      guard let x = UInt384(bigEndian: bytes[1..<49]), let y = UInt384(bigEndian: bytes[49...]),
        let point = P384.point(x: x, y: y)
      else { throw .malformed("public key: not a point of P-384") }
      self.point = .p384(point)
    default:
      throw .malformed("public key: \(bytes.count) bytes, expected 65 (P-256) or 97 (P-384)")
    }
  }

  /// The curve of the key.
  package var curve: Curve {
    switch point {
    case .p256: .p256
    case .p384: .p384
    }
  }

  /// The uncompressed encoding `04 ‖ x ‖ y`.
  package var x963Representation: [UInt8] {
    switch point {
    case .p256(let point): point.x963Representation
    case .p384(let point): point.x963Representation
    }
  }

  /// Whether `signature`, raw `r ‖ s`, signs `message`.
  ///
  /// ```swift
  /// key.isValidSignature(rawRepresentation: rs, for: message)  // SHA-256 for a P-256 key
  /// ```
  ///
  /// - Parameters:
  ///   - signature: `r ‖ s`, each exactly the curve's size (32 or 48 bytes).
  ///   - message: The signed bytes; hashed here.
  ///   - digest: The hash, by default the curve's own: SHA-256 for P-256, SHA-384 for P-384.
  /// - Returns: false for any other length, `r` or `s` outside `[1, n−1]`, or a signature that
  ///   does not verify.
  /// - Complexity: One hash of `message` and one double scalar multiplication.
  package func isValidSignature(
    rawRepresentation signature: [UInt8], for message: [UInt8], digest: Digest? = nil
  ) -> Bool {
    guard let (r, s) = ECDSASignature.raw(signature, byteCount: byteCount) else { return false }
    return isValid(r: r, s: s, digest: hash(message, digest ?? defaultDigest))
  }

  /// Whether `signature`, DER `SEQUENCE { r, s }`, signs `message`.
  ///
  /// ```swift
  /// key.isValidSignature(derRepresentation: certificateSignature, for: tbs, digest: .sha384)
  /// ```
  ///
  /// - Parameters:
  ///   - signature: The DER encoding; anything but strict DER is rejected (BER lengths,
  ///     padded or negative integers, trailing bytes).
  ///   - message: The signed bytes; hashed here.
  ///   - digest: The hash, by default the curve's own.
  /// - Returns: Whether the signature is well formed and verifies.
  /// - Complexity: One hash of `message` and one double scalar multiplication.
  package func isValidSignature(
    derRepresentation signature: [UInt8], for message: [UInt8], digest: Digest? = nil
  ) -> Bool {
    guard let (r, s) = ECDSASignature.der(signature[...], byteCount: byteCount) else {
      return false
    }
    return isValid(r: r, s: s, digest: hash(message, digest ?? defaultDigest))
  }

  var byteCount: Int {
    switch point {
    case .p256: 32
    case .p384: 48
    }
  }

  private var defaultDigest: Digest { curve == .p256 ? .sha256 : .sha384 }

  private func hash(_ message: [UInt8], _ digest: Digest) -> [UInt8] {
    switch digest {
    case .sha256: SHA256.hash(message)
    case .sha384: SHA384.hash(message)
    }
  }

  /// Whether big-endian `r`, `s` (at most the curve's size each) sign `digest`, with a table
  /// of this key's multiples when one is kept.
  func isValid(
    r: ArraySlice<UInt8>, s: ArraySlice<UInt8>, digest: [UInt8], table: KeyTable? = nil
  ) -> Bool {
    switch (point, table?.storage) {
    case (.p256(let key), let storage):
      guard let r = UInt256(bigEndian: r), let s = UInt256(bigEndian: s) else { return false }
      var keyTable: FixedBaseTable<P256>?
      if case .p256(let table) = storage { keyTable = table }
      return ECDSA.isValid(r: r, s: s, digest: digest, key: key, keyTable: keyTable)
    case (.p384(let key), let storage):
      guard let r = UInt384(bigEndian: r), let s = UInt384(bigEndian: s) else { return false }
      var keyTable: FixedBaseTable<P384>?
      if case .p384(let table) = storage { keyTable = table }
      return ECDSA.isValid(r: r, s: s, digest: digest, key: key, keyTable: keyTable)
    }
  }

  /// A table of this key's multiples, for a key that verifies many signatures.
  func makeTable() -> KeyTable {
    KeyTable(self)
  }
}

/// A fixed-base table of a key that verifies many signatures (a cached leaf's): its signatures
/// then cost no doublings. 151 KB for a P-256 key, 338 KB for P-384.
final class KeyTable: Sendable {
  enum Storage: Sendable {
    case p256(FixedBaseTable<P256>)
    case p384(FixedBaseTable<P384>)
  }

  let storage: Storage

  init(_ key: ECDSAPublicKey) {
    switch key.point {
    case .p256(let point): storage = .p256(FixedBaseTable(base: point, windowBits: 7))
    case .p384(let point): storage = .p384(FixedBaseTable(base: point, windowBits: 7))
    }
  }
}
