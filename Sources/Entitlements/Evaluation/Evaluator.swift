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
    let (entries, duplicateDiagnostics) = Deduplication.deduplicate(history.entries)
    if !duplicateDiagnostics.isEmpty { diagnostics += duplicateDiagnostics }
    let renewalInfo = Self.renewalInfoBySubscription(history.renewalInfo, &diagnostics)

    var purchaseEvents: [PurchaseEvent] = []
    // Each group holds one unevaluated coverage record per entry (its index and type), which
    // the coverage rules then evaluate in place: no other per-entry list is made.
    var groups: [EntitlementID: (records: [CoverageRecord], diagnostics: [Diagnostic])] = [:]
    // Catalog products met so far: a history has a handful, so a short scan (identical
    // strings compare by pointer) beats hashing every entry's product id.
    var known: [Product] = []
    // Runs of one entitlement are the norm: the current group stays out of the dictionary.
    var currentID: EntitlementID?
    var current: (records: [CoverageRecord], diagnostics: [Diagnostic]) = ([], [])
    for index in entries.indices {
      var entryDiagnostics: [Diagnostic] = []
      // The catalog decides a listed product's type and entitlement (SPEC §2).
      let itemType: ProductType?
      let entitlement: EntitlementID
      if let slot = known.firstIndex(where: { $0.id == entries[index].productID }) {
        (itemType, entitlement) = (known[slot].type, known[slot].entitlement)
      } else if !catalog.isEmpty, let product = catalog[entries[index].productID] {
        if known.count < 8 {
          if known.isEmpty { known.reserveCapacity(8) }  // one allocation, not regrowth
          known.append(product)
        }
        (itemType, entitlement) = (product.type, product.entitlement)
      } else {
        (itemType, entitlement) = ProductClassification.classify(
          entries[index], catalog: catalog, diagnostics: &entryDiagnostics)
      }
      guard let type = itemType, type != .consumable else {
        if !entryDiagnostics.isEmpty { diagnostics += entryDiagnostics }
        purchaseEvents.append(PurchaseEvent(entry: entries[index], productType: itemType))
        continue
      }
      if entitlement != currentID {
        if let currentID { groups[currentID] = current }
        currentID = entitlement
        current = groups.isEmpty ? ([], []) : groups.removeValue(forKey: entitlement) ?? ([], [])
        // The first entitlement usually takes every remaining entry: no regrowth.
        if groups.isEmpty { current.records.reserveCapacity(entries.count - index) }
      }
      current.records.append(CoverageRecord(unevaluated: index, productType: type))
      if !entryDiagnostics.isEmpty { current.diagnostics += entryDiagnostics }
    }
    if !renewalInfo.isEmpty {
      var knownSubscriptions = Set<OriginalTransactionID>()
      var previous: OriginalTransactionID?
      for index in entries.indices where entries[index].originalTransactionID != previous {
        knownSubscriptions.insert(entries[index].originalTransactionID)
        previous = entries[index].originalTransactionID
      }
      for subscription in renewalInfo.keys.sorted()
      where !knownSubscriptions.contains(subscription) {
        diagnostics.append(
          Diagnostic(
            .renewalInfoWithoutEntries, originalTransactionID: subscription,
            field: "original_transaction_id",
            message: "renewal info matches no receipt entry; it describes nothing evaluated"))
      }
    }

    func evaluateGroup(
      _ id: EntitlementID, _ group: inout (records: [CoverageRecord], diagnostics: [Diagnostic])
    ) -> EntitlementEvaluation {
      // In place: the group's list is the only reference to its records, so they are
      // evaluated without a copy.
      let evaluation = evaluateEntitlement(
        id, &group.records, source: entries, diagnostics: group.diagnostics,
        renewalInfo: renewalInfo, history: history)
      if !evaluation.diagnostics.isEmpty { diagnostics += evaluation.diagnostics }
      return evaluation
    }
    // One entitlement is the norm: it needs no dictionary and no list of groups.
    let entitlements: [EntitlementEvaluation]
    if let currentID, groups.isEmpty {
      entitlements = [evaluateGroup(currentID, &current)]
    } else {
      if let currentID { groups[currentID] = current }
      entitlements = groups.keys.sorted().map { id in
        var group = groups.removeValue(forKey: id) ?? ([], [])
        return evaluateGroup(id, &group)
      }
    }
    return Evaluation(
      entitlements: entitlements, purchaseEvents: purchaseEvents,
      diagnostics: diagnostics.sorted())
  }

  private func evaluateEntitlement(
    _ id: EntitlementID, _ records: inout [CoverageRecord], source: [ReceiptEntry],
    diagnostics: [Diagnostic], renewalInfo: [OriginalTransactionID: RenewalInfo],
    history: PurchaseHistory
  ) -> EntitlementEvaluation {
    var diagnostics = diagnostics
    CoverageRules.cover(
      &records, in: source, catalog: catalog, policy: policy, diagnostics: &diagnostics)
    let (periods, layout) = PeriodRules.periods(
      of: records, in: source, minimumLapse: policy.minimumLapse)
    let coverage = CoverageList(entries: source, records: records)
    let lengths = layout.last.map { index in
      windowLengths(
        endingWith: records[index].entryIndex, of: source, environment: history.environment)
    }
    let recoveries: [BillingRecovery]
    if history.billingRecoveries.isEmpty {
      recoveries = []
    } else {
      let subscriptions = Set(records.map { source[$0.entryIndex].originalTransactionID })
      recoveries = history.billingRecoveries.filter {
        subscriptions.contains($0.originalTransactionID)
      }
    }
    let lapses = LapseRules.lapses(
      between: periods, coverage: coverage, renewalInfo: renewalInfo, recoveries: recoveries,
      windowLengths: lengths)
    let lastInfo = layout.last.last.flatMap {
      renewalInfo.isEmpty ? nil : renewalInfo[source[records[$0].entryIndex].originalTransactionID]
    }
    var windows: [RenewalWindows] = []
    windows.reserveCapacity(periods.count)
    for index in periods.indices {
      let expiresAt = periods[index].interval.end  // in place: no copy of the period
      guard records[layout.last[index]].productType == .autoRenewable,
        !expiresAt.isDistantFuture
      else { continue }
      let isLast = index == periods.count - 1
      windows.append(
        RenewalWindows(
          expiresAt: expiresAt, lengths: lengths[index],
          gracePeriodExpiresDate: isLast ? lastInfo?.gracePeriodExpiresDate : nil))
    }
    return EntitlementEvaluation(
      id: id, coverage: coverage, periods: periods, layout: layout, lapses: lapses,
      windows: windows,
      renewalInfo: lastInfo,
      continuousSubscriptionStart: ContinuousSubscription.start(
        of: periods, environment: history.environment),
      diagnostics: diagnostics.sorted(),
      billingRetryLimit: lengths.last?.billingRetry ?? policy.billingRetryLimit,
      unlockAtStart: policy.unlockAtStart)
  }

  /// The window lengths after a period: production ones, or in the sandbox scaled by the ratio
  /// of the product that ends the period (its catalog duration, else the duration its observed
  /// length stands for, else the 1-month row; SPEC §7, DESIGN.md "Sandbox windows").
  /// The entry is read only then: in production no entry is copied.
  private func windowLengths(
    endingWith entryIndex: Int, of source: [ReceiptEntry], environment: Environment
  ) -> WindowLengths {
    policy.windowLengths(in: environment) {
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

  /// One renewal info per subscription; disagreeing duplicates keep a fixed one and are
  /// reported.
  private static func renewalInfoBySubscription(
    _ infos: [RenewalInfo], _ diagnostics: inout [Diagnostic]
  ) -> [OriginalTransactionID: RenewalInfo] {
    var result: [OriginalTransactionID: RenewalInfo] = [:]
    var conflicting = Set<OriginalTransactionID>()
    for info in infos {
      guard let kept = result[info.originalTransactionID] else {
        result[info.originalTransactionID] = info
        continue
      }
      guard kept != info else { continue }
      conflicting.insert(info.originalTransactionID)
      if String(reflecting: info) < String(reflecting: kept) {
        result[info.originalTransactionID] = info
      }
    }
    for subscription in conflicting.sorted() {
      diagnostics.append(
        Diagnostic(
          .conflictingRenewalInfo, originalTransactionID: subscription,
          field: "pending_renewal_info",
          message:
            "several renewal infos disagree; one was kept. Give only the newest "
            + "(the subscriber record of the reading layer does this)"))
    }
    return result
  }
}
