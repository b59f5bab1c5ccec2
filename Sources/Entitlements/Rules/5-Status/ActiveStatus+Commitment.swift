extension ActiveStatus {
  /// Where an active entitlement stands in a commitment (a one-year product paid in monthly
  /// billing periods: SPEC §5, "Commitments"): which payment gives access, when the
  /// commitment ends, and what happens then.
  ///
  /// ```swift
  /// if let commitment = status.commitment {
  ///   commitment.billingPeriod        // 3
  ///   commitment.totalBillingPeriods  // 12
  ///   commitment.willRenew            // false: nothing renews after the twelfth payment
  /// }
  /// ```
  public struct Commitment: Hashable, Sendable {
    /// The billing period giving access (`billingPeriodNumber`), from 1.
    public let billingPeriod: Int
    /// How many billing periods the commitment has (`totalBillingPeriods`).
    public let totalBillingPeriods: Int
    /// When the commitment ends (`commitmentExpiresDate`).
    public let endsAt: Instant?
    /// Whether anything renews when the commitment ends (`commitmentAutoRenewStatus`, or a
    /// renewal status notification during the commitment); `nil` when unknown or for a period
    /// before the last one. The months of a commitment join into one period that ends with
    /// it, so ``ActiveStatus/willRenew`` says the same once the last payment is known.
    public let willRenew: Bool?
    /// The product it renews into (`commitmentAutoRenewProductId`); `nil` when unknown or for
    /// an earlier period.
    public let renewsInto: ProductID?

    /// Creates where an active entitlement stands in a commitment.
    ///
    /// - Parameters:
    ///   - billingPeriod: The billing period giving access.
    ///   - totalBillingPeriods: How many billing periods the commitment has.
    ///   - endsAt: When the commitment ends.
    ///   - willRenew: Whether anything renews when it ends.
    ///   - renewsInto: The product it renews into.
    public init(
      billingPeriod: Int, totalBillingPeriods: Int, endsAt: Instant?, willRenew: Bool?,
      renewsInto: ProductID?
    ) {
      self.billingPeriod = billingPeriod
      self.totalBillingPeriods = totalBillingPeriods
      self.endsAt = endsAt
      self.willRenew = willRenew
      self.renewsInto = renewsInto
    }
  }
}
