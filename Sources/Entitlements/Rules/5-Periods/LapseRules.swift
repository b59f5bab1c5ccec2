/// Finds the lapses between periods and their causes from evidence (SPEC §5, §6).
///
/// A lapse's cause, first match wins:
/// 1. ``LapseCause/refund``: a refunded entry would have covered part of the gap;
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
  ///   - coverage: The entitlement's coverage.
  ///   - evidence: What Apple stated, by subscription.
  ///   - recoveries: Billing recoveries of the entitlement's subscriptions.
  ///   - billingRetryAfter: The billing-retry window after the period at an index.
  /// - Returns: One lapse per gap between two periods.
  /// - Complexity: O(p + r log r + c log c) for p periods, r refunds and c coverage, plus
  ///   the evidence read for each gap.
  static func lapses(
    between periods: [ActivePeriod], coverage: CoverageList, evidence: SubscriptionEvidence,
    recoveries: [BillingRecovery], billingRetryAfter: (Int) -> FixedDuration
  ) -> [Lapse] {
    guard periods.count > 1 else { return [] }
    // What refunded entries would have covered, by start; and the latest end of those
    // starting before a gap's end: "does any refunded span meet this gap" is then one
    // comparison.
    var refunded: [Interval] = []
    for record in coverage.records where record.isRefunded {
      if let natural = record.naturalInterval { refunded.append(natural) }
    }
    if zip(refunded, refunded.dropFirst()).contains(where: { $0.start > $1.start }) {
      refunded.sort { $0.start < $1.start }
    }
    // Without evidence (the usual case) the coverage is not read again.
    let endings = evidence.isEmpty ? [] : Self.endings(of: coverage)
    var nextEnding = 0
    let recoveryInstants = recoveries.map(\.renewedAt).sorted()
    // Gaps come in order, so the refunds starting before a gap's end, the first recovery
    // after its start and the coverage ending at it only move forward: cursors instead of a
    // search per gap.
    var startingBefore = 0
    // The latest end of the refunded spans before `startingBefore`; none yet is the earliest
    // instant, which meets no gap.
    var furthestEnd = Instant.distantPast
    var firstRecovery = 0
    var lapses: [Lapse] = []
    lapses.reserveCapacity(periods.count - 1)
    for index in periods.indices.dropLast() {
      let gap = Interval(start: periods[index].interval.end, end: periods[index + 1].interval.start)
      let couldBeRecovery = gap.length < billingRetryAfter(index)
      while startingBefore < refunded.count, refunded[startingBefore].start < gap.end {
        furthestEnd = max(furthestEnd, refunded[startingBefore].end)
        startingBefore += 1
      }
      while firstRecovery < recoveryInstants.count, recoveryInstants[firstRecovery] <= gap.start {
        firstRecovery += 1
      }
      let firstEnding = nextEnding
      while nextEnding < endings.count, endings[nextEnding].end <= gap.start { nextEnding += 1 }
      /// What Apple stated about the subscriptions whose coverage ended at the gap: read only
      /// when neither a refund nor a recovery explains it.
      func statements() -> [Statement] {
        endings[firstEnding..<nextEnding].filter { $0.end == gap.start }.map { ending in
          evidence.statement(
            about: coverage.entries[ending.entry].originalTransactionID, from: ending.start,
            before: gap.end, includingUndated: ending.isFinal)
        }
      }
      if furthestEnd > gap.start {
        lapses.append(Lapse(interval: gap, cause: .refund))
      } else if couldBeRecovery, firstRecovery < recoveryInstants.count,
        recoveryInstants[firstRecovery] <= gap.end
      {
        lapses.append(Lapse(interval: gap, cause: .billingError))
      } else {
        lapses.append(cause(of: gap, statements(), couldBeRecovery: couldBeRecovery))
      }
    }
    return lapses
  }

  /// A lapse's cause and reason from what Apple stated about the subscriptions that ended
  /// where it begins.
  private static func cause(of gap: Interval, _ statements: [Statement], couldBeRecovery: Bool)
    -> Lapse
  {
    let causes = statements.map { $0.cause(couldBeRecovery: couldBeRecovery) }
    for candidate in [LapseCause.billingError, .priceIncrease, .productUnavailable, .voluntary]
    where causes.contains(candidate) {
      let reasons = zip(statements, causes).filter { $0.1 == candidate }.map(\.0.reason)
      // A billing failure whose retry ran out says so; any other keeps the cause's reason.
      let reason: ExpiryReason =
        candidate == .billingError && reasons.contains(.billingRetryExhausted)
        ? .billingRetryExhausted : candidate.reason
      return Lapse(interval: gap, cause: candidate, reason: reason)
    }
    return Lapse(interval: gap, cause: .unknown)
  }

  /// Where each subscription's coverage ends: for each end, the subscription (by the index
  /// of an entry of it), the latest start of its coverage ending there, and whether it is the
  /// subscription's last end; by end. Entries are named by index, so that sorting and keeping
  /// endings copies no string.
  static func endings(of coverage: CoverageList)
    -> [(end: Instant, entry: Int, start: Instant, isFinal: Bool)]
  {
    let entries = coverage.entries
    var endings: [(end: Instant, entry: Int, start: Instant, isFinal: Bool)] = []
    endings.reserveCapacity(coverage.records.count)
    for record in coverage.records {
      guard let interval = record.interval else { continue }
      endings.append((interval.end, record.entryIndex, interval.start, false))
    }
    // Coverage in canonical order usually ends in order too (renewals follow each other):
    // then it needs no sort.
    let inOrder = zip(endings, endings.dropFirst()).allSatisfy { $0.end < $1.end }
    if !inOrder {
      sortByEnd(&endings, entries)
    }
    return Self.uniqueAndFinal(endings, entries)
  }

  private static func sortByEnd(
    _ endings: inout [(end: Instant, entry: Int, start: Instant, isFinal: Bool)],
    _ entries: [ReceiptEntry]
  ) {
    endings.sort {
      if $0.end != $1.end { return $0.end < $1.end }
      let (first, second) = (
        entries[$0.entry].originalTransactionID, entries[$1.entry].originalTransactionID
      )
      return first != second ? first < second : $0.start < $1.start
    }
  }

  /// One ending per end and subscription, each marked when it is its subscription's last.
  private static func uniqueAndFinal(
    _ endings: [(end: Instant, entry: Int, start: Instant, isFinal: Bool)],
    _ entries: [ReceiptEntry]
  ) -> [(end: Instant, entry: Int, start: Instant, isFinal: Bool)] {
    // One per end and subscription (its latest start), the last of each subscription final.
    var unique: [(end: Instant, entry: Int, start: Instant, isFinal: Bool)] = []
    unique.reserveCapacity(endings.count)
    for ending in endings {
      if let previous = unique.last, previous.end == ending.end,
        entries[previous.entry].originalTransactionID
          == entries[ending.entry].originalTransactionID
      {
        unique[unique.count - 1].start = max(previous.start, ending.start)
        continue
      }
      unique.append(ending)
    }
    // The last ending of each subscription, found from the end: a history has few
    // subscriptions, so they are compared in a short list (a set past eight), never hashed
    // per ending.
    var seen: [OriginalTransactionID] = []
    var seenMany: Set<OriginalTransactionID>?
    for position in unique.indices.reversed() {
      let subscription = entries[unique[position].entry].originalTransactionID
      if seenMany != nil {
        guard seenMany?.insert(subscription).inserted == true else { continue }
      } else {
        guard !seen.contains(subscription) else { continue }
        seen.append(subscription)
        if seen.count > 8 { seenMany = Set(seen) }
      }
      unique[position].isFinal = true
    }
    return unique
  }
}
