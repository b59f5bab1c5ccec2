/// The one entry point a backend calls: a customer's purchase history in, an evaluation per
/// entitlement out.
///
/// Pure and deterministic: no I/O, no clock, no global state. The same history gives the same
/// evaluation whatever the order of its entries, and an entry given twice counts once.
///
/// ```swift
/// let evaluator = Evaluator(
///   catalog: ProductCatalog([
///     Product(id: "com.example.magazine.monthly", type: .autoRenewable,
///             duration: CalendarPeriod(1, .month), entitlement: "magazine")
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
  /// - Complexity: O(n log n) for n entries.
  public func evaluate(_ history: PurchaseHistory) -> Evaluation {
    var diagnostics: [Diagnostic] = []
    // Deduplication (SPEC §3) asks for its proofs that the ids increase of the classification
    // (Evaluator+Classification.swift), which makes them as it passes over the entries: the
    // usual history, in canonical order with increasing ids, is read once and neither sorted
    // nor deduplicated. Out-of-order entries are read in their own order into what the
    // classification reads of them, in buckets of instants it reads in canonical order
    // (``CanonicalEntries``; records keep indices into `entries`, so the input is never
    // copied). Only when no proof holds are the entries deduplicated and classified again.
    //
    // With renewal info, the pass also notes each group's latest end per subscription
    // (``KnownSubscriptions``): the lapse rules and the check that each renewal info matches
    // an entry then read no entry again.
    var classified = Classification(minimumLapse: policy.minimumLapse)
    let catalog = catalog  // captured alone: capturing `self` copied the evaluator
    let tracksSubscriptions = !history.renewalInfo.isEmpty
    var deduplicated = Deduplication.deduplicate(
      history.entries,
      ordering: {
        CanonicalEntries.make($0, catalog: catalog, tracksSubscriptions: tracksSubscriptions)
      },
      provingWith: { canonical, proof in
        // An attempt that fails leaves `classified` empty for the next.
        return classify(
          history.entries, canonical: canonical, proving: proof,
          tracksSubscriptions: tracksSubscriptions, into: &classified)
      })
    if !deduplicated.diagnostics.isEmpty { diagnostics += deduplicated.diagnostics }
    let entries = deduplicated.entries
    if !deduplicated.isProved {
      let classifiedAll = classify(
        entries, canonical: deduplicated.order, proving: nil,
        tracksSubscriptions: tracksSubscriptions, into: &classified)
      precondition(classifiedAll, "classifying without a proof never stops")
    }
    // Freed now, before the periods are made: its memory is then theirs, and the heap does not
    // grow past what the allocator keeps between evaluations (at 10⁵ shuffled entries, about
    // 5 MB that would otherwise be fresh pages each time).
    deduplicated.order = nil
    if !classified.diagnostics.isEmpty { diagnostics += classified.diagnostics }
    let renewalInfo = RenewalInfoTable(history.renewalInfo, diagnostics: &diagnostics)
    // The subscriptions the pass gave a slot to: all of them, unless there were too many.
    let subscriptions =
      tracksSubscriptions && classified.subscriptions.isComplete ? classified.subscriptions : nil
    if !renewalInfo.isEmpty {
      // The entries' subscriptions: the pass's few slots, or else a set made of the entries.
      var knownSubscriptions = Set<OriginalTransactionID>()
      if subscriptions == nil {
        var previous: OriginalTransactionID?
        for index in entries.indices where entries[index].originalTransactionID != previous {
          knownSubscriptions.insert(entries[index].originalTransactionID)
          previous = entries[index].originalTransactionID
        }
      }
      for index in renewalInfo.infos.indices {
        let subscription = renewalInfo.infos[index].originalTransactionID
        let isKnown =
          subscriptions?.contains(subscription, in: entries)
          ?? knownSubscriptions.contains(subscription)
        guard !isKnown else { continue }
        diagnostics.append(
          Diagnostic(
            .renewalInfoWithoutEntries, originalTransactionID: subscription,
            field: "original_transaction_id",
            message: "renewal info matches no receipt entry; it describes nothing evaluated"))
      }
    }

    // The recovery evidence by subscription, sorted once: each entitlement then finds its
    // own by a search per subscription (``recoveries(of:in:)``).
    let recoveries =
      history.billingRecoveries.count < 2
      ? history.billingRecoveries
      : history.billingRecoveries.sorted { $0.originalTransactionID < $1.originalTransactionID }
    // Reads `diagnostics` and `renewalInfo` without capturing them: a captured variable is
    // boxed, and each access to the box was checked at run time.
    func evaluateGroup(
      _ id: EntitlementID, _ group: inout EntitlementGroup,
      renewalInfo: RenewalInfoTable, diagnostics: inout [Diagnostic]
    ) -> EntitlementEvaluation {
      // In place: the group's list is the only reference to its records, so they are
      // evaluated again (when an upgrade needed later entries) without a copy.
      let evaluation = evaluateEntitlement(
        id, &group, source: entries, renewalInfo: renewalInfo, subscriptions: subscriptions,
        recoveries: recoveries, history: history)
      if !evaluation.diagnostics.isEmpty { diagnostics += evaluation.diagnostics }
      return evaluation
    }
    // One entitlement is the norm: it needs no dictionary and no list of groups.
    let entitlements: [EntitlementEvaluation]
    if let currentID = classified.currentID, classified.groups.isEmpty {
      entitlements = [
        evaluateGroup(
          currentID, &classified.current, renewalInfo: renewalInfo, diagnostics: &diagnostics)
      ]
    } else {
      if let currentID = classified.currentID {
        classified.groups[currentID] = classified.current
        classified.current = EntitlementGroup(minimumLapse: policy.minimumLapse)
      }
      entitlements = classified.groups.keys.sorted().map { id in
        guard var group = classified.groups.removeValue(forKey: id) else {
          preconditionFailure("every sorted key has a group")
        }
        return evaluateGroup(id, &group, renewalInfo: renewalInfo, diagnostics: &diagnostics)
      }
    }
    return Evaluation(
      entitlements: entitlements, purchaseEvents: classified.purchaseEvents,
      diagnostics: Self.sorted(diagnostics))
  }

  /// The diagnostics in their fixed order; none or one, the usual case, need no sort.
  private static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.count < 2 ? diagnostics : diagnostics.sorted()
  }

  /// The evaluation of one entitlement's group. `subscriptions`, when the pass tracked every
  /// entry's subscription, are the slots of the group's
  /// ``EntitlementGroup/subscriptionEnds``.
  private func evaluateEntitlement(
    _ id: EntitlementID, _ group: inout EntitlementGroup, source: [ReceiptEntry],
    renewalInfo: RenewalInfoTable, subscriptions: KnownSubscriptions?,
    recoveries sortedRecoveries: [BillingRecovery], history: PurchaseHistory
  ) -> EntitlementEvaluation {
    // The periods merged as the records were made, unless they are merged now (the records
    // were made again, or were past the group's limit of periods: EntitlementGroup).
    var merged: [PeriodRules.Layout.Span]?
    // The latest end per subscription, as the pass noted it: only while the records are as
    // the pass made them.
    var lastEnds: [(OriginalTransactionID, Instant)]?
    if group.cursor.isComplete {
      merged = group.merger.finish(end: group.records.count)
      if !renewalInfo.isEmpty, let subscriptions {
        lastEnds = (0..<subscriptions.count).compactMap { slot in
          group.subscriptionEnds[slot] == .distantPast
            ? nil : (subscriptions.id(at: slot, in: source), group.subscriptionEnds[slot])
        }
      }
    } else {
      CoverageRules.cover(
        &group.records, in: source, catalog: catalog, policy: policy, cursor: &group.cursor)
    }
    var diagnostics = group.diagnostics
    if !group.cursor.diagnostics.isEmpty { diagnostics += group.cursor.diagnostics }
    let records = group.records
    let (periods, layout) = PeriodRules.periods(
      of: records, in: source, minimumLapse: policy.minimumLapse, merged: merged)
    let coverage = CoverageList(entries: source, records: records)
    // The window lengths after each period, made when asked: in production they are all the
    // same and read nothing; in the sandbox they read the record ending the period (at 10⁶
    // entries each such read is a cache miss, so no list of them is made up front).
    func lengths(after period: Int) -> WindowLengths {
      windowLengths(
        endingWith: layout.spans[period].ending.coverageIndex, of: records, in: source,
        environment: history.environment)
    }
    let recoveries: [BillingRecovery]
    if sortedRecoveries.isEmpty {
      recoveries = []
    } else {
      let subscriptions = Set(records.map { source[$0.entryIndex].originalTransactionID })
      recoveries = Self.recoveries(of: subscriptions, in: sortedRecoveries)
    }
    let lapses = LapseRules.lapses(
      between: periods, coverage: coverage, refunded: group.cursor.refunded,
      renewalInfo: renewalInfo, recoveries: recoveries,
      billingRetryAfter: { lengths(after: $0).billingRetry }, lastEnds: lastEnds)
    let lastInfo = layout.spans.last.flatMap { span in
      renewalInfo.isEmpty
        ? nil
        : renewalInfo[
          source[records[Self.describedRecord(of: span, in: layout, records)].entryIndex]
            .originalTransactionID]
    }
    let gracePeriod = periods.last.flatMap {
      Self.gracePeriod(
        after: $0.interval.end, of: records, in: source, renewalInfo: renewalInfo,
        described: lastInfo?.originalTransactionID)
    }
    var windows: [RenewalWindows] = []
    windows.reserveCapacity(periods.count)
    for index in periods.indices {
      let expiresAt = periods[index].interval.end  // in place: no copy of the period
      guard layout.spans[index].ending.productType == .autoRenewable,
        !expiresAt.isDistantFuture
      else { continue }
      let isLast = index == periods.count - 1
      windows.append(
        RenewalWindows(
          expiresAt: expiresAt, lengths: lengths(after: index),
          gracePeriodExpiresDate: isLast ? gracePeriod?.end : nil))
    }
    return EntitlementEvaluation(
      id: id, coverage: coverage, periods: periods, layout: layout, lapses: lapses,
      windows: windows,
      renewalInfo: lastInfo,
      gracePeriod: gracePeriod,
      continuousSubscriptionStart: ContinuousSubscription.start(
        of: periods, environment: history.environment),
      diagnostics: Self.sorted(diagnostics),
      billingRetryLimit: layout.spans.isEmpty
        ? policy.billingRetryLimit : lengths(after: layout.spans.count - 1).billingRetry,
      unlockAtStart: policy.unlockAtStart)
  }

  /// The recovery evidence of `subscriptions`, in `sorted` (all of a history's, by
  /// subscription), in no particular order: the lapse rules sort their instants.
  ///
  /// A search per subscription, not a pass over every recovery for each entitlement: that
  /// made a history of many subscriptions, each its own entitlement, with evidence for each,
  /// take time quadratic in its size (issue: performance, "no quadratic path").
  ///
  /// - Complexity: O(s log r + m) for s subscriptions, r recoveries and m found.
  private static func recoveries(
    of subscriptions: Set<OriginalTransactionID>, in sorted: [BillingRecovery]
  ) -> [BillingRecovery] {
    var found: [BillingRecovery] = []
    for subscription in subscriptions {
      var index = sorted.partitionPoint { $0.originalTransactionID >= subscription }
      while index < sorted.count, sorted[index].originalTransactionID == subscription {
        found.append(sorted[index])
        index += 1
      }
    }
    return found
  }

  /// The record whose subscription's renewal info describes the time after a period (SPEC §5,
  /// rules 5 and 6, and the last period's renewal; the grace period of rule 4 is that of any
  /// subscription: ``EntitlementEvaluation/gracePeriod``): the record that ends it, or, when a
  /// purchase of another type ends it (a non-renewing pass that ran past a subscription's
  /// expiry), the auto-renewable record in it that ends latest. Once the pass has run out,
  /// Apple's renewal info for that subscription still holds: it may still be in billing retry.
  /// When the period holds no auto-renewable record, the record that ends it.
  ///
  /// - Complexity: O(1) when an auto-renewable record ends the period; else O(k) for the k
  ///   records of the period.
  private static func describedRecord(
    of span: PeriodRules.Layout.Span, in layout: PeriodRules.Layout, _ records: [CoverageRecord]
  ) -> Int {
    guard span.ending.productType != .autoRenewable else { return span.ending.coverageIndex }
    var latest = span.ending.coverageIndex
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
  /// the renewal infos of the subscriptions of `records`, when later than `end`. `described`,
  /// the subscription whose info describes the last period, is one of them; any other is
  /// looked for among the records only when its grace ends later (rare: a subscription in
  /// grace).
  ///
  /// A history with more renewal infos than ``RenewalInfoTable/linearLimit`` has its infos
  /// looked up by the subscriptions of `records` instead, once per run of records of one
  /// subscription: read for every entitlement, every info of a history of many
  /// subscriptions, each its own entitlement, took time quadratic in its size (issue:
  /// performance, "no quadratic path").
  ///
  /// - Complexity: with at most ``RenewalInfoTable/linearLimit`` infos, O(1) per info, and
  ///   O(k) for each other one whose grace ends later, for the k records; with more, O(k log i)
  ///   for i infos.
  private static func gracePeriod(
    after end: Instant, of records: [CoverageRecord], in source: [ReceiptEntry],
    renewalInfo: RenewalInfoTable, described: OriginalTransactionID?
  ) -> Interval? {
    guard !renewalInfo.isEmpty, !end.isDistantFuture else { return nil }
    var graceEnd = end
    guard renewalInfo.infos.count <= RenewalInfoTable.linearLimit else {
      func extend(by subscription: OriginalTransactionID) {
        if let date = renewalInfo[subscription]?.gracePeriodExpiresDate, date > graceEnd {
          graceEnd = date
        }
      }
      if let described { extend(by: described) }
      var previous: OriginalTransactionID?
      for record in records where source[record.entryIndex].originalTransactionID != previous {
        previous = source[record.entryIndex].originalTransactionID
        if let previous { extend(by: previous) }
      }
      return graceEnd > end ? Interval(start: end, end: graceEnd) : nil
    }
    // Any order: the latest date wins. Read in place: a copy of an info retains its strings.
    for index in renewalInfo.infos.indices {
      guard let date = renewalInfo.infos[index].gracePeriodExpiresDate, date > graceEnd
      else { continue }
      let subscription = renewalInfo.infos[index].originalTransactionID
      if subscription == described
        || records.contains(where: { source[$0.entryIndex].originalTransactionID == subscription })
      {
        graceEnd = date
      }
    }
    return graceEnd > end ? Interval(start: end, end: graceEnd) : nil
  }

  /// The window lengths after a period: production ones, or in the sandbox scaled by the ratio
  /// of the product that ends the period (its catalog duration, else the duration its observed
  /// length stands for, else the 1-month row; SPEC §7, DESIGN.md "Sandbox windows").
  /// The record and the entry are read only then: in production neither is.
  private func windowLengths(
    endingWith coverageIndex: Int, of records: [CoverageRecord], in source: [ReceiptEntry],
    environment: StoreEnvironment
  ) -> WindowLengths {
    policy.windowLengths(in: environment) {
      let entryIndex = records[coverageIndex].entryIndex
      if let duration = ProductClassification.duration(of: source[entryIndex], catalog: catalog) {
        return duration
      }
      guard let purchase = source[entryIndex].purchaseDate,
        let expires = source[entryIndex].expiresDate,
        case .recognized(let observed) = policy.sandboxProfile.productionDuration(
          forObserved: expires - purchase)
      else { return nil }
      return observed
    }
  }
}
