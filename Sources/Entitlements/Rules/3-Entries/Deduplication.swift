/// One record per purchase, in canonical order (SPEC §3).
///
/// Two records are the same purchase when they share a `transaction_id`, or, for subscription
/// entries (those with `expires_date`), a `web_order_line_item_id`: that happens when `in_app`
/// and `latest_receipt_info` are merged, or when a restore re-issues a transaction.
///
/// Of two records of one purchase, the one that carries a `cancellation_date` is kept, so a
/// revocation is never lost as a "duplicate"; of two revoked at one instant, the one that says
/// its `revocationType`; otherwise the first in canonical order
/// (``ReceiptEntry/canonicallyPrecedes(_:_:)``), so input order never changes the answer.
/// Records of one purchase that disagree on dates, product, revocation type or commitment are
/// reported as ``Diagnostic/Kind/conflictingDuplicate``.
///
/// Apple numbers transactions and order lines in time order, so the usual history, in
/// purchase order, proves in one pass that it is canonical and holds no duplicate: its ids
/// strictly increase (``isCanonicalAndUnique(_:)``). Only other histories are sorted, and only
/// histories whose ids repeat are reduced with a table.
///
/// - Complexity: O(n) for a history in canonical order with increasing ids, else O(n log n).
enum Deduplication {
  /// The purchases of a history: indices of its entries, one per purchase, in canonical
  /// order, and the conflicts found between records of one purchase.
  struct Purchases {
    /// Indices into the history's entries; `nil` when they are all kept in their own order
    /// (the usual history).
    let order: [Int]?
    /// One ``Diagnostic/Kind/conflictingDuplicate`` per pair of records that disagree.
    let diagnostics: [Diagnostic]
  }

  /// One record per purchase of `entries`, in canonical order.
  static func purchases(_ entries: [ReceiptEntry]) -> Purchases {
    entries.withUnsafeBufferPointer { entries in
      if isCanonicalAndUnique(entries) { return Purchases(order: nil, diagnostics: []) }
      // A history in canonical order whose ids do not increase (several subscriptions
      // renewing in turn, as a receipt's history lists them once folded) is not sorted again.
      let inOrder = isInCanonicalOrder(entries)
      let order = inOrder ? Array(entries.indices) : ReceiptEntry.canonicalOrder(of: entries)
      if idsIncrease(entries, order) {
        return Purchases(order: inOrder ? nil : order, diagnostics: [])
      }
      // Records of one transaction are usually identical, and next to each other in canonical
      // order (`in_app` and `latest_receipt_info` merged): merged where they meet, they leave
      // ids that increase. Any other repetition is reduced with a table.
      var diagnostics: [Diagnostic] = []
      var merged: [Int] = []
      merged.reserveCapacity(order.count)
      for index in order {
        if let last = merged.last, entries[last].transactionKey == entries[index].transactionKey {
          merged[merged.count - 1] = preferred(last, index, in: entries, &diagnostics)
        } else {
          merged.append(index)
        }
      }
      if idsIncrease(entries, merged) { return Purchases(order: merged, diagnostics: diagnostics) }
      if merged.count == order.count, isUnique(entries) {
        return Purchases(order: inOrder ? nil : order, diagnostics: [])
      }
      return reduced(entries, order)
    }
  }

  /// Whether `entries` are in canonical order with strictly increasing ids: then they are one
  /// record per purchase. One pass.
  static func isCanonicalAndUnique(_ entries: UnsafeBufferPointer<ReceiptEntry>) -> Bool {
    var proof = IncreasingIDs()
    for index in entries.indices {
      guard proof.admits(index, of: entries, checkingOrder: true) else { return false }
    }
    return true
  }

