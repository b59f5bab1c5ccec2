/// The App Store's renewal and retry windows around one expiry (SPEC §6).
///
/// | window | interval |
/// |---|---|
/// | billing-issue check | `[E − 10 days, E)` |
/// | renewal attempts | `[E − 24 hours, E)` |
/// | billing retry | `[E, E + billingRetryLimit)`, 60 days by default |
/// | grace period | `[E, grace_period_expires_date)`, from renewal info, last period only |
///
/// In the sandbox every length is scaled by the product's ratio (SPEC §7, ``WindowLengths``).
///
/// ```swift
/// let windows = evaluation["service"]?.windows.last
/// windows?.billingRetry.end  // expiry + 60 days
/// ```
public struct RenewalWindows: Hashable, Sendable {
  /// The expiry E: the end of an auto-renewing period.
  public let expiresAt: Instant
  /// `[E − 10 days, E)`: the App Store checks for billing problems and tells the customer.
  public let billingCheck: Interval
  /// `[E − 24 hours, E)`: the App Store attempts the renewal.
  public let renewalAttempts: Interval
  /// `[E, E + limit)`: after a billing failure the App Store keeps retrying. A successful
  /// retry here, after any grace period, restarts the subscription with a new renewal date.
  public let billingRetry: Interval
  /// `[E, grace_period_expires_date)` when the renewal info of the last period has one after E.
  public let gracePeriod: Interval?

  /// Creates the windows around an expiry with production lengths.
  ///
  /// - Parameters:
  ///   - expiresAt: The expiry.
  ///   - billingRetryLimit: The length of the billing-retry window.
  ///   - gracePeriodExpiresDate: `grace_period_expires_date`, if any.
  public init(
    expiresAt: Instant, billingRetryLimit: FixedDuration, gracePeriodExpiresDate: Instant? = nil
  ) {
    self.init(
      expiresAt: expiresAt, lengths: WindowLengths(billingRetryLimit: billingRetryLimit),
      gracePeriodExpiresDate: gracePeriodExpiresDate)
  }

  /// Creates the windows around an expiry with the given lengths (scaled in the sandbox).
  ///
  /// - Parameters:
  ///   - expiresAt: The expiry.
  ///   - lengths: The window lengths.
  ///   - gracePeriodExpiresDate: `grace_period_expires_date`, if any.
  public init(expiresAt: Instant, lengths: WindowLengths, gracePeriodExpiresDate: Instant? = nil) {
    self.expiresAt = expiresAt
    self.billingCheck = Interval(start: expiresAt - lengths.billingCheck, end: expiresAt)
    self.renewalAttempts = Interval(start: expiresAt - lengths.renewalAttempts, end: expiresAt)
    self.billingRetry = Interval(start: expiresAt, end: expiresAt + lengths.billingRetry)
    self.gracePeriod = gracePeriodExpiresDate.flatMap { end in
      end > expiresAt ? Interval(start: expiresAt, end: end) : nil
    }
  }
}
