/// Computes the coverage of each entry of one entitlement (SPEC §4, §6).
///
/// - Auto-renewable: `[purchase_date, expires_date)`, never purchase date plus a duration.
/// - Non-renewing: the catalog's duration from the later of the purchase date and the end of
///   the previous non-renewing coverage (policy `nonRenewingStacking`), in calendar arithmetic.
/// - Non-consumable: `[purchase_date, forever)`.
/// - A refund (`cancellation_date` without `is_upgraded`) voids the entry or ends it at the
///   cancellation (policy `cancellation`).
/// - An upgrade ends the entry at its `cancellation_date`, or, without one, where the first
///   other entry of the entitlement that begins inside it begins (refunded or not).
enum CoverageRules {
  /// What evaluating the records of one entitlement in canonical order carries from one record
  /// to the next.
  struct Cursor {
    /// The end of the non-renewing coverage so far (policy `nonRenewingStacking`).
    var stackEnd = Instant.distantPast
    /// The diagnostics of the records evaluated so far.
    var diagnostics: [Diagnostic] = []
    /// The natural intervals of the refunded records so far (``CoverageRecord/isRefunded``),
    /// in the records' order: what ``LapseRules`` needs of the records, gathered here so that
    /// it does not pass over them again.
    var refunded: [Interval] = []
    /// `false` once a record needed the starts of the entries after it (an upgrade without
    /// `cancellation_date`) when they were not known yet: the records must then be evaluated
    /// again with ``cover(_:in:catalog:policy:cursor:)``.
    var isComplete = true
  }

  /// Evaluates every record in place: `records` holds one record per typed entry of one
  /// entitlement (unevaluated, ``CoverageRecord/init(unevaluated:productType:)``, or evaluated
  /// before), in canonical order; entries are read in place from `source`, never copied, and
  /// no second list is made. `cursor` starts afresh.
  static func cover(
    _ records: inout [CoverageRecord], in source: [ReceiptEntry], catalog: ProductCatalog,
    policy: Policy, cursor: inout Cursor
  ) {
    cursor = Cursor()
    // Fields are read in place: reading through `[ReceiptEntry]` may copy a whole entry.
    source.withUnsafeBufferPointer { source in
      records.withUnsafeMutableBufferPointer { records in
        // Entries arrive in canonical order (by purchase date, then transaction id). The
        // starts are needed only to cut an upgrade without cancellation_date: gathered at
        // the first one, from the records' entry indices (which evaluating a record keeps).
        var starts: [(Instant, Int)]?
        func upgradeSuccessorStarts() -> [(Instant, Int)] {
          if let starts { return starts }
          var gathered: [(Instant, Int)] = []
          gathered.reserveCapacity(records.count)
          for position in records.indices {
            if let purchase = source[records[position].entryIndex].purchaseDate {
              gathered.append((purchase, position))
            }
          }
          starts = gathered
          return gathered
        }
        // `record` takes the starts as an optional, so an escaping, closure; it keeps none.
        withoutActuallyEscaping(upgradeSuccessorStarts) { starts in
          for position in records.indices {
            let index = records[position].entryIndex
            records[position] = record(
              of: index, source[index].fields, as: records[position].productType,
              at: position, in: source, catalog: catalog, policy: policy, cursor: &cursor,
              starts: starts)
          }
        }
      }
    }
  }

