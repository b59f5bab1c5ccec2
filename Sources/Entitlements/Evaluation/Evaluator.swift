/// The one entry point a backend calls: a customer's purchase history in, an evaluation per
/// entitlement out.
///
/// Pure and deterministic: no I/O, no clock, no global state. The same history gives the same
/// evaluation whatever the order of its entries, and an entry given twice counts once.
///
/// The rules run in the order of SPEC (<doc:Rules>): one record per purchase (§3), a type and an
/// entitlement for each (§2), the coverage of each entry (§4), periods and lapses (§5), and
/// the renewal windows (§6), scaled in the sandbox (§7). The status at an instant (§5) and the
/// readable releases (§8) are asked of the result.
///
/// ```swift
/// let evaluator = Evaluator(
///   catalog: ProductCatalog([
///     CatalogProduct(id: "com.example.magazine.monthly", type: .autoRenewable,
///                    duration: CalendarPeriod(1, .month), entitlement: "magazine")
///   ]))
/// let evaluation = evaluator.evaluate(PurchaseHistory(entries: entries, renewalInfo: infos))
/// evaluation["magazine"]?.periods.count                   // 2
/// evaluation["magazine"]?.status(at: now).isEntitled      // true
/// ```
public struct Evaluator: Sendable {
  /// The product catalog; ``ProductCatalog/empty`` to infer types and group by subscription.
  public var catalog: ProductCatalog
  /// The policies in force.
  public var policy: Policy

  /// Creates an evaluator.
  ///
  /// - Parameters:
  ///   - catalog: The product catalog; none by default.
  ///   - policy: The policies in force; the SPEC's defaults by default.
  public init(catalog: ProductCatalog = .empty, policy: Policy = Policy()) {
    self.catalog = catalog
    self.policy = policy
  }

  /// Evaluates one customer's history.
  ///
  /// - Parameter history: The customer's entries, renewal info and evidence.
  /// - Returns: An evaluation per entitlement, purchase events, and diagnostics.
  /// - Complexity: O(n) for n entries in purchase order with Apple's increasing ids (the
  ///   usual history), O(n log n) otherwise.
  public func evaluate(_ history: PurchaseHistory) -> Evaluation {
    let entries = history.entries
    // SPEC §3: one record per purchase, in canonical order.
    let purchases = Deduplication.purchases(entries)
    // SPEC §2: a type and an entitlement for each.
    let classification = ProductClassification.classify(
      purchases.order, of: entries, catalog: catalog)
    var diagnostics = purchases.diagnostics
    if !classification.diagnostics.isEmpty { diagnostics += classification.diagnostics }
    // SPEC §3: one renewal info per subscription, each describing a subscription of the
    // history.
    let evidence = SubscriptionEvidence(
      history.renewalInfo, history.notifications, diagnostics: &diagnostics)
    let unmatched = Self.unmatched(evidence, in: entries)
    if !unmatched.isEmpty { diagnostics += unmatched }
    // By subscription, so that each entitlement finds its own with a search.
    let recoveries = Self.bySubscription(history.billingRecoveries, \.originalTransactionID)
    let appleStatuses = Self.bySubscription(history.appleStatuses, \.originalTransactionID)
    var entitlements: [EntitlementEvaluation] = []
    entitlements.reserveCapacity(classification.groups.count)
    for position in classification.groups.indices {
      let evaluation = evaluate(
        classification.groups[position], of: entries, evidence: evidence,
        recoveries: recoveries, appleStatuses: appleStatuses,
        reversedRefunds: history.reversedRefunds, environment: history.environment)
      if !evaluation.diagnostics.isEmpty { diagnostics += evaluation.diagnostics }
      entitlements.append(evaluation)
    }
    return Evaluation(
      entitlements: entitlements, purchaseEvents: classification.purchaseEvents,
      diagnostics: Self.sorted(diagnostics))
  }

