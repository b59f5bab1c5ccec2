/// Everything known about one subscriber, folded from any number of documents in any order.
///
/// The App Store retries notifications and may deliver them out of order, pages of a
/// transaction history overlap, and a backend re-reads what it stored; folding the same
/// documents in any order, any number of times, gives the same record (SPEC §3, §10):
/// - entries are keyed by `transaction_id`; when two documents disagree about one, the newer
///   document wins (its ``PurchaseDocument/timestamp``; in a page, each transaction's or
///   notification's own), so a reversed refund comes back, its refund kept as a
///   ``ReversedRefund``;
///   within one timestamp the record carrying a `cancellation_date` wins, then the later in
///   canonical order (``ReceiptEntry/canonicallyPrecedes(_:_:)``);
/// - renewal info dated by Apple (``RenewalInfo/signedDate``) is kept, one per subscription
///   and instant: it is dated evidence, and the rules read each at its time (SPEC §5);
///   undated renewal info (verifyReceipt's) is kept per subscription from the newest
///   document;
/// - notifications, Apple's statuses, recovery and upgrade evidence and diagnostics
///   accumulate as sets; an upgrade marks the subscription's other entries covering its
///   instant as upgraded (``UpgradeEvidence``);
/// - the environment is the newest document's that names one.
///
/// ```swift
/// var record = SubscriberRecord()
/// for body in notifications.shuffled() { record.fold(try DocumentReader.read(body, verifier: verifier)) }
/// Evaluator(catalog: catalog).evaluate(record.history)
/// ```
public struct SubscriberRecord: Hashable, Sendable {
  /// The entries, in the order first met, with the timestamp of the document each came from.
  private var entries: [ReceiptEntry] = []
  private var entryTimestamps: [Instant] = []
  /// Where each transaction's entry is in ``entries``; built only once an entry comes whose
  /// transaction id is not larger than every id before it (see ``largestID``).
  private var positions: [CompactIdentifier: Int] = [:]
  /// While every entry's transaction id is a plain number larger than all before it (Apple
  /// numbers transactions in time order, and a history is read oldest first), the largest:
  /// an entry with a larger one is new, with no lookup. `nil` once ``positions`` is built.
  private var largestID: UInt64? = 0
  /// Dated renewal info by subscription and instant; undated by subscription, with its
  /// document's timestamp.
  private var datedInfos: [DatedKey: RenewalInfo] = [:]
  private var undatedInfos: [OriginalTransactionID: (info: RenewalInfo, timestamp: Instant)] = [:]
  private var recoveries: Set<BillingRecovery> = []
  private var upgrades: Set<UpgradeEvidence> = []
  private var notifications: Set<NotificationEvidence> = []
  private var appleStatuses: Set<AppleStatusReport> = []
  /// Every refunded version of a transaction met, with its document's timestamp: a newer
  /// version replaces it among the entries, and a `REFUND_REVERSED` notification then needs
  /// it (``ReversedRefund``). Refunds are rare: most records keep none.
  private var refundedVersions: Set<RefundedVersion> = []

  private struct RefundedVersion: Hashable, Sendable {
    let entry: ReceiptEntry
    let timestamp: Instant
  }
  private var diagnostics: Set<Diagnostic> = []
  private var newestEnvironment: (value: StoreEnvironment, timestamp: Instant)?

  private struct DatedKey: Hashable, Sendable {
    let subscription: OriginalTransactionID
    let signedDate: Instant
  }

  /// The instant this record knows documents up to (``init(knownAt:)``); `nil` for a record
  /// that takes in every document.
  ///
  /// ```swift
  /// SubscriberRecord(knownAt: incident).knownAt  // incident
  /// SubscriberRecord().knownAt                   // nil
  /// ```
  public private(set) var knownAt: Instant?

  /// An empty record.
  public init() {}

  /// An empty record that takes in only what was known at `knownAt`: "what would we have
  /// answered then" (issue 47). A document signed after it is left out whole: a dated one
  /// by its ``PurchaseDocument/timestamp``, each transaction of a history page and each
  /// notification of a notification history page by its own `signedDate`. A document with no
  /// signing date counts from its own dates: each entry from its purchase date, its refund
  /// from its `cancellation_date` (the entry without it before), dated evidence in it from
  /// its date, and its undated renewal info once every entry of the document is known.
  ///
  /// ```swift
  /// var then = SubscriberRecord(knownAt: incident)
  /// for document in stored { then.fold(document) }
  /// Evaluator(catalog: catalog).evaluate(then.history)["premium"]?.status(at: incident)
  /// ```
  ///
  /// - Parameter knownAt: The instant the answer is given as of.
  public init(knownAt: Instant) {
    self.knownAt = knownAt
  }

