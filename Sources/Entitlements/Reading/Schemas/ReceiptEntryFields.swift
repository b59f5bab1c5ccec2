/// An entry of verifyReceipt's `in_app` and `latest_receipt_info`, and of a v1 notification's
/// (Apple's `responseBody.Latest_receipt_info` and `In_app`; SPEC §3): one transaction, read
/// into a ``ReceiptEntry``.
struct ReceiptEntryFields: AppleFields {
  var productID: String?
  var transactionID: CompactIdentifier?
  var originalTransactionID: String?
  var webOrderLineItemID: CompactIdentifier?
  var quantity: Int?
  var purchaseDate = ReceiptDate()
  var originalPurchaseDate = ReceiptDate()
  var expiresDate = ReceiptDate()
  /// iOS 6's spelling of the expiry, read only without `expires_date`.
  var expiresDateFormatted = ReceiptDate()
  var cancellationDate = ReceiptDate()
  var cancellationReason: String?
  var isTrialPeriod: Bool?
  var isInIntroOfferPeriod: Bool?
  var isUpgraded: Bool?
  var inAppOwnershipType: String?
  var offerCodeRefName: String?
  var promotionalOfferID: String?

  // In the order Apple writes an entry: the reader predicts each key from the one before.
  static let fields: [Field<Self>] = [
    .integer("quantity", \.quantity),
    .productID("product_id", \.productID),
    .identifier("transaction_id", \.transactionID),
    .subscriptionID("original_transaction_id", \.originalTransactionID),
    .receiptDate("purchase_date", \.purchaseDate),
    .receiptDate("original_purchase_date", \.originalPurchaseDate),
    .receiptDate("expires_date", \.expiresDate),
    .identifier("web_order_line_item_id", \.webOrderLineItemID),
    .flag("is_trial_period", \.isTrialPeriod),
    .flag("is_in_intro_offer_period", \.isInIntroOfferPeriod),
    .ownershipType("in_app_ownership_type", \.inAppOwnershipType),
    // Written by Apple, read by no rule: the group.
    .ignored("subscription_group_identifier"),
    .receiptDate("cancellation_date", \.cancellationDate),
    .string("cancellation_reason", \.cancellationReason),
    .flag("is_upgraded", \.isUpgraded),
    .string("offer_code_ref_name", \.offerCodeRefName),
    .string("promotional_offer_id", \.promotionalOfferID),
    .ignored("app_account_token"),
    .receiptDate("expires_date_formatted", \.expiresDateFormatted, milliseconds: false),
  ]
}

extension SchemaReader {
  /// The receipt entry at ``index`` (an object); `nil`, reported, without `transaction_id`: an
  /// entry cannot be keyed without it.
  mutating func receiptEntry() throws(Stop) -> ReceiptEntry? {
    var entries: [ReceiptEntry] = []
    try receiptEntry(appendingTo: &entries)
    return entries.first
  }

  /// ``receiptEntry()`` appended to `entries` (nothing appended without `transaction_id`): the
  /// entry made where it is kept, with no `Optional` of it copied on the way.
  mutating func receiptEntry(appendingTo entries: inout [ReceiptEntry]) throws(Stop) {
    let start = diagnostics.count
    var fields = ReceiptEntryFields()
    _ = try read(schemas.receiptEntry, into: &fields)
    guard let transaction = fields.transactionID else {
      report(
        "missing: the entry cannot be keyed and is left out",
        at: key(of: \ReceiptEntryFields.transactionID, in: schemas.receiptEntry))
      return
    }
    let product = fields.productID
    if product == nil {
      report("missing", at: key(of: \ReceiptEntryFields.productID, in: schemas.receiptEntry))
    }
    beginResolving()
    let purchase = instant(fields.purchaseDate)
    let originalPurchase = instant(fields.originalPurchaseDate)
    var expires = instant(fields.expiresDate)
    if expires == nil { expires = instant(fields.expiresDateFormatted) }
    let cancellation = instant(fields.cancellationDate)
    name(transaction, inDiagnosticsFrom: start)
    entries.append(
      ReceiptEntry(
        productID: ProductID(product ?? ""), transaction: transaction,
        originalTransactionID: fields.originalTransactionID.take().map(
          OriginalTransactionID.init(rawValue:)),
        orderLine: fields.webOrderLineItemID ?? .absent, quantity: fields.quantity ?? 1,
        purchaseDate: purchase, originalPurchaseDate: originalPurchase, expiresDate: expires,
        cancellationDate: cancellation, rawCancellationReason: fields.cancellationReason.take(),
        isTrialPeriod: fields.isTrialPeriod ?? false,
        isInIntroOfferPeriod: fields.isInIntroOfferPeriod ?? false,
        isUpgraded: fields.isUpgraded ?? false,
        rawInAppOwnershipType: fields.inAppOwnershipType.take(),
        offerCodeRefName: fields.offerCodeRefName.take(),
        promotionalOfferID: fields.promotionalOfferID.take()))
  }

  /// Names the transaction in the diagnostics made since `start` (its fields'), as a
  /// diagnostic about a transaction does.
  mutating func name(_ transaction: CompactIdentifier, inDiagnosticsFrom start: Int) {
    guard diagnostics.count > start, let text = transaction.text else { return }
    for position in start..<diagnostics.count where diagnostics[position].transactionID == nil {
      diagnostics[position].transactionID = TransactionID(text)
    }
  }
}
