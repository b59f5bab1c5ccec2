extension StatusRules {
  /// Every change of the status of SPEC §5 over time, in time order: the instant and the step
  /// (state, reason, access) of each ``StatusChange``, whose status ``status(at:of:)`` gives.
  ///
  /// The step is read from ``decision(at:of:)``, the single source of the status, at every
  /// instant where a rule of it can turn: it is constant between them, since each rule
  /// compares the instant with dates half-open on the right. Those instants are the start and
  /// end of each period; outside the periods (inside one, the status is `active` unless a
  /// reversed refund holds), each purchase date (rules 2 and 3, the gap before a later
  /// purchase) and each instant a refund ends access at (rule 2); inside an earlier lapse Apple
  /// said was a retry, the end of its grace, of its retry and Apple's word that it stopped;
  /// for each reversed refund, its start and end and, between them, every start and end of
  /// coverage and every purchase; and after the last period, the end of its grace period
  /// (rule 4) and of its retry window (rule 5). Instants at ``Instant/distantFuture`` are
  /// never reached.
  ///
  /// - Complexity: O(n + k log n) for n entries and k distinct instants among those, plus,
  ///   at an instant several purchases share, those purchases; O(n) more per reversed refund.
  static func changes(of timeline: EntitlementTimeline) -> [StatusStep] {
    let periods = timeline.periods
    // One array: the instants to read the status at, then, in place, the changes among them.
    var steps: [StatusStep] = []
    steps.reserveCapacity(2 * periods.count + 2)
    func consider(_ instant: Instant) {
      steps.append(StatusStep(at: instant, state: .notSubscribed, reason: nil))
    }
    for index in periods.indices {
      consider(periods[index].interval.start)
      consider(periods[index].interval.end)
    }
    // Purchase dates and refund dates outside the periods, by one walk over both in order
    // (records are in purchase order; a refund's date is at or after its purchase, so it is
    // looked up by search).
    let records = timeline.coverage.records
    let entries = timeline.coverage.entries
    var period = 0
    for record in records {
      if case .refundEndedAt(let at) = record.disposition, !isInPeriod(at, periods) {
        consider(at)
      }
      // An entry that gives access from its purchase is inside a period there: its entry is
      // not read (a stacked pass starts after its purchase).
      if record.hasInterval, record.productType != .nonRenewing { continue }
      guard let purchase = entries[record.entryIndex].purchaseDate else { continue }
      while period < periods.count, periods[period].interval.end <= purchase { period += 1 }
      if period == periods.count || !periods[period].interval.contains(purchase) {
        consider(purchase)
      }
    }
    // Inside earlier lapses, where Apple's word on a retry turns; a reversed refund's start
    // and end.
    for retry in timeline.lapseRetries {
      if let grace = retry.gracePeriodEnd { consider(grace) }
      consider(retry.retryEnd)
      if let stop = retry.stop { consider(stop) }
    }
    // While a reversed refund holds, what gives access decides: where any coverage starts or
    // ends, or a purchase falls, inside it (reversals are rare: a pass each).
    for reversal in timeline.reversedRefunds {
      guard let interval = reversal.interval else { continue }
      consider(interval.start)
      consider(interval.end)
      for record in records {
        let purchase = entries[record.entryIndex].purchaseDate
        for case let instant? in [record.interval?.start, record.interval?.end, purchase]
        where interval.contains(instant) {
          consider(instant)
        }
      }
    }
    if let last = periods.last?.interval.end {
      if let grace = timeline.gracePeriod { consider(grace.end) }
      consider(last + timeline.billingRetryLimit)
    }
    // Usually in order already (periods, then their grace and retry window).
    if !steps.indices.dropFirst().allSatisfy({ steps[$0 - 1].at <= steps[$0].at }) {
      steps.sort { $0.at < $1.at }
    }
    var kept = 0
    var current = StatusStep(at: .distantPast, state: .notSubscribed, reason: nil)
    var previous: Instant?
    for index in steps.indices {
      let instant = steps[index].at
      // Once per instant: many purchases or refunds at one instant would each read the status,
      // and each reading walks the purchases of that instant.
      guard instant != previous, !instant.isDistantFuture else { continue }
      previous = instant
      let step: StatusStep
      switch decision(at: instant, of: timeline) {
      case .active: step = StatusStep(at: instant, state: .active, reason: nil)
      case .inactive(let status): step = StatusStep(at: instant, status)
      }
      if step.state != current.state || step.reason != current.reason {
        steps[kept] = step
        kept += 1
      }
      current = step
    }
    steps.removeLast(steps.count - kept)
    return steps
  }

  /// Whether `instant` is inside one of `periods` (sorted), by binary search.
  private static func isInPeriod(_ instant: Instant, _ periods: [ActivePeriod]) -> Bool {
    guard let index = lastIndex(in: periods, atOrBefore: instant, by: { $0.interval.start })
    else { return false }
    return periods[index].interval.contains(instant)
  }
}

/// A change of the status function without the status's details: what an evaluation stores
/// (plain values, 16 bytes), and ``StatusChange`` gives with them.
struct StatusStep: Hashable, Sendable {
  /// The instant of the change.
  let at: Instant
  /// The state from it.
  let state: EntitlementState
  /// The reason from it, when expired or revoked.
  let reason: ExpiryReason?

  init(at: Instant, state: EntitlementState, reason: ExpiryReason?) {
    (self.at, self.state, self.reason) = (at, state, reason)
  }

  init(at: Instant, _ status: EntitlementStatus) {
    (self.at, state, reason) = (at, status.state, status.reason)
  }
}
