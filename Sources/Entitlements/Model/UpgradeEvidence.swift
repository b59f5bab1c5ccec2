/// Evidence that a subscription was upgraded at an instant: a v2 `DID_CHANGE_RENEWAL_PREF`
/// notification with subtype `UPGRADE`, whose transaction is the new plan.
///
/// Apple does not always resend the old transaction with `isUpgraded`; without this, the old
/// plan's entry would keep covering until its own expiry. ``SubscriberRecord`` marks every
/// other entry of the subscription that covers ``upgradedAt`` as upgraded, so the engine ends it
/// where the new plan begins (SPEC §4, `is_upgraded` without a cancellation date).
///
/// ```swift
/// notification.upgrades  // [UpgradeEvidence(originalTransactionID: "…", newTransactionID: "…", …)]
/// ```
public struct UpgradeEvidence: Hashable, Sendable {
  /// The subscription upgraded.
  public var originalTransactionID: OriginalTransactionID
  /// The transaction of the new plan.
  public var newTransactionID: TransactionID
  /// When the new plan began: its purchase date.
  public var upgradedAt: Instant

  /// Creates upgrade evidence.
  ///
  /// - Parameters:
  ///   - originalTransactionID: The subscription upgraded.
  ///   - newTransactionID: The transaction of the new plan.
  ///   - upgradedAt: When the new plan began.
  public init(
    originalTransactionID: OriginalTransactionID, newTransactionID: TransactionID,
    upgradedAt: Instant
  ) {
    self.originalTransactionID = originalTransactionID
    self.newTransactionID = newTransactionID
    self.upgradedAt = upgradedAt
  }
}
