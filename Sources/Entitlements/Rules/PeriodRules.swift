/// Merges entry coverage into active periods (SPEC §5).
///
/// Intervals that overlap or touch merge (a renewal starting exactly at the previous expiry
/// leaves no lapse; a 1 ms gap does). Gaps shorter than policy `minimumLapse` are merged away.
///
/// - Complexity: O(n) for coverage already in order of start (the usual case), else
///   O(n log n).
enum PeriodRules {
  /// Where each period's coverage sits: `order` lists coverage indices by start, `ranges[k]`
  /// is period k's slice of it, `last[k]` the coverage index that ends it.
  struct Layout: Hashable, Sendable {
    var order: [Int] = []
    var ranges: [Range<Int>] = []
    var last: [Int] = []
  }

  static func periods(
    of coverage: [CoverageRecord], in source: [ReceiptEntry], minimumLapse: FixedDuration
  ) -> (periods: [ActivePeriod], layout: Layout) {
    // Fields are read in place: reading through `[ReceiptEntry]` may copy a whole entry.
    source.withUnsafeBufferPointer { buffer in
      periods(of: coverage, in: buffer, entries: source, minimumLapse: minimumLapse)
    }
  }

  private static func periods(
    of coverage: [CoverageRecord], in source: UnsafeBufferPointer<ReceiptEntry>,
    entries: [ReceiptEntry], minimumLapse: FixedDuration
  ) -> (periods: [ActivePeriod], layout: Layout) {
    var order: [Int] = []
    order.reserveCapacity(coverage.count)
    var inOrder = true
    var previousStart = Instant.distantPast
    for index in coverage.indices {
      guard let interval = coverage[index].interval else { continue }
      if interval.start < previousStart { inOrder = false }
      previousStart = interval.start
      order.append(index)
    }
    // Coverage is in canonical order; ties on start keep it (the index order).
    if !inOrder {
      order.sort { a, b in
        let left = coverage[a].interval?.start ?? .distantPast
        let right = coverage[b].interval?.start ?? .distantPast
        return left != right ? left < right : a < b
      }
    }
    var periods: [ActivePeriod] = []
    var layout = Layout()
    layout.order = order
    // One object for every period's members: the entries, records and order they read.
    let shared = PeriodMembers.Source(entries: entries, records: coverage, order: order)
    // Few periods is the norm: one small allocation each instead of regrowth from empty.
    let expected = min(order.count, 8)
    periods.reserveCapacity(expected)
    layout.ranges.reserveCapacity(expected)
    layout.last.reserveCapacity(expected)
    var position = 0
    while position < order.count {
      let firstIndex = order[position]
      guard let first = coverage[firstIndex].interval else { break }
      let rangeStart = position
      var end = first.end
      var lastIndex = firstIndex
      var trial = false
      var intro = false
      while position < order.count {
        let index = order[position]
        guard let interval = coverage[index].interval else { break }
        let gapAllowed = end < .distantFuture && interval.start - end < minimumLapse
        guard interval.start <= end || gapAllowed else { break }
        if interval.start == first.start {
          let entryIndex = coverage[index].entryIndex
          trial = trial || source[entryIndex].isTrialPeriod
          intro = intro || source[entryIndex].isInIntroOfferPeriod
        }
        if interval.end >= end {
          end = interval.end
          lastIndex = index
        }
        position += 1
      }
      // Members are read from the shared layout when asked for: no id is copied here.
      periods.append(
        ActivePeriod(
          interval: Interval(start: first.start, end: end),
          start: periods.isEmpty ? .firstPurchase : .restart,
          members: PeriodMembers(shared, rangeStart..<position),
          lastTransactionID: source[coverage[lastIndex].entryIndex].transactionID,
          beganWithTrial: trial, beganWithIntroOffer: intro))
      layout.ranges.append(rangeStart..<position)
      layout.last.append(lastIndex)
    }
    return (periods, layout)
  }
}
