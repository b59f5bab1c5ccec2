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
  public var transactionID: TransactionID {
    get { TransactionID(rawValue: transaction.text ?? "") }
    set { transaction = CompactIdentifier(newValue.rawValue) }
  }
  /// `original_transaction_id`: the subscription this entry belongs to.
  public var originalTransactionID: OriginalTransactionID
  /// `web_order_line_item_id`: the key of one subscription purchase event.
  public var webOrderLineItemID: WebOrderLineItemID? {
    get { orderLine.text.map(WebOrderLineItemID.init(rawValue:)) }
    set { orderLine = newValue.map { CompactIdentifier($0.rawValue) } ?? .absent }
  }
  /// `quantity`.
  public var quantity: Int {
    get { smallQuantity == Self.largeQuantity ? rare?.quantity ?? 0 : Int(smallQuantity) }
    set {
      let small = Self.small(newValue)
      smallQuantity = small ?? Self.largeQuantity
      if small == nil || rare?.quantity != nil {
        updateRare { $0.quantity = small == nil ? newValue : nil }
      }
    }
  }

  // Storage (DESIGN.md, "Performance"): every rule passes over the entries, so an entry is
  // kept at 128 bytes (two cache lines) instead of 208. Dates are milliseconds with a presence
  // bit (0 when absent), flags are bits, the two raw values Apple almost always sends with one
  // of two spellings are a tag, the quantity takes 4 bytes, and the fields that are rarely
  // present (a quantity beyond `Int32` among them) live in one shared box. Each value has one
  // representation, so the synthesized `==` and `hash(into:)` compare values.
  private var purchaseMilliseconds: Int64 = 0
  private var originalPurchaseMilliseconds: Int64 = 0
  private var expiresMilliseconds: Int64 = 0
  private var cancellationMilliseconds: Int64 = 0
  private static var reasonSpellings: (String, String) { ("0", "1") }
  private static var ownershipSpellings: (String, String) { ("PURCHASED", "FAMILY_SHARED") }
  /// The rarely present fields; `nil` when none is present. Spelt `Optional`, not `?`: a
  /// `var` of `T?` type starts as `nil` before the initializer sets it, which makes the
  /// optimizer build the entry in memory and return a copy of it, every reference in it
  /// retained and released once more (DESIGN.md, "Entries built as values").
  private var rare: Optional<RareFields>
  /// ``transactionID`` and ``webOrderLineItemID``: a number when the id is a plain number,
  /// as Apple's are, with no `String` kept (a 16-digit `String` is an allocation); the
  /// evaluator proves that ids increase by comparing the numbers.
  private var transaction: CompactIdentifier
  private var orderLine: CompactIdentifier
  /// ``transactionID`` as the entry keeps it: a key to compare and hash with no `String` made.
  var transactionKey: CompactIdentifier { transaction }
  /// ``webOrderLineItemID`` as the entry keeps it.
  var orderLineKey: CompactIdentifier { orderLine }
  /// ``transactionID`` as a number (``IdentifierNumber``).
  var transactionNumber: IdentifierNumber { transaction.number }
  /// ``webOrderLineItemID`` as a number (``IdentifierNumber``).
  var orderLineNumber: IdentifierNumber { orderLine.number }
  /// ``quantity``, or ``largeQuantity`` when it is in ``rare``.
  private var smallQuantity: Int32 = 1
  private var flags: Flags = []
  private var ownershipTag = KnownSpelling.absent
  private var cancellationReasonTag = KnownSpelling.absent
  /// ``appleProductType``: 0 when absent, else 1 + the position of the kind in
  /// `ProductKind.allCases`.
  private var appleTypeTag: UInt8 = 0

  /// The ``smallQuantity`` of an entry whose quantity is in ``rare``.
  private static var largeQuantity: Int32 { .min }

  /// `quantity` in the entry's 4 bytes; `nil` when it is kept in ``rare`` instead.
  private static func small(_ quantity: Int) -> Int32? {
    Int32(exactly: quantity).flatMap { $0 == largeQuantity ? nil : $0 }
  }

  /// `purchase_date`: when this purchase or renewal was charged.
  public var purchaseDate: Instant? {
    get { flags.date(purchaseMilliseconds, if: .hasPurchase) }
    set { flags.store(newValue, in: &purchaseMilliseconds, .hasPurchase) }
  }
  /// `original_purchase_date`.
  public var originalPurchaseDate: Instant? {
    get { flags.date(originalPurchaseMilliseconds, if: .hasOriginalPurchase) }
    set { flags.store(newValue, in: &originalPurchaseMilliseconds, .hasOriginalPurchase) }
  }
  /// `expires_date`: the end of this entry's coverage (auto-renewable subscriptions).
  public var expiresDate: Instant? {
    get { flags.date(expiresMilliseconds, if: .hasExpires) }
    set { flags.store(newValue, in: &expiresMilliseconds, .hasExpires) }
  }
  /// `cancellation_date`: a refund or revocation by Apple support, or an upgrade.
  public var cancellationDate: Instant? {
    get { flags.date(cancellationMilliseconds, if: .hasCancellation) }
    set { flags.store(newValue, in: &cancellationMilliseconds, .hasCancellation) }
  }
  /// `cancellation_reason` as Apple sent it (`0` other, `1` an issue in the app).
  public var rawCancellationReason: String? {
    get { cancellationReasonTag.value(Self.reasonSpellings, other: rare?.cancellationReason) }
    set {
      cancellationReasonTag = KnownSpelling(newValue, among: Self.reasonSpellings)
      let kept = cancellationReasonTag == .other ? newValue : nil
      updateRare { $0.cancellationReason = kept }
    }
  }
  /// `is_trial_period`.
  public var isTrialPeriod: Bool {
    get { flags.contains(.trial) }
    set { flags.set(.trial, newValue) }
  }
  /// `is_in_intro_offer_period`.
  public var isInIntroOfferPeriod: Bool {
    get { flags.contains(.introOffer) }
    set { flags.set(.introOffer, newValue) }
  }
  /// `is_upgraded`: the customer moved to a higher plan; this entry ends where it begins.
  public var isUpgraded: Bool {
    get { flags.contains(.upgraded) }
    set { flags.set(.upgraded, newValue) }
  }
  /// The product's kind as Apple states it in a transaction (App Store Server API `type`:
  /// `Auto-Renewable Subscription`, `Non-Renewing Subscription`, `Non-Consumable`,
  /// `Consumable`); `nil` where the document does not say (verifyReceipt). It decides the kind
  /// of a product no catalog lists (SPEC §2).
  ///
  /// ```swift
  /// lifetime.appleProductType  // .nonConsumable, from "type": "Non-Consumable"
  /// ```
  public var appleProductType: ProductKind? {
    get { appleTypeTag == 0 ? nil : ProductKind.allCases[Int(appleTypeTag) - 1] }
    set {
      appleTypeTag =
        newValue.flatMap { kind in
          ProductKind.allCases.firstIndex(of: kind).map { UInt8($0 + 1) }
        } ?? 0
    }
  }
  /// Bought with a win-back offer (App Store Server API `offerType` 4).
  ///
  /// ```swift
  /// comeback.isWinBackOffer  // true: the status's offer is .winBack
  /// ```
  public var isWinBackOffer: Bool {
    get { flags.contains(.winBack) }
    set { flags.set(.winBack, newValue) }
  }
  /// `in_app_ownership_type` as Apple sent it (`PURCHASED`, `FAMILY_SHARED`).
  public var rawInAppOwnershipType: String? {
    get { ownershipTag.value(Self.ownershipSpellings, other: rare?.ownership) }
    set {
      ownershipTag = KnownSpelling(newValue, among: Self.ownershipSpellings)
      let kept = ownershipTag == .other ? newValue : nil
      updateRare { $0.ownership = kept }
    }
  }
  /// `offer_code_ref_name`.
  public var offerCodeRefName: String? {
    get { rare?.offerCodeRefName }
    set { updateRare { $0.offerCodeRefName = newValue } }
  }
  /// `promotional_offer_id`.
  public var promotionalOfferID: String? {
    get { rare?.promotionalOfferID }
    set { updateRare { $0.promotionalOfferID = newValue } }
  }
  /// `revocationType` as Apple sent it (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`;
  /// App Store Server API 1.19): how a revocation ends access (SPEC §4, ``revocationType``).
  public var rawRevocationType: String? {
    get { rare?.revocationType }
    set { updateRare { $0.revocationType = newValue } }
  }
  /// `revocationPercentage`: the share of the purchase refunded, in thousandths of a percent
  /// (`100000` is all of it, `67742` 67.742 %), with a prorated refund.
  public var revocationPercentage: Int? {
    get { rare?.revocationPercentage }
    set { updateRare { $0.revocationPercentage = newValue } }
  }
  /// `billingPlanType` as Apple sent it (`MONTHLY`, `BILLED_UPFRONT`; App Store Server API
  /// 1.21): how the product's duration is paid.
  public var rawBillingPlanType: String? {
    get { rare?.billingPlanType }
    set { updateRare { $0.billingPlanType = newValue } }
  }
  /// `commitmentInfo`: the entry is one billing period of a commitment (a one-year product
  /// paid monthly); `nil` for any other entry.
  public var commitment: Commitment? {
    get { rare?.commitment }
    set { updateRare { $0.commitment = newValue } }
  }

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
  ///   - rawRevocationType: `revocationType`.
  ///   - revocationPercentage: `revocationPercentage`.
  ///   - rawBillingPlanType: `billingPlanType`.
  ///   - commitment: `commitmentInfo`.
  ///   - isWinBackOffer: `offerType` 4.
  ///   - appleProductType: `type`, as a kind.
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
    promotionalOfferID: String? = nil,
    rawRevocationType: String? = nil,
    revocationPercentage: Int? = nil,
    rawBillingPlanType: String? = nil,
    commitment: Commitment? = nil,
    isWinBackOffer: Bool = false,
    appleProductType: ProductKind? = nil
  ) {
    defer {
      self.isWinBackOffer = isWinBackOffer
      self.appleProductType = appleProductType
    }
    self.init(
      productID: productID, transaction: CompactIdentifier(transactionID.rawValue),
      originalTransactionID: originalTransactionID,
      orderLine: webOrderLineItemID.map { CompactIdentifier($0.rawValue) } ?? .absent,
      quantity: quantity, purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate,
      expiresDate: expiresDate, cancellationDate: cancellationDate,
      rawCancellationReason: rawCancellationReason, isTrialPeriod: isTrialPeriod,
      isInIntroOfferPeriod: isInIntroOfferPeriod, isUpgraded: isUpgraded,
      rawInAppOwnershipType: rawInAppOwnershipType, offerCodeRefName: offerCodeRefName,
      promotionalOfferID: promotionalOfferID, rawRevocationType: rawRevocationType,
      revocationPercentage: revocationPercentage, rawBillingPlanType: rawBillingPlanType,
      commitment: commitment)
  }

  /// The public initializer, given the ids as an entry keeps them (the byte reader reads
  /// their numbers from the bytes, and makes no `String` for a plain number).
  ///
  /// Transparent, not `@inline(__always)`: the optimizer did not honour the hint in the byte
  /// reader's large `entry` function, which then built each entry out of line and copied it
  /// three times (reading a 500-entry document took 9 % longer).
  @_transparent
  init(
    productID: ProductID, transaction: CompactIdentifier,
    originalTransactionID: OriginalTransactionID?, orderLine: CompactIdentifier,
    quantity: Int, purchaseDate: Instant?, originalPurchaseDate: Instant?, expiresDate: Instant?,
    cancellationDate: Instant?, rawCancellationReason: String?, isTrialPeriod: Bool,
    isInIntroOfferPeriod: Bool, isUpgraded: Bool, rawInAppOwnershipType: String?,
    offerCodeRefName: String?, promotionalOfferID: String?, rawRevocationType: String? = nil,
    revocationPercentage: Int? = nil, rawBillingPlanType: String? = nil,
    commitment: Commitment? = nil
  ) {
    // Every stored property is assigned once, from values computed first: no setter, and no
    // property holding a reference starts with a default (see ``rare``). The optimizer then
    // builds the entry as a value, not in memory returned as a copy of itself.
    var flags: Flags = []
    var purchase: Int64 = 0
    var originalPurchase: Int64 = 0
    var expires: Int64 = 0
    var cancellation: Int64 = 0
    flags.store(purchaseDate, in: &purchase, .hasPurchase)
    flags.store(originalPurchaseDate, in: &originalPurchase, .hasOriginalPurchase)
    flags.store(expiresDate, in: &expires, .hasExpires)
    flags.store(cancellationDate, in: &cancellation, .hasCancellation)
    flags.set(.trial, isTrialPeriod)
    flags.set(.introOffer, isInIntroOfferPeriod)
    flags.set(.upgraded, isUpgraded)
    let reasonTag = KnownSpelling(rawCancellationReason, among: Self.reasonSpellings)
    let ownership = KnownSpelling(rawInAppOwnershipType, among: Self.ownershipSpellings)
    let small = Self.small(quantity)
    let rare: RareFields? =
      reasonTag == .other || ownership == .other || offerCodeRefName != nil
        || promotionalOfferID != nil || small == nil || rawRevocationType != nil
        || revocationPercentage != nil || rawBillingPlanType != nil || commitment != nil
      ? RareFields(
        RareValues(
          cancellationReason: reasonTag == .other ? rawCancellationReason : nil,
          ownership: ownership == .other ? rawInAppOwnershipType : nil,
          offerCodeRefName: offerCodeRefName, promotionalOfferID: promotionalOfferID,
          quantity: small == nil ? quantity : nil, revocationType: rawRevocationType,
          revocationPercentage: revocationPercentage, billingPlanType: rawBillingPlanType,
          commitment: commitment))
      : nil
    self.productID = productID
    self.transaction = transaction
    self.orderLine = orderLine
    self.originalTransactionID =
      originalTransactionID ?? OriginalTransactionID(transaction.text ?? "")
    self.purchaseMilliseconds = purchase
    self.originalPurchaseMilliseconds = originalPurchase
    self.expiresMilliseconds = expires
    self.cancellationMilliseconds = cancellation
    self.flags = flags
    self.cancellationReasonTag = reasonTag
    self.ownershipTag = ownership
    self.smallQuantity = small ?? Self.largeQuantity
    self.rare = rare
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

  /// The typed `revocationType`; `nil` when absent or a value this version does not know.
  public var revocationType: RevocationType? {
    rawRevocationType.flatMap(RevocationType.init(rawValue:))
  }

  /// The typed `billingPlanType`; `nil` when absent or a value this version does not know.
  public var billingPlanType: BillingPlanType? {
    rawBillingPlanType.flatMap(BillingPlanType.init(rawValue:))
  }
}

