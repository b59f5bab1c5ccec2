import Entitlements
import EntitlementsVerification
import Foundation
import Testing

// The code of the DocC article "Getting started for a backend"
// (Sources/Entitlements/Entitlements.docc/GettingStarted.md), verbatim from here to the suite:
// when it stops compiling, or stops answering what the article says, these tests fail.

/// What the backend answers when the app asks what a subscriber may use.
struct Access: Hashable, Sendable {
  /// Whether to unlock the feature now.
  var isEntitled: Bool
  /// Why, in one word: `active`, `gracePeriod`, `billingRetry`, `expired`…
  var state: EntitlementState
  /// When the current period ends, while active.
  var expiresAt: Instant?
  /// Whether it renews then, when known.
  var willRenew: Bool?
  /// Every period of access so far, for a history screen or for support.
  var periods: [Interval]
}

/// A backend's App Store side: it verifies what Apple sends, keeps it per subscription, and
/// answers from what it kept.
struct EntitlementService {
  let verifier: AppStoreSignatureVerifier
  let evaluator: Evaluator
  /// Every verified body, as received, by subscription: a database table in production.
  var stored: [OriginalTransactionID: [[UInt8]]] = [:]

  /// Verifies every JWS of a body (the notification's and those nested in it), then reads it.
  func verifiedDocument(_ body: [UInt8]) throws(ReadError) -> AppStoreDocument {
    try DocumentReader.read(body, verifier: verifier)
  }

  /// Keeps a verified body under its subscription.
  mutating func keep(_ body: [UInt8], for subscription: OriginalTransactionID) {
    stored[subscription, default: []].append(body)
  }
}

extension EntitlementService {
  /// The endpoint Apple POSTs notifications to: verifies the body, then keeps it.
  ///
  /// - Returns: The subscription it is about; nil for a notification about none (`TEST`).
  /// - Throws: ``ReadError`` when the body is not JSON, or not signed by Apple for this app:
  ///   answer with an error status and keep nothing.
  mutating func receiveNotification(_ body: [UInt8]) throws(ReadError)
    -> OriginalTransactionID?
  {
    guard case .notificationV2(let notification) = try verifiedDocument(body),
      let subscription = notification.originalTransactionID
    else { return nil }
    keep(body, for: subscription)
    return subscription
  }

  /// Keeps a page of Get Transaction History that the backend asked for about `subscription`.
  ///
  /// - Returns: The `revision` to ask for the next page with; nil after the last page.
  mutating func receiveHistoryPage(
    _ body: [UInt8], for subscription: OriginalTransactionID
  ) throws(ReadError) -> String? {
    guard case .transactionHistory(let page) = try verifiedDocument(body) else {
      throw .unrecognizedDocument("not a page of Get Transaction History")
    }
    keep(body, for: subscription)
    return page.hasMore == true ? page.revision : nil
  }
}

extension EntitlementService {
  /// The subscription's record, folded from every body kept, in whatever order they came.
  func record(of subscription: OriginalTransactionID) throws(ReadError) -> SubscriberRecord {
    var record = SubscriberRecord()
    for body in stored[subscription] ?? [] {
      // Verified before it was kept: read again without the verifier.
      record.fold(try DocumentReader.readUnverified(body))
    }
    return record
  }
}

extension EntitlementService {
  /// What the subscription gives access to at an instant: the caller's clock, never the
  /// library's.
  func access(
    to entitlement: EntitlementID, of subscription: OriginalTransactionID, at instant: Instant
  ) throws(ReadError) -> Access {
    let evaluation = evaluator.evaluate(try record(of: subscription).history)
    guard let evaluated = evaluation[entitlement] else {
      return Access(
        isEntitled: false, state: .notSubscribed, expiresAt: nil, willRenew: nil, periods: [])
    }
    let status = evaluated.status(at: instant)
    return Access(
      isEntitled: status.isEntitled, state: status.state, expiresAt: status.expiresAt,
      willRenew: status.willRenew, periods: evaluated.periods.map(\.interval))
  }
}

extension EntitlementService {
  /// The endpoint Apple POSTs notifications to, when the backend reacts to them: verifies the
  /// body, folds it into the subscription's record, evaluates before and after, and compares
  /// at `now`, the instant it arrived.
  ///
  /// - Returns: The entitlements whose status or past the notification changed, and when the
  ///   subscription's status will next change if nothing else arrives: store it, and evaluate
  ///   again then.
  mutating func receiveNotification(_ body: [UInt8], at now: Instant) throws(ReadError) -> (
    changed: [EntitlementComparison], lookAgainAt: Instant?
  ) {
    guard case .notificationV2(let notification) = try verifiedDocument(body),
      let subscription = notification.originalTransactionID
    else { return ([], nil) }
    let before = evaluator.evaluate(try record(of: subscription).history)
    keep(body, for: subscription)
    let after = evaluator.evaluate(try record(of: subscription).history)
    let comparison = EvaluationComparison(before: before, after: after, at: now)
    let next = after.entitlements.compactMap { $0.nextChange(after: now)?.at }.min()
    return (comparison.changed, next)
  }
}

