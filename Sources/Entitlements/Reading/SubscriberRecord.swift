/// Everything known about one subscriber, folded from any number of documents in any order.
///
/// The App Store retries notifications and may deliver them out of order, and a backend
/// re-verifies receipts; folding the same documents in any order, any number of times, gives
/// the same record (SPEC §3):
/// - entries are keyed by `transaction_id`; when two documents disagree about one, the newer
///   document wins (its ``PurchaseDocument/timestamp``), so a reversed refund comes back;
///   within one timestamp the record carrying a `cancellation_date` wins;
/// - renewal info is kept per `original_transaction_id`, the newest document's;
/// - recovery and upgrade evidence and diagnostics accumulate as sets; an upgrade marks the
///   subscription's other entries covering its instant as upgraded (``UpgradeEvidence``).
///
/// ```swift
/// var record = SubscriberRecord()
/// for body in notifications.shuffled() { record.fold(try DocumentReader.read(body)) }
/// Evaluator(catalog: catalog).evaluate(record.history)
/// ```
public struct SubscriberRecord: Hashable, Sendable {
  private struct Dated<Value: Hashable & Sendable>: Hashable, Sendable {
    var value: Value
    var timestamp: Instant
  }

  private var entries: [TransactionID: Dated<ReceiptEntry>] = [:]
  private var renewalInfo: [OriginalTransactionID: Dated<RenewalInfo>] = [:]
  private var recoveries: Set<BillingRecovery> = []
  private var upgrades: Set<UpgradeEvidence> = []
  private var diagnostics: Set<Diagnostic> = []
  private var environment: Dated<StoreEnvironment>?

  /// An empty record.
  public init() {}

  /// Folds one document into the record.
  ///
  /// - Parameter document: A document from ``DocumentReader`` or any reader.
  /// - Complexity: O(n) for the document's n entries.
  public mutating func fold(_ document: some PurchaseDocument) {
    let timestamp = document.timestamp ?? .distantPast
    for entry in document.entries {
      let candidate = Dated(value: entry, timestamp: timestamp)
      if let kept = entries[entry.transactionID], !Self.entryPrecedes(kept, candidate) {
        continue
      }
      entries[entry.transactionID] = candidate
    }
    for info in document.renewalInfo {
      let candidate = Dated(value: info, timestamp: timestamp)
      if let kept = renewalInfo[info.originalTransactionID],
        kept.timestamp > candidate.timestamp
          || (kept.timestamp == candidate.timestamp
            && !RenewalInfo.precedes(candidate.value, kept.value))
      {
        continue
      }
      renewalInfo[info.originalTransactionID] = candidate
    }
    recoveries.formUnion(document.billingRecoveries)
    upgrades.formUnion(document.upgrades)
    diagnostics.formUnion(document.diagnostics)
    if let found = document.environment {
      let candidate = Dated(value: found, timestamp: timestamp)
      if let kept = environment,
        (kept.timestamp, kept.value.rawValue) >= (candidate.timestamp, candidate.value.rawValue)
      {
        return
      }
      environment = candidate
    }
  }

  /// Whether `a` loses to `b`: older, or as old without a cancellation that `b` has, or by a
  /// fixed order of the fields.
  private static func entryPrecedes(_ a: Dated<ReceiptEntry>, _ b: Dated<ReceiptEntry>) -> Bool {
    if a.timestamp != b.timestamp { return a.timestamp < b.timestamp }
    let aCancelled = a.value.cancellationDate != nil
    let bCancelled = b.value.cancellationDate != nil
    if aCancelled != bCancelled { return bCancelled }
    return ReceiptEntry.canonicallyPrecedes(a.value, b.value)
  }

  /// The record as the input of ``Evaluator/evaluate(_:)``, in a fixed order.
  ///
  /// - Complexity: O(n log n + u log u) for n entries and u upgrade evidences.
  public var history: PurchaseHistory {
    let upgradesBySubscription = Dictionary(grouping: upgrades, by: \.originalTransactionID)
      .mapValues { $0.sorted { $0.upgradedAt < $1.upgradedAt } }
    return PurchaseHistory(
      entries: entries.values.map { Self.markUpgraded($0.value, upgradesBySubscription) }
        .sorted(by: ReceiptEntry.canonicallyPrecedes),
      renewalInfo: renewalInfo.keys.sorted().compactMap { renewalInfo[$0]?.value },
      billingRecoveries: recoveries.sorted {
        ($0.renewedAt, $0.originalTransactionID) < ($1.renewedAt, $1.originalTransactionID)
      },
      environment: environment?.value ?? .production)
  }

  /// The entry, marked `is_upgraded` when upgrade evidence of its subscription (by
  /// subscription, each in order of instant) falls inside it.
  ///
  /// The evidence inside the entry is found by a binary search: a scan of all of it for each
  /// entry took time quadratic in the record's size (20 000 entries and as many evidences:
  /// 0.94 s; issue: performance, "no quadratic path").
  private static func markUpgraded(
    _ entry: ReceiptEntry, _ upgradesBySubscription: [OriginalTransactionID: [UpgradeEvidence]]
  ) -> ReceiptEntry {
    guard !entry.isUpgraded, let purchase = entry.purchaseDate, let expires = entry.expiresDate,
      let upgrades = upgradesBySubscription[entry.originalTransactionID]
    else { return entry }
    var index = upgrades.partitionPoint { $0.upgradedAt > purchase }
    // The evidence of an upgrade to this entry itself does not mark it; any other does.
    while index < upgrades.count, upgrades[index].upgradedAt < expires,
      upgrades[index].newTransactionID == entry.transactionID
    {
      index += 1
    }
    guard index < upgrades.count, upgrades[index].upgradedAt < expires else { return entry }
    var marked = entry
    marked.isUpgraded = true
    return marked
  }

  /// Every field the folded documents could not read, in a fixed order.
  public var readingDiagnostics: [Diagnostic] { diagnostics.sorted() }
}
