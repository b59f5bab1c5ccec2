/// Verifies a compact JWS before the reader trusts its payload (SPEC §11).
///
/// The `Entitlements` library reads documents and holds no cryptography: a verifier is given
/// to it. The `EntitlementsVerification` library's `AppStoreSignatureVerifier` is one, in pure Swift;
/// a backend that already verifies with CryptoKit or swift-crypto conforms its own type.
///
/// A verifier checks everything about one JWS that makes its payload trustworthy: the
/// algorithm, the certificate chain to a trusted root, the signature, and the claims it expects
/// (bundle id, environment). It is called once for every JWS a document holds, nested ones
/// included, each on its own.
///
/// ```swift
/// struct MyVerifier: SignedPayloadVerifier {
///   func verifiedPayload(of compactJWS: String) throws -> [UInt8] {
///     try myCryptoKitCheck(compactJWS)  // throws when it must not be trusted
///   }
/// }
/// ```
public protocol SignedPayloadVerifier: Sendable {
  /// The payload of `compactJWS` (`header.payload.signature`), once verified.
  ///
  /// - Parameter compactJWS: One JWS in compact form.
  /// - Returns: The decoded payload's bytes.
  /// - Throws: Any error when the JWS must not be trusted; the reader reports it with the JSON
  ///   path of the JWS.
  func verifiedPayload(of compactJWS: String) throws -> [UInt8]
}