  /// Makes the record a new one for the next subscriber's documents, keeping the memory of its
  /// entry buffers when they hold up to ``entriesKept`` entries: a batch that folds one
  /// subscriber after another into one record does not allocate and grow them again for each,
  /// and a subscriber with a very long history does not hold its memory for the rest of the
  /// batch. Everything else is reset by making a new record, so nothing folded before is left.
  package mutating func reset() {
    var entries: [ReceiptEntry] = []
    var timestamps: [Instant] = []
    var positions: [CompactIdentifier: Int] = [:]
    if self.entries.capacity <= Self.entriesKept {
      swap(&entries, &self.entries)
      swap(&timestamps, &entryTimestamps)
      swap(&positions, &self.positions)
      entries.removeAll(keepingCapacity: true)
      timestamps.removeAll(keepingCapacity: true)
      positions.removeAll(keepingCapacity: true)
    }
    let knownAt = knownAt
    self = SubscriberRecord()
    self.knownAt = knownAt
    self.entries = entries
    entryTimestamps = timestamps
    self.positions = positions
  }

  /// The most entries whose buffers ``reset()`` keeps (128 KB of entries).
  static let entriesKept = 1_024

  /// Folds one document into the record.
  ///
  /// - Parameter document: A document from ``DocumentReader`` or any reader.
  /// - Complexity: O(n) for the document's n entries.
  public mutating func fold(_ document: some PurchaseDocument) {
    // Pages part by part, and a document of any kind as its kind.
    if let page = document as? NotificationHistoryPage { return foldParts(of: page) }
    if let page = document as? TransactionHistoryResponse { return foldParts(of: page) }
    if let any = document as? AppStoreDocument { return fold(any) }
    if let knownAt {
      fold(document, knownAt: knownAt)
      return
    }
    let timestamp = document.timestamp ?? .distantPast
    let incoming = document.entries
    reserve(incoming.count)
    for entry in incoming { fold(entry, from: timestamp) }
    foldEvidence(of: document, from: timestamp)
  }

  /// What folding the transaction as any `PurchaseDocument` does, without making an array of
  /// its one entry (a line of `entitlements evaluate` holds one such document per
  /// transaction).
  private mutating func fold(transaction document: consuming AppStoreTransaction) {
    fold(
      transactionEntry: document.entry.take(), environment: document.environment,
      timestamp: document.timestamp, diagnostics: document.diagnostics)
  }

  /// Folds a transaction from what it carries, as folding its ``AppStoreTransaction`` does: the
  /// way in of a decoded payload folded where it is read, which makes no document. Its
  /// evidence is folded first, so that its entry can then be moved into the record: the two
  /// touch different state, so the order changes nothing.
  mutating func fold(
    transactionEntry entry: consuming ReceiptEntry?, environment: StoreEnvironment?,
    timestamp: Instant?, diagnostics noted: [Diagnostic] = []
  ) {
    var entry = entry.take()
    if let knownAt {
      // Signed after the instant: not known then; each entry from its own dates too.
      if let timestamp, timestamp > knownAt { return }
      entry = entry.flatMap { Self.known($0, at: knownAt) }
    }
    let timestamp = timestamp ?? .distantPast
    // Its evidence, as ``foldEvidence(of:from:)`` folds it: a transaction carries no renewal
    // info, recovery, upgrade, notification or status, only diagnostics and an environment.
    if !noted.isEmpty { diagnostics.formUnion(noted) }
    if let environment { foldEnvironment(environment, from: timestamp) }
    if let entry = entry.take() {
      reserve(1)
      fold(entry, from: timestamp)
    }
  }

  /// Makes room for `count` more entries. Grown geometrically: reserving the exact count for
  /// each one-entry document would copy every entry again at each fold.
  private mutating func reserve(_ count: Int) {
    guard entries.capacity < entries.count + count else { return }
    // At least 16 at first: a history of one-entry documents grows 1, 2, 4… otherwise, each
    // step a copy of all three buffers.
    let capacity = max(entries.count + count, 2 * entries.capacity, 16)
    entries.reserveCapacity(capacity)
    entryTimestamps.reserveCapacity(capacity)
    if largestID == nil { positions.reserveCapacity(capacity) }
  }

