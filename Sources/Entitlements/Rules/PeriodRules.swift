/// Merges entry coverage into active periods (SPEC §5).
///
/// Intervals that overlap or touch merge (a renewal starting exactly at the previous expiry
/// leaves no lapse; a 1 ms gap does). Gaps shorter than policy `minimumLapse` are merged away.
///
/// - Complexity: O(n log n) for n entries.
enum PeriodRules {
  static func periods(of coverage: [EntryCoverage], minimumLapse: FixedDuration)
    -> [ActivePeriod]
  {
    let covered =
      coverage
      .compactMap { item in item.interval.map { (interval: $0, entry: item.entry) } }
      .sorted { a, b in
        a.interval.start != b.interval.start
          ? a.interval.start < b.interval.start
          : Deduplication.canonicallyPrecedes(a.entry, b.entry)
      }
    var periods: [ActivePeriod] = []
    var index = 0
    while index < covered.count {
      let first = covered[index]
      var end = first.interval.end
      var lastEntry = first.entry
      var members: [TransactionID] = []
      var trial = false
      var intro = false
      while index < covered.count {
        let item = covered[index]
        let gapAllowed = end < .distantFuture && item.interval.start - end < minimumLapse
        guard item.interval.start <= end || gapAllowed else { break }
        if item.interval.start == first.interval.start {
          trial = trial || item.entry.isTrialPeriod
          intro = intro || item.entry.isInIntroOfferPeriod
        }
        if item.interval.end >= end {
          end = item.interval.end
          lastEntry = item.entry
        }
        members.append(item.entry.transactionID)
        index += 1
      }
      periods.append(
        ActivePeriod(
          interval: Interval(start: first.interval.start, end: end),
          start: periods.isEmpty ? .firstPurchase : .restart,
          transactionIDs: members, lastTransactionID: lastEntry.transactionID,
          beganWithTrial: trial, beganWithIntroOffer: intro))
    }
    return periods
  }
}
