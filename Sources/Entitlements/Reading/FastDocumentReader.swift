/// A byte-level reader for regular documents of every kind of SPEC §10: verifyReceipt
/// responses, v1 notifications, v2 notifications (decoded, as a POST body or as a bare JWS),
/// the decoded transaction and renewal payloads of the App Store Server API, and its pages:
/// Get Transaction History, Get All Subscription Statuses, Get Notification History. Every JWS
/// inside is decoded (base64url, into one reused buffer: nothing is verified, as the reader is
/// used only without a verifier) and read by this reader, nested. No `JSONValue` tree, no
/// dictionaries, numbers parsed straight from the bytes.
///
/// It reads only what it can read exactly as the general readers (``DocumentReader``,
/// ``VerifyReceiptResponse/init(value:path:)``, ``StatusUpdateNotification/init(value:)``,
/// ``ServerNotification/init(value:)``, ``AppStoreTransaction/init(value:path:)``,
/// ``AppStoreRenewalInfo/init(value:path:)``, ``TransactionHistoryResponse``,
/// ``SubscriptionStatusesResponse``, ``NotificationHistoryResponse``) would, with no
/// diagnostics: any irregularity (an escape it does not handle, a field of an unusual type or
/// spelling, an iOS 6 shape, a missing id, a key given twice, a JWS that does not decode or
/// whose payload is irregular, invalid JSON) makes it give up and return `nil`, and the caller
/// reads the document with the general reader, which then produces the same answer and the
/// diagnostics. The tests compare both readers on every fixture and on the robustness corpus.
///
/// The kind of document is decided as ``DocumentReader`` decides it, by which top-level keys
/// are present (`signedPayload`, `notificationType`, `notification_type`,
/// `signedTransactions`, `notificationHistory`, `data` as an array, `status`/`receipt`/
/// `latest_receipt_info`, `transactionId`, `originalTransactionId`, in that order), so the
/// reader reads every top-level key it knows in one pass and chooses at the end.
struct FastDocumentReader {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  /// Whether the document must end where the bytes end (else other bytes may follow it: see
  /// ``read(_:objectAt:lent:_:)``).
  private var endsWithBytes = true
  /// Where the document is, which decides the kinds it may be (as ``DocumentReader`` reads
  /// each place).
  private enum Context {
    /// A whole document as received: it may be a bare JWS or a POST body
    /// (`{"signedPayload": …}`), whose payload is then read as an ``unwrapped`` document.
    case document
    /// The payload of a bare JWS or of a POST body, or a document read by a typed entry point
    /// (`init(json:)`): any kind, but JSON only, and no `signedPayload` unwrapped again.
    case unwrapped
    /// The payload of `notificationHistory[].signedPayload`: a v2 notification only.
    case notification
    /// The payload of `signedTransactionInfo`, `signedRenewalInfo` or `signedTransactions[]`:
    /// a transaction or renewal info only.
    case signedField
  }
  /// The decoded payloads of this document's JWS, one after another (the buffer is reused).
  private var scratch: [UInt8] = []
  /// The buffer lent to the reader of each nested payload, for the JWS inside it (a
  /// notification's transaction and renewal info): kept here so that it is reused too.
  private var nestedScratch: [UInt8] = []
  /// Where the header of the last JWS string read is, and its length: the next one usually
  /// has the same bytes.
  private var lastHeader: (start: Int, count: Int)?
  /// The product and subscription ids of the payloads read before, lent from reader to nested
  /// reader with ``followers`` (a page's transactions are separate payloads, one after another).
  private var memo = PayloadMemo()

  /// The last two distinct product ids and subscription ids read from decoded payloads, most
  /// recent first: the payloads of one page share one `String` per id, as the entries of a
  /// receipt do (``sharedString(_:)``, which finds its ids by their place in one document).
  fileprivate struct PayloadMemo {
    var strings = InlineArray<4, String>(repeating: "")
  }
  private let keys = KeyTable.shared
  /// The ids an entry usually shares with the one before (``sharedString(_:)``).
  private enum SharedID: Int {
    case product, originalTransaction
  }
  /// How many distinct ids of each ``SharedID`` are remembered: a document whose entries
  /// alternate between a few products shares one string per product, not one per run.
  private static let sharedPerKind = 4
  /// The ids remembered, ``sharedPerKind`` per ``SharedID``: where the bytes of each are, and
  /// its `String`; a count of -1 is a free place.
  private var shared = InlineArray<8, (start: Int, count: Int, value: String)>(
    repeating: (0, -1, ""))
  /// Per ``SharedID``, the place of the id read last (tried first: entries usually repeat
  /// the one before), and the place the next new id takes (the places are taken in turn).
  private var sharedLast = InlineArray<2, Int>(repeating: 0)
  private var sharedNext = InlineArray<2, Int>(repeating: 0)
  /// The key that followed each key last time.
  private var followers = Followers()

  /// Thrown internally to give up; never escapes.
  private struct GiveUp: Error {}

