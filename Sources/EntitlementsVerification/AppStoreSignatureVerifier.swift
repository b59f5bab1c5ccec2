import Entitlements

/// Verifies Apple's signed data — transactions, renewal info, notifications — in pure Swift,
/// as SPEC §11 says and Apple's own `SignedDataVerifier` (App Store Server Library) does.
///
/// For one compact JWS, in order: the header (`alg` ES256, `x5c` of leaf, intermediate, root);
/// the root trusted (by default Apple Root CA - G3, pinned by fingerprint); each certificate
/// issued and signed by the next, the intermediate a certificate authority with Apple's OID
/// 1.2.840.113635.100.6.2.1, the leaf with 1.2.840.113635.100.6.11.1; the signature (raw
/// `r ‖ s`, P-256, SHA-256 over `header.payload`); every certificate valid at the payload's
/// `signedDate` (or the instant given); then the claims, in Apple's order: `bundleId`,
/// `appAppleId` and `environment` as expected. A failure names its step
/// (``SignatureVerificationError``).
///
/// ```swift
/// let verifier = AppStoreSignatureVerifier(bundleId: "com.example", environment: .production,
///                                          appAppleId: 1_234_567_890)
/// let transaction = try verifier.verify(signedTransactionInfo)
/// transaction.payload  // the JSON bytes, trusted
/// let notification = try verifier.verifyNotification(signedPayload)  // nested JWS too
/// ```
///
/// Claims are compared where the payload carries them, as Apple's library does: renewal info
/// has no `bundleId`, so only its environment is checked; `appAppleId` is compared in
/// production, and a production notification must carry it (when the verifier has one).
/// Leaving `bundleId` or `environment` nil skips that comparison (the `entitlements verify`
/// command without `--bundle-id`): any app's payload then passes.
///
/// Xcode and LocalTesting payloads are not signed by Apple's root: they verify only against a
/// root the caller gives, and a verifier expecting those environments never trusts Apple's
/// root. Xcode signs with a single self-signed certificate: such an `x5c` is accepted when
/// that certificate is one of the caller's roots and the payload says environment `Xcode`.
///
/// Verified chains are cached inside the verifier (copies share the cache; it is safe from
/// any thread): each further payload under the same certificates costs one P-256
/// verification, from a table of the leaf's key built on the chain's second use. Validity is
/// still checked for each payload at its own instant. A header enters the cache only once a
/// JWS signature made under it has verified, so headers nobody signed cannot flush it.
///
/// - Note: Revocation is not checked. Apple's library asks Apple's OCSP responder when online
///   checks are on; that needs the network, out of reach of a pure library. A caller who wants
///   it can query OCSP for ``VerifiedPayload/certificateChain`` itself, or plug its own
///   `SignedPayloadVerifier`.
public struct AppStoreSignatureVerifier: SignedPayloadVerifier {
  /// The roots a chain may end in. For the Xcode and LocalTesting environments, Apple's root
  /// is left out.
  public let trustedRoots: [TrustedRoot]
  /// The expected `bundleId`; nil does not compare it.
  public let bundleId: String?
  /// The expected `appAppleId`, compared in production; nil does not compare it.
  public let appAppleId: Int64?
  /// The expected environment; nil does not compare it.
  public let environment: StoreEnvironment?
  /// The instant certificates must be valid at; nil means each payload's `signedDate`, Apple's
  /// choice when online checks are off (SPEC §11 step 4).
  public let validAt: Instant?

  let cache = ChainCache()

  /// A verifier.
  ///
  /// ```swift
  /// AppStoreSignatureVerifier(bundleId: "com.example", environment: .sandbox)
  /// AppStoreSignatureVerifier(
  ///   trustedRoots: [try TrustedRoot(derRepresentation: xcodeCertificate)],
  ///   bundleId: "com.example", environment: .xcode)
  /// ```
  ///
  /// - Parameters:
  ///   - trustedRoots: The roots to trust; Apple Root CA - G3 by default.
  ///   - bundleId: Your app's bundle id; nil to accept any (not advised).
  ///   - environment: The environment payloads must come from; nil to accept any.
  ///   - appAppleId: Your app's Apple id, compared in production.
  ///   - validAt: The instant certificates must be valid at; nil for each payload's
  ///     `signedDate`.
  public init(
    trustedRoots: [TrustedRoot] = [.appleRootCAG3], bundleId: String?,
    environment: StoreEnvironment?, appAppleId: Int64? = nil, validAt: Instant? = nil
  ) {
    let testing = environment == .xcode || environment == .localTesting
    self.trustedRoots = testing ? trustedRoots.filter { !$0.isAppleRoot } : trustedRoots
    self.bundleId = bundleId
    self.environment = environment
    self.appAppleId = appAppleId
    self.validAt = validAt
  }

