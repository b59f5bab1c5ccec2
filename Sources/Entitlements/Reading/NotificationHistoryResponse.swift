/// A page of the App Store Server API's Get Notification History: the v2 notifications the
/// App Store sent, each a `signedPayload` (SPEC §10).
///
/// ```swift
/// case .notificationHistory(let page) = try DocumentReader.read(body)
/// page.notificationPayloads.map(\.rawNotificationType)  // ["DID_RENEW", "EXPIRED", …]
/// ```
public struct NotificationHistoryResponse: PurchaseDocument, Hashable {
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

  /// Reads a page already parsed; each JWS through `payloads`.
  init(value: JSONValue, payloads: SignedPayloads) throws(ReadError) {
    let members = try value.documentObject(at: "")
    var fields = FieldReader(members, path: "")
    var diagnostics: [Diagnostic] = []
    hasMore = fields.bool("hasMore")
    paginationToken = fields.string("paginationToken")
    notificationPayloads = []
    if case .array(let items)? = members["notificationHistory"] {
      for (index, item) in items.enumerated() {
        let path = "notificationHistory[\(index)].signedPayload"
        guard case .object(let itemMembers) = item,
          case .string(let compact)? = itemMembers["signedPayload"]
        else {
          diagnostics.append(
            Diagnostic(
              .unreadableField, field: path, message: "missing: the notification is left out"))
          continue
        }
        do {
          let payload = try payloads.payload(of: compact, at: path)
          let notification = try ServerNotification(
            value: try JSONValue.document(payload), payloads: payloads)
          diagnostics += notification.diagnostics.map { $0.at(path) }
          notificationPayloads.append(notification)
        } catch {
          if case .signatureRejected = error { throw error }
          diagnostics.append(
            Diagnostic(
              .unreadableField, field: path, message: "cannot read the notification: \(error)"))
        }
      }
    } else {
      diagnostics.append(
        Diagnostic(
          .unreadableField, field: "notificationHistory",
          message: "expected an array of notifications"))
    }
    self.diagnostics = diagnostics + fields.diagnostics
  }

  /// A page from its read fields (the byte-level reader's way in).
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