  /// The keys the reader knows, matched on bytes so that no key becomes a `String`. The case
  /// names are Apple's JSON keys, spelt exactly: the table below is made from them.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  fileprivate enum Key: Int, CaseIterable {
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
    // Read by no schema but written by Apple in every entry: known so that the key predicted
    // after them can be checked without a lookup (see ``Followers``).
    case purchase_date_pst, original_purchase_date_pst, expires_date_pst, cancellation_date_pst
    case subscription_group_identifier
    case unknown
  }

  /// The known keys by a hash of their bytes: a member name costs one probe (rarely more) and
  /// a comparison of at most four words with the key it may be, with no allocation, no
  /// reference counting and no bounds checks. The table is built once and never changes.
  private struct KeyTable: @unchecked Sendable {
    static let shared = KeyTable()
    /// No known key is longer: four words hold any of them.
    static let longest = 32
    private static let slotCount = 512
    /// Slot → a key's raw value + 1, or 0 for an empty slot.
    private let slots: UnsafeMutablePointer<UInt8>
    /// Six words per key: its length, how many words it has, then its words as ``words(_:_:_:_:)``
    /// loads them.
    private let names: UnsafeMutablePointer<UInt64>
    /// The value of each base64url symbol (and of base64's `+` and `/`), 255 for any other
    /// byte: as `JWS.payload(of:)` decodes.
    let base64URL: UnsafeMutablePointer<UInt8>

    private init() {
      base64URL = .allocate(capacity: 256)
      base64URL.initialize(from: JWS.symbolValues, count: 256)
      slots = .allocate(capacity: Self.slotCount)
      slots.initialize(repeating: 0, count: Self.slotCount)
      names = .allocate(capacity: Key.allCases.count * 6)
      names.initialize(repeating: 0, count: Key.allCases.count * 6)
      precondition(Key.allCases.count <= 128)  // the size of ``Followers``
      for key in Key.allCases where key != .unknown {
        // Zero padding so that loads past a short name stay inside the buffer.
        let name = Array("\(key)".utf8) + [UInt8](repeating: 0, count: 8)
        let count = name.count - 8
        precondition(count > 0 && count <= Self.longest && key.rawValue < 255)
        let entry = names + key.rawValue * 6
        entry[0] = UInt64(count)
        name.withUnsafeBytes { raw in
          guard let base = raw.baseAddress else { return }
          let words = Self.words(base, name.count, 0, count)
          entry[1] = UInt64(words.count)
          for (index, word) in words.enumerated() { entry[2 + index] = word }
          var slot = Self.slot(count, words[0], words[words.count - 1])
          while slots[slot] != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
          slots[slot] = UInt8(key.rawValue + 1)
        }
      }
    }

    /// The words a name of `count` bytes (1 to 32) at `start` is compared by: the words at 0,
    /// 8, 16… before its last eight bytes, then its last eight bytes (which may overlap the
    /// word before); a name shorter than eight bytes is one word, zero past its end.
    private static func words(
      _ raw: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int
    ) -> [UInt64] {
      var words: [UInt64] = []
      if count < 8 {
        words.append(short(raw, available, start, count))
      } else {
        var offset = 0
        while offset < count - 8 {
          words.append(load(raw, start + offset))
          offset += 8
        }
        words.append(load(raw, start + count - 8))
      }
      return words
    }

    @inline(__always)
    private static func load(_ raw: UnsafeRawPointer, _ offset: Int) -> UInt64 {
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// A name of 1 to 7 bytes as a word, zero past its end.
    @inline(__always)
    private static func short(
      _ raw: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int
    ) -> UInt64 {
      if start + 8 <= available {
        return load(raw, start) & ((1 << UInt64(count * 8)) - 1)
      }
      var word: UInt64 = 0
      for position in 0..<count {
        word |=
          UInt64(raw.load(fromByteOffset: start + position, as: UInt8.self))
          << UInt64(position * 8)
      }
      return word
    }

    /// The key spelt by the `count` bytes at `start` of `raw` (`available` bytes long);
    /// ``Key/unknown`` for any other name.
    @inline(__always)
    func key(_ raw: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int) -> Key {
      guard count > 0, count <= Self.longest else { return .unknown }
      let first: UInt64
      let last: UInt64
      if count >= 8 {
        first = Self.load(raw, start)
        last = Self.load(raw, start + count - 8)
      } else {
        first = Self.short(raw, available, start, count)
        last = first
      }
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

    /// The length of the name of the key of raw value `raw` (0 for ``Key/unknown``).
    @inline(__always)
    func length(of raw: Int) -> Int { Int(names[raw * 6]) }

    /// Whether the `count` bytes at `start` spell the key of raw value `raw`.
    @inline(__always)
    func matches(
      _ raw: Int, _ bytes: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int
    ) -> Bool {
      let entry = names + raw * 6
      guard entry[0] == UInt64(count) else { return false }
      if count < 8 { return entry[2] == Self.short(bytes, available, start, count) }
      // Two to four words: the first, the last, and those between (unrolled).
      let wordCount = Int(entry[1])
      guard entry[2] == Self.load(bytes, start),
        entry[1 + wordCount] == Self.load(bytes, start + count - 8)
      else { return false }
      if wordCount > 2, entry[3] != Self.load(bytes, start + 8) { return false }
      if wordCount > 3, entry[4] != Self.load(bytes, start + 16) { return false }
      return true
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
  fileprivate struct Followers {
    private var next = InlineArray<128, Key>(repeating: .unknown)

    subscript(key: Key) -> Key {
      get { next[key.rawValue] }
      set { next[key.rawValue] = newValue }
    }
  }

  /// The known keys met in one object.
  private struct KeySet {
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

  /// Reads a regular document of any kind, as ``DocumentReader/read(_:verifier:)`` receives
  /// it (a bare JWS, a POST body, any JSON document), or `nil` to leave it to the general
  /// reader.
  static func read(_ document: [UInt8]) -> AppStoreDocument? {
    read(document, .document)
  }

  /// Reads a regular JSON document of any kind found inside another (the payload of a bare
  /// JWS or of a POST body), or `nil`: no JWS or `signedPayload` is unwrapped again.
  static func read(payload: [UInt8]) -> AppStoreDocument? {
    read(payload, .unwrapped)
  }

  /// Reads a regular document in place, or `nil` to leave it to the general reader.
  static func read(_ document: UnsafeBufferPointer<UInt8>) -> AppStoreDocument? {
    var reader = FastDocumentReader(bytes: document)
    return try? reader.whole(.document)
  }

  /// Reads the regular JSON object that begins at `start` in `buffer` and is followed by other
  /// bytes (a document inside a JSON Lines line), hands it to `body` where it was read, and
  /// returns the index just past its closing brace; `nil` to leave it to the general reader.
  /// `lent` carries the key order and ids learnt from one document to the next.
  static func read(
    _ buffer: UnsafeBufferPointer<UInt8>, objectAt start: Int, lent: inout Lent,
    _ body: (AppStoreDocument) -> Void
  ) -> Int? {
    precondition(start >= 0, "an object before the buffer")
    guard start < buffer.count, buffer[start] == UInt8(ascii: "{") else { return nil }
    var reader = FastDocumentReader(bytes: buffer)
    reader.index = start
    reader.endsWithBytes = false
    guard let document = reader.withLent(&lent, { try? $0.document(.document) }) else {
      return nil
    }
    body(document)
    return reader.index
  }

  /// A document of one kind, as the typed entry points (`init(json:)`) read it: the fast
  /// reading when it is of that kind, else `general` on the parsed document, which gives the
  /// same answer plus the diagnostics.
  static func read<Document: PurchaseDocument>(
    _ json: [UInt8], general: (JSONValue) throws(ReadError) -> Document
  ) throws(ReadError) -> Document {
    if let fast = read(json, .unwrapped)?.document as? Document { return fast }
    return try general(JSONValue.document(json))
  }

  private static func read(_ document: [UInt8], _ context: Context) -> AppStoreDocument? {
    document.withUnsafeBufferPointer { buffer in
      var reader = FastDocumentReader(bytes: buffer)
      return try? reader.whole(context)
    }
  }

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  // MARK: Documents

  /// What a v2 notification's `data` holds.
  private struct NotificationData {
    var status: Int?
    var environment: String?
    var transaction: AppStoreTransaction?
    var renewal: AppStoreRenewalInfo?
  }

  /// A document at `context`: a bare JWS where a whole document may be one, else a JSON
  /// object.
  private mutating func whole(_ context: Context) throws(GiveUp) -> AppStoreDocument {
    skipWhitespace()
    if context == .document, index < bytes.count, bytes[index] != UInt8(ascii: "{"),
      bytes[index] != UInt8(ascii: "[")
    {
      return try bareJWS()
    }
    return context == .signedField ? try signedPayload() : try document(context)
  }

  /// The payload of a signed transaction or renewal info field: ``document(_:)`` for these
  /// two kinds only, with none of the other kinds' state to carry. A key of another kind of
  /// document gives up, as ``document(_:)`` does at `.signedField`.
  private mutating func signedPayload() throws(GiveUp) -> AppStoreDocument {
    var seen = KeySet()
    var environment: String?
    var payload = PayloadFields()
    try object { reader, key throws(GiveUp) in
      try seen.insert(key)
      switch key {
      case .environment: environment = try reader.string()
      case .status, .receipt, .latest_receipt_info, .latest_expired_receipt_info, .signedPayload,
        .notificationType, .notification_type, .signedTransactions, .notificationHistory, .data:
        throw GiveUp()
      default:
        if try !reader.payloadField(key, &payload) { try reader.skipValue(depth: 1) }
      }
    }
    skipWhitespace()
    guard index == bytes.count else { throw GiveUp() }
    let timestamp = payload.signedDate.map(Instant.init(millisecondsSince1970:))
    let environmentRead = environment.flatMap(StoreEnvironment.init(appleName:))
    if seen.contains(.transactionId) {
      return .transaction(
        AppStoreTransaction(
          entry: try payload.entry(), type: payload.type, environment: environmentRead,
          timestamp: timestamp, diagnostics: []))
    }
    guard seen.contains(.originalTransactionId) else { throw GiveUp() }
    return .renewal(
      AppStoreRenewalInfo(
        info: try payload.renewalInfo(), environment: environmentRead, timestamp: timestamp,
        diagnostics: []))
  }

  /// Every top-level key of every schema, read in one pass; the kind is chosen at the end.
  private mutating func document(_ context: Context) throws(GiveUp) -> AppStoreDocument {
    // Pages and notifications are read only where the general reader reads them.
    let isPayload = context == .signedField
    let anyKind = context == .document || context == .unwrapped
    var seen = KeySet()
    var environment: String?
    var status: Int?
    var latestReceipt: String?
    var receipt = ReceiptObject()
    var latestReceiptInfo: [ReceiptEntry] = []
    var pending: [RenewalInfo] = []
    var unified: ReceiptObject?
    var notificationType: String?
    var subtype: String?
    var data: NotificationData?
    var payload = PayloadFields()
    var unwrapped: AppStoreDocument?
    var transactions: [AppStoreTransaction] = []
    var notifications: [ServerNotification] = []
    var statuses: [SubscriptionStatusesResponse.LastTransaction]?
    // Read only for the kinds that keep them: where each value begins.
    var hasMore: Int?
    var revision: Int?
    var bundleID: Int?
    var paginationToken: Int?
    try object { reader, key throws(GiveUp) in
      try seen.insert(key)
      switch key {
      case .status: status = try reader.integer()
      case .environment: environment = try reader.string()
      case .latest_receipt: latestReceipt = try reader.string()
      case .receipt: receipt = try reader.receiptObject()
      case .latest_receipt_info: latestReceiptInfo = try reader.entries(depth: 3)
      case .latest_expired_receipt_info: throw GiveUp()
      case .signedPayload:
        guard context == .document else { throw GiveUp() }
        unwrapped = try reader.signedDocument(.unwrapped)
      case .signedTransactions:
        guard anyKind else { throw GiveUp() }
        transactions = try reader.signedTransactions()
      case .notificationHistory:
        guard anyKind else { throw GiveUp() }
        notifications = try reader.notificationHistory()
      case .hasMore, .revision, .bundleId, .paginationToken:
        reader.skipWhitespace()
        switch key {
        case .hasMore: hasMore = reader.index
        case .revision: revision = reader.index
        case .bundleId: bundleID = reader.index
        default: paginationToken = reader.index
        }
        try reader.skipValue(depth: 1)
      case .pending_renewal_info: pending = try reader.renewalInfos(depth: 3)
      case .unified_receipt: unified = try reader.receiptObject()
      case .notification_type, .notificationType: notificationType = try reader.string()
      case .subtype: subtype = try reader.string()
      case .data:
        guard !isPayload else { throw GiveUp() }
        reader.skipWhitespace()
        if reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "[") {
          guard anyKind else { throw GiveUp() }
          statuses = try reader.subscriptionGroups()
        } else {
          data = try reader.notificationData()
        }
      default:
        if try !reader.payloadField(key, &payload) { try reader.skipValue(depth: 1) }
      }
    }
    if endsWithBytes {
      skipWhitespace()
      guard index == bytes.count else { throw GiveUp() }
    }
    // Keys of two kinds of document at once: the general reader refuses it, and says why
    // (``DocumentReader``'s `kinds(of:)`).
    let receiptKeys =
      !seen.contains(.notification_type)
      && (seen.contains(.status) || seen.contains(.receipt) || seen.contains(.latest_receipt_info))
    let payloadKeys = seen.contains(.transactionId) || seen.contains(.originalTransactionId)
    // Counted in place, with no array allocated per document.
    let kinds: InlineArray<8, Bool> = [
      seen.contains(.signedPayload), seen.contains(.notificationType),
      seen.contains(.notification_type), seen.contains(.signedTransactions),
      seen.contains(.notificationHistory), statuses != nil, receiptKeys, payloadKeys,
    ]
    var kindCount = 0
    for kind in kinds.indices where kinds[kind] { kindCount += 1 }
    guard kindCount <= 1 else { throw GiveUp() }
    // A history page's notification is read as one whatever its keys; only a regular one is
    // read here.
    if context == .notification, !seen.contains(.notificationType) { throw GiveUp() }
    let sawTopRenewalFields = seen.contains(.auto_renew_status) || seen.contains(.expiration_intent)
    let timestamp = payload.signedDate.map(Instant.init(millisecondsSince1970:))
    let topEnvironment = environment.flatMap(StoreEnvironment.init(appleName:))

    if let unwrapped { return unwrapped }
    if seen.contains(.notificationType) {
      guard !isPayload, !seen.contains(.notification_type) else { throw GiveUp() }
      // A type or subtype this version does not know is reported by the general reader.
      guard
        notificationType.map({ NotificationEvidence.NotificationType(rawValue: $0) != nil })
          ?? true,
        subtype.map({ NotificationEvidence.Subtype(rawValue: $0) != nil }) ?? true
      else { throw GiveUp() }
      return .notificationV2(
        ServerNotification(
          rawNotificationType: notificationType, rawSubtype: subtype, appleStatus: data?.status,
          environment: data?.environment.flatMap(StoreEnvironment.init(appleName:)),
          timestamp: timestamp, entries: data?.transaction?.entries ?? [],
          renewalInfo: data?.renewal?.renewalInfo ?? [], diagnostics: []))
    }
    guard anyKind || (isPayload && payloadKeys) else { throw GiveUp() }
    if seen.contains(.notification_type) {
      guard let unified, !seen.contains(.latest_receipt_info) else { throw GiveUp() }
      // Renewal fields at the top are read only without pending_renewal_info.
      if unified.pending.isEmpty && sawTopRenewalFields { throw GiveUp() }
      return .notificationV1(
        StatusUpdateNotification(
          rawNotificationType: notificationType,
          environment: topEnvironment
            ?? unified.environment.flatMap(StoreEnvironment.init(appleName:)),
          entries: unified.latestReceiptInfo, renewalInfo: unified.pending, diagnostics: []))
    }
    if seen.contains(.signedTransactions) {
      return .transactionHistory(
        TransactionHistoryResponse(
          transactions: transactions, hasMore: try flag(at: hasMore),
          revision: try string(at: revision), environment: topEnvironment,
          bundleID: try string(at: bundleID), diagnostics: []))
    }
    if seen.contains(.notificationHistory) {
      return .notificationHistory(
        NotificationHistoryResponse(
          notificationPayloads: notifications, hasMore: try flag(at: hasMore),
          paginationToken: try string(at: paginationToken), diagnostics: []))
    }
    if let statuses {
      return .subscriptionStatuses(
        SubscriptionStatusesResponse(
          lastTransactions: statuses, environment: topEnvironment,
          bundleID: try string(at: bundleID), diagnostics: []))
    }
    if receiptKeys {
      guard !receipt.isIOS6 else { throw GiveUp() }
      if !seen.contains(.pending_renewal_info) && sawTopRenewalFields { throw GiveUp() }
      var response = VerifyReceiptResponse(
        status: status, environment: topEnvironment,
        inApp: receipt.inApp, latestReceiptInfo: latestReceiptInfo, renewalInfo: pending,
        latestReceipt: latestReceipt, timestamp: nil, diagnostics: [])
      if let type = receipt.receiptType, type.hasSuffix("Sandbox") {
        response.environment = .sandbox
      }
      if let creation = try instant(receipt.created) {
        response.timestamp = creation
      } else {
        response.timestamp = try instant(receipt.requested)
      }
      return .verifyReceipt(response)
    }
    if seen.contains(.transactionId) {
      return .transaction(
        AppStoreTransaction(
          entry: try payload.entry(), type: payload.type,
          environment: topEnvironment, timestamp: timestamp,
          diagnostics: []))
    }
    if seen.contains(.originalTransactionId) {
      return .renewal(
        AppStoreRenewalInfo(
          info: try payload.renewalInfo(),
          environment: topEnvironment, timestamp: timestamp,
          diagnostics: []))
    }
    throw GiveUp()  // not a document the general reader recognises: it says why
  }

  /// The flag (``flag()``) that begins at `start`; `nil` for no key. The place is restored.
  private mutating func flag(at start: Int?) throws(GiveUp) -> Bool? {
    guard let start else { return nil }
    let saved = index
    defer { index = saved }
    index = start
    return try flag()
  }

  /// The string (``string()``) that begins at `start`; `nil` for no key. The place is
  /// restored.
  private mutating func string(at start: Int?) throws(GiveUp) -> String? {
    guard let start else { return nil }
    let saved = index
    defer { index = saved }
    index = start
    return try string()
  }

  /// `receipt` of a verifyReceipt response, or `unified_receipt` of a v1 notification.
  private struct ReceiptObject {
    var isIOS6 = false
    var environment: String?
    var inApp: [ReceiptEntry] = []
    var latestReceiptInfo: [ReceiptEntry] = []
    var pending: [RenewalInfo] = []
    var receiptType: String?
    var created = DateField()
    var requested = DateField()
  }

  private mutating func receiptObject() throws(GiveUp) -> ReceiptObject {
    var result = ReceiptObject()
    var seen = KeySet()
    try object { reader, key throws(GiveUp) in
      try seen.insert(key)
      switch key {
      case .transaction_id:
        result.isIOS6 = true
        try reader.skipValue(depth: 2)
      case .environment: result.environment = try reader.string()
      case .in_app: result.inApp = try reader.entries(depth: 4)
      case .latest_receipt_info: result.latestReceiptInfo = try reader.entries(depth: 4)
      case .pending_renewal_info: result.pending = try reader.renewalInfos(depth: 4)
      case .receipt_type: result.receiptType = try reader.string()
      case .receipt_creation_date_ms: result.created.milliseconds = try reader.millisecondsString()
      case .receipt_creation_date:
        result.created.text = try reader.rawString(allowSlashEscape: false)
      case .request_date_ms: result.requested.milliseconds = try reader.millisecondsString()
      case .request_date: result.requested.text = try reader.rawString(allowSlashEscape: false)
      default: try reader.skipValue(depth: 2)
      }
    }
    return result
  }

  /// A v2 notification's `data`; its signed fields are decoded and read by this reader, and
  /// anything it does not read exactly gives up.
  private mutating func notificationData() throws(GiveUp) -> NotificationData {
    var result = NotificationData()
    var seen = KeySet()
    try object { reader, key throws(GiveUp) in
      try seen.insert(key)
      switch key {
      case .status: result.status = try reader.integer()
      case .environment: result.environment = try reader.string()
      case .signedTransactionInfo: result.transaction = try reader.signedTransaction()
      case .signedRenewalInfo: result.renewal = try reader.signedRenewalInfo()
      default: try reader.skipValue(depth: 2)
      }
    }
    return result
  }

  /// A signed transaction field: `null`, or a JWS whose payload is a regular transaction.
  private mutating func signedTransaction() throws(GiveUp) -> AppStoreTransaction? {
    skipWhitespace()
    if literal("null") { return nil }
    guard case .transaction(let transaction) = try signedDocument(.signedField) else {
      throw GiveUp()
    }
    return transaction
  }

  /// A signed renewal info field: `null`, or a JWS whose payload is regular renewal info.
  private mutating func signedRenewalInfo() throws(GiveUp) -> AppStoreRenewalInfo? {
    skipWhitespace()
    if literal("null") { return nil }
    guard case .renewal(let renewal) = try signedDocument(.signedField) else { throw GiveUp() }
    return renewal
  }

  /// `signedTransactions` of a Get Transaction History page: JWS strings, each a regular
  /// transaction.
  private mutating func signedTransactions() throws(GiveUp) -> [AppStoreTransaction] {
    var transactions: [AppStoreTransaction] = []
    try array { reader throws(GiveUp) in
      guard case .transaction(let transaction) = try reader.signedDocument(.signedField) else {
        throw GiveUp()
      }
      transactions.append(transaction)
    }
    return transactions
  }

  /// `notificationHistory` of a Get Notification History page: objects whose `signedPayload`
  /// is a regular v2 notification; their other members (`sendAttempts` …) are skipped.
  private mutating func notificationHistory() throws(GiveUp) -> [ServerNotification] {
    var notifications: [ServerNotification] = []
    try array { reader throws(GiveUp) in
      var notification: ServerNotification?
      var seen = KeySet()
      try reader.object { reader, key throws(GiveUp) in
        try seen.insert(key)
        guard key == .signedPayload else {
          try reader.skipValue(depth: 3)
          return
        }
        guard case .notificationV2(let read) = try reader.signedDocument(.notification) else {
          throw GiveUp()
        }
        notification = read
      }
      guard let notification else { throw GiveUp() }
      notifications.append(notification)
    }
    return notifications
  }

  /// `data` of Get All Subscription Statuses: the subscription groups, each with
  /// `subscriptionGroupIdentifier` and `lastTransactions`, flattened in document order.
  private mutating func subscriptionGroups() throws(GiveUp)
    -> [SubscriptionStatusesResponse.LastTransaction]
  {
    var result: [SubscriptionStatusesResponse.LastTransaction] = []
    try array { reader throws(GiveUp) in
      var identifier: String?
      var items: [SubscriptionStatusesResponse.LastTransaction]?
      var seen = KeySet()
      try reader.object { reader, key throws(GiveUp) in
        try seen.insert(key)
        switch key {
        case .subscriptionGroupIdentifier: identifier = try reader.string()
        case .lastTransactions: items = try reader.lastTransactions()
        default: try reader.skipValue(depth: 3)
        }
      }
      // A group without its subscriptions is reported by the general reader.
      guard var items else { throw GiveUp() }
      for item in items.indices { items[item].subscriptionGroupIdentifier = identifier }
      result += items
    }
    return result
  }

  /// `lastTransactions` of one subscription group.
  private mutating func lastTransactions() throws(GiveUp)
    -> [SubscriptionStatusesResponse.LastTransaction]
  {
    var items: [SubscriptionStatusesResponse.LastTransaction] = []
    try array { reader throws(GiveUp) in
      var item = SubscriptionStatusesResponse.LastTransaction()
      var seen = KeySet()
      try reader.object { reader, key throws(GiveUp) in
        try seen.insert(key)
        switch key {
        case .originalTransactionId:
          item.originalTransactionID = OriginalTransactionID(rawValue: try reader.string())
        case .status: item.rawStatus = try reader.integer()
        case .signedTransactionInfo: item.transaction = try reader.signedTransaction()
        case .signedRenewalInfo: item.renewal = try reader.signedRenewalInfo()
        default: try reader.skipValue(depth: 5)
        }
      }
      items.append(item)
    }
    return items
  }

  // MARK: JWS

  /// The document of the JWS string at `index`, its payload decoded and read by a reader of
  /// its own at `context`. The string must be plain (no escape, ASCII) with exactly two dots,
  /// and the payload base64url, as `JWS.payload(of:)` decodes it; anything else gives up.
  private mutating func signedDocument(_ context: Context) throws(GiveUp) -> AppStoreDocument {
    try expect(UInt8(ascii: "\""))
    // The header, the payload and the signature: each part ends at a dot, the last at the
    // closing quote. An app's JWS share one header (its certificate chain, about 4 KB): the
    // bytes of the last header read, followed by a dot, are a header checked already.
    let headerStart = index
    if let header = lastHeader, index + header.count < bytes.count,
      bytes[index + header.count] == UInt8(ascii: "."),
      Self.equal32(bytes, index, header.start, header.count)
    {
      index += header.count
    } else {
      guard skipJWSPart() == UInt8(ascii: ".") else { throw GiveUp() }
      lastHeader = (headerStart, index - headerStart)
    }
    index += 1
    let payloadStart = index
    guard skipJWSPart() == UInt8(ascii: ".") else { throw GiveUp() }
    let payloadEnd = index
    index += 1
    guard skipJWSPart() == UInt8(ascii: "\"") else { throw GiveUp() }
    index += 1
    return try nestedDocument(payloadStart, payloadEnd, context)
  }

  /// A whole document that is a compact JWS, as ``DocumentReader`` reads one: exactly two dots
  /// in it (its parts are otherwise not looked at), the payload base64url, read as an
  /// ``Context/unwrapped`` document.
  private mutating func bareJWS() throws(GiveUp) -> AppStoreDocument {
    var end = bytes.count
    while end > index, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
    guard let first = nextDot(from: index, to: end),
      let second = nextDot(from: first + 1, to: end),
      nextDot(from: second + 1, to: end) == nil
    else { throw GiveUp() }
    return try nestedDocument(first + 1, second, .unwrapped)
  }

  /// The first dot in `bytes[start..<end]`, eight bytes at a time.
  private func nextDot(from start: Int, to end: Int) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    var position = start
    while position + 8 <= end {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      if Self.flags(word, 0x2E) != 0 { break }
      position += 8
    }
    while position < end {
      if bytes[position] == UInt8(ascii: ".") { return position }
      position += 1
    }
    return nil
  }

  /// The high bit of each byte of `word` equal to `byte`, and perhaps of bytes above one (a
  /// borrow): nonzero exactly when a byte is `byte`.
  @inline(__always)
  private static func flags(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let difference = word ^ (ones &* UInt64(byte))
    return (difference &- ones) & ~difference & (ones &* 0x80)
  }

  /// Nonzero exactly when `word` holds a dot, a quote, a backslash, a control character or a
  /// non-ASCII byte (as ``skipPlainWords()`` tests, with the dot).
  @inline(__always)
  private static func jwsSpecial(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    return flags(word, 0x2E) | flags(word, 0x22) | flags(word, 0x5C)
      | ((word &- ones &* 0x20) | word) & (ones &* 0x80)
  }

  /// Advances over the bytes of one part of a JWS string, sixteen at a time, to the first
  /// byte that ends it or is not plain: a dot, a quote, a backslash, a control character or a
  /// non-ASCII byte, which it returns (`nil` at the end of the bytes).
  private mutating func skipJWSPart() -> UInt8? {
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      // Two words at a time; the byte loop below finds the byte in the pair that stops.
      while index + 16 <= bytes.count {
        let first = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let second = UInt64(
          littleEndian: raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
        if Self.jwsSpecial(first) | Self.jwsSpecial(second) != 0 { break }
        index += 16
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        || byte < 0x20 || byte >= 0x80
      {
        return byte
      }
      index += 1
    }
    return nil
  }

  /// The payload `bytes[start..<end]` (base64url) decoded into ``scratch`` and read there by a
  /// reader of its own at `context`, which is lent ``nestedScratch`` for the JWS inside.
  private mutating func nestedDocument(_ start: Int, _ end: Int, _ context: Context)
    throws(GiveUp) -> AppStoreDocument
  {
    // The buffers are moved out and back (no copy, no reference left behind to force one).
    var buffer: [UInt8] = []
    swap(&buffer, &scratch)
    var lent: [UInt8] = []
    swap(&lent, &nestedScratch)
    var shared = Lent()
    shared.followers = followers
    swap(&shared.memo, &memo)
    let document = Self.nested(
      bytes, start, end, keys.base64URL, context, buffer: &buffer, lent: &lent, shared: &shared)
    swap(&buffer, &scratch)
    swap(&lent, &nestedScratch)
    swap(&shared.memo, &memo)
    followers = shared.followers
    guard let document else { throw GiveUp() }
    return document
  }

  /// `body` run with what `lent` carries (key predictions, memo of ids) as this reader's own;
  /// `lent` holds them again after, with what `body` learnt.
  private mutating func withLent<Result>(
    _ lent: inout Lent, _ body: (inout FastDocumentReader) -> Result
  ) -> Result {
    swap(&memo, &lent.memo)
    followers = lent.followers
    defer {
      swap(&memo, &lent.memo)
      lent.followers = followers
    }
    return body(&self)
  }

  /// What a reader lends the reader of a nested payload besides a buffer, or the reader of the
  /// next document: its key predictions (payloads of one kind list their keys in one order)
  /// and its memo of ids.
  struct Lent {
    fileprivate var followers = Followers()
    fileprivate var memo = PayloadMemo()
  }

  /// ``nestedDocument(_:_:_:)`` apart from the reader that finds the payload.
  private static func nested(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
    _ table: UnsafeMutablePointer<UInt8>, _ context: Context, buffer: inout [UInt8],
    lent: inout [UInt8], shared: inout Lent
  ) -> AppStoreDocument? {
    guard let count = decodeBase64URL(bytes, start, end, table, into: &buffer) else {
      return nil
    }
    return buffer.withUnsafeBufferPointer { decoded -> AppStoreDocument? in
      var reader = FastDocumentReader(bytes: UnsafeBufferPointer(rebasing: decoded[..<count]))
      swap(&reader.scratch, &lent)
      let document = reader.withLent(&shared) { try? $0.whole(context) }
      swap(&reader.scratch, &lent)
      return document
    }
  }

  /// `text` decoded from base64url as a JWS payload is (the tests compare it with `JWS`'s).
  static func base64URLDecode(_ text: [UInt8]) -> [UInt8]? {
    var buffer: [UInt8] = []
    let count = text.withUnsafeBufferPointer { text in
      decodeBase64URL(text, 0, text.count, KeyTable.shared.base64URL, into: &buffer)
    }
    return count.map { Array(buffer.prefix($0)) }
  }

  /// Decodes base64url (RFC 4648 §5, padding allowed, `+` and `/` read as `-` and `_`) from
  /// `bytes[start..<end]` into the start of `buffer`, as `JWS.payload(of:)` does: four symbols
  /// to three bytes by `table`, the invalid symbols gathered in one mask. Returns the count;
  /// `nil` for any other byte.
  private static func decodeBase64URL(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
    _ table: UnsafeMutablePointer<UInt8>, into buffer: inout [UInt8]
  ) -> Int? {
    var end = end
    while end > start, bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
    let symbols = end - start
    if symbols == 0 { return 0 }
    guard symbols % 4 != 1, let base = bytes.baseAddress else { return nil }
    let count = symbols / 4 * 3 + max(symbols % 4 - 1, 0)
    if buffer.count < count {
      buffer = [UInt8](repeating: 0, count: max(count, 2 * buffer.count, 4_096))
    }
    let valid = buffer.withUnsafeMutableBufferPointer { output -> Bool in
      guard var out = output.baseAddress else { return false }
      var input = base + start
      var invalid: UInt8 = 0
      for _ in 0..<(symbols / 4) {
        let a = table[Int(input[0])]
        let b = table[Int(input[1])]
        let c = table[Int(input[2])]
        let d = table[Int(input[3])]
        invalid |= a | b | c | d
        let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
        out[0] = UInt8(truncatingIfNeeded: value >> 16)
        out[1] = UInt8(truncatingIfNeeded: value >> 8)
        out[2] = UInt8(truncatingIfNeeded: value)
        input += 4
        out += 3
      }
      // Two or three symbols left: one or two bytes, the bits below them dropped.
      if symbols % 4 >= 2 {
        let a = table[Int(input[0])]
        let b = table[Int(input[1])]
        let c = symbols % 4 == 3 ? table[Int(input[2])] : 0
        invalid |= a | b | c
        let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
        out[0] = UInt8(truncatingIfNeeded: value >> 16)
        if symbols % 4 == 3 { out[1] = UInt8(truncatingIfNeeded: value >> 8) }
      }
      return invalid & 0x80 == 0
    }
    return valid ? count : nil
  }

  /// The fields of a decoded transaction or renewal info payload (JWSTransactionDecodedPayload,
  /// JWSRenewalInfoDecodedPayload), as Apple types them: ids and names as strings, dates as
  /// millisecond numbers, flags as booleans or 0/1.
  private struct PayloadFields {
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

    /// As `ReceiptEntry.read(transactionFields:path:diagnostics:)` reads it.
    func entry() throws(GiveUp) -> ReceiptEntry {
      guard let transaction, let product else { throw GiveUp() }
      let instant = { (milliseconds: Int64?) in
        milliseconds.map(Instant.init(millisecondsSince1970:))
      }
      return ReceiptEntry(
        productID: ProductID(product), transaction: transaction,
        originalTransactionID: original.map(OriginalTransactionID.init(rawValue:)),
        orderLine: orderLine ?? .absent,
        quantity: quantity ?? 1, purchaseDate: instant(purchase),
        originalPurchaseDate: instant(originalPurchase), expiresDate: instant(expires),
        cancellationDate: instant(revocation), rawCancellationReason: revocationReason,
        isTrialPeriod: offerType == 1 && offerDiscountType == "FREE_TRIAL",
        isInIntroOfferPeriod: offerType == 1 && offerDiscountType != "FREE_TRIAL",
        isUpgraded: upgraded ?? false, rawInAppOwnershipType: ownership,
        offerCodeRefName: offerType == 3 ? offerIdentifier : nil,
        promotionalOfferID: offerType == 2 ? offerIdentifier : nil)
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
  private mutating func payloadField(_ key: Key, _ fields: inout PayloadFields) throws(GiveUp)
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
  private mutating func entries(depth: Int) throws(GiveUp) -> [ReceiptEntry] {
    var entries: [ReceiptEntry] = []
    try array { reader throws(GiveUp) in entries.append(try reader.entry(depth: depth)) }
    return entries
  }

  /// The renewal infos of a list, whose members are at `depth` in the document.
  private mutating func renewalInfos(depth: Int) throws(GiveUp) -> [RenewalInfo] {
    var infos: [RenewalInfo] = []
    try array { reader throws(GiveUp) in infos.append(try reader.renewalInfo(depth: depth)) }
    return infos
  }

  /// Dates: `X_ms` wins; `X` is read only without `X_ms`.
  private struct DateField {
    var milliseconds: Int64?
    var text: (Int, Int)?
  }

  /// A date: `X_ms` when given, else `X`'s text parsed (decoded only then).
  private func instant(_ field: DateField) throws(GiveUp) -> Instant? {
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

  // MARK: Values

  @inline(__always)
  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  @inline(__always)
  private mutating func expect(_ byte: UInt8) throws(GiveUp) {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { throw GiveUp() }
    index += 1
  }

  /// Calls `member` for each key of an object; the member must read or skip its value.
  @inline(__always)
  private mutating func object(
    _ member: (inout FastDocumentReader, Key) throws(GiveUp) -> Void
  ) throws(GiveUp) {
    var previous = Key.unknown
    try sequence(open: UInt8(ascii: "{"), close: UInt8(ascii: "}")) { reader throws(GiveUp) in
      let key = try reader.readKeyAndColon(after: previous)
      previous = key
      try member(&reader, key)
    }
  }

  @inline(__always)
  private mutating func array(_ element: (inout FastDocumentReader) throws(GiveUp) -> Void)
    throws(GiveUp)
  {
    try sequence(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), element)
  }

  /// `open item (, item)* close`, whitespace allowed between tokens.
  @inline(__always)
  private mutating func sequence(
    open: UInt8, close: UInt8, _ item: (inout FastDocumentReader) throws(GiveUp) -> Void
  ) throws(GiveUp) {
    try expect(open)
    skipWhitespace()
    if index < bytes.count, bytes[index] == close {
      index += 1
      return
    }
    while true {
      try item(&self)
      skipWhitespace()
      guard index < bytes.count else { throw GiveUp() }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == close else { throw GiveUp() }
      index += 1
      return
    }
  }

  /// A member name and the colon after it; the name is matched against the known keys on
  /// its bytes; escapes and non-ASCII give up (the general reader decodes them).
  @inline(__always)
  private mutating func readKeyAndColon(after previous: Key) throws(GiveUp) -> Key {
    guard let base = bytes.baseAddress else { throw GiveUp() }
    let raw = UnsafeRawPointer(base)
    let predicted = followers[previous]
    // The predicted name checked in place, with no scan: its words, then the closing quote
    // (and the colon when it follows at once). A known name is plain ASCII, so the scan
    // would have found the same range.
    skipWhitespace()
    if predicted != .unknown, index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      let start = index + 1
      let count = keys.length(of: predicted.rawValue)
      if start + count + 1 < bytes.count, bytes[start + count] == UInt8(ascii: "\""),
        keys.matches(predicted.rawValue, raw, bytes.count, start, count)
      {
        if bytes[start + count + 1] == UInt8(ascii: ":") {
          index = start + count + 2
        } else {
          index = start + count + 1
          try expect(UInt8(ascii: ":"))
        }
        return predicted
      }
    }
    let (start, end) = try rawString(allowSlashEscape: false)
    let key = keys.key(raw, bytes.count, start, end - start)
    followers[previous] = key
    try expect(UInt8(ascii: ":"))
    return key
  }

  /// The byte range of a string's contents: ASCII, no control characters, and no escape but
  /// `\/` when allowed. Anything else gives up.
  private mutating func rawString(allowSlashEscape: Bool) throws(GiveUp) -> (Int, Int) {
    try expect(UInt8(ascii: "\""))
    let start = index
    skipPlainWords()
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return (start, index - 1)
      }
      if byte == UInt8(ascii: "\\") {
        guard allowSlashEscape, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/")
        else { throw GiveUp() }
        index += 2
        skipPlainWords()
        continue
      }
      guard byte >= 0x20, byte < 0x80 else { throw GiveUp() }
      index += 1
    }
    throw GiveUp()
  }

  /// Advances over plain string bytes (printable ASCII other than `"` and `\`) eight at a time,
  /// stopping on the first other byte (or before the last word): the byte loops read from
  /// there. Each test flags its byte exactly, and can flag a byte above it only by a borrow
  /// from it, so the lowest flagged byte of a word is the first one that is not plain.
  @inline(__always)
  private mutating func skipPlainWords() {
    guard let base = bytes.baseAddress else { return }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    while index + 8 <= bytes.count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      // A zero byte of `quote` or `backslash`, a byte below 0x20, or a byte of 0x80 or more.
      let special =
        (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
          | (word &- ones &* 0x20) | word) & high
      if special != 0 {
        index += special.trailingZeroBitCount >> 3
        return
      }
      index += 8
    }
  }

  /// A date's text, decoded only when needed (without `_ms`).
  private func text(_ range: (Int, Int)) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range.0..<range.1]), as: UTF8.self)
  }

  /// A string whose only escape is `\/` (Apple escapes slashes); anything else gives up.
  private mutating func string() throws(GiveUp) -> String {
    try expect(UInt8(ascii: "\""))
    let start = index
    var ascii = true
    var slashes = false
    skipPlainWords()
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") { break }
      if byte == UInt8(ascii: "\\") {
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") else {
          throw GiveUp()
        }
        slashes = true
        index += 2
        skipPlainWords()
        continue
      }
      if byte < 0x20 { throw GiveUp() }
      if byte >= 0x80 { ascii = false }
      index += 1
    }
    guard index < bytes.count else { throw GiveUp() }
    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
    index += 1
    guard ascii else { throw GiveUp() }
    if !slashes { return String(decoding: slice, as: UTF8.self) }
    var unescaped: [UInt8] = []
    unescaped.reserveCapacity(slice.count)
    var position = 0
    while position < slice.count {
      if slice[position] == UInt8(ascii: "\\") { position += 1 }
      unescaped.append(slice[position])
      position += 1
    }
    return String(decoding: unescaped, as: UTF8.self)
  }

  /// An id as an entry keeps it (``CompactIdentifier``): its number read from its bytes, and
  /// a `String` made only when it is not a plain number. With an escape the bytes hold a
  /// backslash, so no number, as the unescaped text (which holds a slash) has none.
  private mutating func identifier() throws(GiveUp) -> CompactIdentifier {
    skipWhitespace()
    let start = index
    let (textStart, textEnd) = try rawString(allowSlashEscape: true)
    let number =
      Self.plainNumber(bytes, textStart, textEnd)
      ?? IdentifierNumber(digits: UnsafeBufferPointer(rebasing: bytes[textStart..<textEnd]))
    guard !number.isPlain else { return CompactIdentifier(number: number, text: "") }
    index = start
    let text = try string()
    return CompactIdentifier(number: number, text: text)
  }

  /// The number of the 8 to 16 bytes `bytes[start..<end]` when they are a plain number
  /// (``IdentifierNumber``: digits, no leading zero), read eight digits at a time as Apple's
  /// 16-digit ids are; `nil` for anything else, which ``IdentifierNumber/init(digits:)``
  /// decides byte by byte.
  @inline(__always)
  private static func plainNumber(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> IdentifierNumber? {
    let count = end - start
    guard count >= 8, count <= 16, bytes[start] != UInt8(ascii: "0"),
      let base = bytes.baseAddress
    else { return nil }
    let raw = UnsafeRawPointer(base)
    // The last eight bytes, with those that are also among the first eight made "0".
    let shared = UInt64(16 - count) * 8
    let sharedMask: UInt64 = shared == 64 ? .max : (1 << shared) - 1
    let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
    guard let high = eightDigits(raw, start),
      let low = eightDigits((last & ~sharedMask) | (0x3030_3030_3030_3030 & sharedMask))
    else { return nil }
    let scale = powerOfTen(count - 8)
    return IdentifierNumber(plainValue: UInt64(high) * scale + UInt64(low))
  }

  /// 10 to the power `power`, for 0 to 8.
  @inline(__always)
  private static func powerOfTen(_ power: Int) -> UInt64 {
    switch power {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    default: 100_000_000
    }
  }

  /// Whether the `count` bytes of `bytes` at `a` and at `b` are equal, 32 at a time (a JWS
  /// header against the one before).
  private static func equal32(
    _ bytes: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int, _ count: Int
  ) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let raw = UnsafeRawPointer(base)
    func word(_ offset: Int) -> UInt64 {
      raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    var position = 0
    while position + 32 <= count {
      let difference =
        (word(a + position) ^ word(b + position))
        | (word(a + position + 8) ^ word(b + position + 8))
        | (word(a + position + 16) ^ word(b + position + 16))
        | (word(a + position + 24) ^ word(b + position + 24))
      guard difference == 0 else { return false }
      position += 32
    }
    while position < count {
      guard bytes[a + position] == bytes[b + position] else { return false }
      position += 1
    }
    return true
  }

  /// Whether `count` bytes at `a[aStart...]` and `b[bStart...]` are equal, eight at a time.
  private static func equal(
    _ a: UnsafeRawBufferPointer, _ aStart: Int, _ b: UnsafeRawBufferPointer, _ bStart: Int,
    _ count: Int
  ) -> Bool {
    var position = 0
    while position + 8 <= count {
      guard
        a.loadUnaligned(fromByteOffset: aStart + position, as: UInt64.self)
          == b.loadUnaligned(fromByteOffset: bStart + position, as: UInt64.self)
      else { return false }
      position += 8
    }
    while position < count {
      guard a[aStart + position] == b[bStart + position] else { return false }
      position += 1
    }
    return true
  }

  /// A product id or an original transaction id: the `String` of one read before with the
  /// same bytes, among the last ``sharedPerKind`` distinct ones of its kind, so that the
  /// entries of a document share one storage per product and per subscription (no allocation
  /// per entry for an id of more than 15 bytes, as Apple's are).
  private mutating func sharedString(_ id: SharedID) throws(GiveUp) -> String {
    let (start, end) = try rawString(allowSlashEscape: true)
    let raw = UnsafeRawBufferPointer(bytes)
    let first = id.rawValue * Self.sharedPerKind
    func isSame(_ place: Int) -> Bool {
      let known = shared[first + place]
      return end - start == known.count
        && Self.equal(raw, start, raw, known.start, known.count)
    }
    let last = sharedLast[id.rawValue]
    if isSame(last) { return shared[first + last].value }
    for place in 0..<Self.sharedPerKind where place != last && isSame(place) {
      sharedLast[id.rawValue] = place
      return shared[first + place].value
    }
    index = start - 1
    let value = try string()
    let place = sharedNext[id.rawValue]
    shared[first + place] = (start, end - start, value)
    (sharedLast[id.rawValue], sharedNext[id.rawValue]) = (place, (place + 1) % Self.sharedPerKind)
    return value
  }

  /// A product id (`subscription` false) or an original transaction id of a decoded payload:
  /// the `String` of ``memo`` with the same bytes, else the string read, remembered first.
  private mutating func memoString(subscription: Bool) throws(GiveUp) -> String {
    let (start, end) = try rawString(allowSlashEscape: true)
    let first = subscription ? 2 : 0
    for place in first..<first + 2 where Self.spells(memo.strings[place], bytes, start, end) {
      let value = memo.strings[place]
      if place != first { memo.strings.swapAt(first, place) }
      return value
    }
    index = start - 1
    let value = try string()
    memo.strings[first + 1] = memo.strings[first]
    memo.strings[first] = value
    return value
  }

  /// Whether `bytes[start..<end]` are the UTF-8 of `value`.
  private static func spells(
    _ value: String, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> Bool {
    guard value.utf8.count == end - start, let base = bytes.baseAddress else { return false }
    return value.utf8.withContiguousStorageIfAvailable { utf8 in
      equal(
        UnsafeRawBufferPointer(utf8), 0, UnsafeRawBufferPointer(start: base, count: end), start,
        end - start)
    } ?? false
  }

  /// `type` of a decoded transaction: Apple's four spellings matched on bytes (no `String`
  /// made for them), any other as a decoded string.
  private mutating func productType() throws(GiveUp) -> String {
    skipWhitespace()
    if literal("\"Auto-Renewable Subscription\"") { return "Auto-Renewable Subscription" }
    if literal("\"Non-Consumable\"") { return "Non-Consumable" }
    if literal("\"Consumable\"") { return "Consumable" }
    if literal("\"Non-Renewing Subscription\"") { return "Non-Renewing Subscription" }
    return try string()
  }

  /// Up to 18 decimal digits (more give up: no overflow), and how many there were.
  private mutating func digits() throws(GiveUp) -> (value: Int64, count: Int) {
    var value: Int64 = 0
    var count = 0
    // Eight digits at a time while eight follow (a millisecond date has thirteen).
    if index + 8 <= bytes.count, let base = bytes.baseAddress,
      let eight = Self.eightDigits(UnsafeRawPointer(base), index)
    {
      value = eight
      count = 8
      index += 8
    }
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
      guard count < 18 else { throw GiveUp() }  // before multiplying: no overflow
      value = value * 10 + Int64(bytes[index] - 0x30)
      count += 1
      index += 1
    }
    return (value, count)
  }

  /// The value of the eight bytes at `offset` when all are decimal digits: each byte's digit
  /// is checked, then pairs, quads and the two halves are combined by three multiplications.
  @inline(__always)
  private static func eightDigits(_ raw: UnsafeRawPointer, _ offset: Int) -> Int64? {
    eightDigits(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
  }

  /// ``eightDigits(_:_:)`` of a word already loaded (its first byte lowest).
  @inline(__always)
  private static func eightDigits(_ word: UInt64) -> Int64? {
    // A digit is 0x30...0x39: high nibble 3, and adding 6 leaves the high nibble 3.
    let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    guard
      (word & nibbles) | (((word &+ 0x0606_0606_0606_0606) & nibbles) >> 4)
        == 0x3333_3333_3333_3333
    else { return nil }
    var digits = word & 0x0F0F_0F0F_0F0F_0F0F  // byte i: digit i (the first is lowest)
    digits = (digits &* (10 << 8 + 1)) >> 8  // 16-bit lanes: two digits
    digits = ((digits & 0x00FF_00FF_00FF_00FF) &* (100 << 16 + 1)) >> 16  // 32-bit: four
    digits = ((digits & 0x0000_FFFF_0000_FFFF) &* (10_000 << 32 + 1)) >> 32  // eight
    return Int64(digits)
  }

  /// A string of 1 to 18 digits, as Apple writes `*_ms`.
  private mutating func millisecondsString() throws(GiveUp) -> Int64 {
    try expect(UInt8(ascii: "\""))
    let (value, count) = try digits()
    guard count > 0, index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw GiveUp()
    }
    index += 1
    return value
  }

  /// An integer written as a JSON number or a string of digits.
  private mutating func integer() throws(GiveUp) -> Int {
    skipWhitespace()
    guard index < bytes.count else { throw GiveUp() }
    let quoted = bytes[index] == UInt8(ascii: "\"")
    if quoted { index += 1 }
    let (value, count) = try digits()
    // JSON numbers have no leading zero; a quoted "007" reads as 7, as Int("007") does.
    guard count > 0, count == 1 || quoted || bytes[index - count] != 0x30 else {
      throw GiveUp()
    }
    if quoted {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GiveUp() }
      index += 1
    } else if index < bytes.count,
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index])
    {
      throw GiveUp()
    }
    return Int(value)
  }

  /// A JSON number of 1 to 18 digits, negative before 1970, with no fraction or exponent:
  /// milliseconds as the App Store Server API writes dates.
  private mutating func millisecondsNumber() throws(GiveUp) -> Int64 {
    skipWhitespace()
    guard index < bytes.count, bytes[index] != UInt8(ascii: "\"") else { throw GiveUp() }
    guard bytes[index] == UInt8(ascii: "-") else { return Int64(try integer()) }
    index += 1
    guard index < bytes.count, bytes[index] != UInt8(ascii: "\"") else { throw GiveUp() }
    return -Int64(try integer())
  }

  /// A string, or an integer number kept as its digits (`revocationReason` is a number).
  private mutating func stringOrInteger() throws(GiveUp) -> String {
    skipWhitespace()
    guard index < bytes.count else { throw GiveUp() }
    if bytes[index] == UInt8(ascii: "\"") { return try string() }
    let start = index
    _ = try integer()
    return text((start, index))
  }

  /// `"true"`, `"false"`, `"1"`, `"0"`, a JSON boolean, or the number 0 or 1.
  private mutating func flag() throws(GiveUp) -> Bool {
    skipWhitespace()
    guard index < bytes.count else { throw GiveUp() }
    if bytes[index] == UInt8(ascii: "\"") {
      // Apple's four spellings matched on bytes; anything else as a decoded string.
      if literal("\"true\"") || literal("\"1\"") { return true }
      if literal("\"false\"") || literal("\"0\"") { return false }
      switch try string() {
      case "true", "1": return true
      case "false", "0": return false
      default: throw GiveUp()
      }
    }
    if literal("true") { return true }
    if literal("false") { return false }
    switch try integer() {  // the numbers 0 and 1, as Apple writes autoRenewStatus
    case 1: return true
    case 0: return false
    default: throw GiveUp()
    }
  }

  /// `in_app_ownership_type`: Apple's two spellings matched on bytes (no `String` made for
  /// them), any other as a decoded string.
  private mutating func ownershipType() throws(GiveUp) -> String {
    skipWhitespace()
    if literal("\"PURCHASED\"") { return "PURCHASED" }
    if literal("\"FAMILY_SHARED\"") { return "FAMILY_SHARED" }
    return try string()
  }

  @inline(__always)
  private mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    let matches = Self.equal(
      UnsafeRawBufferPointer(bytes), index,
      UnsafeRawBufferPointer(start: word.utf8Start, count: count), 0, count)
    if matches { index += count }
    return matches
  }

  /// Skips any JSON value, checking it as strictly as the general reader would. A string, the
  /// usual value no schema reads (Apple's `_pst` dates among them), is skipped here in line;
  /// other values in ``skipOther(depth:)``.
  @inline(__always)
  private mutating func skipValue(depth: Int) throws(GiveUp) {
    guard depth < JSONValue.maximumDepth else { throw GiveUp() }
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      _ = try rawString(allowSlashEscape: true)
    } else {
      try skipOther(depth: depth)
    }
  }

  /// ``skipValue(depth:)`` of anything but a string.
  private mutating func skipOther(depth: Int) throws(GiveUp) {
    guard index < bytes.count else { throw GiveUp() }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      try object { reader, _ throws(GiveUp) in try reader.skipValue(depth: depth + 1) }
    case UInt8(ascii: "["):
      try array { reader throws(GiveUp) in try reader.skipValue(depth: depth + 1) }
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      guard literal("true") || literal("false") || literal("null") else { throw GiveUp() }
    default:
      try skipNumber()
    }
  }

  private mutating func skipNumber() throws(GiveUp) {
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) { throw GiveUp() }
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
  }
}
