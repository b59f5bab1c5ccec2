// Each kind of document, made from the fields read at its top (SPEC §10).

extension SchemaReader {
  /// The diagnostics made since `start`: the document's, or the payload's, named from its
  /// top. A payload inside a document (a page's transaction, a history's notification) names
  /// its fields as it does read alone; the document's own list names them from its top.
  func diagnostics(from start: Int) -> [Diagnostic] {
    guard start < diagnostics.count else { return [] }
    let made = Array(diagnostics[start...])
    guard path.count > 0 else { return made }
    let top = pathText()
    return made.map { $0.named(from: top) }
  }

  /// A v2 notification; a type or subtype this version does not know is reported (the
  /// notification is then read as carrying no evidence, or by its type alone).
  mutating func notificationV2(_ fields: inout DocumentFields, diagnosticsFrom start: Int)
    -> ServerNotification
  {
    var data = NotificationDataFields()
    if case .notification(let read) = fields.data { data = read }
    if let type = fields.notificationType,
      NotificationEvidence.NotificationType(rawValue: type) == nil
    {
      report(
        "\(type) is a notification type this version does not know: read as carrying no "
          + "evidence", at: key(of: \DocumentFields.notificationType, in: schemas.document))
    }
    if let subtype = fields.subtype, NotificationEvidence.Subtype(rawValue: subtype) == nil {
      report(
        "\(subtype) is a subtype this version does not know: the notification is read by its "
          + "type alone", at: key(of: \DocumentFields.subtype, in: schemas.document))
    }
    return ServerNotification(
      rawNotificationType: fields.notificationType.take(), rawSubtype: fields.subtype.take(),
      appleStatus: data.status, environment: data.environment, timestamp: fields.signedDate,
      entries: data.transaction?.entries ?? [], renewalInfo: data.renewal?.renewalInfo ?? [],
      diagnostics: diagnostics(from: start))
  }

  /// A v1 notification: the entries of `unified_receipt` and of the old top-level lists; its
  /// renewal infos, else the renewal fields at its top (about its newest entry's
  /// subscription).
  mutating func notificationV1(
    _ fields: inout DocumentFields, at top: Int, diagnosticsFrom start: Int, keys: KeySet
  ) throws(Stop) -> StatusUpdateNotification {
    let unified = fields.unifiedReceipt
    var entries = unified?.latestReceiptInfo ?? []
    if !fields.latestReceiptInfo.isEmpty { entries += fields.latestReceiptInfo }
    if !fields.latestExpiredReceiptInfo.isEmpty { entries += fields.latestExpiredReceiptInfo }
    var infos = (unified?.pendingRenewalInfo ?? []).compactMap {
      $0.info(defaultSubscription: nil, reader: &self)
    }
    if infos.isEmpty, hasTopRenewalFields(keys),
      let info = try topRenewalInfo(
        at: top,
        defaultSubscription: StatusUpdateNotification.newest(of: entries)?
          .originalTransactionID)
    {
      infos = [info]
    }
    return StatusUpdateNotification(
      rawNotificationType: fields.notificationTypeV1.take(),
      environment: fields.environment ?? unified?.environment, entries: entries,
      renewalInfo: infos, diagnostics: diagnostics(from: start))
  }

