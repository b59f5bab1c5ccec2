extension RenewalInfo {
  /// Renewal info's `commitmentInfo` (Apple's `RenewalCommitmentInfo`, App Store Server API
  /// 1.21): what happens when a commitment's last billing period ends. Billing goes on
  /// through every period of a commitment whatever this says; only the renewal after the
  /// last one follows ``autoRenewStatus`` (SPEC §5, "Commitments").
  ///
  /// ```swift
  /// let ending = RenewalInfo.Commitment(autoRenewStatus: false)
  /// ending.autoRenewStatus  // false: nothing renews after the twelfth payment
  /// ```
  public struct Commitment: Hashable, Sendable {
    /// `commitmentAutoRenewStatus`: `true` (1) renews when the commitment ends, `false` (0)
    /// does not.
    public var autoRenewStatus: Bool?
    /// `commitmentAutoRenewProductId`: the product it renews into.
    public var autoRenewProductID: ProductID?
    /// `commitmentRenewalBillingPlanType` as Apple sent it (`MONTHLY`, `BILLED_UPFRONT`).
    public var rawRenewalBillingPlanType: String?
    /// `commitmentRenewalDate`: when the commitment renews.
    public var renewalDate: Instant?
    /// `commitmentRenewalPrice`: the price it renews at, in milliunits of its currency.
    public var renewalPrice: Int?

    /// Creates a commitment's renewal.
    ///
    /// - Parameters:
    ///   - autoRenewStatus: `commitmentAutoRenewStatus`.
    ///   - autoRenewProductID: `commitmentAutoRenewProductId`.
    ///   - rawRenewalBillingPlanType: `commitmentRenewalBillingPlanType`.
    ///   - renewalDate: `commitmentRenewalDate`.
    ///   - renewalPrice: `commitmentRenewalPrice`.
    public init(
      autoRenewStatus: Bool? = nil, autoRenewProductID: ProductID? = nil,
      rawRenewalBillingPlanType: String? = nil, renewalDate: Instant? = nil,
      renewalPrice: Int? = nil
    ) {
      self.autoRenewStatus = autoRenewStatus
      self.autoRenewProductID = autoRenewProductID
      self.rawRenewalBillingPlanType = rawRenewalBillingPlanType
      self.renewalDate = renewalDate
      self.renewalPrice = renewalPrice
    }
  }
}