extension ReceiptEntry {
  /// `in_app_ownership_type` / `inAppOwnershipType`: who paid for the entry, with Apple's raw
  /// values. Nested, so that it does not collide with the App Store Server Library's
  /// top-level type of the same name and values.
  ///
  /// ```swift
  /// ReceiptEntry.InAppOwnershipType(rawValue: "FAMILY_SHARED")  // .familyShared
  /// ```
  public enum InAppOwnershipType: String, Hashable, Sendable, CaseIterable {
    /// The customer bought it.
    case purchased = "PURCHASED"
    /// A family member shared it through Family Sharing.
    case familyShared = "FAMILY_SHARED"
  }

  /// `cancellation_reason` / `revocationReason`: why Apple support refunded an entry, with
  /// Apple's raw values as verifyReceipt writes them (`"0"`, `"1"`).
  ///
  /// ```swift
  /// ReceiptEntry.CancellationReason(rawValue: "1")  // .appIssue
  /// ```
  public enum CancellationReason: String, Hashable, Sendable, CaseIterable {
    /// 0: another reason, such as an accidental purchase.
    case other = "0"
    /// 1: an actual or perceived issue within the app.
    case appIssue = "1"
  }

  /// `revocationType`: how Apple revoked an entry, with Apple's raw values (App Store Server
  /// API 1.19, Notifications 2.20). Nested, as Apple's server library has a top-level type of
  /// this name.
  ///
  /// ```swift
  /// ReceiptEntry.RevocationType(rawValue: "REFUND_PRORATED")  // .refundProrated
  /// ```
  public enum RevocationType: String, Hashable, Sendable, CaseIterable {
    /// The whole purchase refunded: the policy decides (SPEC §4 `cancellation`).
    case refundFull = "REFUND_FULL"
    /// Part of the purchase refunded, by the time left: access ends at the revocation, the
    /// time before it stays paid for (``revocationPercentage`` says how much came back).
    case refundProrated = "REFUND_PRORATED"
    /// The family organiser stopped sharing: a family member's access ends at the revocation.
    case familyRevoke = "FAMILY_REVOKE"
  }

