import Entitlements
import Foundation
import Testing

// The code of the DocC article "Acting on changes"
// (Sources/Entitlements/Entitlements.docc/ActingOnChanges.md), verbatim from here to the suite:
// when it stops compiling, or stops answering what the article says, these tests fail.

/// What a backend stores for a subscriber after evaluating it: what it may use now, and when
/// that answer stops being true.
struct StoredAnswer: Hashable, Sendable {
  /// The entitlements that give access now.
  var entitled: Set<EntitlementID>
  /// The earliest next change of any entitlement: evaluate again at or after it; `nil` when
  /// nothing will change until a new document arrives.
  var lookAgainAt: Instant?
}

/// The answer to store for a subscriber evaluated at `now`.
func storedAnswer(for evaluation: Evaluation, at now: Instant) -> StoredAnswer {
  var entitled = Set<EntitlementID>()
  var lookAgainAt: Instant?
  for entitlement in evaluation.entitlements {
    if entitlement.status(at: now).isEntitled { entitled.insert(entitlement.id) }
    if let next = entitlement.nextChange(after: now)?.at {
      lookAgainAt = min(lookAgainAt ?? next, next)
    }
  }
  return StoredAnswer(entitled: entitled, lookAgainAt: lookAgainAt)
}

/// What a backend does after a new document, for one entitlement.
enum Reaction: Hashable, Sendable {
  /// Give access (a purchase, a renewal after a lapse, a recovered payment).
  case unlock(EntitlementID)
  /// Take access away, with why (a refund, an expiry Apple just reported).
  case lock(EntitlementID, ExpiryReason?)
  /// The renewal failed: ask the customer to update their payment method. Access continues
  /// in a grace period, stops in billing retry.
  case askForPaymentUpdate(EntitlementID)
  /// The past changed (a refund reaching back): recompute reports and usage credited to it.
  case recomputeHistory(EntitlementID)
}

/// The reactions to a comparison of the evaluations before and after a document.
func reactions(to comparison: EvaluationComparison) -> [Reaction] {
  var reactions: [Reaction] = []
  for change in comparison.changed {
    if change.statusChanged {
      switch (change.before.isEntitled, change.after.isEntitled) {
      case (false, true): reactions.append(.unlock(change.id))
      case (true, false): reactions.append(.lock(change.id, change.after.reason))
      default: break
      }
      let failed = change.after.state == .gracePeriod || change.after.state == .billingRetry
      if failed, change.before.state != change.after.state {
        reactions.append(.askForPaymentUpdate(change.id))
      }
    }
    if change.pastChanged { reactions.append(.recomputeHistory(change.id)) }
  }
  return reactions
}

/// A change of an entitlement's status, named for analytics.
struct StatusEvent: Hashable, Sendable {
  var entitlement: EntitlementID
  var at: Instant
  /// "started", "renewalFailed", "expired.voluntary", "revoked.refund", "resumed", …
  var name: String
}

/// The events of one evaluation, in time order within each entitlement.
func statusEvents(of evaluation: Evaluation) -> [StatusEvent] {
  var events: [StatusEvent] = []
  for entitlement in evaluation.entitlements {
    var previous = EntitlementState.notSubscribed
    for change in entitlement.changes {
      let name: String
      switch (previous, change.state) {
      case (.notSubscribed, .active): name = "started"
      case (.gracePeriod, .active), (.billingRetry, .active): name = "recovered"
      case (_, .active): name = "resumed"
      case (_, .gracePeriod), (.active, .billingRetry): name = "renewalFailed"
      case (_, .billingRetry): name = "billingRetry"
      case (_, let state): name = state.rawValue + (change.reason.map { ".\($0.rawValue)" } ?? "")
      }
      events.append(StatusEvent(entitlement: entitlement.id, at: change.at, name: name))
      previous = change.state
    }
  }
  return events
}

// A monthly subscription bought on Feb 20, renewed on Mar 20, whose renewal of Apr 20 failed:
// grace period to May 6, billing retry to Jun 19.

@Suite("Acting on changes")
struct ActingOnChangesTests {
  static let catalog = ProductCatalog([
    CatalogProduct(
      id: "monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
      entitlement: "premium")
  ])
  static let evaluator = Evaluator(catalog: catalog)
  static let months = [
    sub("1", "2017-02-20T08:00:00Z", "2017-03-20T08:00:00Z"),
    sub("2", "2017-03-20T08:00:00Z", "2017-04-20T08:00:00Z"),
  ]
  static let failing = RenewalInfo(
    originalTransactionID: "1", autoRenewStatus: true, rawExpirationIntent: 2,
    isInBillingRetryPeriod: true, gracePeriodExpiresDate: instant("2017-05-06T08:00:00Z"))

