/// The lengths of the guide's renewal windows: 10-day billing check, 24-hour renewal attempts,
/// and the billing-retry limit (SPEC §6), in production or scaled for the sandbox (SPEC §7).
///
/// ```swift
/// let production = WindowLengths(billingRetryLimit: .days(60))
/// production.billingRetry                                        // 60 days
/// production.scaled(by: .guide, for: CalendarPeriod(1, .month)).billingRetry  // 10 minutes
/// ```
public struct WindowLengths: Hashable, Sendable {
  /// Before expiry, the App Store checks for billing problems: 10 days in production.
  public let billingCheck: FixedDuration
  /// Before expiry, the App Store attempts the renewal: 24 hours in production.
  public let renewalAttempts: FixedDuration
  /// After expiry, the App Store retries billing: policy `billingRetryLimit`, 60 days.
  public let billingRetry: FixedDuration

  /// Production lengths.
  ///
  /// - Parameter billingRetryLimit: Policy `billingRetryLimit`; 60 days by default.
  public init(billingRetryLimit: FixedDuration = .days(60)) {
    self.init(billingCheck: .days(10), renewalAttempts: .hours(24), billingRetry: billingRetryLimit)
  }

  private init(
    billingCheck: FixedDuration, renewalAttempts: FixedDuration, billingRetry: FixedDuration
  ) {
    self.billingCheck = billingCheck
    self.renewalAttempts = renewalAttempts
    self.billingRetry = billingRetry
  }

  /// The same windows in the sandbox, each scaled by the product's ratio (1 month → 5 minutes
  /// is 1 : 8 640 in the guide's table): our documented choice, SPEC §7.
  ///
  /// - Parameters:
  ///   - profile: The sandbox profile in force.
  ///   - duration: The product's production duration; `nil` scales by the 1-month row.
  /// - Returns: The scaled lengths.
  public func scaled(by profile: SandboxProfile, for duration: CalendarPeriod?) -> WindowLengths {
    WindowLengths(
      billingCheck: profile.scaled(billingCheck, for: duration),
      renewalAttempts: profile.scaled(renewalAttempts, for: duration),
      billingRetry: profile.scaled(billingRetry, for: duration))
  }
}

extension Policy {
  /// Whether the guide's windows are scaled in this environment (SPEC §7: sandbox, and policy
  /// `scalesSandboxWindows`).
  func scalesWindows(in environment: StoreEnvironment) -> Bool {
    environment.acceleratesTime && scalesSandboxWindows
  }

  /// The window lengths after an expiry: production lengths, or in the sandbox scaled by the
  /// ratio of the product's duration (asked for only then).
  func windowLengths(in environment: StoreEnvironment, for duration: () -> CalendarPeriod?)
    -> WindowLengths
  {
    let production = WindowLengths(billingRetryLimit: billingRetryLimit)
    guard scalesWindows(in: environment) else { return production }
    return production.scaled(by: sandboxProfile, for: duration())
  }
}
