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
  public var id: EntitlementID {
    get { storage.id }
    _modify { yield &unique().id }
  }
  /// What each entry of the entitlement covers, and why, in purchase order.
  public var coverage: CoverageList {
    get { storage.coverage }
    _modify { yield &unique().coverage }
  }
  /// The active periods, sorted, disjoint and non-touching.
  public var periods: [ActivePeriod] {
    get { storage.periods }
    _modify { yield &unique().periods }
  }
  /// The lapses between consecutive periods: `lapses[i]` lies between `periods[i]` and
  /// `periods[i + 1]`.
  public var lapses: [Lapse] {
    get { storage.lapses }
    _modify { yield &unique().lapses }
  }
  /// The renewal and retry windows of each period that ends with an auto-renewable entry.
  public var windows: [RenewalWindows] {
    get { storage.windows }
    _modify { yield &unique().windows }
  }
  /// The renewal info describing the time after the last period, if any.
  public var renewalInfo: RenewalInfo? {
    // Lent in place: `status(at:)` reads a field or two of it, and a copy retained its
    // strings (two copies per status of an active subscription).
    _read { yield storage.renewalInfo }
    _modify { yield &unique().renewalInfo }
  }
  /// The grace period after the last period (SPEC §5, rule 4): from its end to the latest
  /// `grace_period_expires_date` among the renewal infos of this entitlement's subscriptions,
  /// when that is later; `nil` otherwise. Every subscription counts, not only the one that
  /// ends the last period: a subscription in its grace period gives access whether or not
  /// another of the entitlement's purchases ran past its expiry. Read from the one ending
  /// the period only, a refund could add access (refunding the later purchase made the
  /// subscription in grace end the period, and its grace appeared).
  ///
  /// ```swift
  /// // A monthly plan expired Jan 1 in grace until Jan 29; a yearly one ended Jan 26.
  /// premium.gracePeriod  // [Jan 26, Jan 29)
  /// ```
  public var gracePeriod: Interval?
  /// Apple's `recentSubscriptionStartDate`: the start of the latest run of periods whose
  /// lapses are all shorter than 60 days (10 minutes in the sandbox). `nil` without periods.
  public var continuousSubscriptionStart: Instant?
  /// The problems found in this entitlement's entries.
  public var diagnostics: [Diagnostic] {
    get { storage.diagnostics }
    _modify { yield &unique().diagnostics }
  }
  /// The billing-retry window after the last period: policy `billingRetryLimit`, scaled by the
  /// product's ratio in the sandbox (SPEC §7).
  public var billingRetryLimit: FixedDuration

  /// Policy `unlockAtStart` (SPEC §8).
  public var unlockAtStart: Int

  /// Where each period's coverage sits (indices into ``coverage``, which is in purchase order).
  var layout: PeriodRules.Layout {
    get { storage.layout }
    _modify { yield &unique().layout }
  }

  /// The fields that hold references, in one box shared by copies (copy on write): a copy of
  /// an evaluation, such as `evaluation.entitlements[0]`, costs one retain instead of a dozen
  /// (DESIGN.md, "Performance").
  private final class Storage: @unchecked Sendable {
    // Mutated only through `unique()`, when no other value shares the box. Unchecked at run
    // time: two accesses to one box overlap only through one `EntitlementEvaluation`, which
    // the compiler's static exclusivity rules already refuse (any other value sharing the box
    // makes `unique()` copy it first), and the checks were 4% of the instructions of an
    // evaluation of 24 entries (a check on each field read, in `status(at:)` too).
    @exclusivity(unchecked) var id: EntitlementID
    @exclusivity(unchecked) var coverage: CoverageList
    @exclusivity(unchecked) var periods: [ActivePeriod]
    @exclusivity(unchecked) var lapses: [Lapse]
    @exclusivity(unchecked) var windows: [RenewalWindows]
    @exclusivity(unchecked) var renewalInfo: RenewalInfo?
    @exclusivity(unchecked) var diagnostics: [Diagnostic]
    @exclusivity(unchecked) var layout: PeriodRules.Layout

    init(
      id: EntitlementID, coverage: CoverageList, periods: [ActivePeriod], lapses: [Lapse],
      windows: [RenewalWindows], renewalInfo: RenewalInfo?, diagnostics: [Diagnostic],
      layout: PeriodRules.Layout
    ) {
      self.id = id
      self.coverage = coverage
      self.periods = periods
      self.lapses = lapses
      self.windows = windows
      self.renewalInfo = renewalInfo
      self.diagnostics = diagnostics
      self.layout = layout
    }

    func copy() -> Storage {
      Storage(
        id: id, coverage: coverage, periods: periods, lapses: lapses, windows: windows,
        renewalInfo: renewalInfo, diagnostics: diagnostics, layout: layout)
    }
  }

  private var storage: Storage

  /// The box, copied first when another value shares it.
  private mutating func unique() -> Storage {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    return storage
  }

  init(
    id: EntitlementID, coverage: CoverageList, periods: [ActivePeriod],
    layout: PeriodRules.Layout, lapses: [Lapse],
    windows: [RenewalWindows], renewalInfo: RenewalInfo?, gracePeriod: Interval?,
    continuousSubscriptionStart: Instant?, diagnostics: [Diagnostic],
    billingRetryLimit: FixedDuration, unlockAtStart: Int
  ) {
    storage = Storage(
      id: id, coverage: coverage, periods: periods, lapses: lapses, windows: windows,
      renewalInfo: renewalInfo, diagnostics: diagnostics, layout: layout)
    self.gracePeriod = gracePeriod
    self.continuousSubscriptionStart = continuousSubscriptionStart
    self.billingRetryLimit = billingRetryLimit
    self.unlockAtStart = unlockAtStart
  }

  /// Equal when every field is: the box is compared by its contents, not its identity.
  public static func == (lhs: EntitlementEvaluation, rhs: EntitlementEvaluation) -> Bool {
    lhs.gracePeriod == rhs.gracePeriod
      && lhs.continuousSubscriptionStart == rhs.continuousSubscriptionStart
      && lhs.billingRetryLimit == rhs.billingRetryLimit && lhs.unlockAtStart == rhs.unlockAtStart
      && (lhs.storage === rhs.storage
        || (lhs.id == rhs.id && lhs.coverage == rhs.coverage && lhs.periods == rhs.periods
          && lhs.lapses == rhs.lapses && lhs.windows == rhs.windows
          && lhs.renewalInfo == rhs.renewalInfo && lhs.diagnostics == rhs.diagnostics
          && lhs.layout == rhs.layout))
  }

  /// Hashes every field, as `==` compares them.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(coverage)
    hasher.combine(periods)
    hasher.combine(lapses)
    hasher.combine(windows)
    hasher.combine(renewalInfo)
    hasher.combine(gracePeriod)
    hasher.combine(continuousSubscriptionStart)
    hasher.combine(diagnostics)
    hasher.combine(billingRetryLimit)
    hasher.combine(unlockAtStart)
    hasher.combine(layout)
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

extension EntitlementEvaluation: CustomReflectable {
  /// The evaluation's fields, not its box: what `print`, `dump` and `String(reflecting:)` show,
  /// as they did before the fields moved into one box.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        ("id", id), ("coverage", coverage), ("periods", periods), ("lapses", lapses),
        ("windows", windows), ("renewalInfo", renewalInfo as Any),
        ("gracePeriod", gracePeriod as Any),
        ("continuousSubscriptionStart", continuousSubscriptionStart as Any),
        ("diagnostics", diagnostics), ("billingRetryLimit", billingRetryLimit),
        ("unlockAtStart", unlockAtStart), ("layout", layout),
      ],
      displayStyle: .struct)
  }
}