  /// Folds one entry from a document of `timestamp`: kept when it is a new transaction or
  /// wins over the record kept (``precedes(_:_:_:_:)``).
  private mutating func fold(_ entry: consuming ReceiptEntry, from timestamp: Instant) {
    if entry.cancellationDate != nil {
      refundedVersions.insert(RefundedVersion(entry: copy entry, timestamp: timestamp))
    }
    if let largest = largestID {
      let number = entry.transactionNumber
      if number.isPlain, number.value > largest || entries.isEmpty {
        largestID = number.value
        entries.append(entry)
        entryTimestamps.append(timestamp)
        return
      }
      indexEntries()
    }
    let key = entry.transactionKey
    guard let position = positions[key] else {
      positions[key] = entries.count
      entries.append(entry)
      entryTimestamps.append(timestamp)
      return
    }
    if Self.precedes(entries[position], entryTimestamps[position], entry, timestamp) {
      entries[position] = entry
      entryTimestamps[position] = timestamp
    }
  }

  /// Folds what was known of `document` at `knownAt` (``init(knownAt:)``). Out of line: only
  /// records made to know up to an instant come here.
  @inline(never)
  private mutating func fold(_ document: some PurchaseDocument, knownAt: Instant) {
    let timestamp = document.timestamp
    // Signed after the instant: not known then. A document dated at the end of time (an
    // author's, newer than any of Apple's) has no signing date of its own.
    if let timestamp, !timestamp.isDistantFuture, timestamp > knownAt { return }
    // Each entry from its own dates too: a receipt created before the instant but verified
    // after it holds what came after. Its undated renewal info describes when it was made,
    // perhaps after the instant: it counts only when every entry is known as it stands.
    var whole = true
    for entry in document.entries {
      guard let known = Self.known(entry, at: knownAt) else {
        whole = false
        continue
      }
      if known != entry { whole = false }
      reserve(1)
      fold(known, from: timestamp ?? .distantPast)
    }
    foldEvidence(
      of: document, from: timestamp ?? .distantPast, knownAt: knownAt, undatedInfos: whole)
  }

  /// Folds a page of notifications one by one, each by its own date: a refund and its
  /// reversal in one page stay apart in time, as they would arriving one by one.
  private mutating func foldParts(of page: NotificationHistoryPage) {
    // The page's diagnostics hold its parts' (with their place in the page): once.
    if !page.diagnostics.isEmpty { diagnostics.formUnion(page.diagnostics) }
    for var notification in page.notificationPayloads {
      notification.diagnostics = []
      fold(notification)
    }
  }

  /// Folds a page of transactions one by one, each by its own `signedDate`.
  private mutating func foldParts(of page: TransactionHistoryResponse) {
    if !page.diagnostics.isEmpty { diagnostics.formUnion(page.diagnostics) }
    reserve(page.transactions.count)
    for transaction in page.transactions {
      fold(
        transactionEntry: transaction.entry, environment: transaction.environment,
        timestamp: transaction.timestamp)
    }
    // The page's own environment, dated by its newest transaction (an empty page by nothing).
    let timestamp = page.timestamp ?? .distantPast
    if let environment = page.environment, knownAt.map({ timestamp <= $0 }) ?? true {
      foldEnvironment(environment, from: timestamp)
    }
  }

  /// Keeps a renewal info from a document dated `timestamp`: dated, one per subscription and
  /// instant; undated, the newest document's per subscription.
  private mutating func foldInfo(_ info: RenewalInfo, from timestamp: Instant) {
    if let signedDate = info.signedDate {
      let key = DatedKey(subscription: info.originalTransactionID, signedDate: signedDate)
      if let kept = datedInfos[key], !RenewalInfo.precedes(info, kept) { return }
      datedInfos[key] = info
    } else {
      if let kept = undatedInfos[info.originalTransactionID],
        kept.timestamp > timestamp
          || (kept.timestamp == timestamp && !RenewalInfo.precedes(info, kept.info))
      {
        return
      }
      undatedInfos[info.originalTransactionID] = (info, timestamp)
    }
  }

  /// `entry` as known at `instant` from its own dates: `nil` before its purchase; without
  /// its refund (or its upgrade) before that date.
  private static func known(_ entry: ReceiptEntry, at instant: Instant) -> ReceiptEntry? {
    if let purchase = entry.purchaseDate, purchase > instant { return nil }
    guard let refund = entry.cancellationDate, refund > instant else { return entry }
    // Before its refund, or its upgrade: neither had happened.
    var before = entry
    before.isUpgraded = false
    before.cancellationDate = nil
    before.rawCancellationReason = nil
    before.rawRevocationType = nil
    before.revocationPercentage = nil
    return before
  }

