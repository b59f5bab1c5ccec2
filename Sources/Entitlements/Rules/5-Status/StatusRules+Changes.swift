extension StatusRules {
  /// Every change of the status of SPEC §5 over time, in time order (``StatusChange``).
  ///
  /// The status is read from ``status(at:of:)``, its single source, at every instant where a
  /// rule of it can turn: it is constant between them, since each rule compares the instant
  /// with dates half-open on the right. Those instants are the start and end of each period;
  /// outside the periods (inside one, the status is `active` whatever else holds), each
  /// purchase date (rules 2 and 3, the gap before a later purchase) and each instant a refund
  /// ends access at (rule 2); and after the last period, the end of its grace period (rule 4)
  /// and of its retry window (rule 5). Instants at ``Instant/distantFuture`` are never reached.
  ///
  /// - Complexity: O(n + k log k) for n entries and k of those instants outside the periods,
  ///   plus the entries of each period, read once at its start.
  static func changes(of timeline: EntitlementTimeline) -> [StatusChange] {
    let periods = timeline.periods
    var instants: [Instant] = []
    instants.reserveCapacity(2 * periods.count + 2)
    for period in periods {
      instants.append(period.interval.start)
      instants.append(period.interval.end)
    }
    // Purchase dates and refund dates outside the periods, by one walk over both in order
    // (records are in purchase order; a refund's date is at or after its purchase, so it is
    // looked up by search).
    let records = timeline.coverage.records
    let entries = timeline.coverage.entries
    var period = 0
    for record in records {
      guard let purchase = entries[record.entryIndex].purchaseDate else { continue }
      while period < periods.count, periods[period].interval.end <= purchase { period += 1 }
      if period == periods.count || !periods[period].interval.contains(purchase) {
        instants.append(purchase)
      }
      if case .refundEndedAt(let at) = record.disposition, !isInPeriod(at, periods) {
        instants.append(at)
      }
    }
    if let last = periods.last {
      if let grace = timeline.gracePeriod { instants.append(grace.end) }
      instants.append(last.interval.end + timeline.billingRetryLimit)
    }
    instants.sort()
    var changes: [StatusChange] = []
    var current = EntitlementStatus.notSubscribed
    var previous: Instant?
    for instant in instants where instant != previous && !instant.isDistantFuture {
      previous = instant
      let status = status(at: instant, of: timeline)
      guard !StatusChange.sameStep(status, current) else { continue }
      changes.append(StatusChange(at: instant, status: status))
      current = status
    }
    return changes
  }

  /// Whether `instant` is inside one of `periods` (sorted), by binary search.
  private static func isInPeriod(_ instant: Instant, _ periods: [ActivePeriod]) -> Bool {
    guard let index = lastIndex(in: periods, atOrBefore: instant, by: { $0.interval.start })
    else { return false }
    return periods[index].interval.contains(instant)
  }
}
