import Foundation
import Testing

@testable import Entitlements

extension RealDocuments {
  /// The App Store Server API's responses built from the real signed payloads of the
  /// fixtures (nothing re-signed: the JWS strings are Apple's, placed in the responses'
  /// shapes), read as each kind of SPEC §10.
  @Suite("API responses built from real signed payloads")
  struct RealAPIResponseTests {
    static let file = "notifications_v2/session-pro-backend/documents.json"

    /// The notifications' `signedPayload` strings, and their nested signed fields.
    static func signed() throws -> (payloads: [String], transactions: [String], renewals: [String])
    {
      var payloads: [String] = []
      var transactions: [String] = []
      var renewals: [String] = []
      guard
        case .array(let items)? = try JSONValue(parsing: Array(try fixtureData(file)))[
          "notifications"]
      else { return ([], [], []) }
      for item in items {
        guard case .string(let compact)? = item["jws"] else { continue }
        payloads.append(compact)
        let payload = try JSONValue(parsing: try JWS.unverifiedPayload(of: compact))
        if case .string(let transaction)? = payload["data"]?["signedTransactionInfo"] {
          transactions.append(transaction)
        }
        if case .string(let renewal)? = payload["data"]?["signedRenewalInfo"] {
          renewals.append(renewal)
        }
      }
      return (payloads, transactions, renewals)
    }

    @Test func aTransactionHistoryOfRealSignedTransactions() throws {
      let (_, transactions, _) = try Self.signed()
      try #require(transactions.count > 5)
      let quoted = transactions.map { "\"\($0)\"" }.joined(separator: ",")
      let body = Array(
        #"{"environment": "Sandbox", "hasMore": false, "revision": "x", "signedTransactions": [\#(quoted)]}"#
          .utf8)
      APIResponseTests.expectReadConsistently(body)
      guard case .transactionHistory(let page) = try DocumentReader.readUnverified(body) else {
        Issue.record("not read as a transaction history")
        return
      }
      #expect(page.transactions.count == transactions.count)
      #expect(page.diagnostics.isEmpty, "\(page.diagnostics)")
      #expect(page.environment == .sandbox)
      // The same transactions as the notifications carry, folded from the page.
      var fromPage = SubscriberRecord()
      fromPage.fold(page)
      var fromNotifications = SubscriberRecord()
      for compact in try Self.signed().payloads {
        fromNotifications.fold(try DocumentReader.readUnverified(Array(compact.utf8)))
      }
      #expect(
        Set(fromPage.history.entries.map(\.transactionID))
          == Set(fromNotifications.history.entries.map(\.transactionID)))
    }

    @Test func subscriptionStatusesOfRealSignedPayloads() throws {
      let (payloads, _, _) = try Self.signed()
      // The newest notification's payloads and its status, as Get All Subscription Statuses
      // would give them.
      let newest = try payloads.map { try JSONValue(parsing: try JWS.unverifiedPayload(of: $0)) }
        .max { ($0["signedDate"]?.numberText ?? "") < ($1["signedDate"]?.numberText ?? "") }
      let data = try #require(newest?["data"])
      guard case .string(let transaction)? = data["signedTransactionInfo"],
        case .string(let renewal)? = data["signedRenewalInfo"],
        case .number(let status)? = data["status"]
      else {
        Issue.record("the newest notification lacks its payloads")
        return
      }
      let body = Array(
        """
        {"environment": "Sandbox", "data": [{"subscriptionGroupIdentifier": "g",
         "lastTransactions": [{"originalTransactionId": "2000001024993299", "status": \(status),
         "signedTransactionInfo": "\(transaction)", "signedRenewalInfo": "\(renewal)"}]}]}
        """.utf8)
      APIResponseTests.expectReadConsistently(body)
      guard case .subscriptionStatuses(let response) = try DocumentReader.readUnverified(body)
      else {
        Issue.record("not read as subscription statuses")
        return
      }
      #expect(response.appleStatuses.map(\.rawStatus) == [Int(status)])
      #expect(response.diagnostics.isEmpty, "\(response.diagnostics)")
    }

