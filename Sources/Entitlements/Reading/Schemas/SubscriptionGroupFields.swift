/// A subscription group of Get All Subscription Statuses (Apple's
/// `SubscriptionGroupIdentifierItem`).
struct SubscriptionGroupFields: AppleFields {
  var subscriptionGroupIdentifier: String?
  var lastTransactions: [SubscriptionStatusesResponse.LastTransaction]?

  static let fields: [Field<Self>] = [
    .string("subscriptionGroupIdentifier", \.subscriptionGroupIdentifier),
    .lastTransactions("lastTransactions", \.lastTransactions),
  ]
}

/// One subscription of a group (Apple's `LastTransactionsItem`).
struct LastTransactionFields: AppleFields {
  var originalTransactionID: String?
  var status: Int?
  var transaction: AppStoreTransaction?
  var renewal: AppStoreRenewalInfo?

  static let fields: [Field<Self>] = [
    .string("originalTransactionId", \.originalTransactionID),
    .integer("status", \.status),
    .signedTransaction("signedTransactionInfo", \.transaction),
    .signedRenewalInfo("signedRenewalInfo", \.renewal),
  ]

  /// The subscription read.
  var lastTransaction: SubscriptionStatusesResponse.LastTransaction {
    SubscriptionStatusesResponse.LastTransaction(
      subscriptionGroupIdentifier: nil,
      originalTransactionID: originalTransactionID.map(OriginalTransactionID.init(rawValue:)),
      rawStatus: status, transaction: transaction, renewal: renewal)
  }
}

extension SchemaReader {
  /// The subscriptions of the group at ``index``, each named with the group; none, reported,
  /// when the group has no array of them.
  mutating func subscriptionGroup() throws(Stop)
    -> [SubscriptionStatusesResponse.LastTransaction]
  {
    var fields = SubscriptionGroupFields()
    _ = try read(schemas.subscriptionGroup, into: &fields)
    guard var transactions = fields.lastTransactions else {
      report(
        "expected an array of the group's subscriptions",
        at: key(of: \SubscriptionGroupFields.lastTransactions, in: schemas.subscriptionGroup))
      return []
    }
    for position in transactions.indices {
      transactions[position].subscriptionGroupIdentifier = fields.subscriptionGroupIdentifier
    }
    return transactions
  }
}