  /// Whether `entries` are in canonical order (``ReceiptEntry/canonicallyPrecedes(_:_:)``):
  /// purchase instants never decrease, and entries of one instant are read in full only
  /// then. One pass.
  static func isInCanonicalOrder(_ entries: UnsafeBufferPointer<ReceiptEntry>) -> Bool {
    var previous = Int64.min
    for index in entries.indices {
      let purchase = entries[index].purchaseDate?.millisecondsSince1970 ?? .min
      if purchase < previous { return false }
      if index > 0, purchase == previous,
        ReceiptEntry.canonicallyPrecedes(entries[index], entries[index - 1])
      {
        return false
      }
      previous = purchase
    }
    return true
  }

  /// Whether the transaction ids strictly increase along `order`, and so do the order lines
  /// of subscription entries: then no two are equal.
  static func idsIncrease(_ entries: UnsafeBufferPointer<ReceiptEntry>, _ order: [Int]) -> Bool {
    var proof = IncreasingIDs()
    for index in order {
      guard proof.admits(index, of: entries, checkingOrder: false) else { return false }
    }
    return true
  }

  /// Proves, one entry at a time, that the transaction ids strictly increase, and so do the
  /// order lines of subscription entries; and, when asked, that purchase dates never decrease
  /// with ties in the ids' `String` order (canonical order). Plain numbers (all of Apple's
  /// ids) compare as integers (``IdentifierNumber/precedes(_:_:_:_:)``), with no `String`
  /// made.
  struct IncreasingIDs {
    private var previous: Int?
    private var previousOrderLine: Int?

    /// Whether the entries admitted so far and `entries[index]` after them keep the proof.
    @inline(__always)
    mutating func admits(
      _ index: Int, of entries: UnsafeBufferPointer<ReceiptEntry>, checkingOrder: Bool
    ) -> Bool {
      if let previous {
        guard
          IdentifierNumber.precedes(
            entries[previous].transactionNumber, entries[previous].transactionID.rawValue,
            entries[index].transactionNumber, entries[index].transactionID.rawValue)
        else { return false }
        if checkingOrder {
          let before = entries[previous].purchaseDate ?? .distantPast
          let after = entries[index].purchaseDate ?? .distantPast
          // Ties on the date are ordered by the ids' `String` order, which differs from the
          // numbers' for ids of different lengths ("10" before "9").
          if after < before
            || (after == before
              && !IdentifierNumber.textPrecedes(
                entries[previous].transactionNumber, entries[previous].transactionID.rawValue,
                entries[index].transactionNumber, entries[index].transactionID.rawValue))
          {
            return false
          }
        }
      }
      previous = index
      guard orderLineKey(entries, index) != nil else { return true }
      if let line = previousOrderLine,
        !IdentifierNumber.precedes(
          entries[line].orderLineNumber, entries[line].webOrderLineItemID?.rawValue ?? "",
          entries[index].orderLineNumber, entries[index].webOrderLineItemID?.rawValue ?? "")
      {
        return false
      }
      previousOrderLine = index
      return true
    }
  }

  /// Whether no two records share a transaction id or a subscription order line.
  static func isUnique(_ entries: UnsafeBufferPointer<ReceiptEntry>) -> Bool {
    var transactions = Set<CompactIdentifier>(minimumCapacity: entries.count)
    var orderLines = Set<CompactIdentifier>()
    for index in entries.indices {
      guard transactions.insert(entries[index].transactionKey).inserted else { return false }
      if let key = orderLineKey(entries, index) {
        guard orderLines.insert(key).inserted else { return false }
      }
    }
    return true
  }

  /// The order line that identifies a subscription entry, when it has a usable one: an entry
  /// with `expires_date` and a `web_order_line_item_id` that is neither empty nor `0`.
  /// Read in place: a copy of the entry would be 128 bytes and a retain of each string.
  @inline(__always)
  static func orderLineKey(_ entries: UnsafeBufferPointer<ReceiptEntry>, _ index: Int)
    -> CompactIdentifier?
  {
    guard entries[index].expiresDate != nil, entries[index].orderLineKey.isPresent else {
      return nil
    }
    let number = entries[index].orderLineNumber
    if number.isPlain { return number.value == 0 ? nil : entries[index].orderLineKey }
    return entries[index].webOrderLineItemID?.rawValue.isEmpty == false
      ? entries[index].orderLineKey : nil
  }

