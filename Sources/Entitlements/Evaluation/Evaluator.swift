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
    diagnostics += duplicateDiagnostics
    let renewalInfo = Self.renewalInfoBySubscription(history.renewalInfo, &diagnostics)

    var purchaseEvents: [PurchaseEvent] = []
    var groups: [EntitlementID: (entries: [ClassifiedEntry], diagnostics: [Diagnostic])] = [:]
    var knownSubscriptions = Set<OriginalTransactionID>()
    for entry in entries {
      knownSubscriptions.insert(entry.originalTransactionID)
      var entryDiagnostics: [Diagnostic] = []
      let item = ProductClassification.classify(
        entry, catalog: catalog, diagnostics: &entryDiagnostics)
      guard let type = item.type, type != .consumable else {
        diagnostics += entryDiagnostics
        purchaseEvents.append(PurchaseEvent(entry: entry, productType: item.type))
        continue
      }
      groups[item.entitlement, default: ([], [])].entries.append(item)
      groups[item.entitlement, default: ([], [])].diagnostics += entryDiagnostics
    }
    for subscription in renewalInfo.keys.sorted() where !knownSubscriptions.contains(subscription) {
      diagnostics.append(
        Diagnostic(
          .renewalInfoWithoutEntries, originalTransactionID: subscription,
          field: "original_transaction_id",
          message: "renewal info matches no receipt entry; it describes nothing evaluated"))
    }

    let entitlements = groups.keys.sorted().map { id -> EntitlementEvaluation in
      let group = groups[id] ?? ([], [])
      let evaluation = evaluateEntitlement(
        id, group.entries, diagnostics: group.diagnostics, renewalInfo: renewalInfo,
        history: history)
      diagnostics += evaluation.diagnostics
      return evaluation
    }
    return Evaluation(
      entitlements: entitlements, purchaseEvents: purchaseEvents,
      diagnostics: diagnostics.sorted())
  }

  private func evaluateEntitlement(
    _ id: EntitlementID, _ entries: [ClassifiedEntry], diagnostics: [Diagnostic],
    renewalInfo: [OriginalTransactionID: RenewalInfo], history: PurchaseHistory
  ) -> EntitlementEvaluation {
    var diagnostics = diagnostics
    let coverage = CoverageRules.coverage(of: entries, policy: policy, diagnostics: &diagnostics)
    let periods = PeriodRules.periods(of: coverage, minimumLapse: policy.minimumLapse)
    let byTransaction = Dictionary(
      coverage.map { ($0.entry.transactionID, $0) }, uniquingKeysWith: { first, _ in first })
    let durations = Dictionary(
      entries.map { ($0.entry.transactionID, $0.duration) }, uniquingKeysWith: { first, _ in first }
    )
    let lengths = periods.map { period in
      windowLengths(
        endingWith: byTransaction[period.lastTransactionID]?.entry,
        duration: durations[period.lastTransactionID] ?? nil, environment: history.environment)
    }
    let subscriptions = Set(entries.map(\.entry.originalTransactionID))
    let lapses = LapseRules.lapses(
      between: periods, coverage: coverage, renewalInfo: renewalInfo,
      recoveries: history.billingRecoveries.filter {
        subscriptions.contains($0.originalTransactionID)
      },
      retryLimits: lengths.map(\.billingRetry))
    let lastInfo = periods.last
      .flatMap { byTransaction[$0.lastTransactionID] }
      .flatMap { renewalInfo[$0.entry.originalTransactionID] }
    let windows = periods.indices.compactMap { index -> RenewalWindows? in
      let period = periods[index]
      guard byTransaction[period.lastTransactionID]?.productType == .autoRenewable,
        !period.interval.end.isDistantFuture
      else { return nil }
      let isLast = index == periods.count - 1
      return RenewalWindows(
        expiresAt: period.interval.end, lengths: lengths[index],
        gracePeriodExpiresDate: isLast ? lastInfo?.gracePeriodExpiresDate : nil)
    }
    return EntitlementEvaluation(
      id: id, coverage: coverage, periods: periods, lapses: lapses, windows: windows,
      renewalInfo: lastInfo,
      continuousSubscriptionStart: ContinuousSubscription.start(
        of: periods, environment: history.environment),
      diagnostics: diagnostics.sorted(),
      billingRetryLimit: lengths.last?.billingRetry ?? policy.billingRetryLimit,
      unlockAtStart: policy.unlockAtStart,
      purchases: entries.map(\.entry).filter { $0.purchaseDate != nil })
  }

  /// The window lengths after a period: production ones, or in the sandbox scaled by the ratio
  /// of the product that ends the period (its catalog duration, else the duration its observed
  /// length stands for, else the 1-month row; SPEC §7, DESIGN.md "Sandbox windows").
  private func windowLengths(
    endingWith entry: ReceiptEntry?, duration: CalendarPeriod?, environment: Environment
  ) -> WindowLengths {
    let production = WindowLengths(billingRetryLimit: policy.billingRetryLimit)
    guard environment == .sandbox, policy.scalesSandboxWindows else { return production }
    var duration = duration
    if duration == nil, let purchase = entry?.purchaseDate, let expires = entry?.expiresDate,
      case .recognized(let observed) = policy.sandboxProfile.productionDuration(
        forObserved: expires - purchase)
    {
      duration = observed
    }
    return production.scaled(by: policy.sandboxProfile, for: duration)
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
