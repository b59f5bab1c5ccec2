/// Collapses records of one purchase into one (SPEC §3).
///
/// Two records are the same purchase when they share a `transaction_id`, or, for subscription
/// entries (those with `expires_date`), a `web_order_line_item_id`: that happens when `in_app`
/// and `latest_receipt_info` are merged, or when a restore re-issues a transaction.
///
/// Within one input the record that carries a `cancellation_date` wins, so a revocation is never
/// lost as a "duplicate". Otherwise the choice is by a fixed order of the records' fields, so
/// input order never changes the answer. Records of one purchase that disagree on dates or
/// product are reported as ``Diagnostic/Kind/conflictingDuplicate``.
///
/// - Complexity: O(n log n).
enum Deduplication {
  /// One record per purchase, and the order in which to read them: `Order` is a list of
  /// indices (``canonicalOrder(_:)``), or the evaluator's own form of it.
  struct Result<Order> {
    /// The records kept, in no particular order: the input itself when it holds no duplicate
    /// (nothing is copied), else a new list.
    var entries: [ReceiptEntry]
    /// The canonical order of ``entries`` (by purchase date, then by the records' fields);
    /// `nil` when ``entries`` is in that order.
    var order: Order?
    /// The conflicts found between records of one purchase.
    var diagnostics: [Diagnostic]
    /// Whether the ids were proved to increase in ``order``, by the caller's pass over the
    /// entries (``deduplicate(_:ordering:provingWith:)``).
    var isProved: Bool
  }

  /// Keeps one record per purchase and puts them in canonical order: by a list of indices, so
  /// that out-of-order input is not copied (a copy of 10⁵ entries was most of the time of an
  /// evaluation of a shuffled history: 13.6 MB of fresh memory, one retain per entry).
  ///
  /// - Parameter entries: The records.
  /// - Returns: One record per purchase, their canonical order, and the conflicts found.
  static func deduplicate(_ entries: [ReceiptEntry]) -> Result<[Int]> {
    deduplicate(entries, ordering: canonicalOrder) { order, proof in
      idsIncrease(entries, in: order, proof)
    }
  }

  /// ``deduplicate(_:)``, asking `prove` whether the ids increase: the evaluator proves it
  /// while it classifies the entries, so that it passes over them once. `ordering` gives the
  /// canonical order of the entries it is given: ``canonicalOrder(_:)``, or the evaluator's,
  /// which also gathers what it reads of each entry.
  ///
  /// `prove(order, proof)` reads the entries in `order` (their own order when `nil`) and
  /// returns whether `proof` admits each in turn (``IncreasingIDs``); asked first with the
  /// entries' own order, proving their order too, then, if that fails, with their canonical
  /// order. When a proof holds, ``Result/isProved`` is `true`: the entries hold no duplicate,
  /// and the caller's last pass read them all, in ``Result/order``.
  ///
  /// - Parameters:
  ///   - entries: The records.
  ///   - ordering: The canonical order of the records; `nil` when they are in it.
  ///   - prove: Whether `proof` admits every entry, read in the order given.
  /// - Returns: One record per purchase, their canonical order, and the conflicts found.
  @inline(__always)  // the evaluator's path: its closures are inlined with it
  static func deduplicate<Order>(
    _ entries: [ReceiptEntry], ordering: ([ReceiptEntry]) -> Order?,
    provingWith prove: (_ order: Order?, _ proof: IncreasingIDs) -> Bool
  ) -> Result<Order> {
    // The common case, records in canonical order with increasing ids: one pass proves both.
    if prove(nil, IncreasingIDs(checkingOrder: true)) {
      return Result(entries: entries, order: nil, diagnostics: [], isProved: true)
    }
    let order = ordering(entries)
    if prove(order, IncreasingIDs(checkingOrder: false)) {
      return Result(entries: entries, order: order, diagnostics: [], isProved: true)
    }
    return deduplicate(entries, in: order, ordering: ordering)
  }

