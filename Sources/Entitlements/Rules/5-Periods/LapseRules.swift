/// Finds the lapses between periods and their causes from evidence (SPEC §5, §6).
///
/// A lapse's cause, first match wins:
/// 1. ``LapseCause/familySharingRevoked``, then ``LapseCause/refund``: an entry revoked
///    from the family (`FAMILY_REVOKE`), else any refunded entry, would have covered part of
///    the gap;
/// 2. ``LapseCause/billingError``: a recovery (``BillingRecovery``) ends the gap, and the gap
///    is shorter than the billing-retry window (`billingRetryAfter(i)` after `periods[i]`,
///    scaled in the sandbox): a longer one cannot have been a recovery;
/// 3. what Apple stated about each subscription whose coverage ended where the gap begins
///    (``SubscriptionEvidence``): evidence signed from the start of its last coverage to the
///    end of the gap, and its undated renewal info when the subscription never covers again;
///    of several subscriptions, the cause in the order billing error, price increase, product
///    unavailable, voluntary;
/// 4. ``LapseCause/unknown``.
enum LapseRules {
  /// - Parameters:
  ///   - periods: The entitlement's periods, in order.
  ///   - layout: Where each period's coverage sits (``PeriodRules/Layout``).
  ///   - coverage: The entitlement's coverage.
  ///   - evidence: What Apple stated, by subscription.
  ///   - recoveries: Billing recoveries of the entitlement's subscriptions.
  ///   - billingRetryAfter: The billing-retry window after the period at an index.
  /// - Returns: One lapse per gap between two periods; and, by the index of the lapse, what
  ///   Apple said inside those it said were a billing retry
  ///   (``SubscriptionEvidence/retry(of:inLapse:gap:retryEnd:product:)``).
  /// - Complexity: O(p + r log r + c·s) for p periods, r refunds, c coverage and s
  ///   subscriptions ending at one instant or in the entitlement (each period's coverage is
  ///   read once, for the gap after it; whether a subscription covers again is read from the
  ///   last few positions, or from a table of every subscription's last end made once, hashed
  ///   past eight subscriptions), plus the evidence read for each gap. With nothing dated,
  ///   only the gaps after the last period of a subscription with renewal info are read.
  static func lapses(
    between periods: [ActivePeriod], layout: PeriodRules.Layout, coverage: CoverageList,
    evidence: SubscriptionEvidence, recoveries: [BillingRecovery],
    billingRetryAfter: (Int) -> FixedDuration
  ) -> (lapses: [Lapse], retries: [LapseRetry]) {
    assert(periods.count == layout.spans.count, "one span per period")
    guard periods.count > 1 else { return ([], []) }
    // What refunded entries would have covered, by start; and the latest end of those
    // starting before a gap's end: "does any refunded span meet this gap" is then one
    // comparison.
    var refunded: [(natural: Interval, family: Bool)] = []
    for record in coverage.records where record.isRefunded {
      guard let natural = record.naturalInterval else { continue }
      refunded.append(
        (natural, coverage.entries[record.entryIndex].revocationType == .familyRevoke))
    }
    if zip(refunded, refunded.dropFirst()).contains(where: {
      $0.natural.start > $1.natural.start
    }) {
      refunded.sort { $0.natural.start < $1.natural.start }
    }
    let recoveryInstants = recoveries.isEmpty ? [] : recoveries.map(\.renewedAt).sorted()
    // Whether a subscription covers again after a gap, and the coverage ending at a gap: kept
    // from gap to gap.
    var coversAgain = CoversAgain(layout: layout, coverage: coverage)
    var endings: [(entry: Int, start: Instant)] = []
    // With nothing dated (verifyReceipt's renewal info), evidence explains only the gap after
    // the last period of a subscription it names: the others are unknown without a look.
    let explainable =
      evidence.isEmpty || evidence.hasDatedEvidence
      ? nil : lastPeriods(of: evidence.namedSubscriptions, layout: layout, coverage: coverage)
    // Gaps come in order, so the refunds starting before a gap's end and the first recovery
    // after its start only move forward: cursors instead of a search per gap.
    var startingBefore = 0
    // The latest end of the refunded spans before `startingBefore`; none yet is the earliest
    // instant, which meets no gap.
    var furthestEnd = Instant.distantPast
    var furthestFamilyEnd = Instant.distantPast
    var firstRecovery = 0
    var lapses: [Lapse] = []
    lapses.reserveCapacity(periods.count - 1)
    var retries: [LapseRetry] = []
    for index in periods.indices.dropLast() {
      var endingsRead = false
      let gap = Interval(start: periods[index].interval.end, end: periods[index + 1].interval.start)
      let couldBeRecovery = gap.length < billingRetryAfter(index)
      while startingBefore < refunded.count, refunded[startingBefore].natural.start < gap.end {
        let (natural, family) = refunded[startingBefore]
        furthestEnd = max(furthestEnd, natural.end)
        if family { furthestFamilyEnd = max(furthestFamilyEnd, natural.end) }
        startingBefore += 1
      }
      while firstRecovery < recoveryInstants.count, recoveryInstants[firstRecovery] <= gap.start {
        firstRecovery += 1
      }
      if furthestFamilyEnd > gap.start {
        lapses.append(Lapse(interval: gap, cause: .familySharingRevoked))
      } else if furthestEnd > gap.start {
        lapses.append(Lapse(interval: gap, cause: .refund))
      } else if couldBeRecovery, firstRecovery < recoveryInstants.count,
        recoveryInstants[firstRecovery] <= gap.end
      {
        lapses.append(Lapse(interval: gap, cause: .billingError))
      } else if evidence.isEmpty || explainable.map({ !$0.contains(index) }) ?? false {
        lapses.append(Lapse(interval: gap, cause: .unknown))
      } else {
        collectEndings(at: gap.start, of: layout.spans[index], layout, coverage, into: &endings)
        endingsRead = true
        let causes = Causes(
          gap: gap, after: index, endingAt: endings, coversAgain: &coversAgain,
          coverage: coverage, evidence: evidence, couldBeRecovery: couldBeRecovery)
        lapses.append(causes.lapse)
      }
      // What Apple said inside the gap, as it said it (SPEC §5): only dated evidence speaks.
      guard evidence.hasDatedEvidence else { continue }
      if !endingsRead {
        collectEndings(at: gap.start, of: layout.spans[index], layout, coverage, into: &endings)
      }
      for ending in endings {
        let subscription = coverage.entries[ending.entry].originalTransactionID
        guard
          let retry = evidence.retry(
            of: subscription, inLapse: index, gap: gap,
            retryEnd: gap.start + billingRetryAfter(index),
            product: coverage.entries[ending.entry].productID)
        else { continue }
        retries.append(retry)
        break
      }
    }
    return (lapses, retries)
  }

