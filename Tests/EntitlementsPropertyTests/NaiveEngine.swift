import Entitlements
import Foundation

/// A second, deliberately naive implementation of the rules, written straight from SPEC §4,
/// §5, §6, §7 and §8 with no code shared with the engine: quadratic scans, Foundation's own
/// Gregorian calendar for months, a sweep over every boundary instant for the union, and the
/// status decided by walking the rules in the order SPEC lists them. It assumes what the
/// generator guarantees: unique transaction ids, products from the catalog, no billing
/// recoveries, the default policy, revocation types on auto-renewable entries only.
enum NaiveEngine {
  static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
    return calendar
  }()

  static func addMonth(_ instant: Instant) -> Instant {
    let date = Date(timeIntervalSince1970: Double(instant.millisecondsSince1970) / 1000)
    guard let next = calendar.date(byAdding: .month, value: 1, to: date) else { return instant }
    return Instant(millisecondsSince1970: Int64((next.timeIntervalSince1970 * 1000).rounded()))
  }

  /// What one entry covers, and what it would have covered had it not been refunded.
  struct Covered {
    var entry: ReceiptEntry
    var start: Instant
    var end: Instant
    var refunded: Bool
    /// A refunded span whose revocation was the family organiser's (`FAMILY_REVOKE`).
    var familyRevoked = false
  }

  /// The entries of one entitlement.
  static func entries(
    of entitlement: EntitlementID, in all: [ReceiptEntry], catalog: ProductCatalog
  ) -> [ReceiptEntry] {
    all.filter { catalog[$0.productID]?.entitlement == entitlement }
  }

  /// SPEC §4 and §6: what each entry covers (refunded ones with `refunded` set and the span
  /// they would have covered), with the default policy.
  static func coverage(_ entries: [ReceiptEntry], catalog: ProductCatalog) -> [Covered] {
    var result: [Covered] = []
    for entry in entries {
      guard let type = catalog[entry.productID]?.type, let purchase = entry.purchaseDate else {
        continue
      }
      let refunded = entry.cancellationDate != nil && !entry.isUpgraded
      switch type {
      case .autoRenewable:
        guard let expires = entry.expiresDate, expires > purchase else { continue }
        var end = expires
        if entry.isUpgraded {
          if let cancellation = entry.cancellationDate {
            end = max(purchase, min(expires, cancellation))
          } else {
            let successors = entries.filter { other in
              guard other.transactionID != entry.transactionID, let start = other.purchaseDate
              else { return false }
              return start >= purchase && start < expires
            }.compactMap(\.purchaseDate)
            if let first = successors.min() { end = first }
          }
        }
        if end > purchase || refunded {
          result.append(Covered(entry: entry, start: purchase, end: end, refunded: refunded))
        }
        // A prorated refund or a family revocation: the time before it is still covered.
        let type = entry.rawRevocationType
        if refunded, type == "REFUND_PRORATED" || type == "FAMILY_REVOKE",
          let cancellation = entry.cancellationDate, min(expires, cancellation) > purchase
        {
          result[result.count - 1].familyRevoked = type == "FAMILY_REVOKE"
          result.append(
            Covered(
              entry: entry, start: purchase, end: min(expires, cancellation), refunded: false))
        } else if refunded, type == "FAMILY_REVOKE" {
          result[result.count - 1].familyRevoked = true
        }
      case .nonConsumable:
        result.append(
          Covered(entry: entry, start: purchase, end: .distantFuture, refunded: refunded))
      case .nonRenewing, .consumable:
        continue
      }
    }
    // Non-renewing: sorted by purchase, each from the later of its purchase and the previous end.
    let passes = entries.filter {
      catalog[$0.productID]?.type == .nonRenewing && $0.purchaseDate != nil
    }.sorted {
      ($0.purchaseDate ?? .distantPast, $0.transactionID.rawValue)
        < ($1.purchaseDate ?? .distantPast, $1.transactionID.rawValue)
    }
    var previousEnd = Instant.distantPast
    for pass in passes {
      guard let purchase = pass.purchaseDate else { continue }
      let refunded = pass.cancellationDate != nil
      let start = refunded ? purchase : max(purchase, previousEnd)
      let end = addMonth(start)
      result.append(Covered(entry: pass, start: start, end: end, refunded: refunded))
      if !refunded { previousEnd = end }
    }
    return result
  }

  /// SPEC §5: the union of what is not refunded, by checking every elementary interval
  /// between boundaries.
  static func periods(_ coverage: [Covered]) -> [Interval] {
    let giving = coverage.filter { !$0.refunded && $0.end > $0.start }
    let boundaries = Set(giving.flatMap { [$0.start, $0.end] }).sorted()
    var periods: [Interval] = []
    for (a, b) in zip(boundaries, boundaries.dropFirst()) {
      let covered = giving.contains { $0.start <= a && a < $0.end }
      guard covered else { continue }
      if let last = periods.last, last.end == a {
        periods[periods.count - 1].end = b
      } else {
        periods.append(Interval(start: a, end: b))
      }
    }
    return periods
  }

  /// SPEC §7: the billing-retry window after a period that `entry` ends: 60 days, or in the
  /// sandbox 60 days scaled by the product's sandbox length over its nominal length.
  static func retryWindow(after entry: ReceiptEntry?, sandbox: Bool, catalog: ProductCatalog)
    -> FixedDuration
  {
    guard sandbox else { return .days(60) }
    let (sandboxSeconds, nominalDays): (Int64, Int64)
    // A commitment's billing period is a month, whatever the product's duration.
    let duration =
      entry?.commitment != nil
      ? CalendarPeriod(1, .month) : catalog[entry?.productID ?? ""]?.duration
    switch duration {
    case CalendarPeriod(1, .week): (sandboxSeconds, nominalDays) = (180, 7)
    case CalendarPeriod(1, .year): (sandboxSeconds, nominalDays) = (3600, 365)
    default: (sandboxSeconds, nominalDays) = (300, 30)
    }
    return .milliseconds(60 * 86_400_000 * sandboxSeconds * 1000 / (nominalDays * 86_400_000))
  }

  /// The entry whose coverage ends a period: of those ending at its end, the last bought.
  static func ending(_ period: Interval, in coverage: [Covered]) -> ReceiptEntry? {
    coverage.filter { !$0.refunded && $0.end == period.end && $0.start < $0.end }
      .max { a, b in
        (a.start, a.entry.transactionID.rawValue) < (b.start, b.entry.transactionID.rawValue)
      }?.entry
  }

  /// Whether `info` says nothing renews after `entry`: it is a commitment's last billing
  /// period, and the commitment's renewal is off.
  static func commitmentEnds(_ info: RenewalInfo?, after entry: ReceiptEntry?) -> Bool {
    guard let number = entry?.commitment?.billingPeriodNumber,
      let total = entry?.commitment?.totalBillingPeriods
    else { return false }
    return number >= total && info?.commitment?.autoRenewStatus == false
  }

  /// What one renewal info says about the time after its subscription's last coverage, which
  /// `entry` ends.
  static func cause(from info: RenewalInfo, after entry: ReceiptEntry?) -> LapseCause {
    if info.isInBillingRetryPeriod == true { return .billingError }
    switch info.rawExpirationIntent {
    case 1: return .voluntary
    case 2: return .billingError
    case 3: return .priceIncrease
    case 4: return .productUnavailable
    case 5: return .unknown
    default:
      if info.priceConsentStatus == false { return .priceIncrease }
      if info.autoRenewStatus == false || commitmentEnds(info, after: entry) {
        return .voluntary
      }
      return .unknown
    }
  }

  /// SPEC §5: the lapses between periods, each with its cause from evidence.
  static func lapses(
    _ periods: [Interval], coverage: [Covered], renewalInfo: [RenewalInfo], sandbox: Bool,
    catalog: ProductCatalog
  ) -> [Lapse] {
    zip(periods, periods.dropFirst()).map { before, after in
      let gap = Interval(start: before.end, end: after.start)
      // A refunded entry that would have covered part of the gap: a family revocation first.
      let refunds = coverage.filter { $0.refunded && $0.start < gap.end && $0.end > gap.start }
      if refunds.contains(where: \.familyRevoked) {
        return Lapse(interval: gap, cause: .familySharingRevoked)
      }
      if !refunds.isEmpty { return Lapse(interval: gap, cause: .refund) }
      // Renewal info of the subscriptions whose coverage ends for good where the gap begins.
      let ended = Set(
        coverage.filter { !$0.refunded }.map(\.entry.originalTransactionID).filter { id in
          coverage.filter { !$0.refunded && $0.entry.originalTransactionID == id }
            .map(\.end).max() == gap.start
        })
      let causes = renewalInfo.filter { ended.contains($0.originalTransactionID) }.map { info in
        // The subscription's coverage that ends where the gap begins: the last bought.
        let last = coverage.filter {
          !$0.refunded && $0.entry.originalTransactionID == info.originalTransactionID
            && $0.end == gap.start
        }.max {
          ($0.start, $0.entry.transactionID.rawValue) < ($1.start, $1.entry.transactionID.rawValue)
        }
        return cause(from: info, after: last?.entry)
      }
      let limit = retryWindow(
        after: ending(before, in: coverage), sandbox: sandbox, catalog: catalog)
      if causes.contains(.billingError), gap.length < limit {
        return Lapse(interval: gap, cause: .billingError)
      }
      for candidate in [LapseCause.priceIncrease, .productUnavailable, .voluntary]
      where causes.contains(candidate) {
        return Lapse(interval: gap, cause: candidate)
      }
      return Lapse(interval: gap, cause: .unknown)
    }
  }

  /// The reason an expired status gives for a lapse's cause.
  static func reason(_ cause: LapseCause) -> ExpiryReason {
    switch cause {
    case .refund: .refund
    case .familySharingRevoked: .familySharingRevoked
    case .billingError: .billingError
    case .voluntary: .voluntary
    case .priceIncrease: .priceIncrease
    case .productUnavailable: .productUnavailable
    case .unknown: .unknown
    }
  }

  /// SPEC §5: the state at `t`, with the expiry and reason of an expired state, walking the
  /// rules in order.
  static func status(
    at t: Instant, entries: [ReceiptEntry], coverage: [Covered], periods: [Interval],
    lapses: [Lapse], renewalInfo: [RenewalInfo], sandbox: Bool, catalog: ProductCatalog
  ) -> (state: EntitlementState, expiredAt: Instant?, reason: ExpiryReason?) {
    // 1. Inside a period.
    if periods.contains(where: { $0.contains(t) }) { return (.active, nil, nil) }
    // 2, 3. The latest purchases at or before t.
    let bought = entries.filter { ($0.purchaseDate ?? .distantFuture) <= t }
    guard let latest = bought.compactMap(\.purchaseDate).max() else {
      return (.notSubscribed, nil, nil)
    }
    let atLatest = bought.filter { $0.purchaseDate == latest }
    // Revoked; a prorated refund or a family revocation only from its date on.
    func revoked(_ entry: ReceiptEntry) -> Bool {
      guard let cancellation = entry.cancellationDate, !entry.isUpgraded else { return false }
      let fromItsDate = ["REFUND_PRORATED", "FAMILY_REVOKE"].contains(entry.rawRevocationType)
      return !fromItsDate || cancellation <= t
    }
    if atLatest.allSatisfy(revoked) {
      let family = atLatest.allSatisfy { $0.rawRevocationType == "FAMILY_REVOKE" }
      return (.revoked, nil, family ? .familySharingRevoked : .refund)
    }
    guard let ended = periods.last(where: { $0.end <= t }) else {
      return (.expired, nil, .unknown)
    }
    // Inside an earlier lapse: its cause.
    if let lapse = lapses.first(where: { $0.interval.contains(t) }) {
      return (.expired, ended.end, reason(lapse.cause))
    }
    // Before a later purchase that covers nothing, renewal info says nothing.
    let later = entries.compactMap(\.purchaseDate).filter { $0 > t }
    let lastPurchase = entries.compactMap(\.purchaseDate).max() ?? latest
    if !later.isEmpty || latest < lastPurchase { return (.expired, ended.end, .unknown) }
    // 4. Grace: any of the entitlement's subscriptions in grace.
    let subscriptions = Set(coverage.filter { !$0.refunded }.map(\.entry.originalTransactionID))
    let graceEnd = renewalInfo.filter { subscriptions.contains($0.originalTransactionID) }
      .compactMap(\.gracePeriodExpiresDate).filter { $0 > ended.end }.max()
    if let graceEnd, t < graceEnd { return (.gracePeriod, ended.end, nil) }
    // 5, 6. The renewal info of the subscription that ended the last period.
    let inPeriod = coverage.filter {
      !$0.refunded && $0.start >= ended.start && $0.end <= ended.end && $0.start < $0.end
    }
    let endingEntry = ending(ended, in: coverage)
    let described =
      endingEntry.flatMap { catalog[$0.productID]?.type == .autoRenewable ? $0 : nil }
      ?? inPeriod.filter { catalog[$0.entry.productID]?.type == .autoRenewable }
      .max { a, b in (a.end, a.start) < (b.end, b.start) }?.entry
    let info = renewalInfo.first { $0.originalTransactionID == described?.originalTransactionID }
    let limit = retryWindow(after: endingEntry, sandbox: sandbox, catalog: catalog)
    if info?.isInBillingRetryPeriod == true {
      return t < ended.end + limit
        ? (.billingRetry, ended.end, nil) : (.expired, ended.end, .billingRetryExhausted)
    }
    // SPEC §5 rule 6: the intent, else auto-renew off at the expiry, else unknown.
    let reason: ExpiryReason =
      switch info?.rawExpirationIntent {
      case 1: .voluntary
      case 2: .billingError
      case 3: .priceIncrease
      case 4: .productUnavailable
      case nil:
        info?.autoRenewStatus == false || commitmentEnds(info, after: described)
          ? .voluntary : .unknown
      default: .unknown
      }
    return (.expired, ended.end, reason)
  }

  /// SPEC §8, as of the end of time, without grace: released inside a period, or the latest
  /// release at or before a period's start (all releases of that date).
  static func readable(_ releases: [Release], periods: [Interval]) -> Set<ReleaseID> {
    var readable = Set<ReleaseID>()
    for release in releases {
      for period in periods {
        if period.start <= release.date && release.date < period.end { readable.insert(release.id) }
        let latest = releases.filter { $0.date <= period.start }.map(\.date).max()
        if latest == release.date { readable.insert(release.id) }
      }
    }
    return readable
  }
}
