/// Every schema of Apple's documents as a table the reader reads by, and the one table of
/// every member name they have; built once. It holds no reference (its tables are addresses,
/// its predictions 256 bytes): the reader keeps a copy, which costs no reference counting.
///
/// Each schema is a list of fields in a file of this folder, named after the object it
/// describes (``ReceiptEntryFields``, ``DecodedPayloadFields``, ``DocumentFields``, …): adding
/// one of Apple's fields is one entry there, plus the property it is read into.
struct Schemas: Sendable {
  static let shared = Schemas()

  /// Every member name of every schema.
  let keys: KeyTable
  /// The top of every kind of document but a decoded payload.
  let document: Table
  /// The top of a v2 notification alone (`DocumentFields`' members of that kind): a
  /// notification known to be one, a history's.
  let notification: Table
  /// A decoded transaction or renewal info (the App Store Server API's, StoreKit 2's).
  let payload: Table
  /// A decoded payload's `commitmentInfo`.
  let commitment: Table
  /// verifyReceipt's entries.
  let receiptEntry: Table
  /// verifyReceipt's renewal infos (and the renewal fields at the top of old documents).
  let pendingRenewal: Table
  /// verifyReceipt's `receipt`.
  let receipt: Table
  /// An iOS 6 `receipt`, itself one transaction: its `in_app` is not read.
  let receiptOfOneTransaction: Table
  /// A v1 notification's `unified_receipt`.
  let unifiedReceipt: Table
  /// A v2 notification's `data`.
  let notificationData: Table
  /// Get All Subscription Statuses: a group, and one of its subscriptions.
  let subscriptionGroup: Table
  let lastTransaction: Table
  /// Get Notification History: one item.
  let notificationHistoryItem: Table
  /// The keys and members the builders ask about.
  let markers: Markers
  /// The predictions a reader starts with: the order of the schemas, most read first.
  let followers: Followers

  /// The keys that tell the kinds of document apart, and members whose presence matters.
  struct Markers: Sendable {
    let signedPayload, notificationType, notificationTypeV1, signedTransactions: KeyID
    let notificationHistory, data, status, receipt, latestReceiptInfo: KeyID
    let pendingRenewalInfo, transactionID, originalTransactionID: KeyID
    let autoRenewStatus, expirationIntent, appAppleID, originalApplicationVersion: KeyID
    /// A history item's `signedPayload`, and its key.
    let itemPayload: Table.Slot
    let itemPayloadKey: KeyID
  }

  private init() {
    func names<Fields>(_ fields: [Field<Fields>]) -> [String] {
      fields.flatMap { $0.members.map(\.name) }
    }
    let keys = KeyTable(
      names: names(DocumentFields.fields) + names(DecodedPayloadFields.fields)
        + names(ReceiptEntryFields.fields) + names(PendingRenewalFields.fields)
        + names(ReceiptFields.fields) + names(UnifiedReceiptFields.fields)
        + names(NotificationDataFields.fields) + names(SubscriptionGroupFields.fields)
        + names(LastTransactionFields.fields) + names(NotificationHistoryItemFields.fields)
        + names(CommitmentFields.fields))
    self.keys = keys
    document = Table(DocumentFields.fields, keys: keys)
    notification = Table(
      DocumentFields.fields.compactMap { $0.only(.notificationV2) }, keys: keys)
    payload = Table(DecodedPayloadFields.fields, keys: keys, idsAcrossDocuments: true)
    commitment = Table(CommitmentFields.fields, keys: keys)
    receiptEntry = Table(ReceiptEntryFields.fields, keys: keys)
    pendingRenewal = Table(PendingRenewalFields.fields, keys: keys)
    receipt = Table(ReceiptFields.fields, keys: keys)
    receiptOfOneTransaction = Table(ReceiptFields.fieldsOfOneTransaction, keys: keys)
    unifiedReceipt = Table(UnifiedReceiptFields.fields, keys: keys)
    notificationData = Table(NotificationDataFields.fields, keys: keys)
    subscriptionGroup = Table(SubscriptionGroupFields.fields, keys: keys)
    lastTransaction = Table(LastTransactionFields.fields, keys: keys)
    notificationHistoryItem = Table(NotificationHistoryItemFields.fields, keys: keys)
    followers = Followers(orderOf: [
      receiptEntry, pendingRenewal, receipt, payload, document, unifiedReceipt, notificationData,
      subscriptionGroup, lastTransaction, notificationHistoryItem, commitment,
    ])

    func key<Fields>(_ property: PartialKeyPath<Fields>, _ table: Table) -> KeyID {
      let member = table.member(property)
      precondition(member != Table.none, "\(property): no member of its table")
      return table.keys[Int(member)]
    }
    let item = notificationHistoryItem.member(\NotificationHistoryItemFields.notification)
    markers = Markers(
      signedPayload: key(\DocumentFields.signedPayload, document),
      notificationType: key(\DocumentFields.notificationType, document),
      notificationTypeV1: key(\DocumentFields.notificationTypeV1, document),
      signedTransactions: key(\DocumentFields.signedTransactions, document),
      notificationHistory: key(\DocumentFields.notificationHistory, document),
      data: key(\DocumentFields.data, document),
      status: key(\DocumentFields.status, document),
      receipt: key(\DocumentFields.receipt, document),
      latestReceiptInfo: key(\DocumentFields.latestReceiptInfo, document),
      pendingRenewalInfo: key(\DocumentFields.pendingRenewalInfo, document),
      transactionID: key(\DecodedPayloadFields.transactionID, payload),
      originalTransactionID: key(\DecodedPayloadFields.originalTransactionID, payload),
      autoRenewStatus: key(\PendingRenewalFields.autoRenewStatus, pendingRenewal),
      expirationIntent: key(\PendingRenewalFields.expirationIntent, pendingRenewal),
      appAppleID: key(\DocumentFields.appAppleID, document),
      originalApplicationVersion: key(\DocumentFields.originalApplicationVersion, document),
      itemPayload: item, itemPayloadKey: notificationHistoryItem.keys[Int(item)])
  }
}
