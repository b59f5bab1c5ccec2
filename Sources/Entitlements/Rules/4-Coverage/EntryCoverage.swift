/// What one receipt entry contributes to its entitlement, and why (SPEC §4).
///
/// Every entry of an entitlement has exactly one coverage, so nothing is dropped without a
/// trace: a refunded entry shows ``Disposition/refundVoided``, an invalid one
/// ``Disposition/invalid(_:)`` with its diagnostic.
///
/// ```swift
/// let coverage = evaluation["magazine"]?.coverage.first
/// coverage?.interval     // [2017-02-20T08:00:00Z, 2017-03-20T08:00:00Z)
/// coverage?.disposition  // .covers
/// ```
public struct EntryCoverage: Hashable, Sendable {
  /// Why an entry covers what it covers.
  public enum Disposition: Hashable, Sendable {
    /// The entry covers its whole natural span: `[purchase_date, expires_date)`, a
    /// non-renewing duration (stacked), or forever for a non-consumable.
    case covers
    /// An upgrade ended the entry early, at this instant (`cancellation_date` with
    /// `is_upgraded`, or the start of the upgrade transaction).
    case endedByUpgrade(at: Instant)
    /// Refunded or revoked: treated as never bought (policy `cancellation = voidEntirely`).
    case refundVoided
    /// Refunded or revoked: coverage ends at the cancellation (policy `endAtCancellation`).
    case refundEndedAt(Instant)
    /// The entry cannot be used; the diagnostic says which field and why.
    case invalid(Diagnostic.Kind)
  }

  /// The entry.
  public let entry: ReceiptEntry
  /// The product type the entry was evaluated as.
  public let productType: ProductKind
  /// The instants the entry gives access to; `nil` when it gives none (refunded, invalid, or
  /// upgraded away at its very start).
  public let interval: Interval?
  /// Why.
  public let disposition: Disposition
  /// What the entry would have covered had it not been refunded; equal to ``interval`` for an
  /// entry that was not refunded. A lapse inside it has cause ``LapseCause/refund``.
  public let naturalInterval: Interval?

  /// Creates a coverage record.
  ///
  /// - Parameters:
  ///   - entry: The entry.
  ///   - productType: The product type the entry was evaluated as.
  ///   - interval: The instants the entry gives access to.
  ///   - disposition: Why.
  ///   - naturalInterval: What it would have covered without a refund.
  public init(
    entry: ReceiptEntry, productType: ProductKind, interval: Interval?,
    disposition: Disposition, naturalInterval: Interval?
  ) {
    self.entry = entry
    self.productType = productType
    self.interval = interval
    self.disposition = disposition
    self.naturalInterval = naturalInterval
  }
}