  /// The index of the last period each of `subscriptions` covers in, when there are at most
  /// ``lastPeriodsLimit`` of them; `nil` for more. Each is found from the last position back:
  /// the subscription a renewal info names usually covers last.
  private static func lastPeriods(
    of subscriptions: some Sequence<OriginalTransactionID>, layout: PeriodRules.Layout,
    coverage: CoverageList
  ) -> [Int]? {
    var periods: [Int] = []
    var named = 0
    for subscription in subscriptions {
      named += 1
      guard named <= lastPeriodsLimit else { return nil }
      guard
        case .found(let position) = lastPosition(
          of: subscription, from: 0, reading: .max, layout, coverage)
      else { continue }
      periods.append(layout.spans.partitionPoint { $0.range.upperBound > position })
    }
    return periods
  }

  /// Where a scan from the last position back found a subscription's coverage.
  private enum Scan {
    /// At this position: the subscription's last coverage.
    case found(Int)
    /// Nowhere from the first position on.
    case absent
    /// Not in the positions read, and more remain.
    case undecided
  }

  /// The last position from `first` on holding coverage of `subscription` (with an
  /// interval), reading at most `limit` positions from the last back.
  private static func lastPosition(
    of subscription: OriginalTransactionID, from first: Int, reading limit: Int,
    _ layout: PeriodRules.Layout, _ coverage: CoverageList
  ) -> Scan {
    var position = layout.spans.last?.range.upperBound ?? 0
    var read = 0
    while position > first {
      guard read < limit else { return .undecided }
      position -= 1
      read += 1
      let record = coverage.records[layout.coverageIndex(at: position)]
      if record.hasInterval,
        coverage.entries[record.entryIndex].originalTransactionID == subscription
      {
        return .found(position)
      }
    }
    return .absent
  }

  /// How many subscriptions named by undated renewal info ``lastPeriods(of:layout:coverage:)``
  /// looks up: past them, each gap is read in full.
  private static let lastPeriodsLimit = 4

  /// The coverage of a period that ends at `end` (the period's end), one per subscription:
  /// its entry's index and the latest start of that subscription's coverage ending there.
  /// Only the period's own coverage can end where it ends. `endings` is emptied first, and
  /// keeps its storage.
  private static func collectEndings(
    at end: Instant, of span: PeriodRules.Layout.Span, _ layout: PeriodRules.Layout,
    _ coverage: CoverageList, into endings: inout [(entry: Int, start: Instant)]
  ) {
    endings.removeAll(keepingCapacity: true)
    for position in span.range {
      let record = coverage.records[layout.coverageIndex(at: position)]
      guard let interval = record.interval, interval.end == end else { continue }
      let subscription = coverage.entries[record.entryIndex].originalTransactionID
      if let known = endings.firstIndex(where: {
        coverage.entries[$0.entry].originalTransactionID == subscription
      }) {
        endings[known].start = max(endings[known].start, interval.start)
      } else {
        endings.append((record.entryIndex, interval.start))
      }
    }
  }

