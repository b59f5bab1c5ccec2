// The keys the byte-level reader knows, and how it matches a member name against them.

extension FastDocumentReader {
  /// The keys the reader knows, matched on bytes so that no key becomes a `String`. The case
  /// names are Apple's JSON keys, spelt exactly; the table below is made from ``name``.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  enum Key: Int, CaseIterable {
    case status, environment, latest_receipt, receipt, latest_receipt_info
    case latest_expired_receipt_info, pending_renewal_info, auto_renew_status, expiration_intent
    case signedPayload, notificationType, notification_type
    case transaction_id, in_app, receipt_type, receipt_creation_date_ms, receipt_creation_date
    case request_date_ms, request_date, product_id, original_transaction_id
    case web_order_line_item_id, quantity, purchase_date_ms, purchase_date
    case original_purchase_date_ms, original_purchase_date, expires_date_ms, expires_date
    case expires_date_formatted, cancellation_date_ms, cancellation_date, cancellation_reason
    case is_trial_period, is_in_intro_offer_period, is_upgraded, in_app_ownership_type
    case offer_code_ref_name, promotional_offer_id, auto_renew_product_id
    case is_in_billing_retry_period, grace_period_expires_date_ms, grace_period_expires_date
    case price_consent_status
    // v1 notifications
    case unified_receipt
    // v2 notifications and the App Store Server API's decoded payloads
    case subtype, data, signedDate, signedTransactionInfo, signedRenewalInfo
    case transactionId, originalTransactionId, productId, webOrderLineItemId, purchaseDate
    case originalPurchaseDate, expiresDate, revocationDate, revocationReason, offerType
    case offerIdentifier, offerDiscountType, isUpgraded, inAppOwnershipType, type
    case autoRenewProductId, autoRenewStatus, expirationIntent, isInBillingRetryPeriod
    case gracePeriodExpiresDate, priceIncreaseStatus
    // The App Store Server API's pages.
    case signedTransactions, notificationHistory, hasMore, revision, bundleId, paginationToken
    case lastTransactions, subscriptionGroupIdentifier
    // Read by no schema but written by Apple in most entries: known so that the key predicted
    // after them can be checked without a lookup (see ``Followers``).
    case purchase_date_pst, original_purchase_date_pst, expires_date_pst, cancellation_date_pst
    case subscription_group_identifier, app_account_token
    // The same, in the App Store Server API's decoded payloads (`JWSTransactionDecodedPayload`,
    // `JWSRenewalInfoDecodedPayload`): a third of a transaction's keys.
    case appAccountToken, appTransactionId, currency, price, storefront, storefrontId
    case transactionReason, offerPeriod, advancedCommerceInfo, renewalDate, renewalPrice
    case recentSubscriptionStartDate, eligibleWinBackOfferIds
    case unknown
  }

  /// The known keys by a hash of their bytes: a member name costs one probe (rarely more) and
  /// a comparison of at most four words with the key it may be (``Spelling``), with no
  /// allocation, no reference counting and no bounds checks. The table is built once and never
  /// changes.
  struct KeyTable: @unchecked Sendable {
    static let shared = KeyTable()
    private static let slotCount = 512
    /// Slot → a key's raw value + 1, or 0 for an empty slot.
    private let slots: UnsafeMutablePointer<UInt8>
    /// Each key's name, by raw value.
    private let names: UnsafeMutablePointer<Spelling>
    /// Each key's member token, `"name":`, its quotes and colon included (7 to 32 bytes), by
    /// raw value.
    private let tokens: UnsafeMutablePointer<Spelling>
    /// The value of each base64url symbol (and of base64's `+` and `/`), 255 for any other
    /// byte: as `JWS.payload(of:)` decodes.
    let base64URL: UnsafeMutablePointer<UInt8>

    private init() {
      base64URL = .allocate(capacity: 256)
      base64URL.initialize(from: JWS.symbolValues, count: 256)
      slots = .allocate(capacity: Self.slotCount)
      slots.initialize(repeating: 0, count: Self.slotCount)
      names = .allocate(capacity: Key.allCases.count)
      names.initialize(repeating: Spelling(), count: Key.allCases.count)
      tokens = .allocate(capacity: Key.allCases.count)
      tokens.initialize(repeating: Spelling(), count: Key.allCases.count)
      precondition(Key.allCases.count <= 128)  // the size of ``Followers``
      for key in Key.allCases where key != .unknown {
        let name = key.name.withUTF8Buffer { Array($0) }
        // Four words hold every token (no known name is longer than 29 bytes).
        precondition(
          !name.isEmpty && name.count + 3 <= Spelling.longest && key.rawValue < 255,
          "a key too long for its token's words")
        let token = [UInt8(ascii: "\"")] + name + [UInt8(ascii: "\""), UInt8(ascii: ":")]
        name.withUnsafeBytes { raw in
          guard let base = raw.baseAddress else { return }
          let spelling = Spelling(base, raw.count, 0, raw.count)
          names[key.rawValue] = spelling
          var slot = Self.slot(spelling.count, spelling.first, spelling.last)
          while slots[slot] != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
          slots[slot] = UInt8(key.rawValue + 1)
        }
        token.withUnsafeBytes { raw in
          guard let base = raw.baseAddress else { return }
          tokens[key.rawValue] = Spelling(base, raw.count, 0, raw.count)
        }
      }
    }

    /// The key spelt by the `count` bytes at `start` of `raw` (`available` bytes long);
    /// ``Key/unknown`` for any other name.
    @inline(__always)
    func key(_ raw: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int) -> Key {
      guard count > 0, count <= Spelling.longest else { return .unknown }
      // The first and last words, as the table's names were placed by.
      let (first, last) = Spelling.ends(raw, available, start, count)
      var slot = Self.slot(count, first, last)
      while true {
        let stored = Int(slots[slot])
        guard stored != 0 else { return .unknown }
        if matches(stored - 1, raw, available, start, count) {
          return Key(rawValue: stored - 1) ?? .unknown
        }
        slot = (slot + 1) & (Self.slotCount - 1)
      }
    }

    /// The length of the member token `"name":` of the key of raw value `raw` when the bytes
    /// at `start` of `bytes` (`available` bytes long) begin with it, else `nil`: the name of a
    /// predicted key, its quotes and the colon right after them, checked in one to four word
    /// comparisons.
    @inline(__always)
    func tokenLength(
      of raw: Int, at start: Int, in bytes: UnsafeRawPointer, _ available: Int
    ) -> Int? {
      let token = tokens[raw]
      guard start &+ token.count <= available, token.isSpelt(at: start, in: bytes, available)
      else { return nil }
      return token.count
    }

    /// The length of the name of the key of raw value `raw` (0 for ``Key/unknown``).
    @inline(__always)
    func length(of raw: Int) -> Int { max(names[raw].count, 0) }

    /// Whether the `count` bytes at `start` spell the key of raw value `raw`.
    @inline(__always)
    func matches(
      _ raw: Int, _ bytes: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int
    ) -> Bool {
      let name = names[raw]
      return name.count == count && name.isSpelt(at: start, in: bytes, available)
    }

    /// A slot from the length and the first and last words.
    @inline(__always)
    private static func slot(_ count: Int, _ first: UInt64, _ last: UInt64) -> Int {
      var value = (UInt64(count) &* 0x9e37_79b9_7f4a_7c15) ^ first
      value = (value ^ (value >> 29)) &* 0xbf58_476d_1ce4_e5b9
      value ^= last
      value = (value ^ (value >> 31)) &* 0x94d0_49bb_1331_11eb
      return Int(truncatingIfNeeded: value >> 55)  // 9 bits: 512 slots
    }
  }

  /// For each key, the key that followed it last time (``Key/unknown`` for none): Apple
  /// writes the members of every entry in one order, so the next key is usually the
  /// predicted one, which is checked by comparing its words (no scan, no hash, no probe).
  struct Followers {
    private var next = InlineArray<128, Key>(repeating: .unknown)

    subscript(key: Key) -> Key {
      get { next[key.rawValue] }
      set { next[key.rawValue] = newValue }
    }
  }

  /// The known keys met in one object.
  struct KeySet {
    private var words: (UInt64, UInt64) = (0, 0)

    @inline(__always)
    func contains(_ key: Key) -> Bool {
      key.rawValue < 64
        ? words.0 & (1 << UInt64(key.rawValue)) != 0
        : words.1 & (1 << UInt64(key.rawValue - 64)) != 0
    }

    /// Adds a key; a key met twice gives up (the general reader keeps the last value, field
    /// by field). Unknown keys are not tracked.
    @inline(__always)
    mutating func insert(_ key: Key) throws(GiveUp) {
      guard key != .unknown else { return }
      guard !contains(key) else { throw GiveUp() }
      if key.rawValue < 64 {
        words.0 |= 1 << UInt64(key.rawValue)
      } else {
        words.1 |= 1 << UInt64(key.rawValue - 64)
      }
    }
  }
}

