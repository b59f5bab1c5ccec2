extension ReceiptEntry {
  /// When the commitment this entry is a billing period of began: the earliest purchase, in
  /// `entries`, of its subscription's billing periods that end with the same commitment; `nil`
  /// outside a commitment. What was said of the commitment's own renewal counts from then on
  /// (<doc:Rules>, §5, "Commitments").
  func commitmentStart(in entries: [ReceiptEntry]) -> Instant? {
    guard let commitment, let own = purchaseDate else { return nil }
    var start = own
    for other in entries
    where other.originalTransactionID == originalTransactionID
      && other.commitment?.expiresDate == commitment.expiresDate
    {
      if let purchase = other.purchaseDate, purchase < start { start = purchase }
    }
    return start
  }
}