  /// Folds the evidence of `document` dated by `timestamp`; with `knownAt`, only what is
  /// dated at or before it, and undated renewal info only when `undatedInfos`.
  private mutating func foldEvidence(
    of document: some PurchaseDocument, from timestamp: Instant, knownAt: Instant? = nil,
    undatedInfos: Bool = true
  ) {
    for info in document.renewalInfo {
      if let knownAt, !(info.signedDate.map { $0 <= knownAt } ?? undatedInfos) { continue }
      foldInfo(info, from: timestamp)
    }
    // Most documents carry none of these: tested first, as the sets cost even when empty.
    var (recovered, upgraded) = (document.billingRecoveries, document.upgrades)
    var (notified, stated) = (document.notifications, document.appleStatuses)
    if let knownAt {
      recovered.removeAll { $0.renewedAt > knownAt }
      upgraded.removeAll { $0.upgradedAt > knownAt }
      notified.removeAll { $0.signedDate > knownAt }
      stated.removeAll { $0.at > knownAt }
    }
    let noted = document.diagnostics
    if !recovered.isEmpty { recoveries.formUnion(recovered) }
    if !upgraded.isEmpty { upgrades.formUnion(upgraded) }
    if !notified.isEmpty { notifications.formUnion(notified) }
    if !stated.isEmpty { appleStatuses.formUnion(stated) }
    if !noted.isEmpty { diagnostics.formUnion(noted) }
    if let found = document.environment { foldEnvironment(found, from: timestamp) }
  }

  /// Keeps `found`, the environment of a document of `timestamp`, when that document is the
  /// newest yet (at one timestamp, the larger raw value, so that the order of folding does not
  /// matter).
  private mutating func foldEnvironment(_ found: StoreEnvironment, from timestamp: Instant) {
    if let kept = newestEnvironment,
      kept.timestamp > timestamp
        || (kept.timestamp == timestamp && kept.value.rawValue >= found.rawValue)
    {
      return
    }
    newestEnvironment = (found, timestamp)
  }

  /// Folds one document the reader returned, as its own type (one switch, rather than one
  /// per property of the wrapped document); the same as folding the wrapped document (SPEC
  /// §10).
  ///
  /// ```swift
  /// var record = SubscriberRecord()
  /// record.fold(try DocumentReader.read(notificationBody, verifier: verifier))
  /// ```
  ///
  /// - Parameter document: A document from ``DocumentReader``.
  public mutating func fold(_ document: consuming AppStoreDocument) {
    switch consume document {
    case .verifyReceipt(let document): fold(document)
    case .notificationV1(let document): fold(document)
    case .notificationV2(let document): fold(document)
    case .transaction(let document): fold(transaction: document)
    case .renewal(let document): fold(document)
    case .transactionHistory(let document): foldParts(of: document)
    case .subscriptionStatuses(let document): fold(document)
    case .notificationHistory(let document): foldParts(of: document)
    }
  }

  /// Builds ``positions`` for the entries so far, and keeps it from then on.
  private mutating func indexEntries() {
    largestID = nil
    positions.reserveCapacity(entries.capacity)
    for position in entries.indices {
      positions[entries[position].transactionKey] = position
    }
  }

  /// Whether the record `a`, from a document of `aTime`, loses to `b` from `bTime`: older, or
  /// as old without a cancellation that `b` has, or earlier in canonical order.
  private static func precedes(
    _ a: ReceiptEntry, _ aTime: Instant, _ b: ReceiptEntry, _ bTime: Instant
  ) -> Bool {
    if aTime != bTime { return aTime < bTime }
    let aCancelled = a.cancellationDate != nil
    let bCancelled = b.cancellationDate != nil
    if aCancelled != bCancelled { return bCancelled }
    return ReceiptEntry.canonicallyPrecedes(a, b)
  }