  /// A verifyReceipt response. Its renewal infos without a subscription are about the one
  /// subscription of its entries, when they have one (early responses omit it); without
  /// `pending_renewal_info`, the renewal fields at its top (iOS 6) are about its last entry's.
  mutating func verifyReceipt(
    _ fields: inout DocumentFields, at top: Int, diagnosticsFrom start: Int, keys: KeySet
  ) throws(Stop) -> VerifyReceiptResponse {
    var environment = fields.environment
    // Anonymised captures say "Production" at the top while the receipt says
    // "ProductionSandbox": the receipt's own type is the better witness.
    if let type = fields.receipt?.receiptType, type.hasSuffix("Sandbox") {
      environment = .sandbox
    }
    let inApp = fields.receipt?.inApp ?? []
    // One list is usually empty: the other is moved, not copied.
    var latest: [ReceiptEntry] = []
    swap(&latest, &fields.latestReceiptInfo)
    if !fields.latestExpiredReceiptInfo.isEmpty { latest += fields.latestExpiredReceiptInfo }
    var renewalInfo: [RenewalInfo] = []
    if keys.contains(schemas.markers.pendingRenewalInfo) {
      // The one subscription of the entries, asked for only by infos that name none.
      var only: OriginalTransactionID?? = .none
      renewalInfo = fields.pendingRenewalInfo.compactMap { pending in
        if pending.missingSubscription != nil, only == nil {
          let subscriptions = Set((inApp + latest).map(\.originalTransactionID))
          only = .some(subscriptions.count == 1 ? subscriptions.first : nil)
        }
        return pending.info(defaultSubscription: only ?? nil, reader: &self)
      }
    } else if hasTopRenewalFields(keys),
      let info = try topRenewalInfo(
        at: top, defaultSubscription: (latest + inApp).last?.originalTransactionID)
    {
      renewalInfo = [info]
    }
    return VerifyReceiptResponse(
      status: fields.status, environment: environment, inApp: inApp, latestReceiptInfo: latest,
      renewalInfo: renewalInfo, latestReceipt: fields.latestReceipt.take(),
      timestamp: fields.receipt?.timestamp, diagnostics: diagnostics(from: start))
  }

  /// Whether a document's top has renewal fields (iOS 6 responses, v1 notifications).
  private func hasTopRenewalFields(_ keys: KeySet) -> Bool {
    keys.contains(schemas.markers.autoRenewStatus)
      || keys.contains(schemas.markers.expirationIntent)
  }

  /// The renewal info of the fields at the top of the document at `top`, read again for
  /// them; ``index`` is kept.
  private mutating func topRenewalInfo(
    at top: Int, defaultSubscription: OriginalTransactionID?
  ) throws(Stop) -> RenewalInfo? {
    let end = index
    defer { index = end }
    index = top
    return try pendingRenewalInfo().info(defaultSubscription: defaultSubscription, reader: &self)
  }

  /// A page of Get Transaction History. Read with a verifier, only signed data speaks: the
  /// page's own `environment` is not signed, and would set the durations every verified
  /// transaction is evaluated with.
  mutating func transactionHistory(_ fields: inout DocumentFields, diagnosticsFrom start: Int)
    -> TransactionHistoryResponse
  {
    let transactions = fields.signedTransactions
    return TransactionHistoryResponse(
      transactions: transactions, hasMore: fields.hasMore, revision: fields.revision.take(),
      environment: payloads.verifies
        ? transactions.lazy.compactMap(\.environment).first : fields.environment,
      bundleID: fields.bundleID.take(), diagnostics: diagnostics(from: start))
  }

  /// A page of Get Notification History.
  mutating func notificationHistory(_ fields: inout DocumentFields, diagnosticsFrom start: Int)
    -> NotificationHistoryPage
  {
    NotificationHistoryPage(
      notificationPayloads: fields.notificationHistory, hasMore: fields.hasMore,
      paginationToken: fields.paginationToken.take(), diagnostics: diagnostics(from: start))
  }

  /// Get All Subscription Statuses. Read with a verifier, its environment is its signed
  /// payloads' (see ``transactionHistory(_:diagnosticsFrom:)``).
  mutating func subscriptionStatuses(_ fields: inout DocumentFields, diagnosticsFrom start: Int)
    -> SubscriptionStatusesResponse
  {
    var transactions: [SubscriptionStatusesResponse.LastTransaction] = []
    if case .groups(let read) = fields.data { transactions = read }
    return SubscriptionStatusesResponse(
      lastTransactions: transactions,
      environment: payloads.verifies
        ? transactions.lazy.compactMap { $0.transaction?.environment ?? $0.renewal?.environment }
          .first
        : fields.environment,
      bundleID: fields.bundleID.take(), diagnostics: diagnostics(from: start))
  }
}
