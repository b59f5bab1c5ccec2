/// The App Store's renewal and retry windows around one expiry (SPEC §6).
///
/// | window | interval |
/// |---|---|
/// | billing-issue check | `[E − 10 days, E)` |
/// | renewal attempts | `[E − 24 hours, E)` |
/// | billing retry | `[E, E + billingRetryLimit)`, 60 days by default |
/// | grace period | `[E, grace_period_expires_date)`, from renewal info, last period only |
///
/// ```swift
/// let windows = evaluation["service"]?.windows.last
/// windows?.billingRetry.end  // expiry + 60 days
/// ```
public struct RenewalWindows: Hashable, Sendable {
  /// The expiry E: the end of an auto-renewing period.
  public var expiresAt: Instant
  /// `[E − 10 days, E)`: the App Store checks for billing problems and tells the customer.
  public var billingCheck: Interval
  /// `[E − 24 hours, E)`: the App Store attempts the renewal.
  public var renewalAttempts: Interval
  /// `[E, E + limit)`: after a billing failure the App Store keeps retrying. A successful
  /// retry here, after any grace period, restarts the subscription with a new renewal date.
  public var billingRetry: Interval
  /// `[E, grace_period_expires_date)` when the renewal info of the last period has one after E.
  public var gracePeriod: Interval?

  /// Creates the windows around an expiry.
  ///
  /// - Parameters:
  ///   - expiresAt: The expiry.
  ///   - billingRetryLimit: The length of the billing-retry window.
  ///   - gracePeriodExpiresDate: `grace_period_expires_date`, if any.
  public init(
    expiresAt: Instant, billingRetryLimit: FixedDuration, gracePeriodExpiresDate: Instant? = nil
  ) {
    self.expiresAt = expiresAt
    self.billingCheck = Interval(start: expiresAt - .days(10), end: expiresAt)
    self.renewalAttempts = Interval(start: expiresAt - .hours(24), end: expiresAt)
    self.billingRetry = Interval(start: expiresAt, end: expiresAt + billingRetryLimit)
    self.gracePeriod = gracePeriodExpiresDate.flatMap { end in
      end > expiresAt ? Interval(start: expiresAt, end: end) : nil
    }
  }
}
