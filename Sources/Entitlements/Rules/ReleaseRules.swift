/// Which releases a customer can read as of an instant (SPEC §8).
///
/// Readable: every release dated inside an active period (`start <= date < end`), or inside the
/// grace period after the last one, plus, for each period, the releases of the latest
/// `unlockAtStart` dates at or before its start (all releases sharing such a date). Voided
/// entries cover nothing, so they unlock nothing; billing-retry time is not active. As of t,
/// only periods that began at or before t count, and only releases dated at or before t.
///
/// - Complexity: O((R + P) log R + output) for R releases and P periods: one sort and a binary
///   search per period, never a nested scan.
enum ReleaseRules {
  static func readable(
    _ releases: [Release], in evaluation: EntitlementEvaluation, asOf instant: Instant,
    unlockAtStart: Int
  ) -> [ReadableRelease] {
    func precedes(_ a: Release, _ b: Release) -> Bool { (a.date, a.id) < (b.date, b.id) }
    func applies(_ release: Release) -> Bool {
      release.entitlement == nil || release.entitlement == evaluation.id
    }
    // Shared, not copied, when every release applies (a calendar for one entitlement).
    var sorted = releases.allSatisfy(applies) ? releases : releases.filter(applies)
    // A calendar is usually written in date order: checking costs one pass, sorting more.
    if zip(sorted, sorted.dropFirst()).contains(where: { !precedes($0, $1) }) {
      sorted.sort(by: precedes)
    }
    // The first reason each release is unlocked for, by its place in `sorted`.
    var reasons = [ReadableRelease.Reason?](repeating: nil, count: sorted.count)
    func unlock(_ range: Range<Int>, _ reason: ReadableRelease.Reason) {
      for index in range where reasons[index] == nil { reasons[index] = reason }
    }
    // Intervals are read in place: iterating the periods would copy each one out.
    for index in evaluation.periods.indices {
      let interval = evaluation.periods[index].interval
      guard interval.start <= instant else { continue }
      let start = interval.start
      // The latest `unlockAtStart` release dates at or before the start.
      var low = sorted.partitionPoint { $0.date > start }
      var dates = 0
      while low > 0, dates < unlockAtStart {
        let date = sorted[low - 1].date
        while low > 0, sorted[low - 1].date == date { low -= 1 }
        dates += 1
      }
      // A release dated exactly at the start was released while active: that reason first.
      unlock(
        span(of: interval, upTo: instant, in: sorted), .releasedWhileActive(period: interval))
      unlock(low..<sorted.partitionPoint { $0.date > start }, .unlockedAtStart(periodStart: start))
    }
    if let grace = evaluation.gracePeriod,
      !evaluation.periods.isEmpty,
      evaluation.periods[evaluation.periods.count - 1].interval.end == grace.start
    {
      unlock(span(of: grace, upTo: instant, in: sorted), .releasedInGracePeriod(grace))
    }
    return reasons.indices.compactMap { index in
      reasons[index].map { ReadableRelease(release: sorted[index], reason: $0) }
    }
  }

  /// The indices of releases dated in `[interval.start, interval.end)` and at or before
  /// `instant`.
  private static func span(of interval: Interval, upTo instant: Instant, in sorted: [Release])
    -> Range<Int>
  {
    let lower = sorted.partitionPoint { $0.date >= interval.start }
    let upper = sorted.partitionPoint { $0.date >= interval.end || $0.date > instant }
    return lower..<max(lower, upper)
  }
}
