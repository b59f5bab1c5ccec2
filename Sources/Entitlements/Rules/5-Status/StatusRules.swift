/// Decides the status of one entitlement at an instant (SPEC §5), first match wins, save that a
/// refund later reversed makes `revoked` what rule 1 or the rules after rule 3 would say while
/// it held:
///
/// 1. `active`: the instant is inside an active period;
/// 2. `revoked`: a refund later reversed held on what the other rules rest on
///    (``ReversedRefund``), or the latest purchase at or before it was refunded (reason
///    `refund`, or `familySharingRevoked` when every latest purchase was revoked by
///    `FAMILY_REVOKE`); a refund that ends access at its date (a prorated refund, a family
///    revocation, any refund under `endAtCancellation`) only from that date on;
/// 3. `notSubscribed`: no purchase at or before it;
///
/// then, for an instant inside an earlier lapse, what Apple said then (`gracePeriod`,
/// `billingRetry`, `expired` from its word that the retry stopped:
/// ``SubscriptionEvidence/retry(of:inLapse:gap:retryEnd:product:)``), else `expired` with the
/// lapse's cause; before a later purchase that covers nothing, `expired` with reason `unknown`;
/// after the last period and the last purchase, from its renewal info:
///
/// 4. `gracePeriod`: before the `grace_period_expires_date` of any of the entitlement's
///    subscriptions (``EntitlementEvaluation/gracePeriod``);
/// 5. `billingRetry`: Apple's newest word is that it is retrying (`is_in_billing_retry_period`,
///    `DID_FAIL_TO_RENEW`) and before E + `billingRetryLimit`;
/// 6. `expired`: `billingRetryExhausted` past that window or after `EXPIRED` /
///    `BILLING_RETRY`, else from `expiration_intent`, else from the `EXPIRED` subtype, else
///    `voluntary` when auto-renew was off, else `unknown` (``Statement/reason``).
enum StatusRules {
  static func status(at instant: Instant, of timeline: EntitlementTimeline) -> EntitlementStatus {
    switch decision(at: instant, of: timeline) {
    case .active(let period): .active(activeStatus(at: instant, periodIndex: period, of: timeline))
    case .inactive(let status): status
    }
  }

  /// Which rule decides the status at an instant: rule 1, inside a period (whose details
  /// ``status(at:of:)`` then reads), or the status the other rules give.
  enum Decision {
    case active(period: Int)
    case inactive(EntitlementStatus)
  }

  /// The rules of SPEC §5 in order, first match wins, without the details of an active
  /// status.
  static func decision(at instant: Instant, of timeline: EntitlementTimeline) -> Decision {
    let settled = settledDecision(at: instant, of: timeline)
    // Most histories have no reversed refund: one comparison.
    guard !timeline.reversedRefunds.isEmpty else { return settled }
    return reversedRefund(at: instant, over: settled, of: timeline).map { .inactive($0) }
      ?? settled
  }