  /// Verifies one compact JWS and returns its payload with the claims checked.
  ///
  /// ```swift
  /// try verifier.verify(signedRenewalInfo).environment  // .production
  /// ```
  ///
  /// - Parameter compactJWS: `header.payload.signature`.
  /// - Returns: The verified payload.
  /// - Throws: ``SignatureVerificationError`` naming the failed step.
  /// - Complexity: With the chain cached: SHA-256 of the signing input past the header, one
  ///   P-256 verification, base64 decoding and a scan of the payload. Otherwise, add the
  ///   header's decoding and two certificate verifications (P-384 for Apple's chain).
  public func verify(_ compactJWS: String) throws(SignatureVerificationError) -> VerifiedPayload {
    var text = compactJWS
    return try text.withUTF8 { bytes in
      Result { () throws(SignatureVerificationError) in
        try verify(bytes)
      }
    }.get()
  }

  /// Verifies a notification's `signedPayload` and the JWS it nests: `data.signedTransactionInfo`
  /// and `data.signedRenewalInfo`, each with its own claims and `signedDate`.
  ///
  /// ```swift
  /// let verified = try verifier.verifyNotification(signedPayload)
  /// verified.transaction?.payload  // the transaction's JSON, trusted
  /// ```
  ///
  /// - Parameter signedPayload: The notification's compact JWS.
  /// - Returns: The three verified payloads.
  /// - Throws: The outer JWS's failure, or ``SignatureVerificationError/nested(jsonPath:_:)``
  ///   naming the nested JWS that failed.
  public func verifyNotification(_ signedPayload: String) throws(SignatureVerificationError)
    -> VerifiedNotification
  {
    let notification = try verify(signedPayload)
    guard notification.isNotification else {
      throw .malformed("not a notification: the payload has no notificationType")
    }
    func nested(_ jws: String?, _ path: String) throws(SignatureVerificationError)
      -> VerifiedPayload?
    {
      guard let jws else { return nil }
      do {
        return try verify(jws)
      } catch {
        throw .nested(jsonPath: path, error)
      }
    }
    return VerifiedNotification(
      notification: notification,
      transaction: try nested(notification.signedTransactionInfo, "data.signedTransactionInfo"),
      renewalInfo: try nested(notification.signedRenewalInfo, "data.signedRenewalInfo"))
  }

  /// The verified payload's bytes (`SignedPayloadVerifier`): what `DocumentReader` reads.
  ///
  /// ```swift
  /// let payload = try verifier.verifiedPayload(of: signedTransactionInfo)  // JSON bytes
  /// ```
  ///
  /// - Parameter compactJWS: One JWS.
  /// - Returns: The payload's bytes.
  /// - Throws: ``SignatureVerificationError``.
  public func verifiedPayload(of compactJWS: String) throws -> [UInt8] {
    try verify(compactJWS).payload
  }

  // MARK: - Steps

