extension EntitlementEvaluation {
  /// Where the history comes from: production or the sandbox (SPEC §7).
  ///
  /// ```swift
  /// premium.environment  // .sandbox
  /// ```
  public var environment: StoreEnvironment { timeline.environment }

  /// The entitlement's first purchase: the earliest purchase date of its entries (RevenueCat's
  /// `originalPurchaseDate`); `nil` when none has one.
  ///
  /// ```swift
  /// premium.firstPurchaseDate  // 2026-01-01T00:00:00Z
  /// ```
  public var firstPurchaseDate: Instant? {
    // Coverage is in purchase order, entries without a purchase date first.
    let entries = coverage.entries
    for record in coverage.records {
      if let date = entries[record.entryIndex].purchaseDate { return date }
    }
    return nil
  }

  /// The entitlement's latest purchase at or before an instant (a renewal counts): its
  /// entry, with its date, ownership (`in_app_ownership_type`) and offer; `nil` before any.
  ///
  /// ```swift
  /// premium.latestPurchase(atOrBefore: now)?.purchaseDate         // the last renewal's
  /// premium.latestPurchase(atOrBefore: now)?.inAppOwnershipType   // .familyShared
  /// ```
  ///
  /// - Parameter instant: The instant asked about.
  /// - Returns: The entry purchased last at or before `instant`; of several bought at one
  ///   instant, the last in canonical order.
  /// - Complexity: O(log n), by binary search over the entries in purchase order.
  public func latestPurchase(atOrBefore instant: Instant) -> ReceiptEntry? {
    StatusRules.latestPurchases(atOrBefore: instant, in: coverage).map {
      coverage.entries[coverage.records[$0.upperBound].entryIndex]
    }
  }
}
