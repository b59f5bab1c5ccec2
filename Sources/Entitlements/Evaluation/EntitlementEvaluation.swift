/// Everything the engine computes for one entitlement: coverage of each entry, active periods,
/// lapses with causes, renewal and retry windows, and the status at any instant.
///
/// Values only: `status(at:)` reads no clock; the caller passes the instant. An evaluation is
/// read-only: only ``Evaluator`` makes one, so its periods, lapses and status always agree.
///
/// ```swift
/// let magazine = evaluation["magazine"]!
/// magazine.periods.map(\.interval)  // [[Feb 20, Apr 20), [Jun 17, Jul 17)]
/// magazine.lapses.map(\.interval)   // [[Apr 20, Jun 17)]
/// magazine.status(at: may10).state  // .expired
/// ```
public struct EntitlementEvaluation: Hashable, Sendable {
  /// The computed values, in one box shared by copies: a copy of an evaluation (such as
  /// `evaluation.entitlements[0]`) costs one retain, not one per list.
  private final class Storage: Sendable {
    let timeline: EntitlementTimeline
    let windows: [RenewalWindows]
    let continuousSubscriptionStart: Instant?
    let diagnostics: [Diagnostic]
    let unlockAtStart: Int
    let appleStatuses: [AppleStatusReport]
    let changes: [StatusStep]

    init(
      timeline: EntitlementTimeline, windows: [RenewalWindows],
      continuousSubscriptionStart: Instant?, diagnostics: [Diagnostic], unlockAtStart: Int,
      appleStatuses: [AppleStatusReport]
    ) {
      self.timeline = timeline
      self.changes = StatusRules.changes(of: timeline)
      self.windows = windows
      self.continuousSubscriptionStart = continuousSubscriptionStart
      self.diagnostics = diagnostics
      self.unlockAtStart = unlockAtStart
      self.appleStatuses = appleStatuses
    }
  }

  private let storage: Storage

  init(
    timeline: EntitlementTimeline, windows: [RenewalWindows],
    continuousSubscriptionStart: Instant?, diagnostics: [Diagnostic], unlockAtStart: Int,
    appleStatuses: [AppleStatusReport] = []
  ) {
    storage = Storage(
      timeline: timeline, windows: windows,
      continuousSubscriptionStart: continuousSubscriptionStart, diagnostics: diagnostics,
      unlockAtStart: unlockAtStart, appleStatuses: appleStatuses)
  }

  /// What the rules computed, for the status and release rules.
  var timeline: EntitlementTimeline { storage.timeline }

  /// The entitlement.
  public var id: EntitlementID { storage.timeline.id }
  /// What each entry of the entitlement covers, and why, in canonical (purchase) order.
  public var coverage: CoverageList { storage.timeline.coverage }
  /// The active periods, sorted, disjoint and non-touching.
  public var periods: [ActivePeriod] { storage.timeline.periods }
  /// The lapses between consecutive periods: `lapses[i]` lies between `periods[i]` and
  /// `periods[i + 1]`.
  public var lapses: [Lapse] { storage.timeline.lapses }
  /// The renewal and retry windows of each period that ends with an auto-renewable entry.
  public var windows: [RenewalWindows] { storage.windows }
  /// The renewal info describing the time after the last period, if any.
  public var renewalInfo: RenewalInfo? { storage.timeline.renewalInfo }
  /// The grace period after the last period (SPEC §5, rule 4): from its end to the latest
  /// `grace_period_expires_date` among the renewal infos of this entitlement's subscriptions,
  /// when that is later; `nil` otherwise. Every subscription counts, not only the one that
  /// ends the last period: a subscription in its grace period gives access whether or not
  /// another of the entitlement's purchases ran past its expiry.
  ///
  /// ```swift
  /// // A monthly plan expired Jan 1 in grace until Jan 29; a yearly one ended Jan 26.
  /// premium.gracePeriod  // [Jan 26, Jan 29)
  /// ```
  public var gracePeriod: Interval? { storage.timeline.gracePeriod }
  /// When the customer turned auto-renew off, as the newest run of Apple's statements about the
  /// last period's subscription shows it (a `DID_CHANGE_RENEWAL_STATUS` /
  /// `AUTO_RENEW_DISABLED` notification, or the first renewal info saying so); `nil` while
  /// auto-renew is on or nothing says (RevenueCat's `unsubscribeDetectedAt`; SPEC §5).
  ///
  /// ```swift
  /// premium.unsubscribeDetectedAt  // 2025-10-06T05:16:30Z: the AUTO_RENEW_DISABLED's date
  /// ```
  public var unsubscribeDetectedAt: Instant? {
    storage.timeline.afterLastPeriod?.unsubscribeDetectedAt
  }
  /// When a billing problem was first detected for the last period's subscription (a
  /// `DID_FAIL_TO_RENEW` notification, or the first renewal info in billing retry), and not
  /// resolved since by a renewal; `nil` otherwise (RevenueCat's `billingIssueDetectedAt`;
  /// SPEC §5).
  ///
  /// ```swift
  /// service.billingIssueDetectedAt  // the DID_FAIL_TO_RENEW's signedDate
  /// ```
  public var billingIssueDetectedAt: Instant? {
    storage.timeline.afterLastPeriod?.billingIssueDetectedAt
  }
  /// Apple's `recentSubscriptionStartDate`: the start of the latest run of periods whose
  /// lapses are all shorter than 60 days (10 minutes in the sandbox). `nil` without periods.
  public var continuousSubscriptionStart: Instant? { storage.continuousSubscriptionStart }
  /// The problems found in this entitlement's entries.
  public var diagnostics: [Diagnostic] { storage.diagnostics }
  /// The billing-retry window after the last period: policy `billingRetryLimit`, scaled by the
  /// product's ratio in the sandbox (SPEC §7).
  public var billingRetryLimit: FixedDuration { storage.timeline.billingRetryLimit }
  /// Policy `unlockAtStart` (SPEC §8), as the evaluation used it.
  public var unlockAtStart: Int { storage.unlockAtStart }
  /// For each status Apple stated about one of this entitlement's subscriptions (a v2
  /// notification's `data.status`, a status response's `lastTransactions[].status`), whether
  /// the evaluation agrees at that instant (SPEC §10); in order of instant.
  ///
  /// ```swift
  /// premium.appleAgreement.allSatisfy(\.agrees)  // true
  /// ```
  public var appleAgreement: [AppleAgreement] {
    storage.appleStatuses.map { AppleAgreement(report: $0, ours: status(at: $0.at)) }
  }

