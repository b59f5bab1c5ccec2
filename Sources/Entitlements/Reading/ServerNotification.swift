/// An App Store Server Notification, version 2, decoded (`responseBodyV2DecodedPayload`).
///
/// `data.signedTransactionInfo` and `data.signedRenewalInfo` are JWS strings: read by
/// ``DocumentReader/read(_:verifier:)`` from the POSTed `signedPayload`, each is verified before
/// its payload is read, and a decoded object in their place is refused; read by
/// ``init(unverifiedJSON:)`` or ``DocumentReader/readUnverified(_:)``, nothing is verified
/// (see ``JWS``) and a decoded object there is read as is. A `DID_RENEW` with subtype `BILLING_RECOVERY` is recovery evidence.
/// ``appleStatus`` is Apple's own status at ``timestamp`` (1 active, 2 expired, 3 billing retry,
/// 4 grace period, 5 revoked).
///
/// ```swift
/// // A payload verified already:
/// let notification = try ServerNotification(unverifiedJSON: verified.payload)
/// notification.rawNotificationType  // "DID_RENEW"
/// notification.appleStatus          // 1
/// ```
public struct ServerNotification: PurchaseDocument, Hashable {
  /// `notificationType`.
  public var rawNotificationType: String?
  /// `subtype`.
  public var rawSubtype: String?
  /// `data.status`: Apple's status of the subscription when it signed the notification.
  public var appleStatus: Int?
  /// `data.environment`.
  public var environment: StoreEnvironment?
  /// `signedDate`.
  public var timestamp: Instant?
  /// The transaction of `data.signedTransactionInfo`.
  public var entries: [ReceiptEntry]
  /// The renewal info of `data.signedRenewalInfo`.
  public var renewalInfo: [RenewalInfo]
  /// For `DID_RENEW` / `BILLING_RECOVERY`: the recovery.
  public var billingRecoveries: [BillingRecovery]
  /// Fields that could not be read.
  public var diagnostics: [Diagnostic]
  /// For `DID_CHANGE_RENEWAL_PREF` / `UPGRADE`: the old plan ended where this transaction began.
  public var upgrades: [UpgradeEvidence]

  /// The typed `notificationType`; `nil` for a type this version does not know (the reader
  /// reports it: it carries no evidence).
  public var notificationType: NotificationEvidence.NotificationType? {
    rawNotificationType.flatMap(NotificationEvidence.NotificationType.init(rawValue:))
  }

  /// The subscription the notification is about: its transaction's, else its renewal info's.
  public var originalTransactionID: OriginalTransactionID? {
    entries.first?.originalTransactionID ?? renewalInfo.first?.originalTransactionID
  }

  /// What the notification states, dated by its `signedDate`: evidence for the rules
  /// (SPEC §5). Empty without a type, a date or a subscription.
  public var notifications: [NotificationEvidence] {
    guard let rawNotificationType, let timestamp, let originalTransactionID else { return [] }
    return [
      NotificationEvidence(
        originalTransactionID: originalTransactionID, transactionID: entries.first?.transactionID,
        signedDate: timestamp, rawType: rawNotificationType, rawSubtype: rawSubtype)
    ]
  }

  /// Apple's status of the subscription at `signedDate` (`data.status`; SPEC §10).
  public var appleStatuses: [AppleStatusReport] {
    guard let appleStatus, let timestamp, let originalTransactionID else { return [] }
    return [
      AppleStatusReport(
        originalTransactionID: originalTransactionID, at: timestamp, rawStatus: appleStatus)
    ]
  }

  /// Reads a notification from its decoded payload **without verifying** it: for a payload
  /// verified already. A notification as POSTed goes through
  /// ``DocumentReader/read(_:verifier:)``, which verifies its nested JWS too.
  ///
  /// - Parameter json: The decoded `signedPayload`, trusted as it is: nothing is verified.
  /// - Throws: ``ReadError`` when it is not JSON or not an object.
  public init(unverifiedJSON json: [UInt8]) throws(ReadError) {
    guard
      case .notificationV2(let notification) = try DocumentReader.read(json, as: .notificationV2)
    else { preconditionFailure("a notification is read as one") }
    self = notification
  }

  /// A notification from its read fields; billing recoveries and upgrades follow from the
  /// type and subtype.
  init(
    rawNotificationType: String?, rawSubtype: String?, appleStatus: Int?,
    environment: StoreEnvironment?, timestamp: Instant?, entries: [ReceiptEntry],
    renewalInfo: [RenewalInfo], diagnostics: [Diagnostic]
  ) {
    self.rawNotificationType = rawNotificationType
    self.rawSubtype = rawSubtype
    self.appleStatus = appleStatus
    self.environment = environment
    self.timestamp = timestamp
    self.entries = entries
    self.renewalInfo = renewalInfo
    self.diagnostics = diagnostics
    if rawNotificationType == "DID_RENEW", rawSubtype == "BILLING_RECOVERY",
      let entry = entries.first, let renewedAt = entry.purchaseDate
    {
      billingRecoveries = [
        BillingRecovery(originalTransactionID: entry.originalTransactionID, renewedAt: renewedAt)
      ]
    } else {
      billingRecoveries = []
    }
    if rawNotificationType == "DID_CHANGE_RENEWAL_PREF", rawSubtype == "UPGRADE",
      let entry = entries.first, let upgradedAt = entry.purchaseDate
    {
      upgrades = [
        UpgradeEvidence(
          originalTransactionID: entry.originalTransactionID, newTransactionID: entry.transactionID,
          upgradedAt: upgradedAt)
      ]
    } else {
      upgrades = []
    }
  }
}