  /// `billingPlanType`: how a product's duration is paid, with Apple's raw values (App Store
  /// Server API 1.21, April 2026).
  ///
  /// ```swift
  /// ReceiptEntry.BillingPlanType(rawValue: "MONTHLY")  // .monthly
  /// ```
  public enum BillingPlanType: String, Hashable, Sendable, CaseIterable {
    /// Paid at once for the whole duration (the usual annual payment).
    case billedUpfront = "BILLED_UPFRONT"
    /// A one-year commitment paid in twelve monthly transactions (``Commitment``).
    case monthly = "MONTHLY"
  }
}

extension ReceiptEntry {
  /// Which dates are present, and the three flags.
  fileprivate struct Flags: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    static let hasPurchase = Flags(rawValue: 1 << 0)
    static let hasOriginalPurchase = Flags(rawValue: 1 << 1)
    static let hasExpires = Flags(rawValue: 1 << 2)
    static let hasCancellation = Flags(rawValue: 1 << 3)
    static let trial = Flags(rawValue: 1 << 4)
    static let introOffer = Flags(rawValue: 1 << 5)
    static let upgraded = Flags(rawValue: 1 << 6)
    static let winBack = Flags(rawValue: 1 << 7)

    mutating func set(_ flag: Flags, _ value: Bool) {
      if value { insert(flag) } else { remove(flag) }
    }

