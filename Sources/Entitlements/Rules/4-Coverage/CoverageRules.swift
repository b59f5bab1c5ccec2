/// Computes the coverage of each entry of one entitlement (SPEC §4, §6).
///
/// - Auto-renewable: `[purchase_date, expires_date)`, never purchase date plus a duration.
/// - Non-renewing: the catalog's duration from the later of the purchase date and the end of
///   the previous non-renewing coverage (policy `nonRenewingStacking`), in calendar arithmetic.
/// - Non-consumable: `[purchase_date, forever)`.
/// - A refund (`cancellation_date` without `is_upgraded`) voids the entry or ends it at the
///   cancellation (policy `cancellation`); a prorated refund or a family revocation
///   (`revocationType`) always ends it there.
/// - An upgrade ends the entry at its `cancellation_date`, or, without one, where the first
///   other entry of the entitlement that begins inside it begins (refunded or not).
/// - An entry without a purchase date, or an auto-renewable one without an `expires_date`
///   after it, covers nothing and is reported.
enum CoverageRules {
  /// The coverage record of every entry of one entitlement (`group`, from
  /// ``ProductClassification``), in canonical order; entries are read from `entries`.
  ///
  /// - Returns: One record per entry of the group, and the diagnostics of the entries that
  ///   cover nothing and of upgrades without a successor.
  static func cover(
    _ group: ProductClassification.Group, in entries: [ReceiptEntry], catalog: ProductCatalog,
    policy: Policy
  ) -> (records: [CoverageRecord], diagnostics: [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    // The end of the non-renewing coverage so far (policy `nonRenewingStacking`).
    var stackEnd = Instant.distantPast
    // The purchase instants of the records, with their positions: made at the first upgrade
    // without `cancellation_date`, which ends where another entry begins.
    var starts: [(Instant, Int)]?
    let count = group.count
    // Entries are read in place: a copy of an entry retains its strings.
    var records: [CoverageRecord] = []
    records.reserveCapacity(count)
    entries.withUnsafeBufferPointer { entries in
      for runIndex in 0..<group.runCount {
        let run = group.run(runIndex)
        let type = run.productType
        for position in run.positions {
          let index = group.entryIndex(at: position)
          let record = cover(
            index, of: entries, type: type, at: records.count, catalog: catalog,
            policy: policy, stackEnd: &stackEnd, diagnostics: &diagnostics
          ) {
            if let starts { return starts }
            // Each record's purchase instant, with the record's position.
            var made: [(Instant, Int)] = []
            made.reserveCapacity(count)
            var recordPosition = 0
            for runIndex in 0..<group.runCount {
              for position in group.run(runIndex).positions {
                if let purchase = entries[group.entryIndex(at: position)].purchaseDate {
                  made.append((purchase, recordPosition))
                }
                recordPosition += 1
              }
            }
            starts = made
            return made
          }
          records.append(record)
        }
      }
    }
    return (records, diagnostics)
  }

  /// The record of `entries[index]`, the entitlement's record at `position`; `starts` gives
  /// the purchase instants of all its records in order.
  @inline(__always)
  private static func cover(
    _ index: Int, of entries: UnsafeBufferPointer<ReceiptEntry>, type: ProductKind,
    at position: Int, catalog: ProductCatalog, policy: Policy, stackEnd: inout Instant,
    diagnostics: inout [Diagnostic], starts: () -> [(Instant, Int)]
  ) -> CoverageRecord {
    func invalid(
      _ kind: Diagnostic.Kind, field: String, message: @autoclosure () -> String
    ) -> CoverageRecord {
      diagnostics.append(
        rare:
          Diagnostic(
            kind, transactionID: entries[index].transactionID, field: field, message: message()))
      return CoverageRecord(
        entryIndex: index, productType: type, interval: nil, disposition: .invalid(kind),
        naturalInterval: nil)
    }
    guard let purchase = entries[index].purchaseDate else {
      return invalid(
        .missingPurchaseDate, field: "purchase_date",
        message: "no purchase_date: the entry covers nothing")
    }
    let natural: Interval
    switch type {
    case .consumable:
      preconditionFailure("consumables are purchase events: they have no coverage record")
    case .autoRenewable:
      guard let expires = entries[index].expiresDate else {
        return invalid(
          .missingExpiresDate, field: "expires_date",
          message: "an auto-renewable entry without expires_date covers nothing")
      }
      guard expires > purchase else {
        return invalid(
          .expiresNotAfterPurchase, field: "expires_date",
          message:
            "expires_date \(expires) is not after purchase_date \(purchase): "
            + "the entry covers nothing")
      }
      natural = Interval(start: purchase, end: expires)
    case .nonRenewing:
      guard
        let duration = ProductClassification.duration(of: entries[index], catalog: catalog)
      else {
        return invalid(
          .missingDuration, field: "product_id",
          message:
            "non-renewing product \(entries[index].productID) has no duration in the catalog: "
            + "the entry covers nothing")
      }
      let start =
        policy.nonRenewingStacking == .stack && !entries[index].isRefunded
        ? max(purchase, stackEnd) : purchase
      natural = Interval(start: start, end: duration.advance(start))
    case .nonConsumable:
      natural = Interval(start: purchase, end: .distantFuture)
    }
    // The usual entry, neither refunded nor upgraded, covers its natural interval.
    if !entries[index].isUpgraded, entries[index].cancellationDate == nil {
      if type == .nonRenewing { stackEnd = max(stackEnd, natural.end) }
      return CoverageRecord(
        covering: index, productType: type, interval: natural,
        trial: entries[index].isTrialPeriod, intro: entries[index].isInIntroOfferPeriod)
    }
    var record = cut(
      natural, of: entries[index], at: position, index: index, type: type, policy: policy,
      starts: starts)
    if record.isUpgradeWithoutSuccessor {
      diagnostics.append(
        rare:
          Diagnostic(
            .upgradeWithoutSuccessor, transactionID: entries[index].transactionID,
            field: "is_upgraded",
            message:
              "is_upgraded without cancellation_date, and no other entry begins inside "
              + "\(natural): it keeps its own expiry"))
    }
    if type == .nonRenewing, let interval = record.record.interval {
      stackEnd = max(stackEnd, interval.end)
    }
    record.record.setOffers(
      trial: entries[index].isTrialPeriod, intro: entries[index].isInIntroOfferPeriod)
    return record.record
  }

  /// Refunds and upgrades applied to the natural coverage of `entry`, the entitlement's
  /// record at `position`; `starts` gives the purchase instants of all its records in order.
  private static func cut(
    _ natural: Interval, of entry: ReceiptEntry, at position: Int, index: Int,
    type: ProductKind, policy: Policy, starts: () -> [(Instant, Int)]
  ) -> (record: CoverageRecord, isUpgradeWithoutSuccessor: Bool) {
    func make(_ interval: Interval?, _ disposition: EntryCoverage.Disposition) -> CoverageRecord {
      CoverageRecord(
        entryIndex: index, productType: type,
        interval: interval.flatMap { $0.isEmpty ? nil : $0 }, disposition: disposition,
        naturalInterval: natural)
    }
    if !entry.isUpgraded, let cancellation = entry.cancellationDate {
      // A prorated refund or a family revocation ends access at its date whatever the
      // policy: the time before it stays paid for (SPEC §4, "Revocation types").
      if policy.cancellation == .voidEntirely, !entry.endsAccessAtRevocation {
        return (make(nil, .refundVoided), false)
      }
      let end = min(natural.end, cancellation)
      return (make(Interval(start: natural.start, end: end), .refundEndedAt(cancellation)), false)
    }
    guard entry.isUpgraded else { return (make(natural, .covers), false) }
    if let cancellation = entry.cancellationDate {
      let end = max(natural.start, min(natural.end, cancellation))
      return (make(Interval(start: natural.start, end: end), .endedByUpgrade(at: end)), false)
    }
    // Refunded entries count as upgrade successors: the old plan was upgraded even if the new
    // plan was refunded later, so a refund never gives the old plan back (DESIGN.md).
    if let successor = firstStart(in: natural, excluding: position, starts: starts()) {
      return (
        make(Interval(start: natural.start, end: successor), .endedByUpgrade(at: successor)),
        false
      )
    }
    return (make(natural, .covers), true)
  }

  /// The earliest start of another entry inside `interval`, by binary search over `starts`,
  /// which are in order.
  private static func firstStart(
    in interval: Interval, excluding position: Int, starts: [(Instant, Int)]
  ) -> Instant? {
    var low = starts.partitionPoint { $0.0 >= interval.start }
    while low < starts.count, starts[low].0 < interval.end {
      if starts[low].1 != position { return starts[low].0 }
      low += 1
    }
    return nil
  }
}
