/// What one App Store Server Notification (version 2) says happened to a subscription, and
/// when Apple said it: dated evidence (SPEC §5, §10).
///
/// A backend that keeps every notification knows what Apple stated at each moment: an
/// `EXPIRED` / `VOLUNTARY` notification signed when a lapse began gives that lapse its cause,
/// even after a later purchase closed it, and a `DID_CHANGE_RENEWAL_STATUS` /
/// `AUTO_RENEW_DISABLED` says when the customer turned auto-renew off.
///
/// Types and subtypes keep Apple's raw strings beside the typed view: a type or subtype this
/// version does not know still reads (``type`` or ``subtype`` is `nil`), and the reader reports
/// it as a diagnostic.
///
/// ```swift
/// let evidence = NotificationEvidence(
///   originalTransactionID: "2000000970472825", signedDate: signedDate,
///   rawType: "EXPIRED", rawSubtype: "VOLUNTARY")
/// evidence.type     // .expired
/// evidence.subtype  // .voluntary
/// ```
public struct NotificationEvidence: Hashable, Sendable {
  /// The subscription the notification is about.
  public let originalTransactionID: OriginalTransactionID
  /// The transaction it carries, if any.
  public let transactionID: TransactionID?
  /// `signedDate`: when Apple stated it.
  public let signedDate: Instant
  /// `notificationType` as Apple sent it.
  public let rawType: String
  /// `subtype` as Apple sent it; `nil` when absent.
  public let rawSubtype: String?

  /// Creates evidence.
  ///
  /// - Parameters:
  ///   - originalTransactionID: The subscription.
  ///   - transactionID: The transaction the notification carries.
  ///   - signedDate: When Apple signed it.
  ///   - rawType: `notificationType`.
  ///   - rawSubtype: `subtype`.
  public init(
    originalTransactionID: OriginalTransactionID, transactionID: TransactionID? = nil,
    signedDate: Instant, rawType: String, rawSubtype: String? = nil
  ) {
    self.originalTransactionID = originalTransactionID
    self.transactionID = transactionID
    self.signedDate = signedDate
    self.rawType = rawType
    self.rawSubtype = rawSubtype
  }

  /// The typed `notificationType`; `nil` for a type this version does not know.
  public var type: NotificationType? { NotificationType(rawValue: rawType) }
  /// The typed `subtype`; `nil` when absent or unknown.
  public var subtype: Subtype? { rawSubtype.flatMap(Subtype.init(rawValue:)) }
}

extension NotificationEvidence {
  /// `notificationType` of App Store Server Notifications version 2, with Apple's names and
  /// raw values. Nested, so that it does not collide with the App Store Server Library's
  /// `NotificationTypeV2`.
  ///
  /// ```swift
  /// NotificationEvidence.NotificationType(rawValue: "DID_FAIL_TO_RENEW")  // .didFailToRenew
  /// ```
  public enum NotificationType: String, Hashable, Sendable, CaseIterable {
    /// A subscription was bought, or bought again (subtypes `INITIAL_BUY`, `RESUBSCRIBE`).
    case subscribed = "SUBSCRIBED"
    /// The customer changed the plan (subtypes `UPGRADE`, `DOWNGRADE`, or none: a downgrade
    /// cancelled).
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    /// The customer turned auto-renew on or off (`AUTO_RENEW_ENABLED`, `AUTO_RENEW_DISABLED`).
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    /// An offer was redeemed.
    case offerRedeemed = "OFFER_REDEEMED"
    /// The subscription renewed (`BILLING_RECOVERY`: after a failed renewal).
    case didRenew = "DID_RENEW"
    /// The subscription expired (`VOLUNTARY`, `BILLING_RETRY`, `PRICE_INCREASE`,
    /// `PRODUCT_NOT_FOR_SALE`).
    case expired = "EXPIRED"
    /// A renewal failed for a billing reason; billing retry begins (`GRACE_PERIOD`: with a
    /// grace period).
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    /// The grace period ended; billing retry goes on.
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    /// A price increase was announced or accepted (`PENDING`, `ACCEPTED`).
    case priceIncrease = "PRICE_INCREASE"
    /// Apple refunded a transaction.
    case refund = "REFUND"
    /// Apple declined a refund request.
    case refundDeclined = "REFUND_DECLINED"
    /// Apple asks for consumption information about a refund request.
    case consumptionRequest = "CONSUMPTION_REQUEST"
    /// The developer extended the renewal date.
    case renewalExtended = "RENEWAL_EXTENDED"
    /// Family Sharing access ended.
    case revoke = "REVOKE"
    /// A test notification.
    case test = "TEST"
    /// A mass renewal-date extension (`SUMMARY`, `FAILURE`).
    case renewalExtension = "RENEWAL_EXTENSION"
    /// Apple reversed a refund.
    case refundReversed = "REFUND_REVERSED"
    /// An external purchase token.
    case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
    /// A one-time charge (Advanced Commerce).
    case oneTimeCharge = "ONE_TIME_CHARGE"
    /// Subscription metadata changed (Advanced Commerce).
    case metadataUpdate = "METADATA_UPDATE"
    /// A subscription migrated (Advanced Commerce).
    case migration = "MIGRATION"
    /// A price changed (Advanced Commerce).
    case priceChange = "PRICE_CHANGE"
    /// A customer rescinded consent (Advanced Commerce).
    case rescindConsent = "RESCIND_CONSENT"
  }

  /// `subtype` of App Store Server Notifications version 2, with Apple's names and raw values.
  ///
  /// ```swift
  /// NotificationEvidence.Subtype(rawValue: "AUTO_RENEW_DISABLED")  // .autoRenewDisabled
  /// ```
  public enum Subtype: String, Hashable, Sendable, CaseIterable {
    /// A first purchase of the subscription group.
    case initialBuy = "INITIAL_BUY"
    /// A purchase after the subscription had expired.
    case resubscribe = "RESUBSCRIBE"
    /// A plan change that takes effect at the next renewal.
    case downgrade = "DOWNGRADE"
    /// A plan change that takes effect at once.
    case upgrade = "UPGRADE"
    /// Auto-renew turned on.
    case autoRenewEnabled = "AUTO_RENEW_ENABLED"
    /// Auto-renew turned off.
    case autoRenewDisabled = "AUTO_RENEW_DISABLED"
    /// Expired because the customer turned auto-renew off.
    case voluntary = "VOLUNTARY"
    /// Expired because billing retry ended without a successful renewal.
    case billingRetry = "BILLING_RETRY"
    /// Expired because the customer did not consent to a price increase.
    case priceIncrease = "PRICE_INCREASE"
    /// Failed to renew, in a grace period.
    case gracePeriod = "GRACE_PERIOD"
    /// A price increase awaiting consent.
    case pending = "PENDING"
    /// A price increase accepted.
    case accepted = "ACCEPTED"
    /// Renewed after a failed renewal.
    case billingRecovery = "BILLING_RECOVERY"
    /// Expired because the product was not for sale at renewal.
    case productNotForSale = "PRODUCT_NOT_FOR_SALE"
    /// A mass extension's summary.
    case summary = "SUMMARY"
    /// A mass extension's failure for one subscription.
    case failure = "FAILURE"
    /// An external purchase token was created.
    case created = "CREATED"
    /// An external purchase token is still active.
    case activeTokenReminder = "ACTIVE_TOKEN_REMINDER"
    /// An external purchase token was not reported.
    case unreported = "UNREPORTED"
  }
}
