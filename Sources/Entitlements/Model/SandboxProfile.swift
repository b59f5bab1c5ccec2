/// How the test environment accelerates time: SPEC §7 policy `sandboxProfile`.
///
/// Apple's sandbox has changed over the years: the guide's fixed table (a month lasts 5 minutes,
/// at most 6 renewals a day), per-tester renewal rates (up to 12 renewals), and TestFlight (one
/// renewal a day, at most 6 a week). Real data shows each: sandbox receipts of 2016–2020 renew
/// monthly products every 5 minutes, while 2025 sandbox data renews a monthly product every
/// 3 minutes and a 3-month one every 9 minutes (the 3-minute rate).
///
/// ```swift
/// SandboxProfile.guide.length(of: CalendarPeriod(1, .month))                  // 5 minutes
/// SandboxProfile.renewalRate(.threeMinutes).length(of: CalendarPeriod(3, .month))  // 9 minutes
/// SandboxProfile.testFlight.length(of: CalendarPeriod(1, .year))              // 24 hours
/// ```
public enum SandboxProfile: Hashable, Sendable {
  /// The guide's table: 1 week → 3 min, 1 month → 5 min, … 1 year → 1 h; at most 6 renewals a
  /// day, then the subscription stops renewing. The default.
  case guide
  /// A renewal rate set per sandbox tester in App Store Connect; up to 12 renewals, auto-renew
  /// turns off at the 13th attempt.
  case renewalRate(RenewalRate)
  /// TestFlight: renews every 24 hours whatever the duration, at most 6 times in a week.
  case testFlight

  /// The renewal rates of App Store Connect's sandbox tester settings (SPEC §7).
  public enum RenewalRate: String, Hashable, Sendable, CaseIterable {
    /// A month lasts 3 minutes.
    case threeMinutes
    /// A month lasts 5 minutes (the same lengths as the guide's table).
    case fiveMinutes
    /// A month lasts 15 minutes.
    case fifteenMinutes
    /// A month lasts 30 minutes.
    case thirtyMinutes
    /// A month lasts 1 hour.
    case oneHour
  }
}