  /// The rules of SPEC §5 over the history as it stands, every reversed refund undone.
  private static func settledDecision(at instant: Instant, of timeline: EntitlementTimeline)
    -> Decision
  {
    let periods = timeline.periods
    let started = lastIndex(in: periods, atOrBefore: instant) { $0.interval.start }
    if let started, periods[started].interval.contains(instant) {
      return .active(period: started)
    }
    let coverage = timeline.coverage.records
    let source = timeline.coverage.entries
    guard let latestPurchases = latestPurchases(atOrBefore: instant, in: timeline.coverage) else {
      return .inactive(.notSubscribed)
    }
    let (first, latest) = (latestPurchases.lowerBound, latestPurchases.upperBound)
    // The latest purchases all refunded: revoked, a refund the policy voids from the purchase
    // on, one that ends access at its date from that date on. Read in place, not copied out.
    if coverage[first...latest].allSatisfy({ Self.isRevoked($0, at: instant) }),
      let revokedAt = source[coverage[first].entryIndex].cancellationDate
    {
      // Family Sharing stopped when every one of them was the family organiser's doing.
      let family = coverage[first...latest].allSatisfy {
        source[$0.entryIndex].revocationType == .familyRevoke
      }
      let entry = source[coverage[first].entryIndex]
      return .inactive(
        .revoked(
          transactionID: entry.transactionID, revokedAt: revokedAt,
          reason: family ? .familySharingRevoked : .refund,
          rawRevocationType: entry.rawRevocationType,
          revocationPercentage: entry.revocationPercentage))
    }
    guard let ended = started else { return .inactive(.expired(expiredAt: nil, reason: .unknown)) }
    let expiry = periods[ended].interval.end
    if ended < periods.count - 1 {
      // Inside an earlier lapse: as Apple said it then, when it said it was retrying.
      let retries = timeline.lapseRetries
      if !retries.isEmpty, case let found = retries.partitionPoint(where: { $0.lapse >= ended }),
        found < retries.count, retries[found].lapse == ended
      {
        return .inactive(status(at: instant, expiredAt: expiry, in: retries[found]))
      }
      return .inactive(.expired(expiredAt: expiry, reason: timeline.lapses[ended].reason))
    }
    // Renewal info describes the time after the last purchase. Before a later purchase that
    // covers nothing (refunded, invalid), the instant is in a gap it does not describe.
    if latest < coverage.count - 1 {
      return .inactive(.expired(expiredAt: expiry, reason: .unknown))
    }
    let retryEnd = expiry + timeline.billingRetryLimit
    // What is retried: the product that lapsed, and what its renewal info says.
    func renewal() -> PendingRenewal {
      PendingRenewal(
        productID: timeline.lapsedProductID
          ?? timeline.coverage.entry(at: timeline.layout.spans[ended].ending).productID,
        willRenew: timeline.afterLastPeriod?.autoRenews ?? timeline.renewalInfo?.autoRenewStatus,
        nextProductID: timeline.renewalInfo?.autoRenewProductID)
    }
    // The grace of any of the entitlement's subscriptions (EntitlementEvaluation.gracePeriod).
    if let grace = timeline.gracePeriod, instant < grace.end {
      // The subscription in grace, which may not be the one ending the last period.
      let info = timeline.graceInfo
      let renewal =
        info.map { info in
          PendingRenewal(
            productID: info.productID ?? lastProduct(of: info.originalTransactionID, in: timeline)
              ?? renewal().productID,
            willRenew: info.autoRenewStatus, nextProductID: info.autoRenewProductID)
        } ?? renewal()
      return .inactive(
        .gracePeriod(
          expiredAt: expiry, gracePeriodEndsAt: grace.end, retryEndsAt: retryEnd,
          renewal: renewal))
    }
    if timeline.afterLastPeriod?.inBillingRetry == true {
      return .inactive(
        instant < retryEnd
          ? .billingRetry(expiredAt: expiry, retryEndsAt: retryEnd, renewal: renewal())
          : .expired(expiredAt: expiry, reason: .billingRetryExhausted))
    }
    return .inactive(
      .expired(expiredAt: expiry, reason: timeline.afterLastPeriod?.reason ?? .unknown))
  }

  private static func activeStatus(
    at instant: Instant, periodIndex: Int, of timeline: EntitlementTimeline
  ) -> ActiveStatus {
    let interval = timeline.periods[periodIndex].interval  // in place: no copy of the period
    let layout = timeline.layout
    // The entry giving access: the latest-purchased one covering the instant (coverage
    // indices are in purchase order). A period merged by minimumLapse may have instants no
    // entry covers: then its last entry.
    let coverage = timeline.coverage.records
    var giving = -1
    for position in layout.spans[periodIndex].range {
      let index = layout.coverageIndex(at: position)
      if index > giving, coverage[index].interval?.contains(instant) == true { giving = index }
    }
    let last = layout.spans[periodIndex].ending
    let entry = timeline.coverage.entry(at: giving >= 0 ? giving : last)
    let isLast = periodIndex == timeline.periods.count - 1
    let endsAutoRenewing = layout.spans[periodIndex].endingType == .autoRenewable
    let offer: ActiveStatus.Offer? =
      entry.isTrialPeriod
      ? .freeTrial
      : entry.isWinBackOffer
        ? .winBack
        : entry.offerCodeRefName != nil
          ? .offerCode
          : entry.promotionalOfferID != nil
            ? .promotional : entry.isInIntroOfferPeriod ? .introductory : nil
    // A period that ends with a commitment's last payment renews into the commitment's next
    // product (`commitmentAutoRenewProductId`), not into another month of it.
    var next = timeline.renewalInfo?.autoRenewProductID
    if isLast, timeline.coverage.entry(at: last).commitment?.isLastBillingPeriod == true,
      let renewsInto = timeline.renewalInfo?.commitment?.autoRenewProductID
    {
      next = renewsInto
    }
    return ActiveStatus(
      periodStart: interval.start, expiresAt: interval.end,
      transactionID: entry.transactionID, productID: entry.productID,
      willRenew: isLast
        ? (endsAutoRenewing
          ? timeline.afterLastPeriod?.autoRenews ?? timeline.renewalInfo?.autoRenewStatus
          : false) : nil,
      nextProductID: isLast && endsAutoRenewing ? next : nil,
      offer: offer,
      commitment: entry.commitment.map { commitment in
        // What happens when it ends is known of the last period's subscription only.
        ActiveStatus.Commitment(
          billingPeriod: commitment.billingPeriodNumber,
          totalBillingPeriods: commitment.totalBillingPeriods, endsAt: commitment.expiresDate,
          willRenew: isLast ? timeline.afterLastPeriod?.commitmentRenews : nil,
          renewsInto: isLast ? timeline.renewalInfo?.commitment?.autoRenewProductID : nil)
      })
  }