    /// Stores `date` as `milliseconds` (0 when absent), with `flag` saying whether it is
    /// present: the one writing of a stored date.
    mutating func store(_ date: Instant?, in milliseconds: inout Int64, _ flag: Flags) {
      milliseconds = date?.millisecondsSince1970 ?? 0
      set(flag, date != nil)
    }

    /// The instant `milliseconds` stands for when `flag` says the date is present: the one
    /// reading of a stored date.
    @inline(__always)
    func date(_ milliseconds: Int64, if flag: Flags) -> Instant? {
      contains(flag) ? Instant(millisecondsSince1970: milliseconds) : nil
    }
  }

  /// A raw value stored as which of two spellings Apple uses it is; any other spelling is kept
  /// in ``RareFields``.
  fileprivate enum KnownSpelling: UInt8, Hashable, Sendable {
    case absent, first, second, other

    @inline(__always)
    init(_ value: String?, among spellings: (String, String)) {
      switch value {
      case nil: self = .absent
      case spellings.0?: self = .first
      case spellings.1?: self = .second
      default: self = .other
      }
    }

    func value(_ spellings: (String, String), other: String?) -> String? {
      switch self {
      case .absent: nil
      case .first: spellings.0
      case .second: spellings.1
      case .other: other
      }
    }
  }

  /// The fields an entry rarely carries, shared by copies of the entry (immutable: a change
  /// makes a new box).
  fileprivate final class RareFields: Hashable, Sendable {
    let values: RareValues

    init(_ values: RareValues) { self.values = values }

    var cancellationReason: String? { values.cancellationReason }
    var ownership: String? { values.ownership }
    var offerCodeRefName: String? { values.offerCodeRefName }
    var promotionalOfferID: String? { values.promotionalOfferID }
    /// A quantity that does not fit the entry's 4 bytes.
    var quantity: Int? { values.quantity }
    var revocationType: String? { values.revocationType }
    var revocationPercentage: Int? { values.revocationPercentage }
    var billingPlanType: String? { values.billingPlanType }
    var commitment: Commitment? { values.commitment }

    static func == (lhs: RareFields, rhs: RareFields) -> Bool { lhs.values == rhs.values }

    func hash(into hasher: inout Hasher) { hasher.combine(values) }
  }

  /// The rare fields as values: what ``RareFields`` holds, and the copy ``updateRare(_:)``
  /// edits.
  fileprivate struct RareValues: Hashable, Sendable {
    var cancellationReason: String?
    var ownership: String?
    var offerCodeRefName: String?
    var promotionalOfferID: String?
    var quantity: Int?
    var revocationType: String?
    var revocationPercentage: Int?
    var billingPlanType: String?
    var commitment: Commitment?

    /// Whether no rare field is present.
    var isEmpty: Bool { self == RareValues() }
  }

  /// Changes the rare fields; the box is dropped when none is left, so that one value has one
  /// representation.
  private mutating func updateRare(_ change: (inout RareValues) -> Void) {
    var values = rare?.values ?? RareValues()
    change(&values)
    rare = values.isEmpty ? nil : RareFields(values)
  }

}

