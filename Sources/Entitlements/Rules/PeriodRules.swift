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
    func coverageIndex(at position: Int) -> Int { Self.coverageIndex(at: position, in: order) }

    /// The coverage index at `position` of `order`, the coverage's own order when `nil`.
    @inline(__always)
    static func coverageIndex(at position: Int, in order: [Int]?) -> Int {
      order?[position] ?? position
    }
  }

  /// The periods of an entitlement's coverage, read from its records alone: `entries` is only
  /// kept for the periods to read their ids from when asked. `merged` is what a
  /// ``PeriodMerger`` made of the same records in their order, when the caller merged them as
  /// they were made; it is used as it is.
  static func periods(
    of coverage: [CoverageRecord], in entries: [ReceiptEntry], minimumLapse: FixedDuration,
    merged: [Layout.Span]? = nil
  ) -> (periods: [ActivePeriod], layout: Layout) {
    // One pass over the records when they are in order of start, the usual case; else the
    // pass stops where they are not, and the coverage is merged again in sorted order.
    var layout = Layout()
    if let merged {
      layout.spans = merged
    } else if let spans = merge(coverage, order: nil, minimumLapse: minimumLapse) {
      layout.spans = spans
    } else {
      // Ties on start keep the canonical order (the index order).
      var order = coverage.indices.filter { coverage[$0].interval != nil }
      order.sort { a, b in
        let left = coverage[a].interval?.start ?? .distantPast
        let right = coverage[b].interval?.start ?? .distantPast
        return left != right ? left < right : a < b
      }
      guard let spans = merge(coverage, order: order, minimumLapse: minimumLapse) else {
        preconditionFailure("coverage in sorted order is in order")
      }
      layout = Layout(order: order, spans: spans)
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

  /// Merges the coverage in `order` (the coverage's own order when `nil`) into periods;
  /// without an order list, `nil` as soon as a start comes before the previous one.
  private static func merge(
    _ coverage: [CoverageRecord], order: [Int]?, minimumLapse: FixedDuration
  ) -> [Layout.Span]? {
    var merger = PeriodMerger(minimumLapse: minimumLapse, checksOrder: order == nil)
    // Records read through a buffer: no bounds check or uniqueness test per step.
    coverage.withUnsafeBufferPointer { coverage in
      for position in 0..<(order?.count ?? coverage.count) {
        guard merger.isMerging else { break }
        let index = Layout.coverageIndex(at: position, in: order)
        merger.add(coverage[index], at: position, coverageIndex: index)
      }
    }
    return merger.finish(end: order?.count ?? coverage.count)
  }
}
