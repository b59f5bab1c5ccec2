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
    // The usual history is in canonical order with increasing ids: classifying proves it as it
    // passes over the entries, so nothing is sorted or deduplicated and the entries are read
    // once. Else they are deduplicated (SPEC §3) and classified again.
    // Out-of-order entries are read in canonical order through a list of indices (records keep
    // indices into `entries`, so the input is never copied), proving as they are classified
    // that their ids increase in that order: then no two are the same purchase.
    var entries = history.entries
    var classified = Classification(minimumLapse: policy.minimumLapse)
    if !classify(entries, in: nil, proving: .orderAndIDs, into: &classified) {
      let order = Deduplication.canonicalOrder(entries)
      classified = Classification(minimumLapse: policy.minimumLapse)
      if !classify(entries, in: order, proving: .ids, into: &classified) {
        let deduplicated = Deduplication.deduplicate(entries, in: order)
        if !deduplicated.diagnostics.isEmpty { diagnostics += deduplicated.diagnostics }
        entries = deduplicated.entries
        classified = Classification(minimumLapse: policy.minimumLapse)
        let classifiedAll = classify(
          entries, in: deduplicated.order, proving: nil, into: &classified)
        precondition(classifiedAll, "classifying without a proof never stops")
      }
    }
    if !classified.diagnostics.isEmpty { diagnostics += classified.diagnostics }
    let renewalInfo = Self.renewalInfoBySubscription(history.renewalInfo, &diagnostics)
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

    func evaluateGroup(_ id: EntitlementID, _ group: inout EntitlementGroup)
      -> EntitlementEvaluation
    {
      // In place: the group's list is the only reference to its records, so they are
      // evaluated again (when an upgrade needed later entries) without a copy.
      let evaluation = evaluateEntitlement(
        id, &group, source: entries, renewalInfo: renewalInfo, history: history)
      if !evaluation.diagnostics.isEmpty { diagnostics += evaluation.diagnostics }
      return evaluation
    }
    // One entitlement is the norm: it needs no dictionary and no list of groups.
    let entitlements: [EntitlementEvaluation]
    if let currentID = classified.currentID, classified.groups.isEmpty {
      entitlements = [evaluateGroup(currentID, &classified.current)]
    } else {
      if let currentID = classified.currentID {
        classified.groups[currentID] = classified.current
        classified.current = EntitlementGroup(minimumLapse: policy.minimumLapse)
      }
      entitlements = classified.groups.keys.sorted().map { id in
        guard var group = classified.groups.removeValue(forKey: id) else {
          preconditionFailure("every sorted key has a group")
        }
        return evaluateGroup(id, &group)
      }
    }
    return Evaluation(
      entitlements: entitlements, purchaseEvents: classified.purchaseEvents,
      diagnostics: diagnostics.sorted())
  }

  /// What classifying a history gives: purchase events, what could not be grouped, and one
  /// group per entitlement.
  private struct Classification {
    var purchaseEvents: [PurchaseEvent] = []
    var diagnostics: [Diagnostic] = []
    var groups: [EntitlementID: EntitlementGroup] = [:]
    /// Runs of one entitlement are the norm: the current group stays out of the dictionary.
    var currentID: EntitlementID?
    var current: EntitlementGroup

    init(minimumLapse: FixedDuration) {
      current = EntitlementGroup(minimumLapse: minimumLapse)
    }
  }

  /// What classifying proves of the entries as it reads them.
  private enum Proof {
    /// That they are in canonical order with increasing ids: they need no sorting and hold no
    /// duplicate.
    case orderAndIDs
    /// That their ids increase in the order they are read in: they hold no duplicate.
    case ids
  }

  /// Gives each entry a type and an entitlement (SPEC §2) and evaluates its coverage record in
  /// the same pass (SPEC §4), reading the entries in `order` (canonical order; `nil` when the
  /// entries are in it). With a proof (``Deduplication/IncreasingIDs``), stops with `false` at
  /// the first entry that breaks it. Fills `result`, which starts empty (a returned value
  /// would be copied, with every list in it retained).
  private func classify(
    _ entries: [ReceiptEntry], in order: [Int]?, proving: Proof?,
    into result: inout Classification
  ) -> Bool {
    // Fields are read in place: reading through `[ReceiptEntry]` may copy a whole entry.
    entries.withUnsafeBufferPointer { entries in
      let provingOrder = proving != nil
      var proof = Deduplication.IncreasingIDs(checkingOrder: proving == .orderAndIDs)
      // Catalog products met so far: a history has a handful, so a short scan (identical
      // strings compare by pointer) beats hashing every entry's product id.
      var known: [Product] = []
      // Read through an order, the entries are scattered in memory: each would be a cache miss
      // waiting on the one before. They are touched a few at a time first (``warm(_:_:)``).
      var warmed = 0
      var warmth = 0
      for position in entries.indices {
        if let order, position == warmed {
          warmed = min(entries.count, position + Self.warmedAhead)
          warmth &+= Self.warm(entries, order[position..<warmed])
        }
        let index = order?[position] ?? position
        if provingOrder, !proof.admits(entries, index) { return false }
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
          if !entryDiagnostics.isEmpty { result.diagnostics += entryDiagnostics }
          result.purchaseEvents.append(PurchaseEvent(entry: entries[index], productType: itemType))
          continue
        }
        if entitlement != result.currentID {
          if let currentID = result.currentID { result.groups[currentID] = result.current }
          result.currentID = entitlement
          result.current =
            result.groups.isEmpty
            ? EntitlementGroup(minimumLapse: policy.minimumLapse)
            : result.groups.removeValue(forKey: entitlement)
              ?? EntitlementGroup(minimumLapse: policy.minimumLapse)
          // The first entitlement usually takes every remaining entry: no regrowth.
          if result.groups.isEmpty {
            result.current.records.reserveCapacity(entries.count - position)
          }
        }
        // Later entries are not known yet: an upgrade that needs them leaves the group's
        // cursor incomplete, and the group is evaluated again once they are.
        result.current.append(
          CoverageRules.record(
            of: index, as: type, at: result.current.records.count, in: entries,
            catalog: catalog, policy: policy, cursor: &result.current.cursor, starts: nil))
        if !entryDiagnostics.isEmpty { result.current.diagnostics += entryDiagnostics }
      }
      // The sum of the warming loads is used, so that they are not optimized away.
      if warmth == Int.min { result.diagnostics.reserveCapacity(1) }
      return true
    }
  }

  /// How many entries ``warm(_:_:)`` touches at a time: enough misses to keep the memory
  /// system busy, few enough that they are still cached when classified.
  private static let warmedAhead = 16

  /// Touches every cache line of `entries[index]` for each index, and returns a sum of the
  /// bytes read (for the caller to use, so that the loads are kept).
  ///
  /// A tight loop of independent loads has many cache misses in flight at once; the same loads
  /// made one entry at a time by the classification each wait for the last. Read in a
  /// shuffled history's canonical order, classifying 10⁵ entries took 14 ms with no warming
  /// and about 7 ms with it (issue: performance). The bytes read are at most 63 apart, so
  /// every 64-byte line an entry spans is touched.
  @inline(never)
  private static func warm(
    _ entries: UnsafeBufferPointer<ReceiptEntry>, _ indices: ArraySlice<Int>
  ) -> Int {
    guard let base = entries.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let stride = MemoryLayout<ReceiptEntry>.stride
    let size = MemoryLayout<ReceiptEntry>.size
    var sum = 0
    for index in indices {
      let entry = raw + index * stride
      sum &+= Int(entry.load(fromByteOffset: 0, as: UInt8.self))
      sum &+= Int(entry.load(fromByteOffset: 63, as: UInt8.self))
      sum &+= Int(entry.load(fromByteOffset: 126, as: UInt8.self))
      sum &+= Int(entry.load(fromByteOffset: size - 1, as: UInt8.self))
    }
    return sum
  }

  private func evaluateEntitlement(
    _ id: EntitlementID, _ group: inout EntitlementGroup, source: [ReceiptEntry],
    renewalInfo: [OriginalTransactionID: RenewalInfo], history: PurchaseHistory
  ) -> EntitlementEvaluation {
    // The periods merged as the records were made, unless the records were made again.
    var merged: [PeriodRules.Layout.Span]?
    if group.cursor.isComplete {
      merged = group.merger.finish(end: group.records.count)
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
    if history.billingRecoveries.isEmpty {
      recoveries = []
    } else {
      let subscriptions = Set(records.map { source[$0.entryIndex].originalTransactionID })
      recoveries = history.billingRecoveries.filter {
        subscriptions.contains($0.originalTransactionID)
      }
    }
    let lapses = LapseRules.lapses(
      between: periods, coverage: coverage, refunded: group.cursor.refunded,
      renewalInfo: renewalInfo, recoveries: recoveries,
      billingRetryAfter: { lengths(after: $0).billingRetry })
    let lastInfo = layout.spans.last.flatMap {
      renewalInfo.isEmpty
        ? nil
        : renewalInfo[source[records[$0.ending.coverageIndex].entryIndex].originalTransactionID]
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
          gracePeriodExpiresDate: isLast ? lastInfo?.gracePeriodExpiresDate : nil))
    }
    return EntitlementEvaluation(
      id: id, coverage: coverage, periods: periods, layout: layout, lapses: lapses,
      windows: windows,
      renewalInfo: lastInfo,
      continuousSubscriptionStart: ContinuousSubscription.start(
        of: periods, environment: history.environment),
      diagnostics: diagnostics.sorted(),
      billingRetryLimit: layout.spans.isEmpty
        ? policy.billingRetryLimit : lengths(after: layout.spans.count - 1).billingRetry,
      unlockAtStart: policy.unlockAtStart)
  }

  /// The window lengths after a period: production ones, or in the sandbox scaled by the ratio
  /// of the product that ends the period (its catalog duration, else the duration its observed
  /// length stands for, else the 1-month row; SPEC §7, DESIGN.md "Sandbox windows").
  /// The record and the entry are read only then: in production neither is.
  private func windowLengths(
    endingWith coverageIndex: Int, of records: [CoverageRecord], in source: [ReceiptEntry],
    environment: Environment
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