// The article's flow, run on a notification signed by the chain of `Generated/generate.py`:
// a DID_RENEW for com.example.app in production, its transaction from 2025-10-01T11:59:00Z to
// 2025-10-31T12:00:00Z, auto-renew on.

@Suite("Getting started for a backend")
struct GettingStartedTests {
  /// The article's set-up, trusting the generated root where production trusts Apple's.
  static func makeService() throws -> EntitlementService {
    let verifier = AppStoreSignatureVerifier(
      trustedRoots: [try GeneratedChainTests.root("root")],  // the article: Apple's, by default
      bundleId: "com.example.app", environment: .production, appAppleId: 1234)
    let evaluator = Evaluator(
      catalog: ProductCatalog([
        CatalogProduct(
          id: "com.example.monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
          entitlement: "premium")
      ]))
    return EntitlementService(verifier: verifier, evaluator: evaluator)
  }

  /// The notification's compact JWS.
  static func signedPayload() throws -> String {
    try #require(
      GeneratedChainTests.cases.first {
        $0.name == "a production notification with its nested JWS"
      }
    ).jws
  }

  /// A v2 notification body as Apple POSTs it.
  static func body(_ signedPayload: String) -> [UInt8] {
    Array(#"{"signedPayload": "\#(signedPayload)"}"#.utf8)
  }

  /// The JWS with its payload changed (`DID_RENEW` made `SUBSCRIBED`) and its signature kept:
  /// what anyone can make without Apple's key.
  static func forged(_ jws: String) throws -> String {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map { String($0) }
    try #require(parts.count == 3)
    var base64 = parts[1].replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    let payload = try #require(Data(base64Encoded: base64))
    let changed = String(decoding: payload, as: UTF8.self)
      .replacingOccurrences(of: "DID_RENEW", with: "SUBSCRIBED")
    try #require(changed.contains("SUBSCRIBED"))
    let encoded = Data(changed.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    return [parts[0], encoded, parts[2]].joined(separator: ".")
  }

  @Test func aVerifiedNotificationGrantsTheEntitlement() throws {
    var service = try Self.makeService()
    let body = Self.body(try Self.signedPayload())

    // POST /app-store/notifications
    let received = try service.receiveNotification(body)
    let subscription = try #require(received)
    #expect(subscription == "2000000000000001")

    // GET /entitlements, inside the transaction, at its end, and a fortnight later.
    let start = try Instant(parsing: "2025-10-01T11:59:00Z")
    let end = try Instant(parsing: "2025-10-31T12:00:00Z")
    let now = try Instant(parsing: "2025-10-15T09:30:00Z")
    let access = try service.access(to: "premium", of: subscription, at: now)
    #expect(
      access
        == Access(
          isEntitled: true, state: .active, expiresAt: end, willRenew: true,
          periods: [Interval(start: start, end: end)]))
    let atTheEnd = try service.access(to: "premium", of: subscription, at: end)
    #expect(!atTheEnd.isEntitled)
    let november15 = try Instant(parsing: "2025-11-15")
    let later = try service.access(to: "premium", of: subscription, at: november15)
    #expect(!later.isEntitled)
    #expect(later.state == .expired)
    #expect(later.periods == access.periods)

    // An entitlement no product unlocks.
    let other = try service.access(to: "pro", of: subscription, at: now)
    #expect(
      other
        == Access(
          isEntitled: false, state: .notSubscribed, expiresAt: nil, willRenew: nil, periods: []))
  }

  /// The article's reacting handler: a first notification unlocks and says when to look
  /// again; the same notification again changes nothing; a tampered one is refused.
  @Test func theHandlerSaysWhatChangedAndWhenToLookAgain() throws {
    var service = try Self.makeService()
    let body = Self.body(try Self.signedPayload())
    let now = try Instant(parsing: "2025-10-15T09:30:00Z")
    let end = try Instant(parsing: "2025-10-31T12:00:00Z")

    let first = try service.receiveNotification(body, at: now)
    #expect(first.changed.map(\.id) == ["premium"])
    #expect(first.changed.first?.before == .notSubscribed)
    #expect(first.changed.first?.after.state == .active)
    #expect(first.changed.first?.after.isEntitled == true)
    #expect(first.changed.first?.statusChanged == true)
    // The period began on Oct 1, before the notification arrived: the past changed too.
    #expect(first.changed.first?.pastChanged == true)
    #expect(first.lookAgainAt == end)

    let again = try service.receiveNotification(body, at: now)
    #expect(again.changed.isEmpty)
    #expect(again.lookAgainAt == end)
    #expect(service.stored["2000000000000001"]?.count == 2)

    #expect(throws: ReadError.self) {
      _ = try service.receiveNotification(
        Self.body(try Self.forged(try Self.signedPayload())), at: now)
    }
    #expect(service.stored["2000000000000001"]?.count == 2)
  }

  /// What is kept is the body; the record rebuilt from it, unverified, is the record of the
  /// verified document, and a notification Apple sends twice counts once.
  @Test func theRecordIsRebuiltFromTheKeptBodies() throws {
    var service = try Self.makeService()
    let body = Self.body(try Self.signedPayload())
    let received = try service.receiveNotification(body)
    let subscription = try #require(received)

    var direct = SubscriberRecord()
    direct.fold(try service.verifiedDocument(body))
    #expect(direct.history.entries.count == 1)
    #expect(direct.history.environment == .production)
    #expect(try service.record(of: subscription) == direct)

    _ = try service.receiveNotification(body)
    #expect(service.stored[subscription]?.count == 2)
    #expect(try service.record(of: subscription) == direct)
  }

  @Test func aTamperedBodyIsRefusedAndNothingIsKept() throws {
    var service = try Self.makeService()
    let forged = Self.body(try Self.forged(try Self.signedPayload()))
    // Unverified, the forgery reads as a notification: the verifier is what refuses it.
    #expect((try? DocumentReader.readUnverified(forged)) != nil)
    do throws(ReadError) {
      _ = try service.receiveNotification(forged)
      Issue.record("a tampered body was accepted")
    } catch {
      guard case .signatureRejected(let path, let reason) = error else {
        Issue.record("refused, but not for its signature: \(error)")
        return
      }
      #expect(path == "signedPayload")
      #expect(reason.hasPrefix("invalidSignature"), "\(reason)")
    }
    #expect(service.stored.isEmpty)
  }

  /// The article's own verifier trusts Apple's root only; a verifier for another environment
  /// or app refuses the notification too. Each refusal names the JWS and the step.
  @Test func otherVerifiersRefuseIt() throws {
    let root = try GeneratedChainTests.root("root")
    let refusals: [(verifier: AppStoreSignatureVerifier, step: String)] = [
      (
        AppStoreSignatureVerifier(
          bundleId: "com.example.app", environment: .production, appAppleId: 1234),
        "untrustedRoot"
      ),
      (
        AppStoreSignatureVerifier(
          trustedRoots: [root], bundleId: "com.example.app", environment: .sandbox),
        "environmentMismatch"
      ),
      (
        AppStoreSignatureVerifier(
          trustedRoots: [root], bundleId: "com.example.other", environment: .production,
          appAppleId: 1234),
        "bundleMismatch"
      ),
    ]
    let body = Self.body(try Self.signedPayload())
    for refusal in refusals {
      var service = EntitlementService(verifier: refusal.verifier, evaluator: Evaluator())
      do throws(ReadError) {
        _ = try service.receiveNotification(body)
        Issue.record("accepted; expected \(refusal.step)")
      } catch {
        guard case .signatureRejected(let path, let reason) = error else {
          Issue.record("refused, but not for its signature: \(error)")
          continue
        }
        #expect(path == "signedPayload")
        #expect(reason.hasPrefix(refusal.step), "\(reason)")
      }
      #expect(service.stored.isEmpty)
    }
  }

  /// A page of Get Transaction History: each transaction verified, the page kept, the next
  /// page asked for while `hasMore`.
  @Test func aHistoryPageIsKeptAndPaged() throws {
    let transaction = try #require(
      GeneratedChainTests.cases.first { $0.name == "a transaction under the Apple-shaped chain" }
    ).jws
    var service = EntitlementService(
      verifier: AppStoreSignatureVerifier(
        trustedRoots: [try GeneratedChainTests.root("root")], bundleId: "com.example.app",
        environment: .sandbox),
      evaluator: Evaluator())
    func page(hasMore: Bool) -> [UInt8] {
      let fields = #"{"bundleId": "com.example.app", "environment": "Sandbox", "revision": "r1""#
      return Array(
        #"\#(fields), "hasMore": \#(hasMore), "signedTransactions": ["\#(transaction)"]}"#.utf8)
    }
    let subscription: OriginalTransactionID = "2000000000000001"
    let next = try service.receiveHistoryPage(page(hasMore: true), for: subscription)
    #expect(next == "r1")
    let last = try service.receiveHistoryPage(page(hasMore: false), for: subscription)
    #expect(last == nil)
    #expect(service.stored[subscription]?.count == 2)
    // Both pages hold one transaction: the record holds it once.
    #expect(try service.record(of: subscription).history.entries.count == 1)
  }
}