    @Test func aNotificationHistoryOfRealSignedPayloads() throws {
      let (payloads, _, _) = try Self.signed()
      let items = payloads.map { #"{"signedPayload": "\#($0)", "sendAttemptResult": "SUCCESS"}"# }
      let body = Array(
        #"{"hasMore": false, "notificationHistory": [\#(items.joined(separator: ","))]}"#.utf8)
      APIResponseTests.expectReadConsistently(body)
      guard case .notificationHistory(let page) = try DocumentReader.readUnverified(body) else {
        Issue.record("not read as a notification history")
        return
      }
      #expect(page.notificationPayloads.count == payloads.count)
      #expect(page.notifications.count == payloads.count)
      #expect(page.diagnostics.isEmpty, "\(page.diagnostics)")
    }

    /// Every capture's real JWS in the three responses, as a backend paging through them gets
    /// them (pages of 20): each page read with no diagnostic, in place as whole, and the pages
    /// together hold every transaction and notification of the capture.
    @Test(arguments: RealDocumentsReadingTests.capturesWithJWS)
    func pagesOfEveryCapture(_ file: String) throws {
      var notifications: [String] = []
      var transactions: [String] = []
      var latest: [String: (signed: String, status: String, transaction: String, renewal: String)] =
        [:]
      for compact in try RealDocumentsReadingTests.storedJWS(file) {
        let payload = try JSONValue(parsing: try JWS.unverifiedPayload(of: compact))
        guard payload["notificationType"] != nil else {
          transactions.append(compact)  // a transaction the app sent
          continue
        }
        notifications.append(compact)
        guard case .string(let transaction)? = payload["data"]?["signedTransactionInfo"],
          case .string(let renewal)? = payload["data"]?["signedRenewalInfo"],
          case .number(let status)? = payload["data"]?["status"],
          case .number(let signed)? = payload["signedDate"],
          case .string(let subscription)? = try JSONValue(
            parsing: try JWS.unverifiedPayload(of: transaction))["originalTransactionId"]
        else { continue }
        transactions.append(transaction)
        // The statuses response holds each subscription's newest payloads.
        if let kept = latest[subscription],
          kept.signed.count > signed.count
            || (kept.signed.count == signed.count && kept.signed >= signed)
        {
          continue
        }
        latest[subscription] = (signed, status, transaction, renewal)
      }
      func quoted(_ strings: ArraySlice<String>) -> String {
        strings.map { "\"\($0)\"" }.joined(separator: ", ")
      }
      var pagedTransactions: Set<TransactionID> = []
      for start in stride(from: 0, to: transactions.count, by: 20) {
        let more = start + 20 < transactions.count
        let body = Array(
          """
          {"revision": "r\(start)", "bundleId": "com.example", "appAppleId": 1234,
           "environment": "Sandbox", "hasMore": \(more),
           "signedTransactions": [\(quoted(transactions[start..<min(start + 20, transactions.count)]))]}
          """.utf8)
        APIResponseTests.expectReadConsistently(body)
        let page = try DocumentReader.readUnverified(body)
        #expect(page.diagnostics.isEmpty)
        pagedTransactions.formUnion(page.entries.map(\.transactionID))
      }
      var pagedNotifications = 0
      for start in stride(from: 0, to: notifications.count, by: 20) {
        let items = notifications[start..<min(start + 20, notifications.count)].map {
          #"{"signedPayload": "\#($0)", "sendAttempts": [{"attemptDate": 1, "sendAttemptResult": "SUCCESS"}]}"#
        }
        let body = Array(
          """
          {"hasMore": \(start + 20 < notifications.count), "paginationToken": "t\(start)",
           "notificationHistory": [\(items.joined(separator: ", "))]}
          """.utf8)
        APIResponseTests.expectReadConsistently(body)
        guard case .notificationHistory(let page) = try DocumentReader.readUnverified(body) else {
          Issue.record("\(file): not read as a notification history")
          continue
        }
        pagedNotifications += page.notificationPayloads.count
      }
      let items = latest.sorted { $0.key < $1.key }.map { subscription, newest in
        """
        {"originalTransactionId": "\(subscription)", "status": \(newest.status),
         "signedTransactionInfo": "\(newest.transaction)",
         "signedRenewalInfo": "\(newest.renewal)"}
        """
      }
      if !items.isEmpty {
        let body = Array(
          """
          {"environment": "Sandbox", "bundleId": "com.example", "appAppleId": 1234,
           "data": [{"subscriptionGroupIdentifier": "g", "lastTransactions": [\(items.joined(separator: ", "))]}]}
          """.utf8)
        APIResponseTests.expectReadConsistently(body)
        #expect(try DocumentReader.readUnverified(body).appleStatuses.count == items.count)
      }
      // The pages hold every transaction: those of the notifications and those the app sent.
      var individually: Set<TransactionID> = []
      for compact in transactions {
        individually.formUnion(
          try DocumentReader.readUnverified(Array(compact.utf8)).entries.map(\.transactionID))
      }
      #expect(pagedTransactions == individually)
      #expect(pagedNotifications == notifications.count)
      print(
        "\(file): \(transactions.count) transactions (\(individually.count) distinct) and "
          + "\(notifications.count) notifications in pages of 20")
    }
  }
}

extension JSONValue {
  /// A number's text, for ordering by it in tests.
  fileprivate var numberText: String? {
    if case .number(let text) = self { return text }
    return nil
  }
}
