/// Merges entry coverage into active periods (SPEC §5).
///
/// Intervals that overlap or touch merge (a renewal starting exactly at the previous expiry
/// leaves no lapse; a 1 ms gap does). Gaps shorter than policy `minimumLapse` are merged away.
///
/// - Complexity: O(n) for coverage already in order of start (the usual case), else
///   O(n log n).
enum PeriodRules {
  /// Where each period's coverage sits, one ``Span`` per period. A span's `range` is its slice
  /// of the coverage in order of start: of `order` when there is one, else of the coverage
  /// indices themselves (coverage already in order of start, the usual case, needs no list;
  /// such a slice may hold coverage with no interval, which belongs to no period and is
  /// skipped).
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

    /// What the merge learns of one period: one list for all of it, so that an evaluation of
    /// a short history makes one allocation here, not one per field.
    struct Span: Hashable, Sendable {
      /// The period's positions in the order of start.
      var range: Range<Int>
      /// The coverage ending the period.
      var ending: Ending
      /// The period's instants.
      var interval: Interval
      /// Whether an entry starting the period is in a free trial.
      var beganWithTrial: Bool
      /// Whether an entry starting the period is in an introductory offer.
      var beganWithIntroOffer: Bool
    }

    /// Coverage indices with an interval, by start; `nil` when the coverage is in that order.
    var order: [Int]? = nil
    /// One span per period, in order.
    var spans: [Span] = []

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
    if !merge(coverage, minimumLapse: minimumLapse, into: &layout) {
      // Ties on start keep the canonical order (the index order).
      var order = coverage.indices.filter { coverage[$0].interval != nil }
      order.sort { a, b in
        let left = coverage[a].interval?.start ?? .distantPast
        let right = coverage[b].interval?.start ?? .distantPast
        return left != right ? left < right : a < b
      }
      layout = Layout(order: order)
      let merged = merge(coverage, minimumLapse: minimumLapse, into: &layout)
      precondition(merged, "coverage in sorted order is in order")
    }
    // The periods, once their number is known: no regrowth of the largest list.
    var periods: [ActivePeriod] = []
    periods.reserveCapacity(layout.spans.count)
    // One object for every period's members: the entries, records and order they read.
    let shared = PeriodMembers.Source(entries: entries, records: coverage, order: layout.order)
    for period in layout.spans.indices {
      // Members and the last id are read from the shared layout when asked for.
      let span = layout.spans[period]
      periods.append(
        ActivePeriod(
          interval: span.interval, start: period == 0 ? .firstPurchase : .restart,
          members: PeriodMembers(shared, span.range, last: span.ending.coverageIndex),
          beganWithTrial: span.beganWithTrial, beganWithIntroOffer: span.beganWithIntroOffer))
    }
    return (periods, layout)
  }

  /// Merges the coverage in `layout`'s order into periods, appending to `layout`'s spans.
  /// Without an order list, returns `false` as soon as a start comes before the previous one.
  private static func merge(
    _ coverage: [CoverageRecord], minimumLapse: FixedDuration, into layout: inout Layout
  ) -> Bool {
    // Few periods is the norm: one small allocation instead of regrowth from empty.
    layout.spans.reserveCapacity(8)
    // Records and order read through buffers: no bounds check or uniqueness test per step.
    let order = layout.order ?? []
    return coverage.withUnsafeBufferPointer { coverage in
      order.withUnsafeBufferPointer { order in
        merge(
          coverage, order: layout.order == nil ? nil : order, minimumLapse: minimumLapse,
          spans: &layout.spans)
      }
    }
  }

  private static func merge(
    _ coverage: UnsafeBufferPointer<CoverageRecord>, order: UnsafeBufferPointer<Int>?,
    minimumLapse: FixedDuration, spans: inout [Layout.Span]
  ) -> Bool {
    let end = order?.count ?? coverage.count
    let checksOrder = order == nil
    @inline(__always) func coverageIndex(at position: Int) -> Int {
      order?[position] ?? position
    }
    // The first position at or after `position` whose coverage has an interval.
    @inline(__always) func covering(from position: Int) -> Int {
      var position = position
      while position < end, !coverage[coverageIndex(at: position)].hasInterval {
        position += 1
      }
      return position
    }
    var previousStart = Instant.distantPast
    var position = covering(from: 0)
    while position < end {
      let firstIndex = coverageIndex(at: position)
      guard let first = coverage[firstIndex].interval else { break }
      var interval = first
      var trial = false
      var intro = false
      let rangeStart = position
      var lastIndex = firstIndex
      var lastType = coverage[firstIndex].productType
      while position < end {
        let index = coverageIndex(at: position)
        guard let next = coverage[index].interval else { break }
        if checksOrder {
          guard next.start >= previousStart else { return false }
          previousStart = next.start
        }
        let gapAllowed =
          interval.end < .distantFuture && next.start - interval.end < minimumLapse
        guard next.start <= interval.end || gapAllowed else { break }
        if next.start == first.start {
          trial = trial || coverage[index].isTrialPeriod
          intro = intro || coverage[index].isInIntroOfferPeriod
        }
        if next.end >= interval.end {
          interval = Interval(start: first.start, end: next.end)
          lastIndex = index
          lastType = coverage[index].productType
        }
        position = covering(from: position + 1)
      }
      spans.append(
        Layout.Span(
          range: rangeStart..<position, ending: Layout.Ending(lastIndex, lastType),
          interval: interval, beganWithTrial: trial, beganWithIntroOffer: intro))
    }
    return true
  }
}
