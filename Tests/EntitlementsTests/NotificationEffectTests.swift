import Testing

@testable import Entitlements

/// Each v2 notification type that is evidence, folded into a small realistic history as a
/// backend receives it: three monthly renewals of one subscription, their renewal info, then the
/// notification (its transaction and renewal info as JWS). Each row asserts the effect SPEC §5
/// and §10 give it; without the notification, or with it read as carrying nothing, the row
/// fails.
@Suite("What each v2 notification type does to a history")
struct NotificationEffectTests {
  static let day: Int64 = 86_400_000
  /// The first purchase; the three months end at ``expiry``.
  static let start: Int64 = 1_750_000_000_000
  static let expiry = start + 90 * day
  static let subscription = "2000000000000100"
  static let monthly = "com.example.monthly"
  static let yearly = "com.example.yearly"
  static let basic = "com.example.basic.monthly"
  static let lifetime = "com.example.lifetime"

  static let catalog = ProductCatalog([
    CatalogProduct(
      id: ProductID(monthly), type: .autoRenewable, duration: CalendarPeriod(1, .month),
      entitlement: "premium"),
    CatalogProduct(
      id: ProductID(yearly), type: .autoRenewable, duration: CalendarPeriod(1, .year),
      entitlement: "premium"),
    CatalogProduct(
      id: ProductID(basic), type: .autoRenewable, duration: CalendarPeriod(1, .month),
      entitlement: "premium"),
    CatalogProduct(id: ProductID(lifetime), type: .nonConsumable, entitlement: "premium"),
  ])

  /// A signed transaction (a JWS; reading does not verify), Apple's fields around `fields`.
  static func transaction(
    _ id: Int, product: String = monthly, purchase: Int64, expires: Int64?, signed: Int64? = nil,
    type: String = "Auto-Renewable Subscription", original: String = subscription,
    fields: String = ""
  ) -> String {
    APIResponseTests.jws(
      """
      {"transactionId": "\(id)", "originalTransactionId": "\(original)",
       "webOrderLineItemId": "\(id + 300)", "bundleId": "com.example", "productId": "\(product)",
       "subscriptionGroupIdentifier": "21000000", "purchaseDate": \(purchase),
       "originalPurchaseDate": \(start), \(expires.map { "\"expiresDate\": \($0)," } ?? "")
       "quantity": 1, "type": "\(type)", "inAppOwnershipType": "PURCHASED",
       "signedDate": \(signed ?? purchase), "environment": "Production"\(fields)}
      """)
  }

  /// Renewal `month` (0, 1, 2) of the subscription.
  static func month(_ month: Int) -> String {
    let purchase = start + Int64(month) * 30 * day
    return transaction(
      2_000_000_000_000_200 + month, purchase: purchase, expires: purchase + 30 * day)
  }

  /// Signed renewal info of the subscription.
  static func renewal(
    signed: Int64, autoRenew: Bool = true, product: String = monthly, retry: Bool = false,
    grace: Int64? = nil, priceIncrease: Int? = nil
  ) -> String {
    APIResponseTests.jws(
      """
      {"originalTransactionId": "\(subscription)", "autoRenewProductId": "\(product)",
       "productId": "\(monthly)", "autoRenewStatus": \(autoRenew ? 1 : 0),
       "isInBillingRetryPeriod": \(retry), \(grace.map { "\"gracePeriodExpiresDate\": \($0)," } ?? "")
       \(priceIncrease.map { "\"priceIncreaseStatus\": \($0)," } ?? "")
       "signedDate": \(signed), "environment": "Production",
       "recentSubscriptionStartDate": \(start), "renewalDate": \(expiry)}
      """)
  }

