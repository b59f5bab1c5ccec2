/// A notification verified with the JWS it nests (SPEC §11 step 6): the outer `signedPayload`,
/// its `data.signedTransactionInfo` and `data.signedRenewalInfo` when present.
///
/// ```swift
/// let verified = try verifier.verifyNotification(signedPayload)
/// verified.notification.isNotification  // true
/// verified.transaction?.bundleId        // "com.example"
/// verified.renewalInfo?.environment     // .production
/// ```
public struct VerifiedNotification: Hashable, Sendable {
  /// The notification's own payload.
  public var notification: VerifiedPayload
  /// The verified `data.signedTransactionInfo`, if the notification has one.
  public var transaction: VerifiedPayload?
  /// The verified `data.signedRenewalInfo`, if the notification has one.
  public var renewalInfo: VerifiedPayload?
}
