extension ReceiptEntry {
  /// Reads a receipt entry in verifyReceipt's snake_case (`in_app`, `latest_receipt_info`,
  /// SPEC §3). `nil`, with a diagnostic, when the value is not an object or has no
  /// `transaction_id` (an entry cannot be keyed without it).
  static func read(
    receiptFields value: JSONValue, path: String, diagnostics: inout [Diagnostic]
  ) -> ReceiptEntry? {
    guard case .object(let members) = value else {
      diagnostics.append(
        Diagnostic(
          .unreadableField, field: path,
          message: "expected a receipt entry object, found \(value.kindDescription): left out"))
      return nil
    }
    var fields = FieldReader(members, path: path)
    defer { diagnostics += fields.diagnostics }
    guard let transaction = fields.string("transaction_id") else {
      fields.report("transaction_id", "missing: the entry cannot be keyed and is left out")
      return nil
    }
    fields.transactionID = TransactionID(transaction)
    let product = fields.string("product_id")
    if product == nil { fields.report("product_id", "missing") }
    return ReceiptEntry(
      productID: ProductID(product ?? ""), transactionID: TransactionID(transaction),
      originalTransactionID: fields.string("original_transaction_id").map(
        OriginalTransactionID.init(rawValue:)),
      webOrderLineItemID: fields.string("web_order_line_item_id").map(
        WebOrderLineItemID.init(rawValue:)),
      quantity: fields.int("quantity") ?? 1,
      purchaseDate: fields.instant("purchase_date", millisecondsKey: "purchase_date_ms"),
      originalPurchaseDate: fields.instant(
        "original_purchase_date", millisecondsKey: "original_purchase_date_ms"),
      expiresDate: fields.instant("expires_date", millisecondsKey: "expires_date_ms")
        ?? fields.instant("expires_date_formatted"),
      cancellationDate: fields.instant(
        "cancellation_date", millisecondsKey: "cancellation_date_ms"),
      rawCancellationReason: fields.string("cancellation_reason"),
      isTrialPeriod: fields.bool("is_trial_period") ?? false,
      isInIntroOfferPeriod: fields.bool("is_in_intro_offer_period") ?? false,
      isUpgraded: fields.bool("is_upgraded") ?? false,
      rawInAppOwnershipType: fields.string("in_app_ownership_type"),
      offerCodeRefName: fields.string("offer_code_ref_name"),
      promotionalOfferID: fields.string("promotional_offer_id"))
  }

  /// Reads a decoded App Store Server API transaction (`JWSTransactionDecodedPayload`,
  /// camelCase, millisecond numbers).
  static func read(
    transactionFields members: [String: JSONValue], path: String,
    diagnostics: inout [Diagnostic]
  ) -> ReceiptEntry? {
    var fields = FieldReader(members, path: path)
    defer { diagnostics += fields.diagnostics }
    guard let transaction = fields.string("transactionId") else {
      fields.report("transactionId", "missing: the transaction cannot be keyed and is left out")
      return nil
    }
    fields.transactionID = TransactionID(transaction)
    let product = fields.string("productId")
    if product == nil { fields.report("productId", "missing") }
    let offerType = fields.int("offerType")
    let offerIdentifier = fields.string("offerIdentifier")
    let discount = fields.string("offerDiscountType")
    return ReceiptEntry(
      productID: ProductID(product ?? ""), transactionID: TransactionID(transaction),
      originalTransactionID: fields.string("originalTransactionId").map(
        OriginalTransactionID.init(rawValue:)),
      webOrderLineItemID: fields.string("webOrderLineItemId").map(
        WebOrderLineItemID.init(rawValue:)),
      quantity: fields.int("quantity") ?? 1,
      purchaseDate: fields.instant("purchaseDate"),
      originalPurchaseDate: fields.instant("originalPurchaseDate"),
      expiresDate: fields.instant("expiresDate"),
      cancellationDate: fields.instant("revocationDate"),
      rawCancellationReason: fields.string("revocationReason"),
      // offerType 1 is an introductory offer; a free trial says so in offerDiscountType.
      isTrialPeriod: offerType == 1 && discount == "FREE_TRIAL",
      isInIntroOfferPeriod: offerType == 1 && discount != "FREE_TRIAL",
      isUpgraded: fields.bool("isUpgraded") ?? false,
      rawInAppOwnershipType: fields.string("inAppOwnershipType"),
      offerCodeRefName: offerType == 3 ? offerIdentifier : nil,
      promotionalOfferID: offerType == 2 ? offerIdentifier : nil)
  }
}

