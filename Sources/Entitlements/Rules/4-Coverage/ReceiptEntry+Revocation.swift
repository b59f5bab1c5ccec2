extension ReceiptEntry {
  /// Whether the entry's revocation ends access at its `cancellation_date` whatever the
  /// policy `cancellation`: a prorated refund (the time before it stays paid for) or a family
  /// member's access revoked (<doc:Rules>, §4, "Revocation types").
  var endsAccessAtRevocation: Bool {
    guard isRefunded else { return false }
    return revocationType == .refundProrated || revocationType == .familyRevoke
  }
}
