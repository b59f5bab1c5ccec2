/// One document from Apple, read: the closed set of kinds ``DocumentReader`` recognises.
///
/// Switch over it for what only one kind carries (Apple's status in a v2 notification, the
/// verifyReceipt status), or read what every kind carries through ``PurchaseDocument``, which
/// it conforms to. ``SubscriberRecord`` folds any number of them into one history.
///
/// ```swift
/// switch try DocumentReader.read(body, verifier: verifier) {
/// case .notificationV2(let notification): notification.rawNotificationType  // "DID_RENEW"
/// case .verifyReceipt(let response): response.status                         // 0
/// default: break
/// }
/// ```
public enum AppStoreDocument: PurchaseDocument, Hashable {
  /// A verifyReceipt response (deprecated by Apple, still stored by backends).
  case verifyReceipt(VerifyReceiptResponse)
  /// An App Store Server Notification, version 1.
  case notificationV1(StatusUpdateNotification)
  /// An App Store Server Notification, version 2, decoded.
  case notificationV2(ServerNotification)
  /// A transaction of the App Store Server API or StoreKit 2, decoded.
  case transaction(AppStoreTransaction)
  /// Renewal info of the App Store Server API or StoreKit 2, decoded.
  case renewal(AppStoreRenewalInfo)
  /// A page of Get Transaction History.
  case transactionHistory(TransactionHistoryResponse)
  /// Get All Subscription Statuses.
  case subscriptionStatuses(SubscriptionStatusesResponse)
  /// A page of Get Notification History.
  case notificationHistory(NotificationHistoryPage)

  /// The document, as the shape every kind shares.
  public var document: any PurchaseDocument {
    switch self {
    case .verifyReceipt(let document): document
    case .notificationV1(let document): document
    case .notificationV2(let document): document
    case .transaction(let document): document
    case .renewal(let document): document
    case .transactionHistory(let document): document
    case .subscriptionStatuses(let document): document
    case .notificationHistory(let document): document
    }
  }

  /// The receipt entries or transactions the document carries.
  public var entries: [ReceiptEntry] { document.entries }
  /// The renewal info it carries.
  public var renewalInfo: [RenewalInfo] { document.renewalInfo }
  /// Evidence of billing-retry recoveries.
  public var billingRecoveries: [BillingRecovery] { document.billingRecoveries }
  /// The environment the document says it comes from, if it says.
  public var environment: StoreEnvironment? { document.environment }
  /// The document's own timestamp.
  public var timestamp: Instant? { document.timestamp }
  /// Fields that could not be read, with their JSON paths.
  public var diagnostics: [Diagnostic] { document.diagnostics }
  /// Evidence of immediate upgrades.
  public var upgrades: [UpgradeEvidence] { document.upgrades }
  /// What v2 notifications stated, dated.
  public var notifications: [NotificationEvidence] { document.notifications }
  /// Apple's own statuses the document states.
  public var appleStatuses: [AppleStatusReport] { document.appleStatuses }
}
