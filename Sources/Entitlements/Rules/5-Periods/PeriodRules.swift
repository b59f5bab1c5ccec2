/// Merges entry coverage into active periods (SPEC §5).
///
/// Intervals that overlap or touch merge (a renewal starting exactly at the previous expiry
/// leaves no lapse; a 1 ms gap does). Gaps shorter than policy `minimumLapse` are merged away.
///
/// - Complexity: O(n) for coverage already in order of start (the usual case), else
///   O(n log n).
enum PeriodRules {
  /// Where each period's coverage sits: one ``Span`` per period, each a slice of the coverage
  /// in order of start. That order is the coverage's own (`order` is `nil`, the usual case),
  /// or the coverage indices listed in `order`. A slice of the coverage's own order may hold
  /// coverage with no interval (a voided refund between two renewals): it belongs to no
  /// period and is skipped.
  struct Layout: Hashable, Sendable {
    /// What the merge learns of one period.
    struct Span: Hashable, Sendable {
      /// The period's positions in the order of start.
      var range: Range<Int>
      /// The index of the coverage ending the period (the last to end).
      var ending: Int
      /// The product type of that coverage.
      var endingType: ProductKind
      /// The period's instants.
      var interval: Interval
      /// Whether an entry starting the period is in a free trial.
      var beganWithTrial: Bool
      /// Whether an entry starting the period is in an introductory offer.
      var beganWithIntroOffer: Bool
    }

    /// Coverage indices with an interval, by start; `nil` when the coverage is in that order.
    var order: [Int]?
    /// One span per period, in order.
    var spans: [Span]

    /// The coverage index at `position` of the order of start.
    func coverageIndex(at position: Int) -> Int { order?[position] ?? position }
  }

  /// The periods of an entitlement's coverage; `entries` are kept for the periods to read
  /// their transaction ids from when asked (``PeriodMembers``).
  static func periods(
    of coverage: [CoverageRecord], in entries: [ReceiptEntry], minimumLapse: FixedDuration
  ) -> (periods: [ActivePeriod], layout: Layout) {
    let layout: Layout
    if isInOrderOfStart(coverage) {
      layout = Layout(order: nil, spans: merge(coverage, order: nil, minimumLapse: minimumLapse))
    } else {
      // Ties on start keep the canonical order (the index order).
      var order = coverage.indices.filter { coverage[$0].interval != nil }
      order.sort { a, b in
        let (left, right) = (coverage[a].start, coverage[b].start)
        return left != right ? left < right : a < b
      }
      layout = Layout(
        order: order, spans: merge(coverage, order: order, minimumLapse: minimumLapse))
    }
    // One object for every period's members: the entries, records and order they read.
    let shared = PeriodMembers.Source(entries: entries, records: coverage, order: layout.order)
    let periods = layout.spans.indices.map { period in
      let span = layout.spans[period]
      return ActivePeriod(
        interval: span.interval, start: period == 0 ? .firstPurchase : .restart,
        members: PeriodMembers(shared, span.range, last: span.ending),
        beganWithTrial: span.beganWithTrial, beganWithIntroOffer: span.beganWithIntroOffer)
    }
    return (periods, layout)
  }

  /// Whether the coverage with an interval is in order of start.
  private static func isInOrderOfStart(_ coverage: [CoverageRecord]) -> Bool {
    var previous = Instant.distantPast
    for record in coverage where record.hasInterval {
      guard record.start >= previous else { return false }
      previous = record.start
    }
    return true
  }

  /// Merges the coverage in `order` (the coverage's own order when `nil`) into periods.
  private static func merge(
    _ coverage: [CoverageRecord], order: [Int]?, minimumLapse: FixedDuration
  ) -> [Layout.Span] {
    var spans: [Layout.Span] = []
    spans.reserveCapacity(8)  // a few periods is the norm: one allocation, no regrowth
    var open: Layout.Span?
    for position in 0..<(order?.count ?? coverage.count) {
      let index = order?[position] ?? position
      let record = coverage[index]
      guard let next = record.interval else { continue }
      if var span = open {
        let end = span.interval.end
        let joins =
          next.start <= end || (!end.isDistantFuture && next.start - end < minimumLapse)
        if joins {
          if next.start == span.interval.start {
            span.beganWithTrial = span.beganWithTrial || record.isTrialPeriod
            span.beganWithIntroOffer = span.beganWithIntroOffer || record.isInIntroOfferPeriod
          }
          if next.end >= end {
            span.interval = Interval(start: span.interval.start, end: next.end)
            (span.ending, span.endingType) = (index, record.productType)
          }
          open = span
          continue
        }
        span.range = span.range.lowerBound..<position
        spans.append(span)
      }
      open = Layout.Span(
        range: position..<position, ending: index, endingType: record.productType,
        interval: next, beganWithTrial: record.isTrialPeriod,
        beganWithIntroOffer: record.isInIntroOfferPeriod)
    }
    if var span = open {
      span.range = span.range.lowerBound..<(order?.count ?? coverage.count)
      spans.append(span)
    }
    return spans
  }
}
