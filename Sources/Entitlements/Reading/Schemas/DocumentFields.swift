/// The top of every document of SPEC §10 but a decoded payload (``DecodedPayloadFields``): one
/// table, each field saying which kinds of document read it, since a document is one kind or
/// another by its keys, which come in any order (``SchemaReader/document()``).
struct DocumentFields: AppleFields {
  // A v2 notification, decoded (`responseBodyV2DecodedPayload`), or as POSTed
  // (`responseBodyV2`).
  var signedPayload: SignedText?
  var notificationType: String?
  var subtype: String?
  var signedDate: Instant?
  /// A v2 notification's `data`, or Get All Subscription Statuses' groups.
  var data = DataMember.absent
  // A verifyReceipt response (`responseBody`).
  var status: Int?
  var environment: StoreEnvironment?
  var receipt: ReceiptFields?
  var latestReceiptInfo: [ReceiptEntry] = []
  /// iOS 6's list of expired transactions.
  var latestExpiredReceiptInfo: [ReceiptEntry] = []
  var pendingRenewalInfo: [PendingRenewalInfo] = []
  var latestReceipt: String?
  // A v1 notification (`responseBody` of App Store Server Notifications V1).
  var notificationTypeV1: String?
  var unifiedReceipt: UnifiedReceiptFields?
  // The App Store Server API's pages: Get Transaction History (`HistoryResponse`), Get All
  // Subscription Statuses (`StatusResponse`), Get Notification History
  // (`NotificationHistoryPage`).
  var signedTransactions: [AppStoreTransaction] = []
  var notificationHistory: [ServerNotification] = []
  var hasMore: Bool?
  var revision: String?
  var bundleID: String?
  var paginationToken: String?
  // An app transaction (`AppTransaction`), which no rule reads: named when refused.
  var appAppleID = false
  var originalApplicationVersion = false

  static let fields: [Field<Self>] = [
    .signedDocument("signedPayload", \.signedPayload),
    .string("notificationType", \.notificationType, for: .notificationV2),
    .string("subtype", \.subtype, for: .notificationV2),
    .date("signedDate", \.signedDate, for: .notificationV2),
    .data("data", \.data, for: [.notificationV2, .subscriptionStatuses]),
    .integer("status", \.status, for: .verifyReceipt),
    .environment(
      "environment", \.environment,
      for: [.verifyReceipt, .notificationV1, .transactionHistory, .subscriptionStatuses]),
    .receipt("receipt", \.receipt, for: .verifyReceipt),
    .entries("latest_receipt_info", \.latestReceiptInfo, for: [.verifyReceipt, .notificationV1]),
    .entries(
      "latest_expired_receipt_info", \.latestExpiredReceiptInfo,
      for: [.verifyReceipt, .notificationV1]),
    .renewalInfos("pending_renewal_info", \.pendingRenewalInfo, for: .verifyReceipt),
    .string("latest_receipt", \.latestReceipt, for: .verifyReceipt),
    .string("notification_type", \.notificationTypeV1, for: .notificationV1),
    .unifiedReceipt("unified_receipt", \.unifiedReceipt, for: .notificationV1),
    .signedTransactions("signedTransactions", \.signedTransactions, for: .transactionHistory),
    .notificationHistory(
      "notificationHistory", \.notificationHistory, for: .notificationHistory),
    .flag("hasMore", \.hasMore, for: [.transactionHistory, .notificationHistory]),
    .string("revision", \.revision, for: .transactionHistory),
    .string("bundleId", \.bundleID, for: [.transactionHistory, .subscriptionStatuses]),
    .string("paginationToken", \.paginationToken, for: .notificationHistory),
    .marker("appAppleId", \.appAppleID),
    .marker("originalApplicationVersion", \.originalApplicationVersion),
    .ignored(
      "version", "notificationUUID", "summary", "externalPurchaseToken", "password",
      "auto_renew_adam_id", "auto_renew_status_change_date", "auto_renew_status_change_date_ms",
      "auto_renew_status_change_date_pst", "bid", "bvrs", "is-retryable"),
  ]
}
