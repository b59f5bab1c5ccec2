/// Merges coverage into periods one record at a time, in order of start (SPEC §5): what
/// ``PeriodRules`` does, made step by step so that the evaluator can merge each record as the
/// coverage rules make it, while it is still in cache (at 10⁶ entries a second pass over the
/// records came from memory).
///
/// Records are given in order of start with their position in that order; records without an
/// interval are skipped (they belong to no period, and a period's range may span them). When
/// `checksOrder`, a start before the previous one stops the merge; so does a period past
/// `spanLimit`. Then ``isMerging`` turns `false` and the caller merges again, in sorted order.
///
/// ```swift
/// var merger = PeriodMerger(minimumLapse: .zero, checksOrder: true)
/// merger.add(records[0], at: 0, coverageIndex: 0)
/// merger.add(records[1], at: 1, coverageIndex: 1)
/// let spans = merger.finish(end: records.count)  // one span per period
/// ```
struct PeriodMerger {
  /// Gaps shorter than this are merged away (policy `minimumLapse`).
  let minimumLapse: FixedDuration
  /// Whether starts are checked to never decrease.
  let checksOrder: Bool
  /// At most this many periods are kept, in a list made at once (none when `nil`).
  let spanLimit: Int?
  /// `false` once a start came before the previous one (with ``checksOrder``), or a period
  /// came past ``spanLimit``.
  private(set) var isMerging = true
  /// The periods closed so far.
  private var spans: [PeriodRules.Layout.Span] = []
  /// The period being merged, when ``isOpen``: kept out of an optional, so that each record
  /// updates it in place instead of copying it out and back.
  private var open = PeriodRules.Layout.Span(
    range: 0..<0, ending: PeriodRules.Layout.Ending(0, .autoRenewable),
    interval: Interval(start: .distantPast, end: .distantPast), beganWithTrial: false,
    beganWithIntroOffer: false)
  private var isOpen = false
  /// Where the open period began.
  private var firstStart = Instant.distantPast
  private var previousStart = Instant.distantPast

  /// A merger of records with gaps shorter than `minimumLapse` merged away; see the type's
  /// documentation for `checksOrder` and `spanLimit`.
  init(minimumLapse: FixedDuration, checksOrder: Bool, spanLimit: Int? = nil) {
    self.minimumLapse = minimumLapse
    self.checksOrder = checksOrder
    self.spanLimit = spanLimit
    if let spanLimit { spans.reserveCapacity(spanLimit) }
  }

  /// Merges `record`, which comes at `position` of the order of start; `coverageIndex` is its
  /// index in the coverage. A record without an interval is skipped.
  @inline(__always)
  mutating func add(_ record: CoverageRecord, at position: Int, coverageIndex: Int) {
    guard isMerging, let next = record.interval else { return }
    if checksOrder {
      guard next.start >= previousStart else {
        isMerging = false
        return
      }
      previousStart = next.start
    }
    if isOpen {
      let end = open.interval.end
      if next.start <= end || (end < .distantFuture && next.start - end < minimumLapse) {
        if next.start == firstStart {
          open.beganWithTrial = open.beganWithTrial || record.isTrialPeriod
          open.beganWithIntroOffer = open.beganWithIntroOffer || record.isInIntroOfferPeriod
        }
        if next.end >= end {
          open.interval = Interval(start: firstStart, end: next.end)
          open.ending = PeriodRules.Layout.Ending(coverageIndex, record.productType)
        }
        return
      }
      close(before: position)
    }
    firstStart = next.start
    isOpen = true
    open = PeriodRules.Layout.Span(
      range: position..<position,
      ending: PeriodRules.Layout.Ending(coverageIndex, record.productType),
      interval: next, beganWithTrial: record.isTrialPeriod,
      beganWithIntroOffer: record.isInIntroOfferPeriod)
  }

  /// The periods, the last one closed at `end` (the number of positions); `nil` when a start
  /// came out of order or a period came past ``spanLimit``.
  mutating func finish(end: Int) -> [PeriodRules.Layout.Span]? {
    guard isMerging else { return nil }
    if isOpen { close(before: end) }
    isOpen = false
    return isMerging ? spans : nil  // the last period may be past the limit
  }

  /// Closes the open period at `end`.
  private mutating func close(before end: Int) {
    open.range = open.range.lowerBound..<end
    if let spanLimit {
      guard spans.count < spanLimit else {
        isMerging = false
        return
      }
    } else if spans.isEmpty {
      spans.reserveCapacity(8)  // few periods is the norm: one small allocation, no regrowth
    }
    spans.append(open)
  }
}