extension ReceiptEntry: CustomReflectable {
  /// The entry's fields as values, in the order of ``init(productID:transactionID:originalTransactionID:webOrderLineItemID:quantity:purchaseDate:originalPurchaseDate:expiresDate:cancellationDate:rawCancellationReason:isTrialPeriod:isInIntroOfferPeriod:isUpgraded:rawInAppOwnershipType:offerCodeRefName:promotionalOfferID:rawRevocationType:revocationPercentage:rawBillingPlanType:commitment:isWinBackOffer:appleProductType:)``,
  /// not its storage: what `print`, `dump` and a debugger show (display only: no decision reads
  /// it).
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        ("productID", productID as Any), ("transactionID", transactionID),
        ("originalTransactionID", originalTransactionID),
        ("webOrderLineItemID", webOrderLineItemID as Any), ("quantity", quantity),
        ("purchaseDate", purchaseDate as Any),
        ("originalPurchaseDate", originalPurchaseDate as Any),
        ("expiresDate", expiresDate as Any), ("cancellationDate", cancellationDate as Any),
        ("rawCancellationReason", rawCancellationReason as Any),
        ("isTrialPeriod", isTrialPeriod), ("isInIntroOfferPeriod", isInIntroOfferPeriod),
        ("isUpgraded", isUpgraded), ("isWinBackOffer", isWinBackOffer),
        ("appleProductType", appleProductType as Any),
        ("rawInAppOwnershipType", rawInAppOwnershipType as Any),
        ("offerCodeRefName", offerCodeRefName as Any),
        ("promotionalOfferID", promotionalOfferID as Any),
        ("rawRevocationType", rawRevocationType as Any),
        ("revocationPercentage", revocationPercentage as Any),
        ("rawBillingPlanType", rawBillingPlanType as Any), ("commitment", commitment as Any),
      ],
      displayStyle: .struct)
  }
}
