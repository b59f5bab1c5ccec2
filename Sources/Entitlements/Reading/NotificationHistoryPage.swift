/// A page of the App Store Server API's Get Notification History: the v2 notifications the
/// App Store sent, each a `signedPayload` (SPEC §10).
///
/// ```swift
/// case .notificationHistory(let page) = try DocumentReader.read(body, verifier: verifier)
/// page.notificationPayloads.map(\.rawNotificationType)  // ["DID_RENEW", "EXPIRED", …]
/// ```
public struct NotificationHistoryPage: PurchaseDocument, Hashable {
  /// The notifications, read from `notificationHistory[].signedPayload`.
  public var notificationPayloads: [ServerNotification]
  /// `hasMore`: whether another page follows.
  public var hasMore: Bool?
  /// `paginationToken`: the token for the next page.
  public var paginationToken: String?
  /// Fields that could not be read, with their JSON paths.
  public var diagnostics: [Diagnostic]

  /// Every notification's transaction.
  public var entries: [ReceiptEntry] { notificationPayloads.flatMap(\.entries) }
  /// Every notification's renewal info, dated.
  public var renewalInfo: [RenewalInfo] { notificationPayloads.flatMap(\.renewalInfo) }
  /// The recoveries the notifications state.
  public var billingRecoveries: [BillingRecovery] {
    notificationPayloads.flatMap(\.billingRecoveries)
  }
  /// The upgrades the notifications state.
  public var upgrades: [UpgradeEvidence] { notificationPayloads.flatMap(\.upgrades) }
  /// What each notification states, dated.
  public var notifications: [NotificationEvidence] {
    notificationPayloads.flatMap(\.notifications)
  }
  /// Apple's statuses the notifications state.
  public var appleStatuses: [AppleStatusReport] { notificationPayloads.flatMap(\.appleStatuses) }
  /// The notifications' environment.
  public var environment: StoreEnvironment? {
    notificationPayloads.compactMap(\.environment).first
  }
  /// The newest notification's `signedDate`.
  public var timestamp: Instant? { notificationPayloads.compactMap(\.timestamp).max() }

  /// A page from its fields, read.
  init(
    notificationPayloads: [ServerNotification], hasMore: Bool?, paginationToken: String?,
    diagnostics: [Diagnostic]
  ) {
    self.notificationPayloads = notificationPayloads
    self.hasMore = hasMore
    self.paginationToken = paginationToken
    self.diagnostics = diagnostics
  }
}
