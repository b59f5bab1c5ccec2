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
  ///   - refunded: The natural intervals of the refunded coverage, in any order (the coverage
  ///     rules gather them: ``CoverageRules/Cursor/refunded``).
  ///   - renewalInfo: Renewal info by subscription.
  ///   - recoveries: Billing recoveries of the entitlement's subscriptions.
  ///   - billingRetryAfter: The billing-retry window after the period at an index.
  ///   - lastEnds: The latest end of the coverage of each subscription that has any, when the
  ///     caller noted them as it made the coverage (the evaluator's pass:
  ///     ``EntitlementGroup/subscriptionEnds``); when `nil`, found by a pass over the
  ///     coverage.
  /// - Returns: One lapse per gap between two periods.
  /// - Complexity: O(p + r log r + s log s) for p periods, r refunds and s subscriptions,
  ///   plus one pass over the coverage when there is renewal info and no `lastEnds`.
  static func lapses(
    between periods: [ActivePeriod], coverage: CoverageList, refunded: [Interval],
    renewalInfo: RenewalInfoTable, recoveries: [BillingRecovery],
    billingRetryAfter: (Int) -> FixedDuration,
    lastEnds: [(OriginalTransactionID, Instant)]?
  ) -> [Lapse] {
    guard periods.count > 1 else { return [] }
    // Refunded spans sorted by start, and the latest end of those starting before a gap's
    // end: "does any refunded span meet this gap" is then one comparison.
    var refunded = refunded
    if !refunded.indices.dropFirst().allSatisfy({ refunded[$0 - 1].start <= refunded[$0].start }) {
      refunded.sort { $0.start < $1.start }
    }
    // Renewal info applies to the gaps after a subscription's last coverage; without renewal
    // info there is nothing to look up, and the coverage is not read.
    var lastEndings: [(OriginalTransactionID, Instant)] = []
    if !renewalInfo.isEmpty {
      lastEndings = lastEnds ?? Self.lastEndBySubscription(coverage).map { ($0.key, $0.value) }
      // A subscription noted twice (which the pass never does) makes the two differ.
      assert(
        lastEnds.map {
          Dictionary($0, uniquingKeysWith: { _, _ in .distantPast })
            == Self.lastEndBySubscription(coverage)
        } ?? true,
        "the ends noted by the evaluator's pass are the coverage's")
    }
    // The subscriptions' last ends in order (then by subscription): gaps come in order, so the
    // ends at a gap's start are found by a cursor, with no lookup per gap.
    if lastEndings.count > 1 { lastEndings.sort { ($0.1, $0.0) < ($1.1, $1.0) } }
    var nextEnding = 0
    let recoveryInstants = recoveries.isEmpty ? [] : recoveries.map(\.renewedAt).sorted()
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
      // Intervals read in place: a period copied out retains its ids and members.
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

  /// The latest end of the coverage of each subscription that has any: one pass over the
  /// coverage, reading each record's entry.
  static func lastEndBySubscription(_ coverage: CoverageList) -> [OriginalTransactionID: Instant] {
    var lastEndBySubscription: [OriginalTransactionID: Instant] = [:]
    coverage.entries.withUnsafeBufferPointer { source in
      // The current run of one subscription, its id's bytes and its latest end: an entry of
      // the same subscription usually holds the same string (the byte reader shares one),
      // recognised with no copy of it.
      var run: OriginalTransactionID?
      var runBits: (UInt64, UInt64) = (0, 0)
      var runEnd = Instant.distantPast
      for item in coverage.records {
        guard let interval = item.interval else { continue }
        let id = source[item.entryIndex].originalTransactionID
        let bits = id.storageBits
        if run != nil, bits == runBits || id == run {
          runEnd = max(runEnd, interval.end)
          continue
        }
        if let run {
          lastEndBySubscription[run] = max(lastEndBySubscription[run] ?? runEnd, runEnd)
        }
        (run, runBits, runEnd) = (id, bits, interval.end)
      }
      if let run {
        lastEndBySubscription[run] = max(lastEndBySubscription[run] ?? runEnd, runEnd)
      }
    }
    return lastEndBySubscription
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
    case .declinedPriceIncrease: return .priceIncrease
    case .customerCancelled: return .voluntary
    case .productUnavailable, .unknown: return .unknown
    case nil:
      if info.priceConsentStatus == false { return .priceIncrease }
      if info.autoRenewStatus == false { return .voluntary }
      return .unknown
    }
  }
}