  /// Equal when every value is.
  public static func == (lhs: EntitlementEvaluation, rhs: EntitlementEvaluation) -> Bool {
    lhs.storage === rhs.storage
      || (lhs.timeline == rhs.timeline && lhs.windows == rhs.windows
        && lhs.continuousSubscriptionStart == rhs.continuousSubscriptionStart
        && lhs.diagnostics == rhs.diagnostics && lhs.unlockAtStart == rhs.unlockAtStart
        && lhs.storage.appleStatuses == rhs.storage.appleStatuses)
  }

  /// Hashes every value, as `==` compares them.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(timeline)
    hasher.combine(windows)
    hasher.combine(continuousSubscriptionStart)
    hasher.combine(diagnostics)
    hasher.combine(unlockAtStart)
    hasher.combine(storage.appleStatuses)
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
  public func status(at instant: Instant) -> EntitlementStatus {
    StatusRules.status(at: instant, of: storage.timeline)
  }

  /// The status as a function of time: each change of the entitlement's state, reason or
  /// access, in time order, with the status from it to the next (SPEC §5). Before the first
  /// change the entitlement is `notSubscribed`; at every instant, the change in force (the
  /// last at or before it) has the state, reason and access of ``status(at:)``.
  ///
  /// ```swift
  /// magazine.changes.map { "\($0.at) \($0.state)" }
  /// // ["2017-02-20T08:00:00Z active", "2017-04-20T08:00:00Z expired",
  /// //  "2017-06-17T08:00:00Z active", "2017-07-17T08:00:00Z expired"]
  /// ```
  ///
  /// - Complexity: each change's status is read when asked, as ``status(at:)`` reads it: store
  ///   the result rather than asking again.
  public var changes: [StatusChange] {
    storage.changes.map { StatusChange(at: $0.at, status: status(at: $0.at)) }
  }

  /// The next change of the status after an instant, if no new document arrives: when a
  /// backend must look at this entitlement again. `nil` when nothing will change (expired or
  /// revoked for good, or a lifetime purchase).
  ///
  /// ```swift
  /// let next = premium.nextChange(after: now)
  /// next?.at     // the period's end: 2025-11-06T05:16:30Z
  /// next?.state  // .billingRetry, as the renewal info says so far
  /// ```
  ///
  /// - Parameter instant: The instant asked about.
  /// - Returns: The first change strictly after `instant`, or `nil`.
  /// - Complexity: O(log n) to find it among the changes, plus ``status(at:)`` at its instant.
  public func nextChange(after instant: Instant) -> StatusChange? {
    let changes = storage.changes
    let index = changes.partitionPoint { $0.at > instant }
    guard index < changes.count else { return nil }
    return StatusChange(at: changes[index].at, status: status(at: changes[index].at))
  }

  /// Whether the customer has access at an instant: active or in grace period.
  ///
  /// - Parameter instant: The instant asked about.
  /// - Returns: `status(at: instant).isEntitled`.
  public func isEntitled(at instant: Instant) -> Bool {
    status(at: instant).isEntitled
  }
}

extension EntitlementEvaluation: CustomReflectable {
  /// The evaluation's values, not its box: what `print`, `dump` and a debugger
  /// show (display only: no decision reads it).
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        ("id", id), ("coverage", coverage), ("periods", periods), ("lapses", lapses),
        ("windows", windows), ("renewalInfo", renewalInfo as Any),
        ("gracePeriod", gracePeriod as Any),
        ("continuousSubscriptionStart", continuousSubscriptionStart as Any),
        ("diagnostics", diagnostics), ("billingRetryLimit", billingRetryLimit),
        ("unlockAtStart", unlockAtStart),
      ],
      displayStyle: .struct)
  }
}
