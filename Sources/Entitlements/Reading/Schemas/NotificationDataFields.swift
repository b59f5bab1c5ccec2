/// A v2 notification's `data` (Apple's `data`): Apple's status and the subscription's signed
/// transaction and renewal info.
struct NotificationDataFields: AppleFields {
  var status: Int?
  var environment: StoreEnvironment?
  var transaction: AppStoreTransaction?
  var renewal: AppStoreRenewalInfo?

  static let fields: [Field<Self>] = [
    .integer("status", \.status),
    .environment("environment", \.environment),
    .signedTransaction("signedTransactionInfo", \.transaction),
    .signedRenewalInfo("signedRenewalInfo", \.renewal),
    .ignored("appAppleId", "bundleId", "bundleVersion", "consumptionRequestReason"),
  ]
}

/// What a document's `data` holds.
enum DataMember: Sendable {
  /// No `data`.
  case absent
  /// An object: a v2 notification's.
  case notification(NotificationDataFields)
  /// An array: Get All Subscription Statuses' groups, their subscriptions in document order.
  case groups([SubscriptionStatusesResponse.LastTransaction])
  /// Anything else (reported).
  case other

  /// Whether it is an array (a status response's).
  var isArray: Bool {
    if case .groups = self { return true }
    return false
  }
}