  static func evaluate(_ entries: [ReceiptEntry], _ info: [RenewalInfo] = []) -> Evaluation {
    evaluator.evaluate(PurchaseHistory(entries: entries, renewalInfo: info))
  }

  @Test func theStoredAnswerSaysWhenToLookAgain() {
    let evaluation = Self.evaluate(Self.months, [Self.failing])
    // In the period: entitled, look again at its end.
    #expect(
      storedAnswer(for: evaluation, at: instant("2017-04-01"))
        == StoredAnswer(entitled: ["premium"], lookAgainAt: instant("2017-04-20T08:00:00Z")))
    // In the grace period: still entitled, until the grace ends.
    #expect(
      storedAnswer(for: evaluation, at: instant("2017-04-25"))
        == StoredAnswer(entitled: ["premium"], lookAgainAt: instant("2017-05-06T08:00:00Z")))
    // In billing retry: not entitled, until the window closes; then nothing will change.
    #expect(
      storedAnswer(for: evaluation, at: instant("2017-05-10"))
        == StoredAnswer(entitled: [], lookAgainAt: instant("2017-06-19T08:00:00Z")))
    #expect(
      storedAnswer(for: evaluation, at: instant("2017-06-19T08:00:00Z"))
        == StoredAnswer(entitled: [], lookAgainAt: nil))
  }

  @Test func aFailedRenewalAsksForThePaymentMethod() {
    let before = Self.evaluate(Self.months)
    let after = Self.evaluate(Self.months, [Self.failing])
    // Arrives on Apr 20, 09:00: expired (nothing said) becomes grace period.
    let comparison = EvaluationComparison(
      before: before, after: after, at: instant("2017-04-20T09:00:00Z"))
    #expect(reactions(to: comparison) == [.unlock("premium"), .askForPaymentUpdate("premium")])
  }

  @Test func aRefundReachingBackLocksAndRecomputes() {
    let before = Self.evaluate(Self.months)
    let refunded = [
      Self.months[0],
      sub("2", "2017-03-20T08:00:00Z", "2017-04-20T08:00:00Z", cancelled: "2017-04-02"),
    ]
    let comparison = EvaluationComparison(
      before: before, after: Self.evaluate(refunded), at: instant("2017-04-02"))
    #expect(
      reactions(to: comparison) == [.lock("premium", .refund), .recomputeHistory("premium")])
  }

  @Test func aRenewalAndARepeatedDocumentCauseNoReaction() {
    let first = Self.evaluate([Self.months[0]])
    let renewed = Self.evaluate(Self.months)
    #expect(
      reactions(
        to: EvaluationComparison(before: first, after: renewed, at: instant("2017-03-19"))
      ).isEmpty)
    #expect(
      reactions(
        to: EvaluationComparison(before: renewed, after: renewed, at: instant("2017-04-01"))
      ).isEmpty)
  }

  @Test func changesBecomeNamedEvents() {
    let lapsedAndBack = Self.months + [sub("3", "2017-06-01", "2017-07-01")]
    #expect(
      statusEvents(of: Self.evaluate(Self.months, [Self.failing])).map { "\($0.at) \($0.name)" }
        == [
          "2017-02-20T08:00:00Z started", "2017-04-20T08:00:00Z renewalFailed",
          "2017-05-06T08:00:00Z billingRetry",
          "2017-06-19T08:00:00Z expired.billingRetryExhausted",
        ])
    #expect(
      statusEvents(of: Self.evaluate(lapsedAndBack)).map { "\($0.at) \($0.name)" }
        == [
          "2017-02-20T08:00:00Z started", "2017-04-20T08:00:00Z expired.unknown",
          "2017-06-01T00:00:00Z resumed", "2017-07-01T00:00:00Z expired.unknown",
        ])
  }
}

/// The article shows this file's code: every Swift block of it is in this file, verbatim.
@Suite("Acting on changes: the article's code is the tested code")
struct ActingOnChangesArticleTests {
  @Test func everySwiftBlockOfTheArticleIsInThisFile() throws {
    let here = URL(fileURLWithPath: #filePath)
    let article = here.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
      .appendingPathComponent("Sources/Entitlements/Entitlements.docc/ActingOnChanges.md")
    let markdown = try String(contentsOf: article, encoding: .utf8)
    let source = try String(contentsOf: here, encoding: .utf8)
    let blocks = markdown.components(separatedBy: "```swift\n").dropFirst().map {
      $0.components(separatedBy: "```").first ?? ""
    }
    #expect(blocks.count == 3)
    for block in blocks { #expect(source.contains(block), "not in this file:\n\(block)") }
  }
}