  /// A decoded v2 notification carrying a transaction and renewal info.
  static func notification(
    _ type: String, _ subtype: String? = nil, signed: Int64, status: Int,
    transaction: String? = nil, renewal: String? = nil
  ) -> String {
    """
    {"notificationType": "\(type)", \(subtype.map { "\"subtype\": \"\($0)\"," } ?? "")
     "notificationUUID": "\(type)-\(signed)", "version": "2.0", "signedDate": \(signed),
     "data": {"appAppleId": 1234, "bundleId": "com.example", "environment": "Production",
       "status": \(status)\(transaction.map { #", "signedTransactionInfo": "\#($0)""# } ?? "")
       \(renewal.map { #", "signedRenewalInfo": "\#($0)""# } ?? "")}}
    """
  }

  /// What a row asserts about the evaluation of its documents.
  enum Effect: Sendable, CustomStringConvertible {
    case state(EntitlementState)
    case reason(ExpiryReason)
    /// The cause of the history's one lapse.
    case lapseCause(LapseCause)
    case billingIssueDetectedAt(Int64?)
    case unsubscribeDetectedAt(Int64?)
    case gracePeriodEndsAt(Int64)
    case expiresAt(Int64)
    case productID(String)
    case nextProductID(String)
    case offerCodeRefName(String)
    /// The entry of this transaction is marked upgraded.
    case upgraded(Int)