  /// `values` by subscription (none or one, the usual case, need no sort).
  private static func bySubscription<Value>(
    _ values: [Value], _ subscription: (Value) -> OriginalTransactionID
  ) -> [Value] {
    values.count < 2 ? values : values.sorted { subscription($0) < subscription($1) }
  }

  /// Diagnostics in their fixed order (none, the usual case, need no sort).
  private static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.count < 2 ? diagnostics : diagnostics.sorted()
  }

  /// The evaluation of one entitlement's entries (SPEC §4–§7).
  private func evaluate(
    _ group: ProductClassification.Group, of entries: [ReceiptEntry],
    evidence: SubscriptionEvidence, recoveries: [BillingRecovery],
    appleStatuses: [AppleStatusReport], reversedRefunds: [ReversedRefund],
    environment: StoreEnvironment
  ) -> EntitlementEvaluation {
    // `recoveries` and `appleStatuses` are sorted by subscription.
    var diagnostics = group.diagnostics
    // SPEC §4: what each entry covers.
    let (records, invalid) = CoverageRules.cover(
      group, in: entries, catalog: catalog, policy: policy)
    if !invalid.isEmpty { diagnostics += invalid }
    let coverage = CoverageList(entries: entries, records: records)
    // SPEC §5: periods, and what describes the time after the last one.
    let (periods, layout) = PeriodRules.periods(
      of: records, in: entries, minimumLapse: policy.minimumLapse)
    // The window lengths after a period: production ones, or in the sandbox scaled by the
    // product that ends it (SPEC §6, §7).
    // (The closures capture the catalog and the policy, not `self`: with `self`, the evaluator
    // was copied for them at each call, about 170 instructions.)
    let (catalog, policy) = (catalog, policy)
    func lengths(after period: Int) -> WindowLengths {
      Self.windowLengths(
        ending: records[layout.spans[period].ending].entryIndex, of: entries, environment,
        catalog: catalog, policy: policy)
    }
    // The entitlement's subscriptions: only recovery evidence and Apple's statuses need them.
    func subscriptions() -> Set<OriginalTransactionID> {
      Self.subscriptions(of: records, in: entries, coveringOnly: false)
    }
    let (lapses, lapseRetries) = LapseRules.lapses(
      between: periods, layout: layout, coverage: coverage, evidence: evidence,
      recoveries: recoveries.isEmpty
        ? [] : Self.values(of: subscriptions(), in: recoveries, \.originalTransactionID),
      billingRetryAfter: { lengths(after: $0).billingRetry })
    // What Apple stated about the subscription that ended the last period, from the start of
    // its last coverage on.
    var lastInfo: RenewalInfo?
    var afterLastPeriod: Statement?
    // Only evidence can put the time after the last period in grace or billing retry: the
    // record that ended it is looked for then.
    let described =
      evidence.isEmpty
      ? nil
      : layout.spans.last.map { records[Self.describedRecord(of: $0, in: layout, records)] }
    if let described {
      let ending = entries[described.entryIndex]
      lastInfo = evidence.current(ending.originalTransactionID)
      afterLastPeriod = evidence.statement(
        after: ending, in: entries, from: described.start, before: nil, includingUndated: true)
    }
    // A subscription whose every entry was voided covers nothing: its renewal info's grace
    // describes no time of this entitlement.
    let grace = periods.last.flatMap { last in
      Self.gracePeriod(after: last.interval.end, evidence: evidence) {
        Self.subscriptions(of: records, in: entries, coveringOnly: true)
      }
    }
    let gracePeriod = grace?.interval
    // SPEC §6: the windows around each auto-renewing expiry.
    var windows: [RenewalWindows] = []
    windows.reserveCapacity(periods.count)
    for index in periods.indices {
      let expiresAt = periods[index].interval.end
      guard layout.spans[index].endingType == .autoRenewable, !expiresAt.isDistantFuture
      else { continue }
      windows.append(
        RenewalWindows(
          expiresAt: expiresAt, lengths: lengths(after: index),
          gracePeriodExpiresDate: index == periods.count - 1 ? gracePeriod?.end : nil))
    }
    // Apple's statuses of this entitlement's subscriptions, for the agreement report.
    let ownStatuses =
      appleStatuses.isEmpty ? [] : Self.statuses(of: subscriptions(), in: appleStatuses)
    let timeline = EntitlementTimeline(
      id: group.id, coverage: coverage, periods: periods, layout: layout, lapses: lapses,
      lapseRetries: lapseRetries,
      reversedRefunds: reversedRefunds.isEmpty
        ? [] : Self.reversedRefunds(reversedRefunds, of: records, in: entries),
      renewalInfo: lastInfo, lapsedProductID: described.map { entries[$0.entryIndex].productID },
      afterLastPeriod: afterLastPeriod, gracePeriod: gracePeriod, graceInfo: grace?.info,
      billingRetryLimit: layout.spans.isEmpty
        ? policy.billingRetryLimit : lengths(after: layout.spans.count - 1).billingRetry,
      environment: environment)
    return EntitlementEvaluation(
      timeline: timeline, windows: windows,
      continuousSubscriptionStart: ContinuousSubscription.start(
        of: periods, environment: environment),
      diagnostics: Self.sorted(diagnostics), unlockAtStart: policy.unlockAtStart,
      appleStatuses: ownStatuses)
  }

  /// One diagnostic per renewal info whose subscription names no entry of the history.
  private static func unmatched(_ evidence: SubscriptionEvidence, in entries: [ReceiptEntry])
    -> [Diagnostic]
  {
    let infos = evidence.infos
    guard !infos.isEmpty else { return [] }
    // One subscription or a few is the norm: searching the entries for each beats hashing
    // them all.
    let subscriptions = infos.count <= 4 ? nil : Set(entries.map(\.originalTransactionID))
    func known(_ id: OriginalTransactionID) -> Bool {
      if let subscriptions { return subscriptions.contains(id) }
      // By index: iterating the entries would copy each, and retain its strings.
      return entries.indices.contains { entries[$0].originalTransactionID == id }
    }
    var unmatched: [Diagnostic] = []
    for id in evidence.namedSubscriptions where !known(id) {
      unmatched.append(
        rare:
          Diagnostic(
            .renewalInfoWithoutEntries, originalTransactionID: id, field: "original_transaction_id",
            message: "renewal info matches no receipt entry; it describes nothing evaluated"))
    }
    return unmatched
  }

  /// The record whose subscription's renewal info describes the time after a period (SPEC §5,
  /// rules 5 and 6, and the last period's renewal): the record that ends it, or, when a
  /// purchase of another type ends it (a non-renewing pass that ran past a subscription's
  /// expiry), the auto-renewable record in it that ends latest. Once the pass has run out,
  /// Apple's renewal info for that subscription still holds: it may still be in billing retry.
  /// When the period holds no auto-renewable record, the record that ends it.
  private static func describedRecord(
    of span: PeriodRules.Layout.Span, in layout: PeriodRules.Layout, _ records: [CoverageRecord]
  ) -> Int {
    guard span.endingType != .autoRenewable else { return span.ending }
    var latest = span.ending
    var latestEnd: Instant?
    for position in span.range {
      let index = layout.coverageIndex(at: position)
      guard records[index].productType == .autoRenewable, let end = records[index].interval?.end
      else { continue }
      if latestEnd.map({ end >= $0 }) ?? true { (latest, latestEnd) = (index, end) }
    }
    return latest
  }

  /// The grace period after the last period, which ends at `end` (SPEC §5, rule 4;
  /// ``EntitlementEvaluation/gracePeriod``): to the latest `grace_period_expires_date` among
  /// the renewal infos of the entitlement's subscriptions that cover some time (a refunded
  /// subscription's info describes nothing the customer has), when later than `end`.
  private static func gracePeriod(
    after end: Instant, evidence: SubscriptionEvidence,
    of subscriptions: () -> Set<OriginalTransactionID>
  ) -> (interval: Interval, info: RenewalInfo)? {
    // One comparison, not a pass over every subscription's infos for each entitlement.
    guard !end.isDistantFuture, let latest = evidence.latestGracePeriodEnd, latest > end
    else { return nil }
    let ids = subscriptions()
    var found: (end: Instant, info: RenewalInfo)?
    // Each subscription's newest renewal info says whether it is in grace now.
    for subscription in ids {
      guard let info = evidence.current(subscription), let date = info.gracePeriodExpiresDate,
        date > found?.end ?? end
      else { continue }
      found = (date, info)
    }
    return found.map { (Interval(start: end, end: $0.end), $0.info) }
  }

  /// The reversed refunds of the purchases in `records`, by the instant of their refund. Out
  /// of line: only histories with a reversed refund need it.
  @inline(never)
  private static func reversedRefunds(
    _ reversals: [ReversedRefund], of records: [CoverageRecord], in entries: [ReceiptEntry]
  ) -> [ReversedRefund] {
    let transactions = Set(records.map { entries[$0.entryIndex].transactionID })
    return reversals.filter {
      $0.interval != nil && transactions.contains($0.refunded.transactionID)
    }
    .sorted { ($0.interval?.start ?? .distantPast) < ($1.interval?.start ?? .distantPast) }
  }

  /// The values of `subscriptions` in `sorted` (a history's, sorted by `subscription`): a
  /// search per subscription, never a pass over all the values per entitlement.
  private static func values<Value>(
    of subscriptions: Set<OriginalTransactionID>, in sorted: [Value],
    _ subscription: (Value) -> OriginalTransactionID
  ) -> [Value] {
    var found: [Value] = []
    for wanted in subscriptions {
      var index = sorted.partitionPoint { subscription($0) >= wanted }
      while index < sorted.count, subscription(sorted[index]) == wanted {
        found.append(sorted[index])
        index += 1
      }
    }
    return found
  }

  /// The subscriptions of `records` (of those that cover some time, when `coveringOnly`).
  /// Out of line, as ``statuses(of:in:)``: only some evaluations need them, and the code that
  /// every evaluation runs stays short (DESIGN.md, "Performance").
  @inline(never)
  private static func subscriptions(
    of records: [CoverageRecord], in entries: [ReceiptEntry], coveringOnly: Bool
  ) -> Set<OriginalTransactionID> {
    var subscriptions = Set<OriginalTransactionID>()
    for record in records where !coveringOnly || record.interval != nil {
      subscriptions.insert(entries[record.entryIndex].originalTransactionID)
    }
    return subscriptions
  }

  /// Apple's statuses of `subscriptions`, from `sorted` (sorted by subscription), in the order
  /// of their instants (then status and subscription, so that the order is total). Out of
  /// line: only histories with Apple's statuses need it.
  @inline(never)
  private static func statuses(
    of subscriptions: Set<OriginalTransactionID>, in sorted: [AppleStatusReport]
  ) -> [AppleStatusReport] {
    var found = values(of: subscriptions, in: sorted, \.originalTransactionID)
    found.sort {
      ($0.at, $0.rawStatus, $0.originalTransactionID)
        < ($1.at, $1.rawStatus, $1.originalTransactionID)
    }
    return found
  }

  /// The window lengths after a period that `entries[index]` ends: production ones, or in the
  /// sandbox scaled by the ratio of its product (its catalog duration, else the duration its
  /// observed length stands for, else the 1-month row; SPEC §7, DESIGN.md "Sandbox windows").
  /// The entry is read only in the sandbox.
  private static func windowLengths(
    ending index: Int, of entries: [ReceiptEntry], _ environment: StoreEnvironment,
    catalog: ProductCatalog, policy: Policy
  ) -> WindowLengths {
    policy.windowLengths(in: environment) {
      let entry = entries[index]
      if let duration = ProductClassification.duration(of: entry, catalog: catalog) {
        return duration
      }
      guard let purchase = entry.purchaseDate, let expires = entry.expiresDate,
        case .recognized(let observed) = policy.sandboxProfile.productionDuration(
          forObserved: expires - purchase)
      else { return nil }
      return observed
    }
  }
}
