/// A decoded transaction or renewal info of the App Store Server API and StoreKit 2 (Apple's
/// `JWSTransactionDecodedPayload` and `JWSRenewalInfoDecodedPayload`): camelCase, dates in
/// milliseconds. The two share one table, each field saying which of the two reads it, as a
/// payload read alone is one or the other by its keys (`transactionId`).
struct DecodedPayloadFields: AppleFields {
  var transactionID: CompactIdentifier?
  var originalTransactionID: String?
  var productID: String?
  var webOrderLineItemID: CompactIdentifier?
  var quantity: Int?
  var purchaseDate: Instant?
  var originalPurchaseDate: Instant?
  var expiresDate: Instant?
  var revocationDate: Instant?
  var revocationReason: String?
  var offerType: Int?
  var offerIdentifier: String?
  var offerDiscountType: String?
  var isUpgraded: Bool?
  var inAppOwnershipType: String?
  var type: String?
  var autoRenewProductID: String?
  var autoRenewStatus: Bool?
  var expirationIntent: Int?
  var isInBillingRetryPeriod: Bool?
  var gracePeriodExpiresDate: Instant?
  var priceIncreaseStatus: Int?
  var signedDate: Instant?
  var environment: StoreEnvironment?
  var revocationType: String?
  var revocationPercentage: Int?
  var billingPlanType: String?
  var renewalBillingPlanType: String?
  var commitmentInfo: CommitmentBox?

  static let fields: [Field<Self>] = [
    .identifier("transactionId", \.transactionID, for: .transaction),
    .subscriptionID("originalTransactionId", \.originalTransactionID),
    .productID("productId", \.productID),
    .identifier("webOrderLineItemId", \.webOrderLineItemID, for: .transaction),
    .integer("quantity", \.quantity, for: .transaction),
    .date("purchaseDate", \.purchaseDate, for: .transaction),
    .date("originalPurchaseDate", \.originalPurchaseDate, for: .transaction),
    .date("expiresDate", \.expiresDate, for: .transaction),
    .date("revocationDate", \.revocationDate, for: .transaction),
    .string("revocationReason", \.revocationReason, for: .transaction),
    .integer("offerType", \.offerType, for: .transaction),
    .string("offerIdentifier", \.offerIdentifier, for: .transaction),
    .string("offerDiscountType", \.offerDiscountType, for: .transaction),
    .flag("isUpgraded", \.isUpgraded, for: .transaction),
    .ownershipType("inAppOwnershipType", \.inAppOwnershipType, for: .transaction),
    .productType("type", \.type, for: .transaction),
    .productID("autoRenewProductId", \.autoRenewProductID, for: .renewal),
    .flag("autoRenewStatus", \.autoRenewStatus, for: .renewal),
    .integer("expirationIntent", \.expirationIntent, for: .renewal),
    .flag("isInBillingRetryPeriod", \.isInBillingRetryPeriod, for: .renewal),
    .date("gracePeriodExpiresDate", \.gracePeriodExpiresDate, for: .renewal),
    .integer("priceIncreaseStatus", \.priceIncreaseStatus, for: .renewal),
    .date("signedDate", \.signedDate),
    .environment("environment", \.environment),
    // Apple's 2026 additions (App Store Server API 1.19 and 1.21).
    .string("revocationType", \.revocationType, for: .transaction),
    .integer("revocationPercentage", \.revocationPercentage, for: .transaction),
    .string("billingPlanType", \.billingPlanType, for: .transaction),
    .string("renewalBillingPlanType", \.renewalBillingPlanType, for: .renewal),
    .commitment("commitmentInfo", \.commitmentInfo),
    // Written by Apple, read by no rule (see the reading guide): a third of a transaction's
    // keys.
    .ignored(
      "bundleId", "subscriptionGroupIdentifier", "appAccountToken", "appTransactionId",
      "currency", "price", "storefront", "storefrontId", "transactionReason", "offerPeriod",
      "advancedCommerceInfo", "renewalDate", "renewalPrice", "recentSubscriptionStartDate",
      "eligibleWinBackOfferIds"),
  ]
}

extension SchemaReader {
  /// The transaction of the object at ``index``: what its fields say, read as the
  /// transaction it is whatever its keys.
  mutating func transactionPayload() throws(Stop) -> AppStoreTransaction {
    let start = diagnostics.count
    var fields = DecodedPayloadFields()
    var spans: [DiagnosticSpan] = []
    var keys = KeySet()
    _ = try read(schemas.payload, into: &fields, spans: &spans, keys: &keys)
    keepDiagnostics(of: .transaction, spans)
    return transaction(&fields, diagnosticsFrom: start)
  }

  /// The renewal info of the object at ``index``, whatever its keys.
  mutating func renewalPayload() throws(Stop) -> AppStoreRenewalInfo {
    let start = diagnostics.count
    var fields = DecodedPayloadFields()
    var spans: [DiagnosticSpan] = []
    var keys = KeySet()
    _ = try read(schemas.payload, into: &fields, spans: &spans, keys: &keys)
    keepDiagnostics(of: .renewal, spans)
    return renewal(&fields, diagnosticsFrom: start)
  }