  private func verify(_ bytes: UnsafeBufferPointer<UInt8>) throws(SignatureVerificationError)
    -> VerifiedPayload
  {
    let parts = try CompactJWS(bytes)
    let header = UnsafeBufferPointer(rebasing: bytes[parts.header])
    var entry: ChainCache.HeaderEntry
    // A header not seen before, kept once a signature under it verifies.
    var newHeader: [UInt8]?
    if let (found, buildTable) = cache.lookUp(header: header) {
      entry = found
      if buildTable {
        let table = entry.chain.leafKey.makeTable()
        cache.insert(table: table, header: header)
        entry.table = table
      }
    } else {
      let bytes = Array(header)
      entry = try chain(of: bytes)
      newHeader = bytes
    }
    // Step 5: the signature over header.payload. Both parts are decoded first, so that a
    // truncated or mangled part is named as such rather than as a signature that fails.
    guard
      let signature = Base64.decode(
        UnsafeBufferPointer(rebasing: bytes[parts.signature]), alphabet: .url)
    else { throw .malformed("the JWS signature is not base64url") }
    guard
      let payload = Base64.decode(
        UnsafeBufferPointer(rebasing: bytes[parts.payload]), alphabet: .url)
    else { throw .malformed("the JWS payload is not base64url") }
    guard let (r, s) = ECDSASignature.raw(signature, byteCount: 32) else {
      throw .malformed("the JWS signature is \(signature.count) bytes, expected 64 (r ‖ s)")
    }
    let hashedPrefix = Int(entry.midstate.compressedByteCount)
    let digest = entry.midstate.finalized(
      with: UnsafeRawBufferPointer(
        rebasing: UnsafeRawBufferPointer(bytes)[hashedPrefix..<parts.signingInput.upperBound]))
    guard entry.chain.leafKey.isValid(r: r, s: s, digest: digest, table: entry.table) else {
      throw .invalidSignature
    }
    // Signed by the leaf, so the header is the signer's: worth keeping. Before this point
    // anyone could pair a trusted x5c with endless headers and empty the cache.
    if let newHeader { cache.insert(header: newHeader, entry: entry) }
    // The payload, now trusted: its claims.
    let claims: PayloadClaims
    do {
      claims = try PayloadClaims(json: payload)
    } catch {
      throw .malformed("the JWS payload: \(error)")
    }
    // Step 4: validity at the payload's instant.
    let signedDate = claims.signedDate.map(Instant.init(millisecondsSince1970:))
    guard let instant = validAt ?? signedDate else {
      throw .malformed("the payload has no signedDate to check the certificates at")
    }
    try entry.chain.checkValidity(at: instant)
    // Step 6: the claims.
    try check(claims, singleCertificate: entry.chain.isSingleCertificate)
    return VerifiedPayload(
      payload: payload, signedDate: signedDate, validAt: instant, bundleId: claims.bundleId,
      appAppleId: claims.appAppleId, rawEnvironment: claims.environment,
      isNotification: claims.isNotification, signedTransactionInfo: claims.signedTransactionInfo,
      signedRenewalInfo: claims.signedRenewalInfo, certificateChain: entry.chain.certificates)
  }

  /// Steps 1–3 for a header not seen before: decode it, check `alg`, verify the chain (or find
  /// it verified under another header, the chain cached once verified). The header itself is
  /// cached by the caller, after the signature.
  private func chain(of header: [UInt8]) throws(SignatureVerificationError)
    -> ChainCache.HeaderEntry
  {
    guard let json = Base64.decode(header, alphabet: .url) else {
      throw .malformed("the JWS header is not base64url")
    }
    let decoded = try JWSHeader(json: json)
    guard let algorithm = decoded.algorithm else { throw .malformed("the JWS header has no alg") }
    guard algorithm == "ES256" else { throw .unexpectedAlgorithm(algorithm) }
    guard let certificates = decoded.certificates else {
      throw .malformed("the JWS header has no x5c")
    }
    var key: [UInt8] = []
    for certificate in certificates {
      let count = UInt32(certificate.count)
      key += [
        UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF),
        UInt8(count & 0xFF),
      ]
      key += certificate
    }
    let chain: VerifiedChain
    if let cached = cache.chain(certificates: key) {
      chain = cached
    } else {
      // Only chains to a trusted root get here and are kept: a bounded set (Apple's leaves).
      chain = try VerifiedChain(certificates: certificates, trustedRoots: trustedRoots)
      cache.insert(chain: chain, certificates: key)
    }
    var midstate = SHA256()
    let wholeBlocks = header.count - header.count % SHA256.blockByteCount
    header.withUnsafeBytes {
      midstate.compress(UnsafeRawBufferPointer(rebasing: $0[0..<wholeBlocks]))
    }
    return ChainCache.HeaderEntry(chain: chain, midstate: midstate)
  }

  /// Step 6: bundle id, app Apple id and environment, in the order of Apple's library (a
  /// production verifier names a wrong `appAppleId` before a sandbox environment, as Apple's
  /// does).
  private func check(_ claims: PayloadClaims, singleCertificate: Bool)
    throws(SignatureVerificationError)
  {
    if singleCertificate, claims.environment != StoreEnvironment.xcode.rawValue {
      throw .environmentMismatch(expected: .xcode, found: claims.environment)
    }
    if let bundleId, let found = claims.bundleId, found != bundleId {
      throw .bundleMismatch(expected: bundleId, found: found)
    }
    if claims.isNotification, let bundleId, claims.bundleId == nil {
      throw .bundleMismatch(expected: bundleId, found: nil)
    }
    if environment == .production, let appAppleId {
      if let found = claims.appAppleId, found != appAppleId {
        throw .appAppleIdMismatch(expected: appAppleId, found: found)
      }
      if claims.isNotification, claims.appAppleId == nil {
        throw .appAppleIdMismatch(expected: appAppleId, found: nil)
      }
    }
    if let environment, claims.environment != environment.rawValue {
      throw .environmentMismatch(expected: environment, found: claims.environment)
    }
  }
}
