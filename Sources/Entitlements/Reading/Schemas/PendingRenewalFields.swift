/// Renewal info as verifyReceipt writes it (Apple's `responseBody.Pending_renewal_info`; SPEC
/// §3), and the renewal fields at the top of iOS 6 responses and v1 notifications: read into a
/// ``RenewalInfo``.
struct PendingRenewalFields: AppleFields {
  var originalTransactionID: String?
  var productID: String?
  var autoRenewProductID: String?
  var autoRenewStatus: Bool?
  var expirationIntent: Int?
  var isInBillingRetryPeriod: Bool?
  var gracePeriodExpiresDate = ReceiptDate()
  var priceConsentStatus: Bool?

  // In the order Apple writes renewal info: the reader predicts each key from the one before.
  static let fields: [Field<Self>] = [
    .integer("expiration_intent", \.expirationIntent),
    .productID("auto_renew_product_id", \.autoRenewProductID),
    .subscriptionID("original_transaction_id", \.originalTransactionID),
    .flag("is_in_billing_retry_period", \.isInBillingRetryPeriod),
    .productID("product_id", \.productID),
    .flag("auto_renew_status", \.autoRenewStatus),
    .receiptDate("grace_period_expires_date", \.gracePeriodExpiresDate),
    .flag("price_consent_status", \.priceConsentStatus),
    .ignored("offer_code_ref_name", "promotional_offer_id", "price_increase_status"),
  ]
}

/// Renewal info read from verifyReceipt, before the document says which subscription it is
/// about when it names none (early responses omit `original_transaction_id`).
struct PendingRenewalInfo: Sendable {
  /// The info; its subscription is empty when ``missingSubscription`` is set.
  var info: RenewalInfo
  /// The JSON path of `original_transaction_id`, when the info names no subscription.
  var missingSubscription: String?

  /// The info, about `subscription` when it names none; `nil`, reported by `reader`, when it
  /// names none and `subscription` is `nil`.
  func info(
    defaultSubscription subscription: OriginalTransactionID?, reader: inout SchemaReader
  ) -> RenewalInfo? {
    guard let path = missingSubscription else { return info }
    guard let subscription else {
      reader.diagnostics.append(
        Diagnostic(
          .unreadableField, field: path,
          message: "missing: the renewal info describes no subscription"))
      return nil
    }
    var info = info
    info.originalTransactionID = subscription
    return info
  }
}

extension SchemaReader {
  /// The renewal info of the object at ``index``.
  mutating func pendingRenewalInfo() throws(Stop) -> PendingRenewalInfo {
    var fields = PendingRenewalFields()
    _ = try read(schemas.pendingRenewal, into: &fields)
    return pendingRenewalInfo(fields)
  }

  /// The renewal info of `fields`, read from the object whose path is ``path``.
  mutating func pendingRenewalInfo(_ fields: PendingRenewalFields) -> PendingRenewalInfo {
    beginResolving()
    let info = RenewalInfo(
      originalTransactionID: OriginalTransactionID(fields.originalTransactionID ?? ""),
      productID: fields.productID.map(ProductID.init(rawValue:)),
      autoRenewProductID: fields.autoRenewProductID.map(ProductID.init(rawValue:)),
      autoRenewStatus: fields.autoRenewStatus, rawExpirationIntent: fields.expirationIntent,
      isInBillingRetryPeriod: fields.isInBillingRetryPeriod,
      gracePeriodExpiresDate: instant(fields.gracePeriodExpiresDate),
      priceConsentStatus: fields.priceConsentStatus)
    guard fields.originalTransactionID == nil else {
      return PendingRenewalInfo(info: info, missingSubscription: nil)
    }
    let key = key(of: \PendingRenewalFields.originalTransactionID, in: schemas.pendingRenewal)
    return PendingRenewalInfo(info: info, missingSubscription: pathText(appending: key))
  }
}