  /// The record of `source[index]`, typed `type`, at `position` of its entitlement's records,
  /// given the records before it (`cursor`). Without `starts` (the entries after it are not
  /// known yet), an upgrade without `cancellation_date` leaves `cursor` incomplete and a
  /// provisional record.
  ///
  /// Dates and flags are read from `fields` (the entry's ``ReceiptEntry/Fields``); `source` is
  /// read only for a non-renewing product's duration and for diagnostics.
  ///
  /// Inlined by force into the evaluator's pass, as `Deduplication.IncreasingIDs.admits` is.
  @inline(always)
  static func record(
    of index: Int, _ fields: ReceiptEntry.Fields, as type: ProductType, at position: Int,
    in source: UnsafeBufferPointer<ReceiptEntry>, catalog: ProductCatalog, policy: Policy,
    cursor: inout Cursor, starts: (() -> [(Instant, Int)])?
  ) -> CoverageRecord {
    func invalid(_ kind: Diagnostic.Kind, field: String, message: String) -> CoverageRecord {
      cursor.diagnostics.append(
        Diagnostic(
          kind, transactionID: source[index].transactionID, field: field, message: message))
      return CoverageRecord(
        entryIndex: index, productType: type, interval: nil, disposition: .invalid(kind),
        naturalInterval: nil)
    }
    guard let purchase = fields.purchaseDate else {
      return invalid(
        .missingPurchaseDate, field: "purchase_date",
        message: "no purchase_date: the entry covers nothing")
    }
    let natural: Interval
    switch type {
    case .consumable:
      preconditionFailure("consumables are purchase events: they have no coverage record")
    case .autoRenewable:
      guard let expires = fields.expiresDate else {
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
      guard let duration = ProductClassification.duration(of: source[index], catalog: catalog)
      else {
        return invalid(
          .missingDuration, field: "product_id",
          message:
            "non-renewing product \(source[index].productID) has no duration in the "
            + "catalog: the entry covers nothing")
      }
      let start =
        policy.nonRenewingStacking == .stack && !fields.isRefunded
        ? max(purchase, cursor.stackEnd) : purchase
      natural = Interval(start: start, end: duration.advance(start))
    case .nonConsumable:
      natural = Interval(start: purchase, end: .distantFuture)
    }
    var record = cut(
      natural, fields, source: source, index: index, position: position, type: type, policy: policy,
      cursor: &cursor, starts: starts)
    if type == .nonRenewing, let interval = record.interval {
      cursor.stackEnd = max(cursor.stackEnd, interval.end)
    }
    record.setOffers(
      trial: fields.isTrialPeriod, intro: fields.isInIntroOfferPeriod)
    if record.isRefunded { cursor.refunded.append(natural) }
    return record
  }

  /// Applies refunds and upgrades to the natural coverage of `source[index]`.
  private static func cut(
    _ natural: Interval, _ fields: ReceiptEntry.Fields, source: UnsafeBufferPointer<ReceiptEntry>,
    index: Int, position: Int,
    type: ProductType, policy: Policy, cursor: inout Cursor,
    starts: (() -> [(Instant, Int)])?
  ) -> CoverageRecord {
    func make(_ interval: Interval?, _ disposition: EntryCoverage.Disposition) -> CoverageRecord {
      CoverageRecord(
        entryIndex: index, productType: type,
        interval: interval.flatMap { $0.isEmpty ? nil : $0 }, disposition: disposition,
        naturalInterval: natural)
    }
    let cancellationDate = fields.cancellationDate
    let isUpgraded = fields.isUpgraded
    if !isUpgraded, let cancellation = cancellationDate {
      switch policy.cancellation {
      case .voidEntirely:
        return make(nil, .refundVoided)
      case .endAtCancellation:
        let end = min(natural.end, cancellation)
        return make(Interval(start: natural.start, end: end), .refundEndedAt(cancellation))
      }
    }
    guard isUpgraded else { return make(natural, .covers) }
    if let cancellation = cancellationDate {
      let end = max(natural.start, min(natural.end, cancellation))
      return make(Interval(start: natural.start, end: end), .endedByUpgrade(at: end))
    }
    // Refunded entries count as upgrade successors: the old plan was upgraded even if the new
    // plan was refunded later, so a refund never gives the old plan back (DESIGN.md).
    guard let starts else {
      cursor.isComplete = false
      return make(natural, .covers)
    }
    if let successor = firstStart(in: natural, excluding: position, starts: starts()) {
      return make(Interval(start: natural.start, end: successor), .endedByUpgrade(at: successor))
    }
    cursor.diagnostics.append(
      Diagnostic(
        .upgradeWithoutSuccessor, transactionID: source[index].transactionID,
        field: "is_upgraded",
        message:
          "is_upgraded without cancellation_date, and no other entry begins inside "
          + "\(natural): it keeps its own expiry"))
    return make(natural, .covers)
  }

  /// The earliest start of another entry inside `interval`, by binary search.
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
