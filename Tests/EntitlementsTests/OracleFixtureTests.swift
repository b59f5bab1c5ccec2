import Entitlements
import EntitlementsTesting
import Foundation
import Testing

/// Fixtures that carry someone else's answers: TPInAppReceipt's queries of a real receipt, and
/// Apple's own `data.status` in real v2 notifications.
extension RealDocuments {
  @Suite("Fixtures with an oracle")
  struct OracleFixtureTests {
    @Test func tpInAppReceiptActiveSubscriptionChecks() throws {
      let file =
        "local_receipts/TPInAppReceipt__receipt-sandbox-legacy.DECODED_and_queried_by_TPInAppReceipt.json"
      let value = try JSONValue(parsing: Array(try fixtureData(file)))
      // The capture is the receipt's in_app list beside the queries: read it as the receipt.
      let inApp = try #require(value["in_app"])
      let response = try VerifyReceiptResponse(
        value: .object(["status": .number("0"), "receipt": .object(["in_app": inApp])]))
      #expect(response.entries.count == 187)
      #expect(response.diagnostics.isEmpty)
      let evaluation = Evaluator().evaluate(response.history)
      let subscription = try #require(evaluation.entitlements.first)
      guard case .array(let checks) = value["checks"] else {
        Issue.record("no checks in \(file)")
        return
      }
      #expect(checks.count == 15)
      for check in checks {
        guard case .number(let at) = check["at_ms"], let milliseconds = Int64(at),
          case .string(let product) = check["product_id"],
          case .bool(let active) = check["hasActiveAutoRenewableSubscription"]
        else {
          Issue.record("unreadable check \(check)")
          continue
        }
        let instant = Instant(millisecondsSince1970: milliseconds)
        let covering = subscription.coverage.filter {
          $0.entry.productID.rawValue == product && ($0.interval?.contains(instant) ?? false)
        }
        #expect(!covering.isEmpty == active, "\(product) at \(instant)")
        if case .string(let transaction) = check["active_transaction_id"] {
          #expect(covering.map(\.entry.transactionID.rawValue).contains(transaction))
        }
      }
    }

    struct Event {
      var notification: ServerNotification
      var signedDate: Instant
      var appleStatus: Int
    }

    static func sessionEvents() throws -> [Event] {
      let file = "jws_v2/session-pro-backend__sandbox_v2_notification_sequences.json"
      guard case .array(let events) = try JSONValue(parsing: Array(try fixtureData(file)))["events"]
      else {
        Issue.record("no events in \(file)")
        return []
      }
      return try events.map { event in
        guard case .string(let signed) = event["signedPayload"] else {
          throw ReadError.unrecognizedDocument("event without signedPayload")
        }
        let document = try DocumentReader.readUnverified(Array(signed.utf8))
        let notification = try #require(document.document as? ServerNotification)
        // Our JWS decoding agrees with the capture's own decoding.
        if let decoded = event["decodedTransactionInfo"] {
          #expect(
            notification.entries == (try AppStoreTransaction(unverifiedJSON: decoded.bytes)).entries
          )
        }
        if let decoded = event["decodedRenewalInfo"] {
          #expect(
            notification.renewalInfo
              == (try AppStoreRenewalInfo(unverifiedJSON: decoded.bytes)).renewalInfo)
        }
        return Event(
          notification: notification, signedDate: try #require(notification.timestamp),
          appleStatus: try #require(notification.appleStatus))
      }
      .sorted { $0.signedDate < $1.signedDate }
    }

    /// Apple's `status`: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    static func appleCode(_ status: EntitlementStatus) -> Int {
      switch status.state {
      case .active: 1
      case .expired, .notSubscribed: 2
      case .billingRetry: 3
      case .gracePeriod: 4
      case .revoked: 5
      }
    }

    @Test func ourStatusAtEachSignedDateIsApples() throws {
      let events = try Self.sessionEvents()
      #expect(events.count == 14)
      var record = SubscriberRecord()
      var differences: [String] = []
      for event in events {
        // A backend receives the notifications one by one.
        record.fold(event.notification)
        let evaluation = Evaluator().evaluate(record.history)
        let subscription = try #require(evaluation.entitlements.first)
        let ours = Self.appleCode(subscription.status(at: event.signedDate))
        if ours != event.appleStatus {
          differences.append(
            "\(event.notification.rawNotificationType ?? "?") at \(event.signedDate): "
              + "Apple \(event.appleStatus), ours \(ours)")
        }
      }
      // After the UPGRADE notification the old 3-month transaction ends where pro_sub begins
      // (UpgradeEvidence), so the EXPIRED notification at 05:19:45 agrees with Apple.
      // The one difference, explained: Apple signed the first DID_RENEW ~33 s before the
      // renewal's purchaseDate (MANIFEST), and the transaction it renewed is in no document we
      // have, so at that instant nothing we were given covers the customer. Apple, which knows
      // the previous transaction, says active.
      #expect(
        differences == ["DID_RENEW at 2025-10-01T07:08:38.835Z: Apple 1, ours 2"], "\(differences)")
    }

    @Test func foldingTheSequencesInAnyOrderGivesOneRecord() throws {
      let events = try Self.sessionEvents()
      var reference = SubscriberRecord()
      for event in events { reference.fold(event.notification) }
      var random = SeededRandom(seed: 42)
      for _ in 0..<50 {
        var record = SubscriberRecord()
        var shuffled = events + events.prefix(Int.random(in: 0...events.count, using: &random))
        shuffled.shuffle(using: &random)
        for event in shuffled { record.fold(event.notification) }
        #expect(record == reference)
      }
      // REFUND of an older, already-expired transaction (MANIFEST): that one is revoked.
      let refunded = reference.history.entries.filter(\.isRefunded)
      #expect(refunded.map(\.transactionID) == ["2000001032604840"])
      #expect(refunded.first?.cancellationDate?.millisecondsSince1970 == 1_760_591_999_000)
      // The upgraded transaction ends at the upgrade, as Apple's own copy of it would say.
      let upgraded = reference.history.entries.filter(\.isUpgraded)
      #expect(upgraded.count == 1)
      // Its end is the upgrade: the instant the new plan was bought.
      let upgradedAt = upgraded.first?.cancellationDate
      #expect(
        reference.history.entries.contains {
          $0.purchaseDate == upgradedAt && $0.productID != upgraded.first?.productID
        })
    }
  }
}
