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
  /// When Apple stated this: the JWS's `signedDate`. Renewal info is dated evidence (SPEC §5):
  /// it describes the subscription as of this instant; `nil` when undated (verifyReceipt's
  /// `pending_renewal_info`, which describes the present of its response).
  public var signedDate: Instant?
  /// `renewalBillingPlanType` as Apple sent it (`MONTHLY`, `BILLED_UPFRONT`): how the next
  /// renewal is paid (``ReceiptEntry/BillingPlanType``).
  public var rawRenewalBillingPlanType: String? {
    get { plan?.billingPlanType }
    set { plan = Plan.of(newValue, commitment) }
  }
  /// `commitmentInfo`: what happens when the current commitment ends; `nil` outside one.
  public var commitment: Commitment? {
    get { plan?.commitment }
    set { plan = Plan.of(rawRenewalBillingPlanType, newValue) }
  }
  /// The two fields of Apple's billing plans, which most renewal info lacks, in one shared
  /// box: renewal info is copied and compared often, and stays small (`nil` when neither is
  /// present, so that one value has one representation).
  private var plan: Plan?

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
  ///   - signedDate: When Apple stated it.
  ///   - rawRenewalBillingPlanType: `renewalBillingPlanType`.
  ///   - commitment: `commitmentInfo`.
  public init(
    originalTransactionID: OriginalTransactionID,
    productID: ProductID? = nil,
    autoRenewProductID: ProductID? = nil,
    autoRenewStatus: Bool? = nil,
    rawExpirationIntent: Int? = nil,
    isInBillingRetryPeriod: Bool? = nil,
    gracePeriodExpiresDate: Instant? = nil,
    priceConsentStatus: Bool? = nil,
    signedDate: Instant? = nil,
    rawRenewalBillingPlanType: String? = nil,
    commitment: Commitment? = nil
  ) {
    self.originalTransactionID = originalTransactionID
    self.productID = productID
    self.autoRenewProductID = autoRenewProductID
    self.autoRenewStatus = autoRenewStatus
    self.rawExpirationIntent = rawExpirationIntent
    self.isInBillingRetryPeriod = isInBillingRetryPeriod
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
    self.priceConsentStatus = priceConsentStatus
    self.signedDate = signedDate
    self.plan = Plan.of(rawRenewalBillingPlanType, commitment)
  }

  /// ``RenewalInfo/plan``'s box (immutable: a change makes a new one).
  private final class Plan: Hashable, Sendable {
    let billingPlanType: String?
    let commitment: Commitment?

    private init(_ billingPlanType: String?, _ commitment: Commitment?) {
      self.billingPlanType = billingPlanType
      self.commitment = commitment
    }

    /// The box of these fields; `nil` when neither is present.
    static func of(_ billingPlanType: String?, _ commitment: Commitment?) -> Plan? {
      billingPlanType == nil && commitment == nil ? nil : Plan(billingPlanType, commitment)
    }

    static func == (lhs: Plan, rhs: Plan) -> Bool {
      lhs.billingPlanType == rhs.billingPlanType && lhs.commitment == rhs.commitment
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(billingPlanType)
      hasher.combine(commitment)
    }
  }

  /// The same info, dated `timestamp` when it has no date of its own.
  public func dated(_ timestamp: Instant?) -> RenewalInfo {
    guard signedDate == nil, let timestamp else { return self }
    var dated = self
    dated.signedDate = timestamp
    return dated
  }

  /// The typed `expiration_intent`; `nil` when absent or a value this version does not know.
  public var expirationIntent: ExpirationIntent? {
    rawExpirationIntent.flatMap(ExpirationIntent.init(rawValue:))
  }
}

extension RenewalInfo {
  /// `expiration_intent` / `expirationIntent`: why a subscription expired, as Apple reports it
  /// (SPEC §3), with Apple's case names and raw values.
  ///
  /// Nested, so that it does not collide with the App Store Server Library's top-level
  /// `ExpirationIntent` (the same values): convert with
  /// `RenewalInfo.ExpirationIntent(rawValue: Int(theirs.rawValue))`.
  ///
  /// ```swift
  /// RenewalInfo.ExpirationIntent(rawValue: 2)  // .billingError
  /// RenewalInfo.ExpirationIntent(rawValue: 9)  // nil: keep the raw value, read it as unknown
  /// ```
  public enum ExpirationIntent: Int, Hashable, Sendable, CaseIterable {
    /// 1: the customer cancelled (turned auto-renew off).
    case customerCancelled = 1
    /// 2: a billing error, such as an expired card.
    case billingError = 2
    /// 3: the customer did not consent to a price increase.
    case customerDidNotConsentToPriceIncrease = 3
    /// 4: the product was not available for purchase at the time of renewal.
    case productNotAvailable = 4
    /// 5: another reason.
    case other = 5
  }
}