    var description: String {
      switch self {
      case .state(let state): "state \(state)"
      case .reason(let reason): "reason \(reason)"
      case .lapseCause(let cause): "lapse cause \(cause)"
      case .billingIssueDetectedAt(let at): "billingIssueDetectedAt \(at.map(String.init) ?? "nil")"
      case .unsubscribeDetectedAt(let at): "unsubscribeDetectedAt \(at.map(String.init) ?? "nil")"
      case .gracePeriodEndsAt(let at): "grace period ends \(at)"
      case .expiresAt(let at): "expires \(at)"
      case .productID(let id): "product \(id)"
      case .nextProductID(let id): "next product \(id)"
      case .offerCodeRefName(let name): "offer code \(name)"
      case .upgraded(let id): "\(id) upgraded"
      }
    }
  }

  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    /// How many of the three months are in the history (an upgrade ends the second).
    var months = 3
    /// Whether the row's last notification only confirms what the documents before it say (a
    /// `GRACE_PERIOD_EXPIRED` after the `DID_FAIL_TO_RENEW`): then its effects hold without it
    /// too, and the row checks that it changes none of them.
    var confirms = false
    /// The notification and what comes with it (other notifications, transactions).
    let documents: [String]
    /// When the status is asked.
    let at: Int64
    let effects: [Effect]
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "DID_FAIL_TO_RENEW/GRACE_PERIOD: in grace, entitled; the billing issue detected",
      documents: [
        notification(
          "DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: expiry + 3_600_000, status: 4,
          transaction: month(2),
          renewal: renewal(signed: expiry + 3_600_000, retry: true, grace: expiry + 16 * day))
      ],
      at: expiry + 3 * day,
      effects: [
        .state(.gracePeriod), .gracePeriodEndsAt(expiry + 16 * day),
        .billingIssueDetectedAt(expiry + 3_600_000), .unsubscribeDetectedAt(nil),
      ]),
    Row(
      name: "DID_FAIL_TO_RENEW/GRACE_PERIOD: after the grace period, billing retry",
      documents: [
        notification(
          "DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: expiry + 3_600_000, status: 4,
          transaction: month(2),
          renewal: renewal(signed: expiry + 3_600_000, retry: true, grace: expiry + 16 * day))
      ],
      at: expiry + 17 * day,
      effects: [.state(.billingRetry), .billingIssueDetectedAt(expiry + 3_600_000)]),
    Row(
      name: "GRACE_PERIOD_EXPIRED: billing retry goes on; the issue dates from the failure",
      confirms: true,
      documents: [
        notification(
          "DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: expiry + 3_600_000, status: 4,
          transaction: month(2),
          renewal: renewal(signed: expiry + 3_600_000, retry: true, grace: expiry + 16 * day)),
        notification(
          "GRACE_PERIOD_EXPIRED", signed: expiry + 16 * day, status: 3, transaction: month(2),
          renewal: renewal(signed: expiry + 16 * day, retry: true, grace: expiry + 16 * day)),
      ],
      at: expiry + 20 * day,
      effects: [.state(.billingRetry), .billingIssueDetectedAt(expiry + 3_600_000)]),
    Row(
      name: "GRACE_PERIOD_EXPIRED alone, no renewal info: its type says billing retry",
      documents: [
        notification(
          "GRACE_PERIOD_EXPIRED", signed: expiry + 16 * day, status: 3, transaction: month(2))
      ],
      at: expiry + 20 * day,
      effects: [.state(.billingRetry), .billingIssueDetectedAt(expiry + 16 * day)]),
    Row(
      name: "REFUND_REVERSED: the refunded renewal covers again",
      documents: [
        notification(
          "REFUND", signed: start + 70 * day, status: 5,
          transaction: transaction(
            2_000_000_000_000_202, purchase: start + 60 * day, expires: expiry,
            signed: start + 70 * day,
            fields: #", "revocationDate": \#(start + 70 * day), "revocationReason": 0"#)),
        notification(
          "REFUND_REVERSED", signed: start + 75 * day, status: 1,
          transaction: transaction(
            2_000_000_000_000_202, purchase: start + 60 * day, expires: expiry,
            signed: start + 75 * day)),
      ],
      at: start + 80 * day,
      effects: [.state(.active), .expiresAt(expiry)]),
    Row(
      name: "REFUND (the reversal's counterpart): revoked",
      documents: [
        notification(
          "REFUND", signed: start + 70 * day, status: 5,
          transaction: transaction(
            2_000_000_000_000_202, purchase: start + 60 * day, expires: expiry,
            signed: start + 70 * day,
            fields: #", "revocationDate": \#(start + 70 * day), "revocationReason": 0"#))
      ],
      at: start + 80 * day,
      effects: [.state(.revoked), .reason(.refund)]),
    Row(
      name: "REVOKE: Family Sharing access ends, revoked",
      documents: [
        notification(
          "REVOKE", signed: start + 70 * day, status: 5,
          transaction: transaction(
            2_000_000_000_000_202, purchase: start + 60 * day, expires: expiry,
            signed: start + 70 * day, fields: #", "revocationDate": \#(start + 70 * day)"#))
      ],
      at: start + 71 * day,
      effects: [.state(.revoked), .reason(.refund)]),
    Row(
      name: "RENEWAL_EXTENDED: the renewal date moves, access goes on",
      documents: [
        notification(
          "RENEWAL_EXTENDED", signed: start + 85 * day, status: 1,
          transaction: transaction(
            2_000_000_000_000_202, purchase: start + 60 * day, expires: expiry + 7 * day,
            signed: start + 85 * day),
          renewal: renewal(signed: start + 85 * day))
      ],
      at: expiry + 3 * day,
      effects: [.state(.active), .expiresAt(expiry + 7 * day)]),
    Row(
      name: "OFFER_REDEEMED: an offer code resubscribes after a lapse",
      documents: [
        notification(
          "OFFER_REDEEMED", signed: expiry + 20 * day, status: 1,
          transaction: transaction(
            2_000_000_000_000_203, purchase: expiry + 20 * day, expires: expiry + 50 * day,
            fields:
              #", "offerType": 3, "offerIdentifier": "SPRING", "offerDiscountType": "PAY_UP_FRONT""#
          ),
          renewal: renewal(signed: expiry + 20 * day))
      ],
      at: expiry + 25 * day,
      effects: [.state(.active), .offerCodeRefName("SPRING"), .expiresAt(expiry + 50 * day)]),
    Row(
      name: "ONE_TIME_CHARGE: a non-consumable bought once entitles for good",
      documents: [
        notification(
          "ONE_TIME_CHARGE", signed: expiry + 20 * day, status: 1,
          transaction: transaction(
            2_000_000_000_000_900, product: lifetime, purchase: expiry + 20 * day, expires: nil,
            type: "Non-Consumable", original: "2000000000000900"))
      ],
      at: expiry + 400 * day,
      effects: [.state(.active), .productID(lifetime)]),
    Row(
      name: "PRICE_INCREASE/PENDING: a lapse after it is the price increase's",
      documents: [
        notification(
          "PRICE_INCREASE", "PENDING", signed: start + 75 * day, status: 1,
          transaction: month(2), renewal: renewal(signed: start + 75 * day, priceIncrease: 0)),
        transaction(
          2_000_000_000_000_203, purchase: expiry + 20 * day, expires: expiry + 50 * day),
      ],
      at: expiry + 5 * day,
      effects: [.state(.expired), .lapseCause(.priceIncrease), .reason(.priceIncrease)]),
    Row(
      name: "PRICE_INCREASE/PENDING, its renewal info without priceIncreaseStatus",
      documents: [
        notification(
          "PRICE_INCREASE", "PENDING", signed: start + 75 * day, status: 1,
          transaction: month(2), renewal: renewal(signed: start + 75 * day)),
        transaction(
          2_000_000_000_000_203, purchase: expiry + 20 * day, expires: expiry + 50 * day),
      ],
      at: expiry + 5 * day,
      effects: [.state(.expired), .lapseCause(.priceIncrease)]),
    Row(
      name: "PRICE_INCREASE/ACCEPTED: consent given, the lapse is no price increase's",
      documents: [
        notification(
          "PRICE_INCREASE", "PENDING", signed: start + 70 * day, status: 1,
          transaction: month(2), renewal: renewal(signed: start + 70 * day, priceIncrease: 0)),
        notification(
          "PRICE_INCREASE", "ACCEPTED", signed: start + 75 * day, status: 1,
          transaction: month(2), renewal: renewal(signed: start + 75 * day, priceIncrease: 1)),
        transaction(
          2_000_000_000_000_203, purchase: expiry + 20 * day, expires: expiry + 50 * day),
      ],
      at: expiry + 5 * day,
      effects: [.state(.expired), .lapseCause(.unknown), .reason(.unknown)]),
    Row(
      name: "DID_CHANGE_RENEWAL_PREF/UPGRADE: the old plan ends where the new one begins",
      months: 2,
      documents: [
        notification(
          "DID_CHANGE_RENEWAL_PREF", "UPGRADE", signed: start + 40 * day, status: 1,
          transaction: transaction(
            2_000_000_000_000_250, product: yearly, purchase: start + 40 * day,
            expires: start + 405 * day),
          renewal: renewal(signed: start + 40 * day, product: yearly))
      ],
      at: start + 45 * day,
      effects: [.state(.active), .productID(yearly), .upgraded(2_000_000_000_000_201)]),
    Row(
      name: "DID_CHANGE_RENEWAL_PREF/DOWNGRADE: the next renewal is the cheaper plan",
      documents: [
        notification(
          "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", signed: start + 70 * day, status: 1,
          transaction: month(2), renewal: renewal(signed: start + 70 * day, product: basic))
      ],
      at: start + 75 * day,
      effects: [.state(.active), .productID(monthly), .nextProductID(basic)]),
    Row(
      name: "DID_CHANGE_RENEWAL_PREF without subtype: the downgrade is cancelled",
      documents: [
        notification(
          "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", signed: start + 70 * day, status: 1,
          transaction: month(2), renewal: renewal(signed: start + 70 * day, product: basic)),
        notification(
          "DID_CHANGE_RENEWAL_PREF", signed: start + 72 * day, status: 1,
          transaction: month(2), renewal: renewal(signed: start + 72 * day)),
      ],
      at: start + 75 * day,
      effects: [.state(.active), .nextProductID(monthly)]),
  ]

  /// The history every row starts from: its months and renewal info signed at the last
  /// renewal (auto-renew on, not in billing retry).
  static func history(months: Int) -> [String] {
    (0..<months).map(month) + [renewal(signed: start + Int64(months - 1) * 30 * day)]
  }

  /// The evaluation of the history and `documents`, and the status at `at`.
  static func evaluate(_ documents: [String], months: Int, at: Int64) throws -> (
    EntitlementEvaluation, EntitlementStatus, PurchaseHistory
  ) {
    var record = SubscriberRecord()
    for text in Self.history(months: months) + documents {
      let document = try DocumentReader.readUnverified(Array(text.utf8))
      #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
      record.fold(document)
    }
    let history = record.history
    let evaluation = try #require(
      Evaluator(catalog: Self.catalog).evaluate(history).entitlements.first)
    return (evaluation, evaluation.status(at: Instant(millisecondsSince1970: at)), history)
  }

  /// Whether `effect` holds; what was found instead when it does not.
  static func check(
    _ effect: Effect, _ evaluation: EntitlementEvaluation, _ status: EntitlementStatus,
    _ history: PurchaseHistory
  ) -> String? {
    let instant = { (milliseconds: Int64?) in milliseconds.map(Instant.init(millisecondsSince1970:))
    }
    var active: ActiveStatus? {
      if case .active(let active) = status { return active }
      return nil
    }
    let holds: Bool
    switch effect {
    case .state(let state): holds = status.state == state
    case .reason(let reason): holds = status.reason == reason
    case .lapseCause(let cause): holds = evaluation.lapses.map(\.cause) == [cause]
    case .billingIssueDetectedAt(let at): holds = evaluation.billingIssueDetectedAt == instant(at)
    case .unsubscribeDetectedAt(let at): holds = evaluation.unsubscribeDetectedAt == instant(at)
    case .gracePeriodEndsAt(let at): holds = status.gracePeriodEndsAt == instant(at)
    case .expiresAt(let at): holds = status.expiresAt == instant(at)
    case .productID(let id): holds = active?.productID == ProductID(id)
    case .nextProductID(let id): holds = active?.nextProductID == ProductID(id)
    case .offerCodeRefName(let name):
      holds =
        history.entries.first { $0.transactionID == active?.transactionID }?.offerCodeRefName
        == name
    case .upgraded(let id):
      holds =
        history.entries.first { $0.transactionID == TransactionID(String(id)) }?.isUpgraded
        == true
    }
    return holds
      ? nil
      : "\(effect): not so; status \(status), lapses \(evaluation.lapses.map(\.cause)), "
        + "billing issue \(String(describing: evaluation.billingIssueDetectedAt)), "
        + "unsubscribe \(String(describing: evaluation.unsubscribeDetectedAt))"
  }

  @Test(arguments: rows)
  func theNotificationHasItsEffect(_ row: Row) throws {
    let (evaluation, status, history) = try Self.evaluate(
      row.documents, months: row.months, at: row.at)
    for effect in row.effects {
      let failure = Self.check(effect, evaluation, status, history)
      #expect(failure == nil, "\(failure ?? "")")
    }
  }

  /// Each row fails without its notification (the last one of the row; the others and a
  /// resubscription's transaction stay): the history alone misses at least one effect, so no
  /// row passes by what the history already says. A confirming notification changes nothing.
  @Test(arguments: rows)
  func withoutTheNotificationAnEffectIsMissing(_ row: Row) throws {
    let last = try #require(row.documents.lastIndex { $0.contains("notificationType") })
    var documents = row.documents
    documents.remove(at: last)
    let (evaluation, status, history) = try Self.evaluate(documents, months: row.months, at: row.at)
    let missing = row.effects.filter { Self.check($0, evaluation, status, history) != nil }
    #expect(missing.isEmpty == row.confirms, "missing without it: \(missing)")
  }
}