extension FastDocumentReader.Key {
  /// The key's name in JSON: Apple's spelling, which is also the case's name. Spelt out, not
  /// printed from the case (a case's printed name comes from reflection metadata, which a build
  /// may strip); the switch names every case, and a test checks each spelling against its case.
  var name: StaticString {
    switch self {
    case .status: "status"
    case .environment: "environment"
    case .latest_receipt: "latest_receipt"
    case .receipt: "receipt"
    case .latest_receipt_info: "latest_receipt_info"
    case .latest_expired_receipt_info: "latest_expired_receipt_info"
    case .pending_renewal_info: "pending_renewal_info"
    case .auto_renew_status: "auto_renew_status"
    case .expiration_intent: "expiration_intent"
    case .signedPayload: "signedPayload"
    case .notificationType: "notificationType"
    case .notification_type: "notification_type"
    case .transaction_id: "transaction_id"
    case .in_app: "in_app"
    case .receipt_type: "receipt_type"
    case .receipt_creation_date_ms: "receipt_creation_date_ms"
    case .receipt_creation_date: "receipt_creation_date"
    case .request_date_ms: "request_date_ms"
    case .request_date: "request_date"
    case .product_id: "product_id"
    case .original_transaction_id: "original_transaction_id"
    case .web_order_line_item_id: "web_order_line_item_id"
    case .quantity: "quantity"
    case .purchase_date_ms: "purchase_date_ms"
    case .purchase_date: "purchase_date"
    case .original_purchase_date_ms: "original_purchase_date_ms"
    case .original_purchase_date: "original_purchase_date"
    case .expires_date_ms: "expires_date_ms"
    case .expires_date: "expires_date"
    case .expires_date_formatted: "expires_date_formatted"
    case .cancellation_date_ms: "cancellation_date_ms"
    case .cancellation_date: "cancellation_date"
    case .cancellation_reason: "cancellation_reason"
    case .is_trial_period: "is_trial_period"
    case .is_in_intro_offer_period: "is_in_intro_offer_period"
    case .is_upgraded: "is_upgraded"
    case .in_app_ownership_type: "in_app_ownership_type"
    case .offer_code_ref_name: "offer_code_ref_name"
    case .promotional_offer_id: "promotional_offer_id"
    case .auto_renew_product_id: "auto_renew_product_id"
    case .is_in_billing_retry_period: "is_in_billing_retry_period"
    case .grace_period_expires_date_ms: "grace_period_expires_date_ms"
    case .grace_period_expires_date: "grace_period_expires_date"
    case .price_consent_status: "price_consent_status"
    case .unified_receipt: "unified_receipt"
    case .subtype: "subtype"
    case .data: "data"
    case .signedDate: "signedDate"
    case .signedTransactionInfo: "signedTransactionInfo"
    case .signedRenewalInfo: "signedRenewalInfo"
    case .transactionId: "transactionId"
    case .originalTransactionId: "originalTransactionId"
    case .productId: "productId"
    case .webOrderLineItemId: "webOrderLineItemId"
    case .purchaseDate: "purchaseDate"
    case .originalPurchaseDate: "originalPurchaseDate"
    case .expiresDate: "expiresDate"
    case .revocationDate: "revocationDate"
    case .revocationReason: "revocationReason"
    case .offerType: "offerType"
    case .offerIdentifier: "offerIdentifier"
    case .offerDiscountType: "offerDiscountType"
    case .isUpgraded: "isUpgraded"
    case .inAppOwnershipType: "inAppOwnershipType"
    case .type: "type"
    case .autoRenewProductId: "autoRenewProductId"
    case .autoRenewStatus: "autoRenewStatus"
    case .expirationIntent: "expirationIntent"
    case .isInBillingRetryPeriod: "isInBillingRetryPeriod"
    case .gracePeriodExpiresDate: "gracePeriodExpiresDate"
    case .priceIncreaseStatus: "priceIncreaseStatus"
    case .signedTransactions: "signedTransactions"
    case .notificationHistory: "notificationHistory"
    case .hasMore: "hasMore"
    case .revision: "revision"
    case .bundleId: "bundleId"
    case .paginationToken: "paginationToken"
    case .lastTransactions: "lastTransactions"
    case .subscriptionGroupIdentifier: "subscriptionGroupIdentifier"
    case .purchase_date_pst: "purchase_date_pst"
    case .original_purchase_date_pst: "original_purchase_date_pst"
    case .expires_date_pst: "expires_date_pst"
    case .cancellation_date_pst: "cancellation_date_pst"
    case .subscription_group_identifier: "subscription_group_identifier"
    case .app_account_token: "app_account_token"
    case .appAccountToken: "appAccountToken"
    case .appTransactionId: "appTransactionId"
    case .currency: "currency"
    case .price: "price"
    case .storefront: "storefront"
    case .storefrontId: "storefrontId"
    case .transactionReason: "transactionReason"
    case .offerPeriod: "offerPeriod"
    case .advancedCommerceInfo: "advancedCommerceInfo"
    case .renewalDate: "renewalDate"
    case .renewalPrice: "renewalPrice"
    case .recentSubscriptionStartDate: "recentSubscriptionStartDate"
    case .eligibleWinBackOfferIds: "eligibleWinBackOfferIds"
    case .unknown: ""
    }
  }
}
