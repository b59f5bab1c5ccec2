/// Which releases a customer can read as of an instant (SPEC §8).
///
/// Readable: every release dated inside an active period (`start <= date < end`), or inside the
/// grace period after the last one, plus, for each period, the releases of the latest
/// `unlockAtStart` dates at or before its start (all releases sharing such a date). Voided
/// entries cover nothing, so they unlock nothing; billing-retry time is not active. As of t,
/// only periods that began at or before t count, and only releases dated at or before t.
///
/// - Complexity: O(R log R + P · u · log R) for R releases, P periods and `unlockAtStart` u:
///   one sort and binary searches per period, never a nested scan. Each release is marked once:
///   the releases unlocked at the starts of successive periods are successive windows of the
///   sorted calendar, and only the part of each window past the one before is new. (Marking
///   each period's whole window, and walking back over the releases of a date one by one,
///   made a calendar whose releases share a date before many periods quadratic: 20 000
///   releases at one date and 20 000 periods took 0.42 s.)
enum ReleaseRules {
  static func readable(
    _ releases: [Release], in timeline: EntitlementTimeline, asOf instant: Instant,
    unlockAtStart: Int
  ) -> [ReadableRelease] {
    func precedes(_ a: Release, _ b: Release) -> Bool { (a.date, a.id) < (b.date, b.id) }
    func applies(_ release: Release) -> Bool {
      release.entitlement == nil || release.entitlement == timeline.id
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
    // Where the releases unlocked at the previous period's start end: both ends of that window
    // only move forward with the periods, so what lies before it was marked already.
    var unlockedAtStartEnd = 0
    // Intervals are read in place: iterating the periods would copy each one out.
    for index in timeline.periods.indices {
      let interval = timeline.periods[index].interval
      guard interval.start <= instant else { continue }
      let start = interval.start
      // The latest `unlockAtStart` release dates at or before the start: a search per date.
      let high = sorted.partitionPoint { $0.date > start }
      var low = high
      var dates = 0
      while low > 0, dates < unlockAtStart {
        let date = sorted[low - 1].date
        low = sorted[..<low].partitionPoint { $0.date >= date }
        dates += 1
      }
      // A release dated exactly at the start was released while active: that reason first.
      unlock(
        span(of: interval, upTo: instant, in: sorted), .releasedWhileActive(period: interval))
      unlock(
        max(low, unlockedAtStartEnd)..<max(high, unlockedAtStartEnd),
        .unlockedAtStart(periodStart: start))
      unlockedAtStartEnd = max(unlockedAtStartEnd, high)
    }
    if let grace = timeline.gracePeriod,
      !timeline.periods.isEmpty,
      timeline.periods[timeline.periods.count - 1].interval.end == grace.start
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
