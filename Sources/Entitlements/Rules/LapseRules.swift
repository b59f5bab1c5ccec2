/// Finds the lapses between periods and their causes from evidence (SPEC §5, §6).
///
/// `retryLimits[i]` is the billing-retry window after `periods[i]` (scaled in the sandbox): a
/// lapse at least that long cannot have been a billing recovery.
///
/// Renewal info describes the time after its subscription's last entry, so it is evidence only
/// for a lapse that begins where that subscription's coverage ends for good; a subscription
/// that continues after the lapse has renewal info describing a later time, and says nothing
/// about the lapse.
enum LapseRules {
  static func lapses(
    between periods: [ActivePeriod], coverage: [EntryCoverage],
    renewalInfo: [OriginalTransactionID: RenewalInfo], recoveries: [BillingRecovery],
    retryLimits: [FixedDuration]
  ) -> [Lapse] {
    guard periods.count > 1 else { return [] }
    let refunded = coverage.compactMap { item -> Interval? in
      item.entry.isRefunded ? item.naturalInterval : nil
    }
    var lastEndBySubscription: [OriginalTransactionID: Instant] = [:]
    for item in coverage {
      guard let interval = item.interval else { continue }
      let key = item.entry.originalTransactionID
      lastEndBySubscription[key] = max(lastEndBySubscription[key] ?? .distantPast, interval.end)
    }
    var endingHere: [Instant: [OriginalTransactionID]] = [:]
    for (subscription, end) in lastEndBySubscription {
      endingHere[end, default: []].append(subscription)
    }
    let recoveryInstants = recoveries.map(\.renewedAt).sorted()
    return periods.indices.dropLast().map { index in
      let previous = periods[index]
      let next = periods[index + 1]
      let gap = Interval(start: previous.interval.end, end: next.interval.start)
      let infos = (endingHere[gap.start] ?? []).sorted().compactMap { renewalInfo[$0] }
      return Lapse(
        interval: gap,
        cause: cause(
          of: gap, refunded: refunded, infos: infos, recoveries: recoveryInstants,
          billingRetryLimit: retryLimits[index]))
    }
  }

  private static func cause(
    of gap: Interval, refunded: [Interval], infos: [RenewalInfo], recoveries: [Instant],
    billingRetryLimit: FixedDuration
  ) -> LapseCause {
    if refunded.contains(where: { $0.intersection(gap) != nil }) { return .refund }
    let couldBeRecovery = gap.length < billingRetryLimit
    if couldBeRecovery,
      recoveries.contains(where: { $0 > gap.start && $0 <= gap.end })
    {
      return .billingError
    }
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
