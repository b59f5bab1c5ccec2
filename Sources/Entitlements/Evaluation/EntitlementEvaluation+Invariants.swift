extension EntitlementEvaluation {
  /// The ways this evaluation breaks the engine's own invariants; empty when sound.
  ///
  /// Called by every property test and by the test helpers:
  /// - periods are non-empty, sorted, disjoint and non-touching;
  /// - `lapses[i]` spans exactly from `periods[i].end` to `periods[i + 1].start`;
  /// - every coverage interval lies inside one period;
  /// - the first period begins with ``ActivePeriod/Start/firstPurchase``, the others with
  ///   ``ActivePeriod/Start/restart``.
  ///
  /// ```swift
  /// #expect(evaluation._invariantViolations().isEmpty)
  /// ```
  ///
  /// - Returns: One sentence per violation.
  package func _invariantViolations() -> [String] {
    var violations: [String] = []
    for (index, period) in periods.enumerated() {
      if period.interval.isEmpty { violations.append("period \(index) is empty") }
      if period.start != (index == 0 ? .firstPurchase : .restart) {
        violations.append("period \(index) has start \(period.start)")
      }
    }
    for (previous, next) in zip(periods, periods.dropFirst())
    where previous.interval.end >= next.interval.start {
      violations.append("periods \(previous.interval) and \(next.interval) touch or overlap")
    }
    if lapses.count != max(0, periods.count - 1) {
      violations.append("\(lapses.count) lapses for \(periods.count) periods")
    }
    for (index, lapse) in lapses.enumerated() where index + 1 < periods.count {
      let expected = Interval(
        start: periods[index].interval.end, end: periods[index + 1].interval.start)
      if lapse.interval != expected {
        violations.append("lapse \(lapse.interval) is not the gap \(expected)")
      }
    }
    for item in coverage {
      guard let interval = item.interval else { continue }
      let candidate = StatusRules.lastIndex(in: periods, atOrBefore: interval.start) {
        $0.interval.start
      }
      let inside = candidate.map { interval.end <= periods[$0].interval.end } ?? false
      if !inside {
        violations.append("coverage \(interval) of \(item.entry.transactionID) is in no period")
      }
    }
    return violations
  }
}
