/// Pending renewal info (`pending_renewal_info`): what the App Store will do next for one
/// subscription, identified by its `original_transaction_id` (SPEC §3).
///
/// Renewal info describes the time after the subscription's *last* entry only: whether it will
/// renew, into which product, and, once expired, why and whether Apple is still retrying.
///
/// ```swift
/// let info = RenewalInfo(
///   originalTransactionID: "1", autoRenewStatus: false, rawExpirationIntent: 1)
/// info.expirationIntent  // .customerCancelled
/// ```
public struct RenewalInfo: Hashable, Sendable {
  /// `original_transaction_id`: the subscription described.
  public var originalTransactionID: OriginalTransactionID
  /// `product_id`: the product of the current period.
  public var productID: ProductID?
  /// `auto_renew_product_id`: the product of the next renewal (a downgrade or crossgrade chosen
  /// mid-period shows here first).
  public var autoRenewProductID: ProductID?
  /// `auto_renew_status`: `true` (1) will renew, `false` (0) turned off.
  public var autoRenewStatus: Bool?
  /// `expiration_intent` as Apple sent it.
  public var rawExpirationIntent: Int?
  /// `is_in_billing_retry_period`: `true` while the App Store is still trying to charge.
  public var isInBillingRetryPeriod: Bool?
  /// `grace_period_expires_date`: the end of the billing grace period.
  public var gracePeriodExpiresDate: Instant?
  /// `price_consent_status`: `false` (0) while the customer has not agreed to a price increase.
  public var priceConsentStatus: Bool?

  /// Creates renewal info.
  ///
  /// - Parameters:
  ///   - originalTransactionID: `original_transaction_id`.
  ///   - productID: `product_id`.
  ///   - autoRenewProductID: `auto_renew_product_id`.
  ///   - autoRenewStatus: `auto_renew_status`.
  ///   - rawExpirationIntent: `expiration_intent`.
  ///   - isInBillingRetryPeriod: `is_in_billing_retry_period`.
  ///   - gracePeriodExpiresDate: `grace_period_expires_date`.
  ///   - priceConsentStatus: `price_consent_status`.
  public init(
    originalTransactionID: OriginalTransactionID,
    productID: ProductID? = nil,
    autoRenewProductID: ProductID? = nil,
    autoRenewStatus: Bool? = nil,
    rawExpirationIntent: Int? = nil,
    isInBillingRetryPeriod: Bool? = nil,
    gracePeriodExpiresDate: Instant? = nil,
    priceConsentStatus: Bool? = nil
  ) {
    self.originalTransactionID = originalTransactionID
    self.productID = productID
    self.autoRenewProductID = autoRenewProductID
    self.autoRenewStatus = autoRenewStatus
    self.rawExpirationIntent = rawExpirationIntent
    self.isInBillingRetryPeriod = isInBillingRetryPeriod
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
    self.priceConsentStatus = priceConsentStatus
  }

  /// The typed `expiration_intent`; `nil` when absent or a value this version does not know.
  public var expirationIntent: ExpirationIntent? {
    rawExpirationIntent.flatMap(ExpirationIntent.init(rawValue:))
  }
}
