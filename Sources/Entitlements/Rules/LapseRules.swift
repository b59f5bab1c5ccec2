/// Finds the lapses between periods and their causes from evidence (SPEC §5, §6).
///
/// `windowLengths[i].billingRetry` is the billing-retry window after `periods[i]` (scaled in
/// the sandbox): a lapse at least that long cannot have been a billing recovery.
///
/// Renewal info describes the time after its subscription's last entry, so it is evidence only
/// for a lapse that begins where that subscription's coverage ends for good; a subscription
/// that continues after the lapse has renewal info describing a later time, and says nothing
/// about the lapse.
enum LapseRules {
  static func lapses(
    between periods: [ActivePeriod], coverage: CoverageList,
    renewalInfo: [OriginalTransactionID: RenewalInfo], recoveries: [BillingRecovery],
    windowLengths: [WindowLengths]
  ) -> [Lapse] {
    guard periods.count > 1 else { return [] }
    // Refunded spans sorted by start, with the running maximum of their ends: "does any
    // refunded span meet this gap" is then one binary search.
    // The records say which entries a refund voided or ended: the entries are not read.
    let source = coverage.entries
    var refunded: [Interval] = []
    for item in coverage.records where item.isRefunded {
      if let natural = item.naturalInterval { refunded.append(natural) }
    }
    refunded.sort { $0.start < $1.start }
    var furthestEnd: [Instant] = []
    furthestEnd.reserveCapacity(refunded.count)
    for interval in refunded {
      furthestEnd.append(max(furthestEnd.last ?? .distantPast, interval.end))
    }
    // Renewal info applies to the gaps after a subscription's last coverage; without renewal
    // info there is nothing to look up.
    var lastEndBySubscription: [OriginalTransactionID: Instant] = [:]
    var current: (OriginalTransactionID, Instant)?
    for item in coverage.records where !renewalInfo.isEmpty {
      guard let interval = item.interval else { continue }
      let key = source[item.entryIndex].originalTransactionID
      if let (subscription, end) = current, subscription == key {
        current = (key, max(end, interval.end))
        continue
      }
      if let (subscription, end) = current {
        lastEndBySubscription[subscription] = max(lastEndBySubscription[subscription] ?? end, end)
      }
      current = (key, interval.end)
    }
    if let (subscription, end) = current {
      lastEndBySubscription[subscription] = max(lastEndBySubscription[subscription] ?? end, end)
    }
    var endingHere: [Instant: [OriginalTransactionID]] = [:]
    for (subscription, end) in lastEndBySubscription {
      endingHere[end, default: []].append(subscription)
    }
    let recoveryInstants = recoveries.map(\.renewedAt).sorted()
    return periods.indices.dropLast().map { index in
      // Intervals read in place: a period copied out retains its ids and members.
      let gap = Interval(start: periods[index].interval.end, end: periods[index + 1].interval.start)
      let infos =
        endingHere.isEmpty
        ? [] : (endingHere[gap.start] ?? []).sorted().compactMap { renewalInfo[$0] }
      let startingBefore = refunded.partitionPoint { $0.start >= gap.end }
      let refundMeetsGap = startingBefore > 0 && furthestEnd[startingBefore - 1] > gap.start
      let firstRecovery = recoveryInstants.partitionPoint { $0 > gap.start }
      let recoveryEndsGap =
        firstRecovery < recoveryInstants.count && recoveryInstants[firstRecovery] <= gap.end
      return Lapse(
        interval: gap,
        cause: cause(
          of: gap, refundMeetsGap: refundMeetsGap, infos: infos, recoveryEndsGap: recoveryEndsGap,
          billingRetryLimit: windowLengths[index].billingRetry))
    }
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
