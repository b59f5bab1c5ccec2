/// Apple's `recentSubscriptionStartDate` (SPEC §5): the start of the latest run of periods in
/// which every lapse is shorter than 60 days (10 minutes in the sandbox).
///
/// For tenure and loyalty offers; it never changes periods or status.
enum ContinuousSubscription {
  static func start(of periods: [ActivePeriod], environment: Environment) -> Instant? {
    guard var start = periods.last?.interval.start else { return nil }
    let limit: FixedDuration = environment == .sandbox ? .minutes(10) : .days(60)
    for (previous, next) in zip(periods, periods.dropFirst()).reversed() {
      guard next.interval.start - previous.interval.end < limit else { break }
      start = previous.interval.start
    }
    return start
  }
}