  /// The status inside an earlier lapse that Apple said was a billing retry (SPEC §5,
  /// "inside an earlier lapse"): grace, then billing retry, then expired.
  private static func status(
    at instant: Instant, expiredAt expiry: Instant, in retry: LapseRetry
  ) -> EntitlementStatus {
    let renewal = retry.renewal
    if let graceEnd = retry.gracePeriodEnd, instant < graceEnd {
      return .gracePeriod(
        expiredAt: expiry, gracePeriodEndsAt: graceEnd, retryEndsAt: retry.retryEnd,
        renewal: renewal)
    }
    if instant < retry.retryEnd {
      return .billingRetry(expiredAt: expiry, retryEndsAt: retry.retryEnd, renewal: renewal)
    }
    if let stop = retry.stop, instant >= stop, let reason = retry.stopReason {
      return .expired(expiredAt: expiry, reason: reason)
    }
    return .expired(expiredAt: expiry, reason: .billingRetryExhausted)
  }

  /// The product of the latest-purchased entry of `subscription` among the entitlement's.
  private static func lastProduct(
    of subscription: OriginalTransactionID, in timeline: EntitlementTimeline
  ) -> ProductID? {
    let entries = timeline.coverage.entries
    return timeline.coverage.records.last {
      entries[$0.entryIndex].originalTransactionID == subscription
    }.map { entries[$0.entryIndex].productID }
  }

  /// `revoked` when, at `instant`, a refund later reversed was in force on every purchase
  /// the settled decision rests on (SPEC §5, rule 2: what Apple said between a refund and its
  /// reversal): inside a period, every coverage of the instant; outside, the latest purchases
  /// at or before it. `nil` otherwise.
  private static func reversedRefund(
    at instant: Instant, over settled: Decision, of timeline: EntitlementTimeline
  ) -> EntitlementStatus? {
    let inForce = timeline.reversedRefunds.filter { $0.interval?.contains(instant) == true }
    guard let first = inForce.first else { return nil }
    func refunded(_ record: CoverageRecord) -> Bool {
      let transaction = timeline.coverage.entries[record.entryIndex].transactionKey
      return inForce.contains { $0.refunded.transactionKey == transaction }
    }
    let coverage = timeline.coverage.records
    let source = timeline.coverage.entries
    var resting: [CoverageRecord] = []
    switch settled {
    case .active(let period):
      for position in timeline.layout.spans[period].range {
        let record = coverage[timeline.layout.coverageIndex(at: position)]
        if record.interval?.contains(instant) == true { resting.append(record) }
      }
    case .inactive(.revoked), .inactive(.notSubscribed):
      return nil
    case .inactive:
      guard let latest = latestPurchases(atOrBefore: instant, in: timeline.coverage) else {
        return nil
      }
      resting = latest.reversed().map { coverage[$0] }
    }
    guard !resting.isEmpty, resting.allSatisfy(refunded) else { return nil }
    let reversal =
      inForce.first { $0.refunded.transactionKey == source[resting[0].entryIndex].transactionKey }
      ?? first
    let entry = reversal.refunded
    return .revoked(
      transactionID: entry.transactionID, revokedAt: reversal.interval?.start ?? instant,
      reason: entry.revocationType == .familyRevoke ? .familySharingRevoked : .refund,
      rawRevocationType: entry.rawRevocationType,
      revocationPercentage: entry.revocationPercentage)
  }

  /// The positions in `coverage.records` of the latest purchases at or before `instant`:
  /// every record whose purchase date is the latest such (records are in purchase order,
  /// entries without a purchase date first); `nil` before any purchase.
  static func latestPurchases(atOrBefore instant: Instant, in coverage: CoverageList)
    -> ClosedRange<Int>?
  {
    let records = coverage.records
    let source = coverage.entries
    guard
      let latest = lastIndex(
        in: records, atOrBefore: instant,
        by: { source[$0.entryIndex].purchaseDate ?? .distantPast }),
      let date = source[records[latest].entryIndex].purchaseDate
    else { return nil }
    var first = latest
    while first > 0, source[records[first - 1].entryIndex].purchaseDate == date { first -= 1 }
    return first...latest
  }

  /// Whether the entry of `record` is revoked at `instant`: voided, or refunded at or before it
  /// (the instant of a revocation belongs to the time after it).
  private static func isRevoked(_ record: CoverageRecord, at instant: Instant) -> Bool {
    switch record.disposition {
    case .refundVoided: true
    case .refundEndedAt(let at): at <= instant
    default: false
    }
  }

  /// The index of the last element whose key is at or before `instant`, by binary search over
  /// elements sorted by that key.
  static func lastIndex<Element>(
    in elements: [Element], atOrBefore instant: Instant, by key: (Element) -> Instant
  ) -> Int? {
    let after = elements.partitionPoint { key($0) > instant }
    return after == 0 ? nil : after - 1
  }
}
