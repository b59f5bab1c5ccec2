/// Everything the engine computes for one entitlement: coverage of each entry, active periods,
/// lapses with causes, renewal and retry windows, and the status at any instant.
///
/// Values only: `status(at:)` reads no clock; the caller passes the instant.
///
/// ```swift
/// let magazine = evaluation["magazine"]!
/// magazine.periods.map(\.interval)  // [[Feb 20, Apr 20), [Jun 17, Jul 17)]
/// magazine.lapses.map(\.interval)   // [[Apr 20, Jun 17)]
/// magazine.status(at: may10).state  // .expired
/// ```
public struct EntitlementEvaluation: Hashable, Sendable {
  /// The entitlement.
  public var id: EntitlementID
  /// What each entry of the entitlement covers, and why, in purchase order.
  public var coverage: CoverageList
  /// The active periods, sorted, disjoint and non-touching.
  public var periods: [ActivePeriod]
  /// The lapses between consecutive periods: `lapses[i]` lies between `periods[i]` and
  /// `periods[i + 1]`.
  public var lapses: [Lapse]
  /// The renewal and retry windows of each period that ends with an auto-renewable entry.
  public var windows: [RenewalWindows]
  /// The renewal info describing the time after the last period, if any.
  public var renewalInfo: RenewalInfo?
  /// Apple's `recentSubscriptionStartDate`: the start of the latest run of periods whose
  /// lapses are all shorter than 60 days (10 minutes in the sandbox). `nil` without periods.
  public var continuousSubscriptionStart: Instant?
  /// The problems found in this entitlement's entries.
  public var diagnostics: [Diagnostic]
  /// The billing-retry window after the last period: policy `billingRetryLimit`, scaled by the
  /// product's ratio in the sandbox (SPEC §7).
  public var billingRetryLimit: FixedDuration

  /// Policy `unlockAtStart` (SPEC §8).
  public var unlockAtStart: Int

  /// Where each period's coverage sits (indices into ``coverage``, which is in purchase order).
  var layout: PeriodRules.Layout

  init(
    id: EntitlementID, coverage: CoverageList, periods: [ActivePeriod],
    layout: PeriodRules.Layout, lapses: [Lapse],
    windows: [RenewalWindows], renewalInfo: RenewalInfo?, continuousSubscriptionStart: Instant?,
    diagnostics: [Diagnostic], billingRetryLimit: FixedDuration, unlockAtStart: Int
  ) {
    self.id = id
    self.coverage = coverage
    self.periods = periods
    self.layout = layout
    self.lapses = lapses
    self.windows = windows
    self.renewalInfo = renewalInfo
    self.continuousSubscriptionStart = continuousSubscriptionStart
    self.diagnostics = diagnostics
    self.billingRetryLimit = billingRetryLimit
    self.unlockAtStart = unlockAtStart
  }

  /// The status at an instant: one of the six states of SPEC §5, with its dates and reason.
  ///
  /// ```swift
  /// magazine.status(at: try Instant(parsing: "2017-03-01")).state  // .active
  /// magazine.status(at: try Instant(parsing: "2017-04-20T08:00:00Z")).state
  /// // .expired: the end of a period is outside it
  /// ```
  ///
  /// - Parameter instant: The instant asked about.
  /// - Returns: The status at that instant.
  /// - Complexity: O(log n) to find the period or purchase, plus the entries of the period.
  public func status(at instant: Instant) -> Status {
    StatusRules.status(at: instant, of: self)
  }

  /// Whether the customer has access at an instant: active or in grace period.
  ///
  /// - Parameter instant: The instant asked about.
  /// - Returns: `status(at: instant).isEntitled`.
  public func isEntitled(at instant: Instant) -> Bool {
    status(at: instant).isEntitled
  }
}
