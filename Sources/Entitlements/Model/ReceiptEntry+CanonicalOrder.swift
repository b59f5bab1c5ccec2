extension ReceiptEntry {
  /// The canonical order of entries (SPEC §3: input order never matters): by purchase date
  /// (entries without one first), then by transaction id in `String` order, then by every
  /// other field in a fixed order, so that any two different entries have one order and every
  /// list the engine makes from entries is the same whatever the input's order.
  ///
  /// The fields after the transaction id only order two records of one purchase that
  /// disagree, which deduplication then reduces to one: `cancellation_date` (absent last),
  /// `expires_date` (absent first), `product_id`, `original_transaction_id`,
  /// `web_order_line_item_id`, `original_purchase_date`, `quantity`, the flags
  /// (`is_upgraded`, `is_trial_period`, `is_in_intro_offer_period`, a win-back offer, `false`
  /// first), Apple's `type` (absent first, then in the order of ``ProductKind``), then the raw
  /// `cancellation_reason`, `in_app_ownership_type`, `offer_code_ref_name`,
  /// `promotional_offer_id`, `revocationType` and `billingPlanType` (absent first), then
  /// `revocationPercentage` and the commitment's billing period, total, end and price (absent
  /// first) (DESIGN.md, "Canonical order").
  ///
  /// ```swift
  /// a.purchaseDate  // 2017-02-20
  /// b.purchaseDate  // 2017-03-20
  /// ReceiptEntry.canonicallyPrecedes(a, b)  // true
  /// ```
  ///
  /// - Parameters:
  ///   - a: An entry.
  ///   - b: Another entry.
  /// - Returns: Whether `a` comes before `b`; `false` for equal entries.
  public static func canonicallyPrecedes(_ a: ReceiptEntry, _ b: ReceiptEntry) -> Bool {
    let aPurchase = a.purchaseDate ?? .distantPast
    let bPurchase = b.purchaseDate ?? .distantPast
    if aPurchase != bPurchase { return aPurchase < bPurchase }
    // Ids in `String` order; plain numbers (Apple's) compared with no `String` made.
    if a.transactionKey != b.transactionKey {
      return IdentifierNumber.textPrecedes(
        a.transactionNumber, a.transactionID.rawValue, b.transactionNumber,
        b.transactionID.rawValue)
    }
    return tieBreakPrecedes(a, b)
  }

  /// The order of two records of one transaction bought at one instant: every field after
  /// the transaction id, in the fixed order of ``canonicallyPrecedes(_:_:)``.
  private static func tieBreakPrecedes(_ a: ReceiptEntry, _ b: ReceiptEntry) -> Bool {
    if a.cancellationDate != b.cancellationDate {
      return (a.cancellationDate ?? .distantFuture) < (b.cancellationDate ?? .distantFuture)
    }
    if a.expiresDate != b.expiresDate {
      return (a.expiresDate ?? .distantPast) < (b.expiresDate ?? .distantPast)
    }
    if a.productID != b.productID { return a.productID < b.productID }
    if a.originalTransactionID != b.originalTransactionID {
      return a.originalTransactionID < b.originalTransactionID
    }
    if a.orderLineKey != b.orderLineKey {
      guard let left = a.webOrderLineItemID else { return true }
      guard let right = b.webOrderLineItemID else { return false }
      return left < right
    }
    if a.originalPurchaseDate != b.originalPurchaseDate {
      return (a.originalPurchaseDate ?? .distantPast) < (b.originalPurchaseDate ?? .distantPast)
    }
    if a.quantity != b.quantity { return a.quantity < b.quantity }
    if a.isUpgraded != b.isUpgraded { return !a.isUpgraded }
    if a.isTrialPeriod != b.isTrialPeriod { return !a.isTrialPeriod }
    if a.isInIntroOfferPeriod != b.isInIntroOfferPeriod { return !a.isInIntroOfferPeriod }
    if a.isWinBackOffer != b.isWinBackOffer { return !a.isWinBackOffer }
    if a.appleProductType != b.appleProductType {
      // Absent first, then in the order of `ProductKind.allCases`.
      func rank(_ kind: ProductKind?) -> Int {
        kind.flatMap { ProductKind.allCases.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
      }
      return rank(a.appleProductType) < rank(b.appleProductType)
    }
    let texts: [(String?, String?)] = [
      (a.rawCancellationReason, b.rawCancellationReason),
      (a.rawInAppOwnershipType, b.rawInAppOwnershipType),
      (a.offerCodeRefName, b.offerCodeRefName), (a.promotionalOfferID, b.promotionalOfferID),
      (a.rawRevocationType, b.rawRevocationType), (a.rawBillingPlanType, b.rawBillingPlanType),
    ]
    for (left, right) in texts where left != right {
      guard let left else { return true }
      guard let right else { return false }
      return left < right
    }
    // The rarest fields last: most records have none, and compare equal at once.
    func key(_ entry: ReceiptEntry) -> [Int64?] {
      let commitment = entry.commitment
      return [
        entry.revocationPercentage.map(Int64.init),
        commitment.map { Int64($0.billingPeriodNumber) },
        commitment.map { Int64($0.totalBillingPeriods) },
        commitment?.expiresDate?.millisecondsSince1970, commitment?.price.map(Int64.init),
      ]
    }
    guard a.revocationPercentage != b.revocationPercentage || a.commitment != b.commitment
    else { return false }
    for (left, right) in zip(key(a), key(b)) where left != right {
      guard let left else { return true }
      guard let right else { return false }
      return left < right
    }
    return false
  }

  /// The indices of `entries` in canonical order (``canonicallyPrecedes(_:_:)``).
  ///
  /// Sorted by purchase instant alone, kept beside each index, and by the whole order only for
  /// ties: the entries themselves are read only to break ties, and never moved.
  ///
  /// ```swift
  /// ReceiptEntry.canonicalOrder(of: [april, february])  // [1, 0]
  /// ```
  ///
  /// - Parameter entries: Entries in any order.
  /// - Returns: Their indices, in canonical order.
  /// - Complexity: O(n log n).
  public static func canonicalOrder(of entries: [ReceiptEntry]) -> [Int] {
    entries.withUnsafeBufferPointer { canonicalOrder(of: $0) }
  }

  /// ``canonicalOrder(of:)-([ReceiptEntry])`` of entries read in place.
  static func canonicalOrder(of entries: UnsafeBufferPointer<ReceiptEntry>) -> [Int] {
    if entries.count >= 64, let order = instantOrder(of: entries) { return order }
    var keyed = entries.indices.map { index in
      (purchase: entries[index].purchaseDate?.millisecondsSince1970 ?? .min, index: index)
    }
    keyed.sort { a, b in
      a.purchase != b.purchase
        ? a.purchase < b.purchase
        : canonicallyPrecedes(entries[a.index], entries[b.index])
    }
    return keyed.map(\.index)
  }

  /// ``canonicalOrder(of:)-([ReceiptEntry])`` of a long history, by a bucket sort of one key
  /// per dated entry: its purchase instant (as an offset from the earliest) above its index.
  /// Entries that share a purchase instant come out by index, and are then put in canonical
  /// order among themselves; entries without a purchase date come first, in canonical order.
  /// `nil` when the instants span more time than the key holds beside the index (2⁶⁴⁻ᵇ ms for
  /// an index of b bits: about 557 years for a history of 10⁶ entries), which no real
  /// history does, and when an entry bought at `Instant.distantPast` would tie with undated
  /// ones.
  static func instantOrder(of entries: UnsafeBufferPointer<ReceiptEntry>) -> [Int]? {
    var undated: [Int] = []
    var (low, high) = (Int64.max, Int64.min)
    for index in entries.indices {
      guard let purchase = entries[index].purchaseDate?.millisecondsSince1970 else {
        undated.append(index)
        continue
      }
      (low, high) = (Swift.min(low, purchase), Swift.max(high, purchase))
    }
    undated.sort { canonicallyPrecedes(entries[$0], entries[$1]) }
    guard undated.count < entries.count else { return undated }
    // An entry bought at `Instant.distantPast` ties with the undated ones, which count as
    // bought then: the comparison sort orders them by id.
    guard undated.isEmpty || low != Instant.distantPast.millisecondsSince1970 else { return nil }
    // The span as an unsigned number: exact even where `high - low` overflows `Int64`.
    let span = UInt64(bitPattern: high) &- UInt64(bitPattern: low)
    let indexBits = UInt64(Int.bitWidth - (entries.count - 1).leadingZeroBitCount)
    guard span >> (64 - indexBits) == 0 else { return nil }
    var keys = [UInt64]()
    keys.reserveCapacity(entries.count - undated.count)
    for index in entries.indices {
      guard let purchase = entries[index].purchaseDate?.millisecondsSince1970 else { continue }
      keys.append(UInt64(bitPattern: purchase &- low) << indexBits | UInt64(index))
    }
    keys.bucketSort()
    let indexMask = (UInt64(1) << indexBits) - 1
    var order = undated
    order.reserveCapacity(entries.count)
    for key in keys { order.append(Int(truncatingIfNeeded: key & indexMask)) }
    // Runs of one purchase instant, in canonical order among themselves.
    var start = 0
    while start < keys.count {
      var end = start + 1
      while end < keys.count, keys[end] >> indexBits == keys[start] >> indexBits { end += 1 }
      if end - start > 1 {
        let run = (undated.count + start)..<(undated.count + end)
        order[run].sort { canonicallyPrecedes(entries[$0], entries[$1]) }
      }
      start = end
    }
    return order
  }
}
