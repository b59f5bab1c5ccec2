extension ReceiptEntry {
  /// A transaction's `commitmentInfo` (Apple's `TransactionCommitmentInfo`, App Store Server
  /// API 1.21): the entry is one billing period of a commitment, a one-year product paid in
  /// monthly transactions. Each billing period is its own entry and covers its own month,
  /// from its own `purchaseDate` to its own `expiresDate` (SPEC §4, "Commitments").
  ///
  /// ```swift
  /// let third = ReceiptEntry.Commitment(
  ///   billingPeriodNumber: 3, totalBillingPeriods: 12,
  ///   expiresDate: try Instant(parsing: "2027-01-01T00:00:00Z"))
  /// third.isLastBillingPeriod  // false
  /// ```
  public struct Commitment: Hashable, Sendable {
    /// `billingPeriodNumber`: which payment this is, from 1.
    public var billingPeriodNumber: Int
    /// `totalBillingPeriods`: how many payments the commitment has (12).
    public var totalBillingPeriods: Int
    /// `commitmentExpiresDate`: when the commitment ends, after its last billing period.
    public var expiresDate: Instant?
    /// `commitmentPrice`: the commitment's whole price, in milliunits of its currency.
    public var price: Int?

    /// Creates a commitment's billing period.
    ///
    /// - Parameters:
    ///   - billingPeriodNumber: `billingPeriodNumber`.
    ///   - totalBillingPeriods: `totalBillingPeriods`.
    ///   - expiresDate: `commitmentExpiresDate`.
    ///   - price: `commitmentPrice`.
    public init(
      billingPeriodNumber: Int, totalBillingPeriods: Int, expiresDate: Instant? = nil,
      price: Int? = nil
    ) {
      self.billingPeriodNumber = billingPeriodNumber
      self.totalBillingPeriods = totalBillingPeriods
      self.expiresDate = expiresDate
      self.price = price
    }

    /// Whether this is the commitment's last payment: after it, only the commitment's own
    /// renewal (``RenewalInfo/Commitment/autoRenewStatus``) renews anything.
    public var isLastBillingPeriod: Bool { billingPeriodNumber >= totalBillingPeriods }
  }
}
