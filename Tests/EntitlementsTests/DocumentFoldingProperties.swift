import EntitlementsTesting
import Testing

@testable import Entitlements

/// Folding is commutative and idempotent across every kind of document a backend stores
/// (SPEC §10): a seeded subscriber's Get Transaction History pages (overlapping), a Get All
/// Subscription Statuses response, a Get Notification History page, v2 notifications (decoded,
/// POST bodies, bare JWS) and a verifyReceipt response, folded shuffled and with repetitions,
/// give the record, history and evaluation of folding them once in order. A failure names its
/// seed; each seed prints what it folded.
@Suite("DocumentFoldingProperties")
struct DocumentFoldingProperties {
  static let day = NotificationEffectTests.day
  static let start = NotificationEffectTests.start
  static let monthly = NotificationEffectTests.monthly

  /// One purchase of the subscription.
  struct Purchase {
    var id: Int
    var purchase: Int64
    var expires: Int64
    var refunded: Int64?
  }

  /// The documents of subscriber `seed`: 4 to 9 monthly purchases, some after a gap, one
  /// perhaps refunded, auto-renew on or off at the end.
  static func documents(seed: UInt64) -> [String] {
    var random = SeededRandom(seed: seed)
    var purchases: [Purchase] = []
    var cursor = start
    for month in 0..<random.int(in: 4...9) {
      if month > 0, random.chance(0.25) { cursor += random.int64(in: 1...20) * day }
      purchases.append(
        Purchase(id: 2_000_000_000_000_200 + month, purchase: cursor, expires: cursor + 30 * day))
      cursor += 30 * day
    }
    if random.chance(0.4) {
      let month = random.int(in: 0...(purchases.count - 1))
      purchases[month].refunded = purchases[month].purchase + 3 * day
    }
    let last = purchases[purchases.count - 1]
    let autoRenew = random.chance(0.5)
    func transaction(_ purchase: Purchase, refunded: Bool = false) -> String {
      NotificationEffectTests.transaction(
        purchase.id, purchase: purchase.purchase, expires: purchase.expires,
        signed: refunded ? purchase.refunded : purchase.purchase,
        fields: refunded
          ? #", "revocationDate": \#(purchase.refunded ?? 0), "revocationReason": 0"# : "")
    }
    let renewal = NotificationEffectTests.renewal(
      signed: last.purchase + 1_000, autoRenew: autoRenew)
    var documents: [String] = []
    // Get Transaction History: pages of three, each overlapping the next by one.
    for first in stride(from: 0, to: purchases.count, by: 2) {
      let page = purchases[first..<min(first + 3, purchases.count)]
      let signed = page.map { "\"\(transaction($0))\"" }.joined(separator: ", ")
      documents.append(
        """
        {"revision": "r\(first)", "bundleId": "com.example", "appAppleId": 1234,
         "environment": "Production", "hasMore": \(first + 3 < purchases.count),
         "signedTransactions": [\(signed)]}
        """)
    }
    // Get All Subscription Statuses.
    documents.append(
      """
      {"environment": "Production", "bundleId": "com.example", "data": [
        {"subscriptionGroupIdentifier": "21000000", "lastTransactions": [
          {"originalTransactionId": "\(NotificationEffectTests.subscription)", "status": 1,
           "signedTransactionInfo": "\(transaction(last))", "signedRenewalInfo": "\(renewal)"}]}]}
      """)
    // The notifications Apple sent: a purchase, each renewal, a refund, an expiry.
    var notifications = purchases.enumerated().map { month, purchase in
      NotificationEffectTests.notification(
        month == 0 ? "SUBSCRIBED" : "DID_RENEW", month == 0 ? "INITIAL_BUY" : nil,
        signed: purchase.purchase + 500, status: 1, transaction: transaction(purchase),
        renewal: NotificationEffectTests.renewal(signed: purchase.purchase + 500))
    }
    if let refunded = purchases.first(where: { $0.refunded != nil }) {
      notifications.append(
        NotificationEffectTests.notification(
          "REFUND", signed: refunded.refunded ?? 0, status: 5,
          transaction: transaction(refunded, refunded: true)))
      // Now and then the refund reversed two days later (in a page with it, or apart).
      if random.chance(0.5) {
        let reversedAt = (refunded.refunded ?? 0) + 2 * day
        notifications.append(
          NotificationEffectTests.notification(
            "REFUND_REVERSED", signed: reversedAt, status: 1,
            transaction: NotificationEffectTests.transaction(
              refunded.id, purchase: refunded.purchase, expires: refunded.expires,
              signed: reversedAt)))
      }
    }
    if !autoRenew {
      notifications.append(
        NotificationEffectTests.notification(
          "EXPIRED", "VOLUNTARY", signed: last.expires + 1_000, status: 2,
          transaction: transaction(last), renewal: renewal))
    }
    // Every other one in a Get Notification History page, the others one by one, each in a
    // stored form of its own.
    let paged = notifications.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    let items = paged.map { #"{"signedPayload": "\#(APIResponseTests.jws($0))"}"# }
    documents.append(
      #"{"hasMore": false, "notificationHistory": [\#(items.joined(separator: ", "))]}"#)
    for (index, notification) in notifications.enumerated() where index % 2 == 1 {
      switch random.int(in: 0...2) {
      case 0: documents.append(notification)
      case 1: documents.append(#"{"signedPayload": "\#(APIResponseTests.jws(notification))"}"#)
      default: documents.append(APIResponseTests.jws(notification))
      }
    }
    // A verifyReceipt response made after the last renewal: every purchase, undated renewal
    // info.
    let entries = purchases.map { purchase in
      """
      {"product_id": "\(monthly)", "transaction_id": "\(purchase.id)",
       "original_transaction_id": "\(NotificationEffectTests.subscription)",
       "web_order_line_item_id": "\(purchase.id + 300)",
       "purchase_date_ms": "\(purchase.purchase)", "expires_date_ms": "\(purchase.expires)"\(
         purchase.refunded.map { #", "cancellation_date_ms": "\#($0)", "cancellation_reason": "0""# }
           ?? "")}
      """
    }
    documents.append(
      """
      {"status": 0, "environment": "Production",
       "receipt": {"receipt_creation_date_ms": "\(last.purchase + 2_000)", "in_app": []},
       "latest_receipt_info": [\(entries.reversed().joined(separator: ", "))],
       "pending_renewal_info": [{"original_transaction_id": "\(NotificationEffectTests.subscription)",
         "product_id": "\(monthly)", "auto_renew_product_id": "\(monthly)",
         "auto_renew_status": "\(autoRenew ? 1 : 0)"}]}
      """)
    return documents
  }

  @Test(arguments: 0..<40 as Range<UInt64>)
  func foldingInAnyOrderWithRepetitionsGivesOneAnswer(seed: UInt64) throws {
    let documents = try Self.documents(seed: seed).map { text in
      let document = try DocumentReader.readUnverified(Array(text.utf8))
      #expect(document.diagnostics.isEmpty, "seed \(seed): \(document.diagnostics)")
      return document
    }
    let evaluator = Evaluator(catalog: NotificationEffectTests.catalog)
    var reference = SubscriberRecord()
    for document in documents { reference.fold(document) }
    let evaluation = evaluator.evaluate(reference.history)
    let kinds = Set(documents.map { "\(type(of: $0.document))" })
    print(
      "seed \(seed): \(documents.count) documents of \(kinds.count) kinds, "
        + "\(reference.history.entries.count) entries, "
        + "\(evaluation.entitlements.first?.lapses.count ?? 0) lapses")
    // Pages of three kinds, notifications (decoded, POST bodies, bare JWS), verifyReceipt.
    #expect(kinds.count == 5, "seed \(seed): \(kinds)")
    var random = SeededRandom(seed: seed)
    for round in 0..<4 {
      let repeated = (0..<random.int(in: 0...documents.count)).map { _ in
        documents[random.int(in: 0...(documents.count - 1))]
      }
      var record = SubscriberRecord()
      for document in random.shuffled(documents + repeated) { record.fold(document) }
      #expect(record == reference, "seed \(seed) round \(round)")
      #expect(record.history == reference.history, "seed \(seed) round \(round)")
      #expect(evaluator.evaluate(record.history) == evaluation, "seed \(seed) round \(round)")
    }
    // As known at an instant inside the history: the same in any order too.
    let knownAt = Instant(
      millisecondsSince1970: NotificationEffectTests.start + random.int64(in: 0...300) * Self.day)
    var then = SubscriberRecord(knownAt: knownAt)
    for document in documents { then.fold(document) }
    for round in 0..<2 {
      let repeated = (0..<random.int(in: 0...documents.count)).map { _ in
        documents[random.int(in: 0...(documents.count - 1))]
      }
      var record = SubscriberRecord(knownAt: knownAt)
      for document in random.shuffled(documents + repeated) { record.fold(document) }
      #expect(record == then, "seed \(seed) known at \(knownAt), round \(round)")
    }
    // Nothing signed after the instant is in it.
    #expect(then.history.notifications.allSatisfy { $0.signedDate <= knownAt })
    #expect(then.history.entries.allSatisfy { ($0.purchaseDate ?? .distantPast) <= knownAt })
  }

  /// A record reset (as `entitlements evaluate` reuses one per thread) is a new record: equal
  /// to one, and folding the next subscriber's documents into it gives what folding them into
  /// a new record gives, evidence of every kind included.
  @Test(arguments: 0..<4 as Range<UInt64>)
  func aResetRecordIsANewOne(seed: UInt64) throws {
    func read(_ seed: UInt64) throws -> [AppStoreDocument] {
      try Self.documents(seed: seed).map { try DocumentReader.readUnverified(Array($0.utf8)) }
    }
    var reused = SubscriberRecord()
    for document in try read(seed) { reused.fold(document) }
    #expect(reused != SubscriberRecord())
    reused.reset()
    #expect(reused == SubscriberRecord())
    var fresh = SubscriberRecord()
    for document in try read(seed + 100) {
      reused.fold(document)
      fresh.fold(document)
    }
    #expect(reused == fresh)
    #expect(reused.history == fresh.history)
  }

  /// Nothing of a subscriber is left in a reset record for the next: not the environment of
  /// its newest document (the next subscriber's documents name none), not its reading
  /// diagnostics, not its entries, however many.
  @Test func aResetRecordKeepsNothingOfTheSubscriberBefore() throws {
    var record = SubscriberRecord()
    let sandbox =
      #"{"transactionId": "2000000000000001", "productId": "p", "purchaseDate": 1, "signedDate": 9000000000000, "environment": "Sandbox"}"#
    let noted =
      #"{"transactionId": "2000000000000002", "productId": "p", "purchaseDate": 2, "quantity": "many"}"#
    record.fold(try DocumentReader.readUnverified(Array(sandbox.utf8)))
    record.fold(try DocumentReader.readUnverified(Array(noted.utf8)))
    for number in 3..<(SubscriberRecord.entriesKept + 10) {
      record.fold(
        try DocumentReader.readUnverified(
          Array(#"{"transactionId": "\#(number)", "productId": "p", "purchaseDate": 3}"#.utf8)))
    }
    #expect(record.environment == .sandbox && !record.readingDiagnostics.isEmpty)
    for _ in 0..<2 {  // the buffers of a long history given back, then those of a short one kept
      record.reset()
      #expect(record == SubscriberRecord())
      #expect(record.environment == nil && record.readingDiagnostics.isEmpty)
      #expect(record.history.entries.isEmpty)
      let next = #"{"transactionId": "7", "productId": "q", "purchaseDate": 5}"#
      record.fold(try DocumentReader.readUnverified(Array(next.utf8)))
      #expect(record.environment == nil && record.readingDiagnostics.isEmpty)
      #expect(record.history.entries.map(\.productID.rawValue) == ["q"])
    }
  }
}