extension RenewalInfo {
  /// A fixed order of renewal infos: by ``signedDate`` (undated first), then, for choosing one
  /// of several signed at one instant that disagree, by their fields: `auto_renew_status`,
  /// `expiration_intent`, `is_in_billing_retry_period`,
  /// `grace_period_expires_date`, `price_consent_status` (absent first, then `false` before
  /// `true` and by value), then `product_id` and `auto_renew_product_id`, then
  /// `renewalBillingPlanType` and the commitment's `commitmentAutoRenewStatus`,
  /// `commitmentAutoRenewProductId`, `commitmentRenewalBillingPlanType`,
  /// `commitmentRenewalDate` and `commitmentRenewalPrice`.
  ///
  /// ```swift
  /// let off = RenewalInfo(originalTransactionID: "1", autoRenewStatus: false)
  /// let on = RenewalInfo(originalTransactionID: "1", autoRenewStatus: true)
  /// RenewalInfo.precedes(off, on)  // true
  /// ```
  ///
  /// - Parameters:
  ///   - a: Renewal info.
  ///   - b: Other renewal info.
  /// - Returns: Whether `a` comes first; `false` for infos equal in these fields.
  public static func precedes(_ a: RenewalInfo, _ b: RenewalInfo) -> Bool {
    if a.signedDate != b.signedDate {
      return (a.signedDate ?? .distantPast) < (b.signedDate ?? .distantPast)
    }
    func key(_ flag: Bool?) -> Int { flag.map { $0 ? 2 : 1 } ?? 0 }
    let left = (
      key(a.autoRenewStatus), a.rawExpirationIntent ?? .min, key(a.isInBillingRetryPeriod),
      a.gracePeriodExpiresDate?.millisecondsSince1970 ?? .min, key(a.priceConsentStatus)
    )
    let right = (
      key(b.autoRenewStatus), b.rawExpirationIntent ?? .min, key(b.isInBillingRetryPeriod),
      b.gracePeriodExpiresDate?.millisecondsSince1970 ?? .min, key(b.priceConsentStatus)
    )
    if left != right { return left < right }
    let products = (a.productID?.rawValue ?? "", a.autoRenewProductID?.rawValue ?? "")
    let others = (b.productID?.rawValue ?? "", b.autoRenewProductID?.rawValue ?? "")
    if products != others { return products < others }
    // Absent before any value, an empty one included; no commitment before any.
    func text(_ value: String?) -> String { value.map { "+" + $0 } ?? "" }
    func plan(_ info: RenewalInfo) -> (Int, String, Int, String, String) {
      let commitment = info.commitment
      return (
        commitment == nil ? 0 : 1, text(info.rawRenewalBillingPlanType),
        key(commitment?.autoRenewStatus), text(commitment?.autoRenewProductID?.rawValue),
        text(commitment?.rawRenewalBillingPlanType)
      )
    }
    let (plans, otherPlans) = (plan(a), plan(b))
    if plans != otherPlans { return plans < otherPlans }
    let (ours, theirs) = (a.commitment, b.commitment)
    return (
      ours?.renewalDate?.millisecondsSince1970 ?? .min, Int64(ours?.renewalPrice ?? .min)
    ) < (theirs?.renewalDate?.millisecondsSince1970 ?? .min, Int64(theirs?.renewalPrice ?? .min))
  }
}

extension RenewalInfo: CustomReflectable {
  /// The renewal info's fields as values, in the order of its initializer, not its storage:
  /// what `print`, `dump` and a debugger show (display only: no decision reads it).
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        ("originalTransactionID", originalTransactionID), ("productID", productID as Any),
        ("autoRenewProductID", autoRenewProductID as Any),
        ("autoRenewStatus", autoRenewStatus as Any),
        ("rawExpirationIntent", rawExpirationIntent as Any),
        ("isInBillingRetryPeriod", isInBillingRetryPeriod as Any),
        ("gracePeriodExpiresDate", gracePeriodExpiresDate as Any),
        ("priceConsentStatus", priceConsentStatus as Any), ("signedDate", signedDate as Any),
        ("rawRenewalBillingPlanType", rawRenewalBillingPlanType as Any),
        ("commitment", commitment as Any),
      ],
      displayStyle: .struct)
  }
}
