/// Everything known about one customer: the input of ``Evaluator/evaluate(_:)``.
///
/// Order never matters, and an entry given twice counts once (SPEC §3).
///
/// ```swift
/// let history = PurchaseHistory(
///   entries: receipt.inApp + receipt.latestReceiptInfo,
///   renewalInfo: receipt.pendingRenewalInfo)
/// ```
public struct PurchaseHistory: Hashable, Sendable {
  /// Receipt entries from `in_app`, `latest_receipt_info` or transaction payloads, merged.
  public var entries: [ReceiptEntry]
  /// Renewal info: what Apple stated about each subscription, dated by ``RenewalInfo/signedDate``
  /// (several per `original_transaction_id` when kept over time; the newest describes the
  /// present).
  public var renewalInfo: [RenewalInfo]
  /// Evidence of billing-retry recoveries, such as `RENEWAL` notifications.
  public var billingRecoveries: [BillingRecovery]
  /// What v2 notifications stated, dated (SPEC §5: dated evidence).
  public var notifications: [NotificationEvidence]
  /// Apple's own statuses, as documents stated them: the evaluation says whether it agrees
  /// (SPEC §10).
  public var appleStatuses: [AppleStatusReport]
  /// Refunds the App Store later reversed: revoked between the refund and its reversal
  /// (SPEC §5, rule 2).
  public var reversedRefunds: [ReversedRefund]
  /// Where the receipt comes from.
  public var environment: StoreEnvironment

  /// Creates a history.
  ///
  /// - Parameters:
  ///   - entries: Receipt entries, in any order, duplicates allowed.
  ///   - renewalInfo: Renewal info, one per subscription.
  ///   - billingRecoveries: Evidence of billing-retry recoveries.
  ///   - notifications: What v2 notifications stated.
  ///   - appleStatuses: Apple's own statuses.
  ///   - reversedRefunds: Refunds the App Store later reversed.
  ///   - environment: Where the receipt comes from; production by default.
  public init(
    entries: [ReceiptEntry], renewalInfo: [RenewalInfo] = [],
    billingRecoveries: [BillingRecovery] = [], notifications: [NotificationEvidence] = [],
    appleStatuses: [AppleStatusReport] = [], reversedRefunds: [ReversedRefund] = [],
    environment: StoreEnvironment = .production
  ) {
    self.entries = entries
    self.renewalInfo = renewalInfo
    self.billingRecoveries = billingRecoveries
    self.notifications = notifications
    self.appleStatuses = appleStatuses
    self.reversedRefunds = reversedRefunds
    self.environment = environment
  }
}
