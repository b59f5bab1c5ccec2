/// Apple's `recentSubscriptionStartDate` (SPEC §5): the start of the latest run of periods in
/// which every lapse is shorter than 60 days (10 minutes in the sandbox).
///
/// For tenure and loyalty offers; it never changes periods or status.
enum ContinuousSubscription {
  static func start(of periods: [ActivePeriod], environment: StoreEnvironment) -> Instant? {
    // Intervals are read in place: `periods.last` would copy the period out.
    guard !periods.isEmpty else { return nil }
    var start = periods[periods.count - 1].interval.start
    let limit: FixedDuration = environment.acceleratesTime ? .minutes(10) : .days(60)
    // From the last period back, while the gap before it is under the limit.
    var index = periods.count - 1
    while index > 0, periods[index].interval.start - periods[index - 1].interval.end < limit {
      index -= 1
      start = periods[index].interval.start
    }
    return start
  }
}
