/// A refund the App Store later reversed (`REFUND_REVERSED`): the purchase as it was refunded,
/// and when the reversal was signed.
///
/// A history keeps one version of each transaction, the newest, so a reversal erases its
/// refund from the entries: the purchase covers its whole time again. What Apple said in the
/// meantime was `revoked`, and the status between ``refunded``'s `cancellation_date` and
/// ``reversedAt`` says so (SPEC §5, rule 2; <doc:StatusRules>). ``SubscriberRecord`` makes one
/// for each `REFUND_REVERSED` notification, from the newest refunded version of its
/// transaction signed before it.
///
/// ```swift
/// ReversedRefund(refunded: refundedRenewal, reversedAt: try Instant(parsing: "2026-01-20"))
/// ```
public struct ReversedRefund: Hashable, Sendable {
  /// The transaction as the refund stated it: its `cancellation_date` (Apple's
  /// `revocationDate`), reason, revocation type and percentage.
  ///
  /// ```swift
  /// reversal.refunded.cancellationDate  // 2026-01-11T00:00:00Z
  /// ```
  public var refunded: ReceiptEntry
  /// When the reversal was signed: the first instant the refund no longer held.
  ///
  /// ```swift
  /// reversal.reversedAt  // 2026-01-20T00:00:02Z, the REFUND_REVERSED notification's signedDate
  /// ```
  public var reversedAt: Instant

  /// Creates the evidence of a reversed refund.
  ///
  /// - Parameters:
  ///   - refunded: The transaction as refunded.
  ///   - reversedAt: When the reversal was signed.
  public init(refunded: ReceiptEntry, reversedAt: Instant) {
    self.refunded = refunded
    self.reversedAt = reversedAt
  }

  /// The time the refund held: from its `cancellation_date` to the reversal; `nil` when the
  /// refund has no date or the reversal was signed before it.
  ///
  /// ```swift
  /// reversal.interval  // [2026-01-11T00:00:00Z, 2026-01-20T00:00:02Z)
  /// ```
  public var interval: Interval? {
    guard let revokedAt = refunded.cancellationDate, revokedAt < reversedAt else { return nil }
    return Interval(start: revokedAt, end: reversedAt)
  }
}
