// Receipt entries, decoded transaction payloads and renewal infos, field by field.

extension FastDocumentReader {
  /// The fields of a decoded transaction or renewal info payload (JWSTransactionDecodedPayload,
  /// JWSRenewalInfoDecodedPayload), as Apple types them: ids and names as strings, dates as
  /// millisecond numbers, flags as booleans or 0/1.
  struct PayloadFields {
    var transaction: CompactIdentifier?
    var original: String?
    var product: String?
    var orderLine: CompactIdentifier?
    var quantity: Int?
    var purchase: Int64?
    var originalPurchase: Int64?
    var expires: Int64?
    var revocation: Int64?
    var revocationReason: String?
    var offerType: Int?
    var offerIdentifier: String?
    var offerDiscountType: String?
    var upgraded: Bool?
    var ownership: String?
    var type: String?
    var autoRenewProduct: String?
    var autoRenew: Bool?
    var intent: Int?
    var retry: Bool?
    var grace: Int64?
    var priceIncrease: Int?
    var signedDate: Int64?
    /// `environment`, which is not a field of the entry or the renewal info but of the
    /// document.
    var environment: StoreEnvironment?

    /// As `ReceiptEntry.read(transactionFields:path:diagnostics:)` reads it. The strings are
    /// moved into the entry, not copied: the fields are read once.
    mutating func entry() throws(GiveUp) -> ReceiptEntry {
      guard let transaction, let product = product.take() else { throw GiveUp() }
      let instant = { (milliseconds: Int64?) in
        milliseconds.map(Instant.init(millisecondsSince1970:))
      }
      let offer = offerIdentifier.take()
      return ReceiptEntry(
        productID: ProductID(product), transaction: transaction,
        originalTransactionID: original.take().map(OriginalTransactionID.init(rawValue:)),
        orderLine: orderLine ?? .absent,
        quantity: quantity ?? 1, purchaseDate: instant(purchase),
        originalPurchaseDate: instant(originalPurchase), expiresDate: instant(expires),
        cancellationDate: instant(revocation), rawCancellationReason: revocationReason.take(),
        isTrialPeriod: offerType == 1 && offerDiscountType == "FREE_TRIAL",
        isInIntroOfferPeriod: offerType == 1 && offerDiscountType != "FREE_TRIAL",
        isUpgraded: upgraded ?? false, rawInAppOwnershipType: ownership.take(),
        offerCodeRefName: offerType == 3 ? offer : nil,
        promotionalOfferID: offerType == 2 ? offer : nil)
    }

    /// As `RenewalInfo.read(renewalFields:path:diagnostics:)` reads it.
    func renewalInfo() throws(GiveUp) -> RenewalInfo {
      guard let original else { throw GiveUp() }
      return RenewalInfo(
        originalTransactionID: OriginalTransactionID(original),
        productID: product.map(ProductID.init(rawValue:)),
        autoRenewProductID: autoRenewProduct.map(ProductID.init(rawValue:)),
        autoRenewStatus: autoRenew, rawExpirationIntent: intent, isInBillingRetryPeriod: retry,
        gracePeriodExpiresDate: grace.map(Instant.init(millisecondsSince1970:)),
        priceConsentStatus: priceIncrease.map { $0 == 1 })
    }
  }

  /// Reads a payload field into `fields`; `false` when `key` is not one.
  mutating func payloadField(_ key: Key, _ fields: inout PayloadFields) throws(GiveUp)
    -> Bool
  {
    switch key {
    case .transactionId: fields.transaction = try identifier()
    case .originalTransactionId: fields.original = try memoString(subscription: true)
    case .productId: fields.product = try memoString(subscription: false)
    case .webOrderLineItemId: fields.orderLine = try identifier()
    case .quantity: fields.quantity = try integer()
    case .purchaseDate: fields.purchase = try millisecondsNumber()
    case .originalPurchaseDate: fields.originalPurchase = try millisecondsNumber()
    case .expiresDate: fields.expires = try millisecondsNumber()
    case .revocationDate: fields.revocation = try millisecondsNumber()
    case .revocationReason: fields.revocationReason = try stringOrInteger()
    case .offerType: fields.offerType = try integer()
    case .offerIdentifier: fields.offerIdentifier = try string()
    case .offerDiscountType: fields.offerDiscountType = try string()
    case .isUpgraded: fields.upgraded = try flag()
    case .inAppOwnershipType: fields.ownership = try ownershipType()
    case .type: fields.type = try productType()
    case .autoRenewProductId: fields.autoRenewProduct = try memoString(subscription: false)
    case .autoRenewStatus: fields.autoRenew = try flag()
    case .expirationIntent: fields.intent = try integer()
    case .isInBillingRetryPeriod: fields.retry = try flag()
    case .gracePeriodExpiresDate: fields.grace = try millisecondsNumber()
    case .priceIncreaseStatus: fields.priceIncrease = try integer()
    case .signedDate: fields.signedDate = try millisecondsNumber()
    default: return false
    }
    return true
  }

  /// The entries of a list, whose members are at `depth` in the document (for the nesting
  /// limit of the values skipped in them: the general reader's count).
  mutating func entries(depth: Int) throws(GiveUp) -> [ReceiptEntry] {
    var entries: [ReceiptEntry] = []
    try array { reader throws(GiveUp) in entries.append(try reader.entry(depth: depth)) }
    return entries
  }

  /// The renewal infos of a list, whose members are at `depth` in the document.
  mutating func renewalInfos(depth: Int) throws(GiveUp) -> [RenewalInfo] {
    var infos: [RenewalInfo] = []
    try array { reader throws(GiveUp) in infos.append(try reader.renewalInfo(depth: depth)) }
    return infos
  }