  /// The transaction `fields` say; its fields' diagnostics are those made since `start`.
  mutating func transaction(_ fields: inout DecodedPayloadFields, diagnosticsFrom start: Int)
    -> AppStoreTransaction
  {
    let entry = transactionEntry(&fields)
    // The entry's id, without a copy of the entry (there is one exactly when there is an id).
    if let transaction = fields.transactionID { name(transaction, inDiagnosticsFrom: start) }
    return AppStoreTransaction(
      entry: entry, type: fields.type.take(), environment: fields.environment,
      timestamp: fields.signedDate,
      diagnostics: diagnostics(from: start))
  }

  /// The entry of a transaction; `nil`, reported, without `transactionId`. Its strings are
  /// moved from `fields`, not copied: they are read once.
  @inline(__always)
  mutating func transactionEntry(_ fields: inout DecodedPayloadFields) -> ReceiptEntry? {
    guard let transaction = fields.transactionID, let product = fields.productID.take() else {
      return reportedEntry(fields)
    }
    let offer = fields.offerIdentifier.take()
    let offerType = fields.offerType
    // offerType 1 is an introductory offer; a free trial says so in offerDiscountType.
    let freeTrial = fields.offerDiscountType == "FREE_TRIAL"
    var entry = ReceiptEntry(
      productID: ProductID(product), transaction: transaction,
      originalTransactionID: fields.originalTransactionID.take().map(
        OriginalTransactionID.init(rawValue:)),
      orderLine: fields.webOrderLineItemID ?? .absent, quantity: fields.quantity ?? 1,
      purchaseDate: fields.purchaseDate, originalPurchaseDate: fields.originalPurchaseDate,
      expiresDate: fields.expiresDate, cancellationDate: fields.revocationDate,
      rawCancellationReason: fields.revocationReason.take(),
      isTrialPeriod: offerType == 1 && freeTrial,
      isInIntroOfferPeriod: offerType == 1 && !freeTrial,
      isUpgraded: fields.isUpgraded ?? false,
      rawInAppOwnershipType: fields.inAppOwnershipType.take(),
      offerCodeRefName: offerType == 3 ? offer : nil,
      promotionalOfferID: offerType == 2 ? offer : nil,
      rawRevocationType: fields.revocationType.take(),
      revocationPercentage: fields.revocationPercentage.flatMap {
        (0...100_000).contains($0) ? $0 : reportedPercentage($0)
      },
      rawBillingPlanType: fields.billingPlanType.take(),
      commitment: fields.commitmentInfo.map { transactionCommitment($0) } ?? nil)
    if offerType == 4 { entry.isWinBackOffer = true }
    if let type = fields.type {
      entry.appleProductType = ProductKind.allCases.first { $0.appleName == type }
    }
    return entry
  }

  /// A `revocationPercentage` outside 0…100000 (thousandths of a percent), reported: `nil`.
  @inline(never)
  private mutating func reportedPercentage(_ value: Int) -> Int? {
    report(
      "\(value) is not between 0 and 100000 (thousandths of a percent): left out",
      at: key(of: \DecodedPayloadFields.revocationPercentage, in: schemas.payload))
    return nil
  }

  /// The entry of a transaction missing its id or its product, reported: `nil` without an
  /// id, else with an empty product.
  @inline(never)
  private mutating func reportedEntry(_ fields: DecodedPayloadFields) -> ReceiptEntry? {
    guard fields.transactionID != nil else {
      report(
        "missing: the transaction cannot be keyed and is left out",
        at: key(of: \DecodedPayloadFields.transactionID, in: schemas.payload))
      return nil
    }
    report("missing", at: key(of: \DecodedPayloadFields.productID, in: schemas.payload))
    var complete = fields
    complete.productID = ""
    return transactionEntry(&complete)
  }

  /// The renewal info `fields` say; its fields' diagnostics are those made since `start`.
  mutating func renewal(_ fields: inout DecodedPayloadFields, diagnosticsFrom start: Int)
    -> AppStoreRenewalInfo
  {
    AppStoreRenewalInfo(
      info: renewalInfo(fields), environment: fields.environment, timestamp: fields.signedDate,
      diagnostics: diagnostics(from: start))
  }

  /// The renewal info of a payload; `nil`, reported, without `originalTransactionId`.
  mutating func renewalInfo(_ fields: DecodedPayloadFields) -> RenewalInfo? {
    guard let subscription = fields.originalTransactionID else {
      report(
        "missing: the renewal info describes nothing",
        at: key(of: \DecodedPayloadFields.originalTransactionID, in: schemas.payload))
      return nil
    }
    return RenewalInfo(
      originalTransactionID: OriginalTransactionID(subscription),
      productID: fields.productID.map(ProductID.init(rawValue:)),
      autoRenewProductID: fields.autoRenewProductID.map(ProductID.init(rawValue:)),
      autoRenewStatus: fields.autoRenewStatus, rawExpirationIntent: fields.expirationIntent,
      isInBillingRetryPeriod: fields.isInBillingRetryPeriod,
      gracePeriodExpiresDate: fields.gracePeriodExpiresDate,
      priceConsentStatus: fields.priceIncreaseStatus.map { $0 == 1 },
      rawRenewalBillingPlanType: fields.renewalBillingPlanType,
      commitment: renewalCommitment(fields.commitmentInfo))
  }

  /// Drops the diagnostics of `spans` whose members `kind` does not read.
  mutating func keepDiagnostics(of kind: DocumentKinds, _ spans: [DiagnosticSpan]) {
    for span in spans.reversed() where !span.documents.contains(kind) {
      diagnostics.removeSubrange(span.range)
    }
  }
}
