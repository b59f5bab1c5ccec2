/// One purchase event of a receipt (`in_app`, `latest_receipt_info`), with every field of
/// SPEC §3, typed.
///
/// Dates are ``Instant``s and flags are `Bool`s: the reading layer turns Apple's strings into
/// these, so no string date or `"1"` flag reaches a rule. Fields Apple may extend keep their raw
/// value (``rawCancellationReason``, ``rawInAppOwnershipType``) beside a typed view.
///
/// Dates are optional because real receipts lack them; an entry without a purchase date, or
/// whose `expires_date` is not after its purchase date, covers nothing and is reported as a
/// ``Diagnostic`` naming the transaction and the field (SPEC §4).
///
/// ```swift
/// let entry = ReceiptEntry(
///   productID: "com.example.monthly", transactionID: "1", originalTransactionID: "1",
///   purchaseDate: try Instant(parsing: "2017-02-20T08:00:00Z"),
///   expiresDate: try Instant(parsing: "2017-03-20T08:00:00Z"))
/// entry.isRefunded  // false
/// ```
public struct ReceiptEntry: Hashable, Sendable {
  /// `product_id`.
  public var productID: ProductID
  /// `transaction_id`: the key of this record.
  public var transactionID: TransactionID
  /// `original_transaction_id`: the subscription this entry belongs to.
  public var originalTransactionID: OriginalTransactionID
  /// `web_order_line_item_id`: the key of one subscription purchase event.
  public var webOrderLineItemID: WebOrderLineItemID?
  /// `quantity`.
  public var quantity: Int
  /// `purchase_date`: when this purchase or renewal was charged.
  public var purchaseDate: Instant?
  /// `original_purchase_date`.
  public var originalPurchaseDate: Instant?
  /// `expires_date`: the end of this entry's coverage (auto-renewable subscriptions).
  public var expiresDate: Instant?
  /// `cancellation_date`: a refund or revocation by Apple support, or an upgrade.
  public var cancellationDate: Instant?
  /// `cancellation_reason` as Apple sent it (`0` other, `1` an issue in the app).
  public var rawCancellationReason: String?
  /// `is_trial_period`.
  public var isTrialPeriod: Bool
  /// `is_in_intro_offer_period`.
  public var isInIntroOfferPeriod: Bool
  /// `is_upgraded`: the customer moved to a higher plan; this entry ends where it begins.
  public var isUpgraded: Bool
  /// `in_app_ownership_type` as Apple sent it (`PURCHASED`, `FAMILY_SHARED`).
  public var rawInAppOwnershipType: String?
  /// `offer_code_ref_name`.
  public var offerCodeRefName: String?
  /// `promotional_offer_id`.
  public var promotionalOfferID: String?

  /// Creates an entry. Only the identifiers are required; every other field has Apple's
  /// meaning of "absent".
  ///
  /// - Parameters:
  ///   - productID: `product_id`.
  ///   - transactionID: `transaction_id`.
  ///   - originalTransactionID: `original_transaction_id`; the transaction id when omitted.
  ///   - webOrderLineItemID: `web_order_line_item_id`.
  ///   - quantity: `quantity`.
  ///   - purchaseDate: `purchase_date`.
  ///   - originalPurchaseDate: `original_purchase_date`.
  ///   - expiresDate: `expires_date`.
  ///   - cancellationDate: `cancellation_date`.
  ///   - rawCancellationReason: `cancellation_reason`.
  ///   - isTrialPeriod: `is_trial_period`.
  ///   - isInIntroOfferPeriod: `is_in_intro_offer_period`.
  ///   - isUpgraded: `is_upgraded`.
  ///   - rawInAppOwnershipType: `in_app_ownership_type`.
  ///   - offerCodeRefName: `offer_code_ref_name`.
  ///   - promotionalOfferID: `promotional_offer_id`.
  public init(
    productID: ProductID,
    transactionID: TransactionID,
    originalTransactionID: OriginalTransactionID? = nil,
    webOrderLineItemID: WebOrderLineItemID? = nil,
    quantity: Int = 1,
    purchaseDate: Instant?,
    originalPurchaseDate: Instant? = nil,
    expiresDate: Instant? = nil,
    cancellationDate: Instant? = nil,
    rawCancellationReason: String? = nil,
    isTrialPeriod: Bool = false,
    isInIntroOfferPeriod: Bool = false,
    isUpgraded: Bool = false,
    rawInAppOwnershipType: String? = nil,
    offerCodeRefName: String? = nil,
    promotionalOfferID: String? = nil
  ) {
    self.productID = productID
    self.transactionID = transactionID
    self.originalTransactionID =
      originalTransactionID ?? OriginalTransactionID(transactionID.rawValue)
    self.webOrderLineItemID = webOrderLineItemID
    self.quantity = quantity
    self.purchaseDate = purchaseDate
    self.originalPurchaseDate = originalPurchaseDate
    self.expiresDate = expiresDate
    self.cancellationDate = cancellationDate
    self.rawCancellationReason = rawCancellationReason
    self.isTrialPeriod = isTrialPeriod
    self.isInIntroOfferPeriod = isInIntroOfferPeriod
    self.isUpgraded = isUpgraded
    self.rawInAppOwnershipType = rawInAppOwnershipType
    self.offerCodeRefName = offerCodeRefName
    self.promotionalOfferID = promotionalOfferID
  }

  /// Whether Apple support refunded or revoked this entry: it has a `cancellation_date` and is
  /// not an upgrade (SPEC §4).
  public var isRefunded: Bool { cancellationDate != nil && !isUpgraded }

  /// The typed `in_app_ownership_type`; `nil` when absent or a value this version does not know.
  public var inAppOwnershipType: InAppOwnershipType? {
    rawInAppOwnershipType.flatMap(InAppOwnershipType.init(rawValue:))
  }

  /// The typed `cancellation_reason`; `nil` when absent or unknown.
  public var cancellationReason: CancellationReason? {
    rawCancellationReason.flatMap(CancellationReason.init(rawValue:))
  }
}

/// `in_app_ownership_type`: who paid for the entry.
public enum InAppOwnershipType: String, Hashable, Sendable, CaseIterable {
  /// The customer bought it.
  case purchased = "PURCHASED"
  /// A family member shared it through Family Sharing.
  case familyShared = "FAMILY_SHARED"
}

/// `cancellation_reason`: why Apple support refunded an entry.
public enum CancellationReason: String, Hashable, Sendable, CaseIterable {
  /// Another reason, such as an accidental purchase.
  case other = "0"
  /// An actual or perceived issue within the app.
  case appIssue = "1"
}
