/// A document from Apple, read: what it says about one customer's purchases.
///
/// Every reader (``VerifyReceiptResponse``, ``StatusUpdateNotification``,
/// ``ServerNotification``, ``AppStoreTransaction``, ``AppStoreRenewalInfo``) produces one, and
/// ``SubscriberRecord`` folds any number of them, in any order, into one history.
///
/// ```swift
/// var record = SubscriberRecord()
/// record.fold(try DocumentReader.read(receiptBytes))
/// record.fold(try DocumentReader.read(notificationBytes))
/// Evaluator().evaluate(record.history)
/// ```
public protocol PurchaseDocument: Sendable {
  /// The receipt entries or transactions the document carries.
  var entries: [ReceiptEntry] { get }
  /// The renewal info it carries.
  var renewalInfo: [RenewalInfo] { get }
  /// Evidence of billing-retry recoveries (`RENEWAL`, `DID_RECOVER`, `DID_RENEW` with
  /// `BILLING_RECOVERY`).
  var billingRecoveries: [BillingRecovery] { get }
  /// The environment the document says it comes from, if it says.
  var environment: StoreEnvironment? { get }
  /// The document's own timestamp (`receipt_creation_date`, `request_date`, `signedDate`):
  /// when two documents disagree about one transaction, the newer one wins.
  var timestamp: Instant? { get }
  /// Fields that could not be read, with their JSON paths.
  var diagnostics: [Diagnostic] { get }
  /// Evidence of immediate upgrades (v2 `DID_CHANGE_RENEWAL_PREF` / `UPGRADE`).
  var upgrades: [UpgradeEvidence] { get }
}

extension PurchaseDocument {
  /// No upgrade evidence, for documents that cannot carry any.
  public var upgrades: [UpgradeEvidence] { [] }

  /// The document alone, as the input of ``Evaluator/evaluate(_:)``.
  public var history: PurchaseHistory {
    PurchaseHistory(
      entries: entries, renewalInfo: renewalInfo, billingRecoveries: billingRecoveries,
      environment: environment ?? .production)
  }
}
