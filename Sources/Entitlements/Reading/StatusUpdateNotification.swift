/// An App Store Server Notification, version 1 (`statusUpdateNotification`).
///
/// Reads `notification_type` (an unknown type is kept, not failed), `environment`,
/// `unified_receipt` (`latest_receipt_info`, `pending_renewal_info`), the legacy
/// `latest_receipt_info` / `latest_expired_receipt_info` objects, and the top-level renewal
/// fields. A `RENEWAL` (or `DID_RECOVER`) notification is evidence that the lapse before the
/// renewal was a billing-retry recovery (SPEC §5).
///
/// ```swift
/// let notification = try StatusUpdateNotification(unverifiedJSON: body)
/// notification.notificationType   // .renewal
/// notification.billingRecoveries  // [BillingRecovery(…, renewedAt: …)]
/// ```
public struct StatusUpdateNotification: PurchaseDocument, Hashable {
  /// The notification types of version 1.
  public enum NotificationType: String, Hashable, Sendable, CaseIterable {
    /// The first purchase of a subscription.
    case initialBuy = "INITIAL_BUY"
    /// Apple support cancelled (refunded) a subscription.
    case cancel = "CANCEL"
    /// An expired subscription recovered through billing retry.
    case renewal = "RENEWAL"
    /// The customer renewed interactively after it expired.
    case interactiveRenewal = "INTERACTIVE_RENEWAL"
    /// The customer changed the plan that takes effect at the next renewal.
    case didChangeRenewalPreference = "DID_CHANGE_RENEWAL_PREF"
    /// The customer turned auto-renew on or off.
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    /// A renewal failed for a billing issue.
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    /// An expired subscription recovered through billing retry.
    case didRecover = "DID_RECOVER"
    /// The customer consented to a price increase.
    case priceIncreaseConsent = "PRICE_INCREASE_CONSENT"
    /// Apple refunded a transaction.
    case refund = "REFUND"
    /// A family member lost access through Family Sharing.
    case revoke = "REVOKE"
    /// Apple asks for consumption data about a refund request.
    case consumptionRequest = "CONSUMPTION_REQUEST"
  }

  /// `notification_type` as sent.
  public var rawNotificationType: String?
  /// The typed notification type; `nil` when absent or unknown to this version.
  public var notificationType: NotificationType? {
    rawNotificationType.flatMap(NotificationType.init(rawValue:))
  }
  /// `environment` (`PROD`, `Sandbox`).
  public var environment: StoreEnvironment?
  /// `unified_receipt.latest_receipt_info` and the legacy top-level entry objects.
  public var entries: [ReceiptEntry]
  /// `unified_receipt.pending_renewal_info`, or the top-level renewal fields.
  public var renewalInfo: [RenewalInfo]
  /// For `RENEWAL` and `DID_RECOVER`: the recovering subscription and when it renewed.
  public var billingRecoveries: [BillingRecovery]
  /// Version 1 notifications carry no timestamp of their own.
  public var timestamp: Instant? { nil }
  /// Fields that could not be read.
  public var diagnostics: [Diagnostic]

  /// Reads a notification from its body, as ``DocumentReader/readUnverified(_:)`` does.
  ///
  /// - Parameter json: The notification body, trusted as it is (version 1 notifications
  ///   are not signed).
  /// - Throws: ``ReadError`` when it is not JSON or not an object.
  public init(unverifiedJSON json: [UInt8]) throws(ReadError) {
    guard
      case .notificationV1(let notification) = try DocumentReader.read(json, as: .notificationV1)
    else { preconditionFailure("a notification is read as one") }
    self = notification
  }

  /// A notification from its read fields; a billing recovery follows from the type and the
  /// newest entry.
  init(
    rawNotificationType: String?, environment: StoreEnvironment?, entries: [ReceiptEntry],
    renewalInfo: [RenewalInfo], diagnostics: [Diagnostic]
  ) {
    self.rawNotificationType = rawNotificationType
    self.environment = environment
    self.entries = entries
    self.renewalInfo = renewalInfo
    self.diagnostics = diagnostics
    let recovers = rawNotificationType == "RENEWAL" || rawNotificationType == "DID_RECOVER"
    if recovers, let newest = Self.newest(of: entries), let renewedAt = newest.purchaseDate {
      billingRecoveries = [
        BillingRecovery(originalTransactionID: newest.originalTransactionID, renewedAt: renewedAt)
      ]
    } else {
      billingRecoveries = []
    }
  }

  /// The entry with the latest purchase date (the first of equals).
  static func newest(of entries: [ReceiptEntry]) -> ReceiptEntry? {
    entries.max { ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast) }
  }
}