  /// The record as the input of ``Evaluator/evaluate(_:)``, in a fixed order: entries in
  /// canonical order (sorted by their indices, never by moving whole entries), evidence in
  /// the order of its fields.
  ///
  /// - Complexity: O(n log n + u log u) for n entries and u upgrade evidences.
  public var history: PurchaseHistory {
    let upgradesBySubscription = Dictionary(grouping: upgrades, by: \.originalTransactionID)
      .mapValues {
        $0.sorted { ($0.upgradedAt, $0.newTransactionID) < ($1.upgradedAt, $1.newTransactionID) }
      }
    let order = ReceiptEntry.canonicalOrder(of: entries)
    // Entries met in canonical order (a history page, a sorted receipt) are shared, not
    // copied one by one.
    let ordered =
      upgradesBySubscription.isEmpty && order.elementsEqual(entries.indices)
      ? entries
      : order.map { index in
        upgradesBySubscription.isEmpty
          ? entries[index] : Self.markUpgraded(entries[index], upgradesBySubscription)
      }
    let infos =
      datedInfos.values.sorted {
        ($0.originalTransactionID, $0.signedDate ?? .distantPast) < (
          $1.originalTransactionID, $1.signedDate ?? .distantPast
        )
      }
      + undatedInfos.keys.sorted().compactMap { undatedInfos[$0]?.info }
    return PurchaseHistory(
      entries: ordered,
      renewalInfo: infos,
      billingRecoveries: recoveries.sorted {
        ($0.renewedAt, $0.originalTransactionID) < ($1.renewedAt, $1.originalTransactionID)
      },
      // Every field in the order, so that no set's iteration order reaches the history.
      notifications: notifications.sorted {
        ($0.signedDate, $0.originalTransactionID, $0.rawType, $0.rawSubtype ?? "")
          < ($1.signedDate, $1.originalTransactionID, $1.rawType, $1.rawSubtype ?? "")
          || (($0.signedDate, $0.originalTransactionID, $0.rawType, $0.rawSubtype ?? "")
            == ($1.signedDate, $1.originalTransactionID, $1.rawType, $1.rawSubtype ?? "")
            && ($0.transactionID?.rawValue ?? "") < ($1.transactionID?.rawValue ?? ""))
      },
      appleStatuses: appleStatuses.sorted {
        ($0.at, $0.originalTransactionID, $0.rawStatus) < (
          $1.at, $1.originalTransactionID, $1.rawStatus
        )
      },
      reversedRefunds: refundedVersions.isEmpty ? [] : reversedRefunds,
      environment: newestEnvironment?.value ?? .production)
  }

  /// The refunds that `REFUND_REVERSED` notifications reversed: for each, the newest refunded
  /// version of its transaction met before it was signed.
  private var reversedRefunds: [ReversedRefund] {
    var reversals: [ReversedRefund] = []
    for notification in notifications where notification.type == .refundReversed {
      guard let transaction = notification.transactionID else { continue }
      let reversedAt = notification.signedDate
      let refunded = refundedVersions.filter {
        $0.timestamp < reversedAt && $0.entry.transactionID == transaction
      }.max {
        $0.timestamp != $1.timestamp
          ? $0.timestamp < $1.timestamp : ReceiptEntry.canonicallyPrecedes($0.entry, $1.entry)
      }
      guard let refunded else { continue }
      let reversal = ReversedRefund(refunded: refunded.entry, reversedAt: reversedAt)
      if reversal.interval != nil { reversals.append(reversal) }
    }
    return reversals.sorted {
      ($0.reversedAt, $0.refunded.transactionID) < ($1.reversedAt, $1.refunded.transactionID)
    }
  }

  /// The entry, marked `is_upgraded` when upgrade evidence of its subscription (by
  /// subscription, each in order of instant) falls inside it, found by a binary search, and
  /// ending at the upgrade.
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
    // Apple's own copy of the upgraded transaction ends at the upgrade (its `revocationDate`);
    // the notification does not resend it, so the upgrade's instant stands for it: the old
    // plan ends there whatever entitlements the new plan unlocks.
    var marked = entry
    marked.isUpgraded = true
    if marked.cancellationDate == nil { marked.cancellationDate = upgrades[index].upgradedAt }
    return marked
  }

  /// The environment the newest document that names one says; `nil` when none does.
  public var environment: StoreEnvironment? { newestEnvironment?.value }

  /// Every field the folded documents could not read, in a fixed order.
  public var readingDiagnostics: [Diagnostic] { diagnostics.sorted() }

  /// Equal when they hold the same entries, evidence and environment, whatever the order they
  /// were folded in.
  public static func == (lhs: SubscriberRecord, rhs: SubscriberRecord) -> Bool {
    lhs.knownAt == rhs.knownAt && lhs.history == rhs.history
      && lhs.diagnostics == rhs.diagnostics
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(knownAt)
    hasher.combine(history)
    hasher.combine(diagnostics)
  }
}
