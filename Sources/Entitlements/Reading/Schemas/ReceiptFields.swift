/// verifyReceipt's `receipt` (Apple's `responseBody.Receipt`): its transactions, and when it
/// was made. An iOS 6 receipt is itself one transaction, with an entry's fields.
struct ReceiptFields: AppleFields {
  var inApp: [ReceiptEntry] = []
  var receiptType: String?
  var creationDate = ReceiptDate()
  var requestDate = ReceiptDate()
  /// Whether the receipt has `transaction_id`: an iOS 6 receipt, itself one transaction.
  var isTransaction = false
  /// `receipt_creation_date`, else `request_date`: resolved while the receipt is read.
  var timestamp: Instant?

  // In the order Apple writes a receipt: the reader predicts each key from the one before.
  static let fields: [Field<Self>] = [
    .string("receipt_type", \.receiptType),
    .ignored(
      "adam_id", "app_item_id", "bundle_id", "application_version", "download_id",
      "version_external_identifier"),
    .receiptDate("receipt_creation_date", \.creationDate),
    .receiptDate("request_date", \.requestDate),
    .ignored(
      "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst",
      "original_application_version"),
    .entries("in_app", \.inApp),
    .marker("transaction_id", \.isTransaction),
    .ignored(
      "expiration_date", "expiration_date_ms", "expiration_date_pst", "preorder_date",
      "preorder_date_ms", "preorder_date_pst"),
  ]

  /// The fields of an iOS 6 receipt, itself one transaction: it has no `in_app` of its own.
  static let fieldsOfOneTransaction: [Field<Self>] =
    fields.map { field in
      field.members.contains { $0.name == "in_app" } ? .ignored("in_app") : field
    }
}

extension SchemaReader {
  /// The receipt at ``index``, inside whose path the reader is; an iOS 6 receipt is read again
  /// as its one transaction.
  mutating func receiptObject() throws(Stop) -> ReceiptFields {
    let (start, reported) = (index, diagnostics.count)
    var fields = ReceiptFields()
    _ = try read(schemas.receipt, into: &fields)
    if fields.isTransaction {
      // Read again without its `in_app`, then as an entry, as iOS 6 wrote it.
      diagnostics.removeSubrange(reported...)
      index = start
      fields = ReceiptFields()
      _ = try read(schemas.receiptOfOneTransaction, into: &fields)
      let end = index
      index = start
      beginResolving()
      fields.timestamp = instant(fields.creationDate) ?? instant(fields.requestDate)
      fields.inApp = try receiptEntry().map { [$0] } ?? []
      index = end
      return fields
    }
    beginResolving()
    fields.timestamp = instant(fields.creationDate) ?? instant(fields.requestDate)
    return fields
  }
}
