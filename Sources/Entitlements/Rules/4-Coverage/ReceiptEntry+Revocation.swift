extension ReceiptEntry {
  /// Whether the entry's revocation ends access at its `cancellation_date` whatever the
  /// policy `cancellation`: a prorated refund (the time before it stays paid for) or a family
  /// member's access revoked (<doc:Rules>, §4, "Revocation types").
  var endsAccessAtRevocation: Bool {
    guard isRefunded else { return false }
    return revocationType == .refundProrated || revocationType == .familyRevoke
  }

  /// Whether the entry is revoked at `instant`: refunded, and, for a revocation that ends
  /// access at its date, from that date on (the instant of a revocation belongs to the time
  /// after it). A refund the policy voids is revoked from the purchase on.
  func isRevoked(at instant: Instant) -> Bool {
    guard isRefunded else { return false }
    guard endsAccessAtRevocation, let revoked = cancellationDate else { return true }
    return revoked <= instant
  }
}
