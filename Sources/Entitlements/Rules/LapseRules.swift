/// Finds the lapses between periods and their causes from evidence (SPEC §5, §6).
///
/// `billingRetryAfter(i)` is the billing-retry window after `periods[i]` (scaled in the
/// sandbox): a lapse at least that long cannot have been a billing recovery.
///
/// Renewal info describes the time after its subscription's last entry, so it is evidence only
/// for a lapse that begins where that subscription's coverage ends for good; a subscription
/// that continues after the lapse has renewal info describing a later time, and says nothing
/// about the lapse.
enum LapseRules {
  /// - Parameters:
  ///   - periods: The entitlement's periods, in order.
  ///   - coverage: The entitlement's coverage.
  ///   - renewalInfo: Renewal info by subscription.
  ///   - recoveries: Billing recoveries of the entitlement's subscriptions.
  ///   - billingRetryAfter: The billing-retry window after the period at an index.
  /// - Returns: One lapse per gap between two periods.
  /// - Complexity: O(p + r log r + s log s) for p periods, r refunds and s subscriptions,
  ///   plus one pass over the coverage.
  static func lapses(
    between periods: [ActivePeriod], coverage: CoverageList, renewalInfo: RenewalInfoTable,
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
    // Renewal info applies to the gaps after a subscription's last coverage, in order of
    // those ends (then by subscription): gaps come in order, so the ends at a gap's start are
    // found by a cursor.
    var lastEndings: [(OriginalTransactionID, Instant)] = []
    if !renewalInfo.isEmpty {
      lastEndings = lastEndBySubscription(coverage).sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    }
    var nextEnding = 0
    let recoveryInstants = recoveries.map(\.renewedAt).sorted()
    // Gaps come in order, so the refunds starting before a gap's end and the first recovery
    // after its start only move forward: two cursors instead of a search per gap.
    var startingBefore = 0
    // The latest end of the refunded spans before `startingBefore`; none yet is the earliest
    // instant, which meets no gap.
    var furthestEnd = Instant.distantPast
    var firstRecovery = 0
    var lapses: [Lapse] = []
    lapses.reserveCapacity(periods.count - 1)
    for index in periods.indices.dropLast() {
      let gap = Interval(start: periods[index].interval.end, end: periods[index + 1].interval.start)
      // The renewal infos of the subscriptions whose coverage ends for good at the gap.
      var infos: [RenewalInfo] = []
      while nextEnding < lastEndings.count, lastEndings[nextEnding].1 <= gap.start {
        if lastEndings[nextEnding].1 == gap.start,
          let info = renewalInfo[lastEndings[nextEnding].0]
        {
          infos.append(info)
        }
        nextEnding += 1
      }
      while startingBefore < refunded.count, refunded[startingBefore].start < gap.end {
        furthestEnd = max(furthestEnd, refunded[startingBefore].end)
        startingBefore += 1
      }
      let refundMeetsGap = furthestEnd > gap.start
      while firstRecovery < recoveryInstants.count, recoveryInstants[firstRecovery] <= gap.start {
        firstRecovery += 1
      }
      let recoveryEndsGap =
        firstRecovery < recoveryInstants.count && recoveryInstants[firstRecovery] <= gap.end
      lapses.append(
        Lapse(
          interval: gap,
          cause: cause(
            of: gap, refundMeetsGap: refundMeetsGap, infos: infos,
            recoveryEndsGap: recoveryEndsGap, billingRetryLimit: billingRetryAfter(index))))
    }
    return lapses
  }

  /// The latest end of the coverage of each subscription that has any.
  static func lastEndBySubscription(_ coverage: CoverageList) -> [(OriginalTransactionID, Instant)]
  {
    // Entries of one subscription come in runs, and most histories name one subscription:
    // the previous entry's is tried first, and a table is made for a second subscription.
    var ends: [(OriginalTransactionID, Instant)] = []
    var positions: [OriginalTransactionID: Int] = [:]
    var previous: Int?
    for record in coverage.records {
      guard let interval = record.interval else { continue }
      let id = coverage.entries[record.entryIndex].originalTransactionID
      let position: Int
      if let previous, ends[previous].0 == id {
        position = previous
      } else if let found = positions[id] ?? (ends.count == 1 && ends[0].0 == id ? 0 : nil) {
        position = found
      } else {
        if ends.count == 1 { positions[ends[0].0] = 0 }
        position = ends.count
        ends.append((id, interval.end))
        if position > 0 { positions[id] = position }
      }
      ends[position].1 = max(ends[position].1, interval.end)
      previous = position
    }
    return ends
  }

  private static func cause(
    of gap: Interval, refundMeetsGap: Bool, infos: [RenewalInfo], recoveryEndsGap: Bool,
    billingRetryLimit: FixedDuration
  ) -> LapseCause {
    if refundMeetsGap { return .refund }
    let couldBeRecovery = gap.length < billingRetryLimit
    if couldBeRecovery, recoveryEndsGap { return .billingError }
    // Without renewal info (the usual case) nothing else can be said: no list is made.
    guard !infos.isEmpty else { return .unknown }
    let causes = infos.map(cause(from:))
    for candidate in [LapseCause.billingError, .priceIncrease, .voluntary]
    where causes.contains(candidate) {
      if candidate == .billingError && !couldBeRecovery { continue }
      return candidate
    }
    return .unknown
  }

  /// The cause renewal info gives for the time after its subscription's last entry.
  static func cause(from info: RenewalInfo) -> LapseCause {
    if info.isInBillingRetryPeriod == true { return .billingError }
    switch info.expirationIntent {
    case .billingError: return .billingError
    case .customerDidNotConsentToPriceIncrease: return .priceIncrease
    case .customerCancelled: return .voluntary
    case .productNotAvailable, .other: return .unknown
    case nil:
      if info.priceConsentStatus == false { return .priceIncrease }
      if info.autoRenewStatus == false { return .voluntary }
      return .unknown
    }
  }
}