  /// Whether a subscription whose coverage ends at a gap covers again after it. Its coverage
  /// after the gap is in the later periods, at the positions past the period's
  /// (``PeriodRules/Layout``): the last positions are read first, as the subscription that
  /// lapsed usually renews and covers last; past ``scanLimit`` of them without an answer,
  /// every subscription's last end is tabled once and read from then on.
  private struct CoversAgain {
    /// How many positions, from the last, are read before the table is made.
    static let scanLimit = 16
    let layout: PeriodRules.Layout
    let coverage: CoverageList
    /// Every subscription's last end, once a scan has not been enough.
    private var lastEnds: SubscriptionEnds?

    init(layout: PeriodRules.Layout, coverage: CoverageList) {
      (self.layout, self.coverage) = (layout, coverage)
    }

    /// Whether `subscription`, whose coverage ends where the gap after the period at
    /// `period` begins, has coverage in a later period.
    mutating func callAsFunction(
      _ subscription: OriginalTransactionID, after period: Int, gapStart: Instant
    ) -> Bool {
      if let lastEnds { return lastEnds.lastEnd(of: subscription) != gapStart }
      switch LapseRules.lastPosition(
        of: subscription, from: layout.spans[period].range.upperBound,
        reading: Self.scanLimit, layout, coverage)
      {
      case .found: return true
      case .absent: return false
      case .undecided: break
      }
      let ends = SubscriptionEnds(coverage)
      lastEnds = ends
      return ends.lastEnd(of: subscription) != gapStart
    }
  }

  /// The latest end of each subscription's coverage.
  private struct SubscriptionEnds {
    /// By subscription: a history has few, so they are compared in a short list, and hashed
    /// only past eight.
    private var list: [(subscription: OriginalTransactionID, end: Instant)] = []
    private var table: [OriginalTransactionID: Instant]?

    init(_ coverage: CoverageList) {
      // Coverage comes in runs of one subscription, whose entries read from one document
      // share one string: the previous subscription is tried first, and compared by
      // identity before text.
      var previous = -1
      for record in coverage.records {
        guard let end = record.interval?.end else { continue }
        let subscription = coverage.entries[record.entryIndex].originalTransactionID
        if previous >= 0, list[previous].subscription == subscription {
          if end > list[previous].end { list[previous].end = end }
          continue
        }
        if var known = table {
          table = nil  // uniquely referenced while it changes
          known[subscription] = max(known[subscription] ?? end, end)
          table = known
        } else if let known = list.firstIndex(where: { $0.subscription == subscription }) {
          list[known].end = max(list[known].end, end)
          previous = known
        } else {
          list.append((subscription, end))
          previous = list.count - 1
          if list.count > 8 {
            table = Dictionary(list.map { ($0.subscription, $0.end) }) { max($0, $1) }
            previous = -1
          }
        }
      }
    }

    /// The latest end of `subscription`'s coverage.
    func lastEnd(of subscription: OriginalTransactionID) -> Instant? {
      if let table { return table[subscription] }
      return list.first { $0.subscription == subscription }?.end
    }
  }

  /// A lapse's cause and reason from what Apple stated about each subscription whose
  /// coverage ended where it begins: evidence signed from the start of that coverage to the
  /// end of the gap, and undated renewal info when the subscription never covers again.
  private struct Causes {
    let lapse: Lapse

    init(
      gap: Interval, after period: Int, endingAt endings: [(entry: Int, start: Instant)],
      coversAgain: inout CoversAgain, coverage: CoverageList, evidence: SubscriptionEvidence,
      couldBeRecovery: Bool
    ) {
      // The best cause so far in the order billing error, price increase, product
      // unavailable, voluntary; and whether a billing failure's retry ran out.
      var best: LapseCause?
      var exhausted = false
      for ending in endings {
        let entry = coverage.entries[ending.entry]
        let subscription = entry.originalTransactionID
        let statement = evidence.statement(
          after: entry, in: coverage.entries, from: ending.start, before: gap.end,
          includingUndated: !coversAgain(subscription, after: period, gapStart: gap.start))
        let cause = statement.cause(couldBeRecovery: couldBeRecovery)
        guard let rank = Self.rank(cause) else { continue }
        if cause == .billingError, statement.reason == .billingRetryExhausted { exhausted = true }
        if best.flatMap(Self.rank).map({ rank < $0 }) ?? true { best = cause }
      }
      guard let best else {
        lapse = Lapse(interval: gap, cause: .unknown)
        return
      }
      // A billing failure whose retry ran out says so; any other keeps the cause's reason.
      let reason: ExpiryReason =
        best == .billingError && exhausted ? .billingRetryExhausted : best.reason
      lapse = Lapse(interval: gap, cause: best, reason: reason)
    }

    /// The place of a cause in the order of precedence; `nil` for one that explains nothing.
    private static func rank(_ cause: LapseCause) -> Int? {
      switch cause {
      case .billingError: 0
      case .priceIncrease: 1
      case .productUnavailable: 2
      case .voluntary: 3
      default: nil
      }
    }
  }
}