  /// One record per purchase when the ids were not proved to increase in canonical `order`: a
  /// table decides. Kept out of line: the proofs above are inlined into the evaluator's path.
  private static func deduplicate<Order>(
    _ entries: [ReceiptEntry], in order: Order?, ordering: ([ReceiptEntry]) -> Order?
  ) -> Result<Order> {
    // Unique records are still the norm: no record is moved into a dictionary.
    if isUnique(entries) {
      return Result(entries: entries, order: order, diagnostics: [], isProved: false)
    }
    var diagnostics: [Diagnostic] = []
    var byTransaction: [TransactionID: ReceiptEntry] = [:]
    byTransaction.reserveCapacity(entries.count)
    for entry in entries {
      if let kept = byTransaction[entry.transactionID] {
        byTransaction[entry.transactionID] = preferred(kept, entry, &diagnostics)
      } else {
        byTransaction[entry.transactionID] = entry
      }
    }
    var byOrderLine: [WebOrderLineItemID: ReceiptEntry] = [:]
    var result: [ReceiptEntry] = []
    result.reserveCapacity(byTransaction.count)
    for entry in byTransaction.values {
      guard let key = orderLineKey(entry) else {
        result.append(entry)
        continue
      }
      if let kept = byOrderLine[key] {
        byOrderLine[key] = preferred(kept, entry, &diagnostics)
      } else {
        byOrderLine[key] = entry
      }
    }
    result.append(contentsOf: byOrderLine.values)
    return Result(
      entries: result, order: ordering(result), diagnostics: diagnostics, isProved: false)
  }

  /// Whether transaction ids strictly increase, and so do the order lines of subscription
  /// entries: then no two are equal, and no table is needed. Apple numbers both in time order,
  /// so this holds for almost every real history; when it does not, ``isUnique(_:)`` decides.
  /// The order is ``IdentifierNumber/precedes(_:_:_:_:)``: ids written as plain numbers (all of
  /// Apple's) compare as integers, with no `String` read; equal ids are never in strict order.
  ///
  /// With `checkingOrder`, also whether purchase dates never decrease and entries with the
  /// same purchase date are in `String` order of their transaction ids: then the entries are
  /// in canonical order, so one pass over records in order (the usual input) proves both.
  static func idsIncrease(_ entries: [ReceiptEntry], checkingOrder: Bool = false) -> Bool {
    idsIncrease(entries, in: nil, IncreasingIDs(checkingOrder: checkingOrder))
  }

  /// Whether `proof` admits every entry, read in `order` (their own order when `nil`).
  private static func idsIncrease(
    _ entries: [ReceiptEntry], in order: [Int]?, _ proof: IncreasingIDs
  ) -> Bool {
    // Fields are read in place: reading through `[ReceiptEntry]` may copy a whole entry.
    entries.withUnsafeBufferPointer { entries in
      var proof = proof
      for position in entries.indices where !proof.admits(entries, order?[position] ?? position) {
        return false
      }
      return true
    }
  }

  /// Proves ``idsIncrease(_:checkingOrder:)`` one entry at a time, so that a caller passing
  /// over the entries for its own ends (the evaluator, classifying them) proves it in the
  /// same pass instead of a pass of its own.
  struct IncreasingIDs {
    /// Whether the order of purchase dates is proved too.
    let checkingOrder: Bool
    /// The entry admitted last: its index, transaction number and purchase instant.
    private var previous: (index: Int, number: IdentifierNumber, purchase: Instant)?
    private var previousOrderLine: (number: IdentifierNumber, index: Int)?

    init(checkingOrder: Bool) {
      self.checkingOrder = checkingOrder
    }

    /// Whether the entries admitted so far and `entries[index]` after them still prove it;
    /// stop at the first `false`.
    @inline(__always)
    mutating func admits(_ entries: UnsafeBufferPointer<ReceiptEntry>, _ index: Int) -> Bool {
      admits(entries[index].fields, of: index, in: entries)
    }

