/// A document from Apple, read: what it says about one customer's purchases.
///
/// Every reader (``VerifyReceiptResponse``, ``StatusUpdateNotification``,
/// ``ServerNotification``, ``AppStoreTransaction``, ``AppStoreRenewalInfo``) produces one, and
/// ``SubscriberRecord`` folds any number of them, in any order, into one history.
///
/// ```swift
/// var record = SubscriberRecord()
/// record.fold(try DocumentReader.readUnverified(receiptBytes))
/// record.fold(try DocumentReader.read(notificationBytes, verifier: verifier))
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
  /// What v2 notifications stated, dated (SPEC §5).
  var notifications: [NotificationEvidence] { get }
  /// Apple's own statuses the document states (SPEC §10).
  var appleStatuses: [AppleStatusReport] { get }
}

extension PurchaseDocument {
  /// No upgrade evidence, for documents that cannot carry any.
  public var upgrades: [UpgradeEvidence] { [] }
  /// No notification, for documents that are none.
  public var notifications: [NotificationEvidence] { [] }
  /// No status of Apple's, for documents that state none.
  public var appleStatuses: [AppleStatusReport] { [] }

  /// The document alone, as the input of ``Evaluator/evaluate(_:)``.
  public var history: PurchaseHistory {
    PurchaseHistory(
      entries: entries, renewalInfo: renewalInfo, billingRecoveries: billingRecoveries,
      notifications: notifications, appleStatuses: appleStatuses,
      environment: environment ?? .production)
  }
}
