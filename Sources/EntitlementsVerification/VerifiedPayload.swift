import Entitlements

/// A JWS payload that passed every step of SPEC §11, with the claims that were checked.
///
/// ```swift
/// let verified = try verifier.verify(signedTransactionInfo)
/// verified.bundleId        // "com.example"
/// verified.environment     // .sandbox
/// verified.payload         // the JSON bytes, for DocumentReader or JSONDecoder
/// ```
public struct VerifiedPayload: Hashable, Sendable {
  /// The decoded payload: JSON bytes.
  public var payload: [UInt8]
  /// The payload's `signedDate` (an app transaction's `receiptCreationDate`), if any.
  public var signedDate: Instant?
  /// The instant the certificates were checked valid at: the verifier's instant if it has one,
  /// else ``signedDate``.
  public var validAt: Instant
  /// The `bundleId` claim, where the payload carries one (renewal info does not).
  public var bundleId: String?
  /// The `appAppleId` claim, where the payload carries one.
  public var appAppleId: Int64?
  /// The environment claim's raw value (`"Sandbox"`…), kept when it is not one of
  /// `StoreEnvironment`'s.
  public var rawEnvironment: String?
  /// Whether the payload is a notification (it has `notificationType`).
  public var isNotification: Bool
  /// A notification's nested `data.signedTransactionInfo`, not verified by this call
  /// (``AppStoreSignatureVerifier/verifyNotification(_:)`` verifies it).
  public var signedTransactionInfo: String?
  /// A notification's nested `data.signedRenewalInfo`, likewise.
  public var signedRenewalInfo: String?
  /// The `x5c` certificates, DER, leaf first: what a caller needs to add a revocation (OCSP)
  /// check of its own.
  public var certificateChain: [[UInt8]]

  /// The environment claim, typed.
  public var environment: StoreEnvironment? {
    rawEnvironment.flatMap { StoreEnvironment(rawValue: $0) }
  }
}
