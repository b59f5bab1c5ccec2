/// Merges entry coverage into active periods (SPEC §5).
///
/// Intervals that overlap or touch merge (a renewal starting exactly at the previous expiry
/// leaves no lapse; a 1 ms gap does). Gaps shorter than policy `minimumLapse` are merged away.
///
/// - Complexity: O(n) for coverage already in order of start (the usual case), else
///   O(n log n).
enum PeriodRules {
  /// Where each period's coverage sits. `ranges[k]` is period k's slice of the coverage in
  /// order of start: of `order` when there is one, else of the coverage indices themselves
  /// (coverage already in order of start, the usual case, needs no list; such a slice may hold
  /// coverage with no interval, which belongs to no period and is skipped). `last[k]` is the
  /// coverage index that ends period k.
  struct Layout: Hashable, Sendable {
    /// Coverage indices with an interval, by start; `nil` when the coverage is in that order.
    var order: [Int]?
    var ranges: [Range<Int>] = []
    var last: [Int] = []

    /// The coverage index at `position` of the order of start.
    @inline(__always)
    func coverageIndex(at position: Int) -> Int { order?[position] ?? position }
  }

  /// The periods of an entitlement's coverage, read from its records alone: `entries` is only
  /// kept for the periods to read their ids from when asked.
  static func periods(
    of coverage: [CoverageRecord], in entries: [ReceiptEntry], minimumLapse: FixedDuration
  ) -> (periods: [ActivePeriod], layout: Layout) {
    var layout = Layout()
    var previousStart = Instant.distantPast
    for index in coverage.indices {
      guard let interval = coverage[index].interval else { continue }
      if interval.start < previousStart {
        // Ties on start keep the canonical order (the index order).
        var order = coverage.indices.filter { coverage[$0].interval != nil }
        order.sort { a, b in
          let left = coverage[a].interval?.start ?? .distantPast
          let right = coverage[b].interval?.start ?? .distantPast
          return left != right ? left < right : a < b
        }
        layout.order = order
        break
      }
      previousStart = interval.start
    }
    let end = layout.order?.count ?? coverage.count
    // The first position at or after `position` whose coverage has an interval.
    func covering(from position: Int) -> Int {
      var position = position
      while position < end, coverage[layout.coverageIndex(at: position)].interval == nil {
        position += 1
      }
      return position
    }
    // Few periods is the norm: one small allocation each instead of regrowth from empty.
    layout.ranges.reserveCapacity(8)
    layout.last.reserveCapacity(8)
    var position = covering(from: 0)
    while position < end {
      let firstIndex = layout.coverageIndex(at: position)
      guard var periodEnd = coverage[firstIndex].interval?.end else { break }
      let rangeStart = position
      var lastIndex = firstIndex
      while position < end {
        let index = layout.coverageIndex(at: position)
        guard let interval = coverage[index].interval else { break }
        let gapAllowed = periodEnd < .distantFuture && interval.start - periodEnd < minimumLapse
        guard interval.start <= periodEnd || gapAllowed else { break }
        if interval.end >= periodEnd {
          periodEnd = interval.end
          lastIndex = index
        }
        position = covering(from: position + 1)
      }
      layout.ranges.append(rangeStart..<position)
      layout.last.append(lastIndex)
    }
    // The periods, once their number is known: no regrowth of the largest list.
    var periods: [ActivePeriod] = []
    periods.reserveCapacity(layout.ranges.count)
    // One object for every period's members: the entries, records and order they read.
    let shared = PeriodMembers.Source(entries: entries, records: coverage, order: layout.order)
    for period in layout.ranges.indices {
      let range = layout.ranges[period]
      let lastIndex = layout.last[period]
      let firstIndex = layout.coverageIndex(at: range.lowerBound)
      guard let start = coverage[firstIndex].interval?.start,
        let end = coverage[lastIndex].interval?.end
      else { preconditionFailure("a period begins and ends with coverage") }
      // The offer flags come from the entries starting the period, through their records:
      // no entry is read here.
      var trial = false
      var intro = false
      for position in range {
        let index = layout.coverageIndex(at: position)
        guard let interval = coverage[index].interval else { continue }
        guard interval.start == start else { break }
        trial = trial || coverage[index].isTrialPeriod
        intro = intro || coverage[index].isInIntroOfferPeriod
      }
      // Members and the last id are read from the shared layout when asked for.
      periods.append(
        ActivePeriod(
          interval: Interval(start: start, end: end),
          start: periods.isEmpty ? .firstPurchase : .restart,
          members: PeriodMembers(shared, range, last: lastIndex),
          beganWithTrial: trial, beganWithIntroOffer: intro))
    }
    return (periods, layout)
  }
}