  /// Dates: `X_ms` wins; `X` is read only without `X_ms`.
  struct DateField {
    var milliseconds: Int64?
    var text: (Int, Int)?
  }

  /// A date: `X_ms` when given, else `X`'s text parsed (decoded only then).
  func instant(_ field: DateField) throws(GiveUp) -> Instant? {
    if let milliseconds = field.milliseconds { return Instant(millisecondsSince1970: milliseconds) }
    guard let range = field.text else { return nil }
    guard let instant = try? Instant(parsing: text(range)) else { throw GiveUp() }
    return instant
  }

  private mutating func entry(depth: Int) throws(GiveUp) -> ReceiptEntry {
    var product: String?
    var transaction: CompactIdentifier?
    var original: String?
    var orderLine: CompactIdentifier?
    var quantity: Int?
    var purchase = DateField()
    var originalPurchase = DateField()
    var expires = DateField()
    var expiresFormatted: (Int, Int)?
    var cancellation = DateField()
    var cancellationReason: String?
    var trial: Bool?
    var intro: Bool?
    var upgraded: Bool?
    var ownership: String?
    var offerCode: String?
    var promotional: String?
    // Each known key once: a repeat gives up (the general reader keeps the last value).
    var seen = KeySet()
    try object { reader, key throws(GiveUp) in
      switch key {
      case .product_id:
        product = try reader.sharedString(.product)
      case .transaction_id:
        transaction = try reader.identifier()
      case .original_transaction_id:
        original = try reader.sharedString(.originalTransaction)
      case .web_order_line_item_id:
        orderLine = try reader.identifier()
      case .quantity:
        quantity = try reader.integer()
      case .purchase_date_ms:
        purchase.milliseconds = try reader.millisecondsString()
      case .purchase_date:
        purchase.text = try reader.rawString(allowSlashEscape: false)
      case .original_purchase_date_ms:
        originalPurchase.milliseconds = try reader.millisecondsString()
      case .original_purchase_date:
        originalPurchase.text = try reader.rawString(allowSlashEscape: false)
      case .expires_date_ms:
        expires.milliseconds = try reader.millisecondsString()
      case .expires_date:
        expires.text = try reader.rawString(allowSlashEscape: false)
      case .expires_date_formatted:
        expiresFormatted = try reader.rawString(allowSlashEscape: false)
      case .cancellation_date_ms:
        cancellation.milliseconds = try reader.millisecondsString()
      case .cancellation_date:
        cancellation.text = try reader.rawString(allowSlashEscape: false)
      case .cancellation_reason:
        cancellationReason = try reader.string()
      case .is_trial_period:
        trial = try reader.flag()
      case .is_in_intro_offer_period:
        intro = try reader.flag()
      case .is_upgraded:
        upgraded = try reader.flag()
      case .in_app_ownership_type:
        ownership = try reader.ownershipType()
      case .offer_code_ref_name:
        offerCode = try reader.string()
      case .promotional_offer_id:
        promotional = try reader.string()
      default:
        try reader.skipValue(depth: depth)
        return
      }
      try seen.insert(key)
    }
    guard let product, let transaction else { throw GiveUp() }
    var expiresDate = try instant(expires)
    if expiresDate == nil, let expiresFormatted {
      expiresDate = try instant(DateField(text: expiresFormatted))
    }
    return ReceiptEntry(
      productID: ProductID(product), transaction: transaction,
      originalTransactionID: original.map(OriginalTransactionID.init(rawValue:)),
      orderLine: orderLine ?? .absent,
      quantity: quantity ?? 1, purchaseDate: try instant(purchase),
      originalPurchaseDate: try instant(originalPurchase), expiresDate: expiresDate,
      cancellationDate: try instant(cancellation), rawCancellationReason: cancellationReason,
      isTrialPeriod: trial ?? false, isInIntroOfferPeriod: intro ?? false,
      isUpgraded: upgraded ?? false, rawInAppOwnershipType: ownership,
      offerCodeRefName: offerCode, promotionalOfferID: promotional)
  }

  private mutating func renewalInfo(depth: Int) throws(GiveUp) -> RenewalInfo {
    var subscription: String?
    var product: String?
    var autoRenewProduct: String?
    var autoRenew: Bool?
    var intent: Int?
    var retry: Bool?
    var grace = DateField()
    var consent: Bool?
    var seen = KeySet()
    try object { reader, key throws(GiveUp) in
      try seen.insert(key)
      switch key {
      // Shared with the entries' ids: no allocation, and the evaluator matches the info to
      // its subscription by the string's storage.
      case .original_transaction_id: subscription = try reader.sharedString(.originalTransaction)
      case .product_id: product = try reader.sharedString(.product)
      case .auto_renew_product_id: autoRenewProduct = try reader.sharedString(.product)
      case .auto_renew_status: autoRenew = try reader.flag()
      case .expiration_intent: intent = try reader.integer()
      case .is_in_billing_retry_period: retry = try reader.flag()
      case .grace_period_expires_date_ms: grace.milliseconds = try reader.millisecondsString()
      case .grace_period_expires_date: grace.text = try reader.rawString(allowSlashEscape: false)
      case .price_consent_status: consent = try reader.flag()
      default: try reader.skipValue(depth: depth)
      }
    }
    guard let subscription else { throw GiveUp() }
    return RenewalInfo(
      originalTransactionID: OriginalTransactionID(subscription),
      productID: product.map(ProductID.init(rawValue:)),
      autoRenewProductID: autoRenewProduct.map(ProductID.init(rawValue:)),
      autoRenewStatus: autoRenew, rawExpirationIntent: intent, isInBillingRetryPeriod: retry,
      gracePeriodExpiresDate: try instant(grace), priceConsentStatus: consent)
  }
}
