// Each kind of document, read from its top-level keys (SPEC §10).

extension FastDocumentReader {
  /// What a v2 notification's `data` holds.
  private struct NotificationData {
    var status: Int?
    var environment: String?
    var transaction: AppStoreTransaction?
    var renewal: AppStoreRenewalInfo?
  }

  /// A document at `context`: a bare JWS where a whole document may be one, else a JSON
  /// object.
  mutating func whole(_ context: Context) throws(GiveUp) -> AppStoreDocument {
    skipWhitespace()
    if context == .document, index < bytes.count, bytes[index] != UInt8(ascii: "{"),
      bytes[index] != UInt8(ascii: "[")
    {
      return try bareJWS()
    }
    return context == .signedField
      ? try transactionOrRenewal(alone: false) : try document(context)
  }

  /// A transaction or renewal info payload: what ``anyDocument(_:)`` reads of these two kinds,
  /// with none of the other kinds' state to carry.
  ///
  /// In a signed field (not `alone`: the payload of `signedTransactionInfo`,
  /// `signedRenewalInfo` or `signedTransactions[]`), only these two kinds are read: a key of
  /// another kind gives up, and keys that only other kinds read are skipped. Alone (a whole
  /// document, or a bare JWS's payload), the first key that ``anyDocument(_:)`` reads for
  /// another kind throws ``GiveUp/otherKind``, for ``document(_:)`` to read the document again
  /// from its start with ``anyDocument(_:)``: every key before it was read as that reads it,
  /// so the answer is the same either way. Internal for the tests, which compare the two.
  mutating func transactionOrRenewal(alone: Bool) throws(GiveUp) -> AppStoreDocument {
    var payload = PayloadFields()
    let seen = try payloadMembers(alone: alone, into: &payload)
    let timestamp = payload.signedDate.map(Instant.init(millisecondsSince1970:))
    if seen.contains(.transactionId) {
      return .transaction(
        AppStoreTransaction(
          entry: try payload.entry(), type: payload.type.take(),
          environment: payload.environment, timestamp: timestamp, diagnostics: []))
    }
    return .renewal(try Self.renewal(payload, seen, timestamp))
  }

  /// ``transactionOrRenewal(alone:)`` of a whole document, folded into `record` as folding
  /// its answer would fold it, but from the fields read: a transaction's entry is moved into
  /// the record, with no `AppStoreTransaction` and no `AppStoreDocument` made, copied and
  /// destroyed on the way (DESIGN.md, "Performance"). Nothing is folded when it throws.
  mutating func foldTransactionOrRenewal(into record: inout SubscriberRecord) throws(GiveUp) {
    var payload = PayloadFields()
    let seen = try payloadMembers(alone: true, into: &payload)
    let timestamp = payload.signedDate.map(Instant.init(millisecondsSince1970:))
    if seen.contains(.transactionId) {
      record.fold(
        transactionEntry: try payload.entry(), environment: payload.environment,
        timestamp: timestamp)
      return
    }
    record.fold(try Self.renewal(payload, seen, timestamp))
  }

  /// The renewal info a payload with no `transactionId` is; it must name its subscription.
  private static func renewal(
    _ payload: PayloadFields, _ seen: KeySet, _ timestamp: Instant?
  ) throws(GiveUp) -> AppStoreRenewalInfo {
    guard seen.contains(.originalTransactionId) else { throw GiveUp() }
    return AppStoreRenewalInfo(
      info: try payload.renewalInfo(), environment: payload.environment, timestamp: timestamp,
      diagnostics: [])
  }

  /// The members of a transaction or renewal info payload, read into `payload`, and the keys
  /// met (see ``transactionOrRenewal(alone:)`` for `alone`).
  @inline(__always)
  private mutating func payloadMembers(
    alone: Bool, into payload: inout PayloadFields
  ) throws(GiveUp) -> KeySet {
    var seen = KeySet()
    try object { reader, key throws(GiveUp) in
      try seen.insert(key)
      switch key {
      case .environment: payload.environment = try reader.storeEnvironment()
      case .status, .receipt, .latest_receipt_info, .latest_expired_receipt_info, .signedPayload,
        .notificationType, .notification_type, .signedTransactions, .notificationHistory, .data:
        throw GiveUp(otherKind: true)
      case .latest_receipt, .pending_renewal_info, .unified_receipt, .subtype:
        // Read by ``anyDocument(_:)`` for the other kinds only (it may give up on their
        // values): in a signed field, skipped. Keys it only skips are skipped here too.
        if alone { throw GiveUp(otherKind: true) }
        try reader.skipValue(depth: 1)
      default:
        if Self.isUnreadPayloadMember(key) {
          try reader.skipValue(depth: 1)
        } else if try !reader.payloadField(key, &payload) {
          try reader.skipValue(depth: 1)
        }
      }
    }
    if endsWithBytes {
      skipWhitespace()
      guard index == bytes.count else { throw GiveUp() }
    }
    return seen
  }

  /// Whether `key` is a member of Apple's payloads that no field is read from (most of a
  /// decoded transaction's members): skipped without asking ``payloadField(_:_:)``, which
  /// declines it (a test checks that it does).
  @inline(__always)
  static func isUnreadPayloadMember(_ key: Key) -> Bool {
    switch key {
    case .unknown, .bundleId, .subscriptionGroupIdentifier, .appAccountToken, .appTransactionId,
      .currency, .price, .storefront, .storefrontId, .transactionReason, .offerPeriod,
      .advancedCommerceInfo, .renewalDate, .renewalPrice, .recentSubscriptionStartDate,
      .eligibleWinBackOfferIds:
      true
    default: false
    }
  }

  /// A JSON document at `context` (`.document`, `.unwrapped` or `.notification`). At
  /// `.document` and `.unwrapped`, a transaction or a renewal info, the documents of most
  /// lines of `entitlements evaluate`, is read by ``transactionOrRenewal(alone:)``, without the
  /// other kinds' state (a tenth of the time of its reading); a document of any other kind, by
  /// ``anyDocument(_:)`` from its start.
  mutating func document(_ context: Context) throws(GiveUp) -> AppStoreDocument {
    if context == .document || context == .unwrapped {
      let start = index
      do throws(GiveUp) {
        return try transactionOrRenewal(alone: true)
      } catch {
        guard error.otherKind else { throw error }
      }
      index = start
    }
    return try anyDocument(context)
  }

  /// Every top-level key of every schema, read in one pass; the kind is chosen at the end. Not
  /// at `.signedField`, whose payloads ``transactionOrRenewal(alone:)`` reads. Internal for
  /// the tests.
  mutating func anyDocument(_ context: Context) throws(GiveUp) -> AppStoreDocument {
    assert(context != .signedField, "a signed field's payload is read as a payload")
    // Pages and notifications are read only where the general reader reads them.
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
      guard !seen.contains(.notification_type) else { throw GiveUp() }
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
    guard anyKind else { throw GiveUp() }
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
          entry: try payload.entry(), type: payload.type.take(),
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
}