    /// ``admits(_:_:)``, given the entry's ``ReceiptEntry/Fields`` (its usual path reads
    /// nothing else; ids that are not plain numbers are read from `entries`).
    ///
    /// Inlined by force into the evaluator's pass (`@inline(always)`, not the hint
    /// `@inline(__always)`, which the inliner dropped once an entry's ids became computed
    /// properties: DESIGN.md "Performance").
    @inline(always)
    mutating func admits(
      _ fields: ReceiptEntry.Fields, of index: Int, in entries: UnsafeBufferPointer<ReceiptEntry>
    ) -> Bool {
      let purchase = fields.purchaseDate ?? .distantPast
      if let before = previous {
        guard
          IdentifierNumber.precedes(
            before.number, entries[before.index].transactionID.rawValue,
            fields.transactionNumber, entries[index].transactionID.rawValue)
        else { return false }
        // Canonical order breaks ties on the date by the ids' `String` order, which differs
        // from the numbers' for ids of different lengths ("9" and "10").
        if checkingOrder
          && (purchase < before.purchase
            || (purchase == before.purchase
              && !Deduplication.idTextPrecedes(
                before.number, before.index, fields.transactionNumber, index, entries)))
        {
          return false
        }
      }
      previous = (index, fields.transactionNumber, purchase)
      guard let number = orderLineNumber(fields, of: index, in: entries) else { return true }
      if let previous = previousOrderLine,
        !IdentifierNumber.precedes(
          previous.number, entries[previous.index].webOrderLineItemID?.rawValue ?? "",
          number, entries[index].webOrderLineItemID?.rawValue ?? "")
      {
        return false
      }
      previousOrderLine = (number, index)
      return true
    }
  }

  /// Whether the transaction id of `entries[aIndex]` comes before that of `entries[bIndex]`
  /// in `String` order, given their numbers: the tie-break of two entries bought at one
  /// instant (SPEC §3). Out of line, as the evaluator's other rare paths are: ties are rare,
  /// and the pass it is part of stays small (the inliner stops inlining into a pass that
  /// grows: DESIGN.md "Performance").
  @inline(never)
  fileprivate static func idTextPrecedes(
    _ aNumber: IdentifierNumber, _ aIndex: Int, _ bNumber: IdentifierNumber, _ bIndex: Int,
    _ entries: UnsafeBufferPointer<ReceiptEntry>
  ) -> Bool {
    IdentifierNumber.textPrecedes(
      aNumber, entries[aIndex].transactionID.rawValue, bNumber,
      entries[bIndex].transactionID.rawValue)
  }

  /// ``orderLineKey(_:)`` of `entries[index]` as its number, read from its `fields` with no
  /// `String` when the order line is a plain number; `nil` when the entry has no usable order
  /// line.
  @inline(__always)
  private static func orderLineNumber(
    _ fields: ReceiptEntry.Fields, of index: Int, in entries: UnsafeBufferPointer<ReceiptEntry>
  ) -> IdentifierNumber? {
    let number = fields.orderLineNumber
    guard fields.expiresDate != nil else { return nil }
    if number.isPlain { return number.value == 0 ? nil : number }
    return orderLineKey(entries, index) == nil ? nil : number
  }

