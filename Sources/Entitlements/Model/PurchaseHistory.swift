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
  /// Renewal info, one per `original_transaction_id`.
  public var renewalInfo: [RenewalInfo]
  /// Evidence of billing-retry recoveries, such as `RENEWAL` notifications.
  public var billingRecoveries: [BillingRecovery]
  /// Where the receipt comes from.
  public var environment: StoreEnvironment

  /// Creates a history.
  ///
  /// - Parameters:
  ///   - entries: Receipt entries, in any order, duplicates allowed.
  ///   - renewalInfo: Renewal info, one per subscription.
  ///   - billingRecoveries: Evidence of billing-retry recoveries.
  ///   - environment: Where the receipt comes from; production by default.
  public init(
    entries: [ReceiptEntry], renewalInfo: [RenewalInfo] = [],
    billingRecoveries: [BillingRecovery] = [], environment: StoreEnvironment = .production
  ) {
    self.entries = entries
    self.renewalInfo = renewalInfo
    self.billingRecoveries = billingRecoveries
    self.environment = environment
  }
}
