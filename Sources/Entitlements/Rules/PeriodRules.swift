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
  /// coverage that ends period k.
  struct Layout: Hashable, Sendable {
    /// The coverage ending a period: its index and its product type, kept here so that the
    /// rules after the merge read no record per period (at 10⁶ entries each such read was a
    /// cache miss). Eight bytes.
    struct Ending: Hashable, Sendable {
      private let storedIndex: UInt32
      /// The product type of the coverage ending the period.
      let productType: ProductType

      init(_ coverageIndex: Int, _ productType: ProductType) {
        precondition(
          coverageIndex >= 0 && coverageIndex < Int(UInt32.max),
          "more entries than a history may hold")
        storedIndex = UInt32(coverageIndex)
        self.productType = productType
      }

      /// The index of the coverage ending the period.
      var coverageIndex: Int { Int(storedIndex) }
    }

    /// Coverage indices with an interval, by start; `nil` when the coverage is in that order.
    var order: [Int]? = nil
    var ranges: [Range<Int>] = []
    var last: [Ending] = []

    /// The coverage index at `position` of the order of start.
    @inline(__always)
    func coverageIndex(at position: Int) -> Int { order?[position] ?? position }
  }

  /// The periods of an entitlement's coverage, read from its records alone: `entries` is only
  /// kept for the periods to read their ids from when asked.
  static func periods(
    of coverage: [CoverageRecord], in entries: [ReceiptEntry], minimumLapse: FixedDuration
  ) -> (periods: [ActivePeriod], layout: Layout) {
    // One pass over the records when they are in order of start, the usual case; else the
    // pass stops where they are not, and the coverage is merged again in sorted order.
    var layout = Layout()
    var spans: [Span] = []
    if !merge(coverage, minimumLapse: minimumLapse, into: &layout, &spans) {
      // Ties on start keep the canonical order (the index order).
      var order = coverage.indices.filter { coverage[$0].interval != nil }
      order.sort { a, b in
        let left = coverage[a].interval?.start ?? .distantPast
        let right = coverage[b].interval?.start ?? .distantPast
        return left != right ? left < right : a < b
      }
      layout = Layout(order: order)
      spans = []
      let merged = merge(coverage, minimumLapse: minimumLapse, into: &layout, &spans)
      precondition(merged, "coverage in sorted order is in order")
    }
    // The periods, once their number is known: no regrowth of the largest list.
    var periods: [ActivePeriod] = []
    periods.reserveCapacity(spans.count)
    // One object for every period's members: the entries, records and order they read.
    let shared = PeriodMembers.Source(entries: entries, records: coverage, order: layout.order)
    for period in spans.indices {
      // Members and the last id are read from the shared layout when asked for.
      periods.append(
        ActivePeriod(
          interval: spans[period].interval,
          start: period == 0 ? .firstPurchase : .restart,
          members: PeriodMembers(
            shared, layout.ranges[period], last: layout.last[period].coverageIndex),
          beganWithTrial: spans[period].trial, beganWithIntroOffer: spans[period].intro))
    }
    return (periods, layout)
  }

  /// What the merge learns of a period besides its layout.
  private struct Span {
    var interval: Interval
    /// Whether an entry starting the period is in a free trial or an introductory offer.
    var trial = false
    var intro = false
  }

  /// Merges the coverage in `layout`'s order into periods, appending to `layout` and `spans`.
  /// Without an order list, returns `false` as soon as a start comes before the previous one.
  private static func merge(
    _ coverage: [CoverageRecord], minimumLapse: FixedDuration, into layout: inout Layout,
    _ spans: inout [Span]
  ) -> Bool {
    let end = layout.order?.count ?? coverage.count
    let checksOrder = layout.order == nil
    // The first position at or after `position` whose coverage has an interval.
    func covering(from position: Int) -> Int {
      var position = position
      while position < end, !coverage[layout.coverageIndex(at: position)].hasInterval {
        position += 1
      }
      return position
    }
    // Few periods is the norm: one small allocation each instead of regrowth from empty.
    layout.ranges.reserveCapacity(8)
    layout.last.reserveCapacity(8)
    spans.reserveCapacity(8)
    var previousStart = Instant.distantPast
    var position = covering(from: 0)
    while position < end {
      let firstIndex = layout.coverageIndex(at: position)
      guard let first = coverage[firstIndex].interval else { break }
      var span = Span(interval: first)
      let rangeStart = position
      var lastIndex = firstIndex
      var lastType = coverage[firstIndex].productType
      while position < end {
        let index = layout.coverageIndex(at: position)
        guard let interval = coverage[index].interval else { break }
        if checksOrder {
          guard interval.start >= previousStart else { return false }
          previousStart = interval.start
        }
        let gapAllowed =
          span.interval.end < .distantFuture && interval.start - span.interval.end < minimumLapse
        guard interval.start <= span.interval.end || gapAllowed else { break }
        if interval.start == first.start {
          span.trial = span.trial || coverage[index].isTrialPeriod
          span.intro = span.intro || coverage[index].isInIntroOfferPeriod
        }
        if interval.end >= span.interval.end {
          span.interval = Interval(start: first.start, end: interval.end)
          lastIndex = index
          lastType = coverage[index].productType
        }
        position = covering(from: position + 1)
      }
      layout.ranges.append(rangeStart..<position)
      layout.last.append(Layout.Ending(lastIndex, lastType))
      spans.append(span)
    }
    return true
  }
}