  /// One record per purchase of entries whose ids repeat; `order` is their canonical order.
  /// Records are merged by transaction id first, then by order line.
  private static func reduced(
    _ entries: UnsafeBufferPointer<ReceiptEntry>, _ order: [Int]
  ) -> Purchases {
    var diagnostics: [Diagnostic] = []
    func merge(_ indices: [Int], by key: (Int) -> CompactIdentifier?) -> [Int] {
      var kept: [Int] = []
      var positions: [CompactIdentifier: Int] = [:]
      for index in indices {
        guard let key = key(index) else {
          kept.append(index)
          continue
        }
        if let position = positions[key] {
          kept[position] = preferred(kept[position], index, in: entries, &diagnostics)
        } else {
          positions[key] = kept.count
          kept.append(index)
        }
      }
      return kept
    }
    var kept = merge(order) { entries[$0].transactionKey }
    kept = merge(kept) { orderLineKey(entries, $0) }
    // A record kept in place of an earlier one may come later in canonical order.
    kept.sort { ReceiptEntry.canonicallyPrecedes(entries[$0], entries[$1]) }
    return Purchases(order: kept, diagnostics: diagnostics)
  }

  /// The index of the record to keep of two records of one purchase, `a` before `b` in
  /// canonical order: the one with a `cancellation_date`, else, of two revoked at one instant,
  /// the one that says its `revocationType` (verifyReceipt's records never do), else `a`.
  /// Records that disagree on more than the cancellation, or on the revocation's type, are
  /// reported.
  private static func preferred(
    _ a: Int, _ b: Int, in entries: UnsafeBufferPointer<ReceiptEntry>,
    _ diagnostics: inout [Diagnostic]
  ) -> Int {
    let (first, second) = (entries[a], entries[b])
    if first.purchaseDate != second.purchaseDate || first.expiresDate != second.expiresDate
      || first.productID != second.productID
    {
      diagnostics.append(
        rare:
          Diagnostic(
            .conflictingDuplicate, transactionID: first.transactionID, field: "transaction_id",
            message:
              "records of one purchase disagree (transactions \(first.transactionID) and "
              + "\(second.transactionID): purchase \(describe(first.purchaseDate)) vs "
              + "\(describe(second.purchaseDate)), expires \(describe(first.expiresDate)) vs "
              + "\(describe(second.expiresDate))); one was kept"))
    }
    // Apple's 2026 fields: both records say them, differently.
    func disagree(on field: String, _ what: String) {
      diagnostics.append(
        rare:
          Diagnostic(
            .conflictingDuplicate, transactionID: first.transactionID, field: field,
            message:
              "records of one purchase (transactions \(first.transactionID) and "
              + "\(second.transactionID)) \(what)"))
    }
    let revokedTogether =
      first.cancellationDate != nil && first.cancellationDate == second.cancellationDate
    if revokedTogether, let left = first.rawRevocationType, let right = second.rawRevocationType,
      left != right
    {
      disagree(
        on: "revocationType",
        "revoked at one instant disagree on how: \(left) vs \(right); \(left) was kept")
    }
    if let left = first.commitment, let right = second.commitment, left != right {
      disagree(
        on: "commitmentInfo",
        "disagree on their commitment: billing period \(left.billingPeriodNumber) vs "
          + "\(right.billingPeriodNumber); one was kept")
    }
    if first.cancellationDate == nil, second.cancellationDate != nil { return b }
    if revokedTogether, first.rawRevocationType == nil, second.rawRevocationType != nil {
      return b
    }
    return a
  }

  private static func describe(_ instant: Instant?) -> String {
    instant.map(\.description) ?? "none"
  }
}