  /// Whether no two records share a transaction id or a subscription order line.
  static func isUnique(_ entries: [ReceiptEntry]) -> Bool {
    guard entries.count < Int(UInt32.max) else { return isUniqueBySet(entries) }
    let capacity = IdentifierTable.capacity(for: entries.count)
    // Two tables in one allocation, on the stack for small histories.
    let answer = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * capacity) {
      memory -> Bool? in
      guard let base = memory.baseAddress else { return nil }
      var transactions = IdentifierTable(
        memory: UnsafeMutableBufferPointer(start: base, count: capacity), count: entries.count)
      var orderLines = IdentifierTable(
        memory: UnsafeMutableBufferPointer(start: base + capacity, count: capacity),
        count: entries.count)
      // Index loops read single fields; `for entry in entries` would copy every record.
      for index in entries.indices {
        switch transactions.insert(
          entries[index].transactionID.rawValue, index: index,
          key: { entries[$0].transactionID.rawValue })
        {
        case true?: break
        case false?: return false
        case nil: return nil
        }
        guard let key = orderLineKey(entries[index]) else { continue }
        switch orderLines.insert(
          key.rawValue, index: index, key: { orderLineKey(entries[$0])?.rawValue ?? "" })
        {
        case true?: break
        case false?: return false
        case nil: return nil
        }
      }
      return true
    }
    return answer ?? isUniqueBySet(entries)
  }

  /// The order line that identifies a subscription entry, when it has a usable one.
  private static func orderLineKey(_ entry: ReceiptEntry) -> WebOrderLineItemID? {
    withUnsafePointer(to: entry) { orderLineKey(UnsafeBufferPointer(start: $0, count: 1), 0) }
  }

  /// ``orderLineKey(_:)`` of `entries[index]`, read in place: the one definition.
  private static func orderLineKey(
    _ entries: UnsafeBufferPointer<ReceiptEntry>, _ index: Int
  ) -> WebOrderLineItemID? {
    guard entries[index].expiresDate != nil, let key = entries[index].webOrderLineItemID,
      !key.rawValue.isEmpty, key.rawValue != "0"
    else { return nil }
    return key
  }

  /// ``isUnique(_:)`` with the standard library's seeded hashing: the answer when the fast
  /// table's probe budget is spent (chosen collisions).
  static func isUniqueBySet(_ entries: [ReceiptEntry]) -> Bool {
    var transactions = Set<TransactionID>(minimumCapacity: entries.count)
    var orderLines = Set<WebOrderLineItemID>(minimumCapacity: entries.count)
    for index in entries.indices {
      guard transactions.insert(entries[index].transactionID).inserted else { return false }
      if let key = orderLineKey(entries[index]) {
        guard orderLines.insert(key).inserted else { return false }
      }
    }
    return true
  }

  /// The indices of `entries` in canonical order; `nil` when they are already in it (the
  /// usual case).
  static func canonicalOrder(_ entries: [ReceiptEntry]) -> [Int]? {
    let buckets = entries.withUnsafeBufferPointer { entries in
      PurchaseBuckets(entries) { index, key in
        KeyedIndex(purchaseKey: key, entryIndex: index)
      }
    }
    return buckets?.values(of: entries).map(\.entryIndex)
  }

  /// An entry's index and purchase key, put in canonical order by ``canonicalOrder(_:)``.
  private struct KeyedIndex: PurchaseOrdered {
    let purchaseKey: UInt64
    let entryIndex: Int
  }

  /// The key that orders purchase instants as unsigned integers (none first).
  @inline(__always)
  static func purchaseKey(_ purchase: Instant?) -> UInt64 {
    UInt64(bitPattern: (purchase ?? .distantPast).millisecondsSince1970) ^ (1 << 63)
  }

  /// The record to keep of two records of one purchase.
  private static func preferred(
    _ a: ReceiptEntry, _ b: ReceiptEntry, _ diagnostics: inout [Diagnostic]
  ) -> ReceiptEntry {
    if a == b { return a }
    if a.purchaseDate != b.purchaseDate || a.expiresDate != b.expiresDate
      || a.productID != b.productID
    {
      let (first, second) = canonicallyPrecedes(a, b) ? (a, b) : (b, a)
      diagnostics.append(
        Diagnostic(
          .conflictingDuplicate, transactionID: first.transactionID,
          field: "transaction_id",
          message:
            "records of one purchase disagree (transactions \(first.transactionID) and "
            + "\(second.transactionID): purchase \(describe(first.purchaseDate)) vs "
            + "\(describe(second.purchaseDate)), expires \(describe(first.expiresDate)) vs "
            + "\(describe(second.expiresDate))); one was kept"))
    }
    if (a.cancellationDate != nil) != (b.cancellationDate != nil) {
      return a.cancellationDate != nil ? a : b
    }
    return canonicallyPrecedes(a, b) ? a : b
  }

  private static func describe(_ instant: Instant?) -> String {
    instant.map(\.description) ?? "none"
  }

  /// A total order on entries: by purchase date, then transaction id, then every other field.
  static func canonicallyPrecedes(_ a: ReceiptEntry, _ b: ReceiptEntry) -> Bool {
    let aPurchase = a.purchaseDate ?? .distantPast
    let bPurchase = b.purchaseDate ?? .distantPast
    if aPurchase != bPurchase { return aPurchase < bPurchase }
    // Ids in `String` order; plain numbers (Apple's) with no `String` made: equal numbers are
    // equal ids, and only ids with no number are compared as text to tell.
    let (aNumber, bNumber) = (a.transactionNumber, b.transactionNumber)
    if aNumber != bNumber || (!aNumber.isPlain && a.transactionID != b.transactionID) {
      return IdentifierNumber.textPrecedes(
        aNumber, a.transactionID.rawValue, bNumber, b.transactionID.rawValue)
    }
    if a.cancellationDate != b.cancellationDate {
      return (a.cancellationDate ?? .distantFuture) < (b.cancellationDate ?? .distantFuture)
    }
    if a.expiresDate != b.expiresDate {
      return (a.expiresDate ?? .distantPast) < (b.expiresDate ?? .distantPast)
    }
    if a == b { return false }
    return String(reflecting: a) < String(reflecting: b)
  }
}