extension RenewalInfo {
  /// Reads renewal info in verifyReceipt's snake_case (`pending_renewal_info`, or the top-level
  /// fields of iOS 6 style responses and legacy notifications).
  static func read(
    receiptFields members: [String: JSONValue], path: String,
    defaultSubscription: OriginalTransactionID? = nil, diagnostics: inout [Diagnostic]
  ) -> RenewalInfo? {
    var fields = FieldReader(members, path: path)
    defer { diagnostics += fields.diagnostics }
    guard
      let subscription = fields.string("original_transaction_id").map(
        OriginalTransactionID.init(rawValue:)) ?? defaultSubscription
    else {
      fields.report(
        "original_transaction_id", "missing: the renewal info describes no subscription")
      return nil
    }
    return RenewalInfo(
      originalTransactionID: subscription,
      productID: fields.string("product_id").map(ProductID.init(rawValue:)),
      autoRenewProductID: fields.string("auto_renew_product_id").map(ProductID.init(rawValue:)),
      autoRenewStatus: fields.bool("auto_renew_status"),
      rawExpirationIntent: fields.int("expiration_intent"),
      isInBillingRetryPeriod: fields.bool("is_in_billing_retry_period"),
      gracePeriodExpiresDate: fields.instant(
        "grace_period_expires_date", millisecondsKey: "grace_period_expires_date_ms"),
      priceConsentStatus: fields.bool("price_consent_status"))
  }

  /// Reads decoded App Store Server API renewal info (`JWSRenewalInfoDecodedPayload`).
  static func read(
    renewalFields members: [String: JSONValue], path: String, diagnostics: inout [Diagnostic]
  ) -> RenewalInfo? {
    var fields = FieldReader(members, path: path)
    defer { diagnostics += fields.diagnostics }
    guard let subscription = fields.string("originalTransactionId") else {
      fields.report("originalTransactionId", "missing: the renewal info describes nothing")
      return nil
    }
    return RenewalInfo(
      originalTransactionID: OriginalTransactionID(subscription),
      productID: fields.string("productId").map(ProductID.init(rawValue:)),
      autoRenewProductID: fields.string("autoRenewProductId").map(ProductID.init(rawValue:)),
      autoRenewStatus: fields.bool("autoRenewStatus"),
      rawExpirationIntent: fields.int("expirationIntent"),
      isInBillingRetryPeriod: fields.bool("isInBillingRetryPeriod"),
      gracePeriodExpiresDate: fields.instant("gracePeriodExpiresDate"),
      priceConsentStatus: fields.int("priceIncreaseStatus").map { $0 == 1 })
  }
}

extension ReceiptEntry {
  /// Reads one receipt entry written with Apple's snake_case field names (SPEC §3), as in
  /// `in_app` or a scenario's `transactions`.
  ///
  /// ```swift
  /// let (entry, problems) = ReceiptEntry.read(appleFields: value, path: "transactions[0]")
  /// ```
  ///
  /// - Parameters:
  ///   - value: The entry object.
  ///   - path: Its JSON path, for diagnostics.
  /// - Returns: The entry (`nil` without `transaction_id`) and the fields that could not be read.
  package static func read(appleFields value: JSONValue, path: String) -> (
    entry: ReceiptEntry?, diagnostics: [Diagnostic]
  ) {
    var diagnostics: [Diagnostic] = []
    let entry = read(receiptFields: value, path: path, diagnostics: &diagnostics)
    return (entry, diagnostics)
  }
}

extension RenewalInfo {
  /// Reads one renewal info written with Apple's snake_case field names
  /// (`pending_renewal_info`, or a scenario's `pendingRenewalInfo`).
  ///
  /// ```swift
  /// let (info, problems) = RenewalInfo.read(appleFields: value, path: "pendingRenewalInfo[0]")
  /// ```
  ///
  /// - Parameters:
  ///   - value: The renewal info object.
  ///   - path: Its JSON path, for diagnostics.
  /// - Returns: The renewal info (`nil` without `original_transaction_id`) and the fields that
  ///   could not be read.
  package static func read(appleFields value: JSONValue, path: String) -> (
    info: RenewalInfo?, diagnostics: [Diagnostic]
  ) {
    var diagnostics: [Diagnostic] = []
    guard case .object(let members) = value else {
      diagnostics.append(
        Diagnostic(
          .unreadableField, field: path,
          message: "expected a renewal info object, found \(value.kindDescription)"))
      return (nil, diagnostics)
    }
    let info = read(receiptFields: members, path: path, diagnostics: &diagnostics)
    return (info, diagnostics)
  }
}
