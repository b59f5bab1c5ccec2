import Entitlements
import Testing

/// The status as a function of time (`changes`, `nextChange(after:)`) and what a new document
/// changed (`EvaluationComparison`), on histories whose every change is written here by hand.
@Suite("Status changes")
struct StatusChangeTests {
  struct Step: Equatable, CustomStringConvertible {
    var at: String
    var state: EntitlementState
    var reason: ExpiryReason? = nil
    var description: String { "\(at) \(state) \(reason.map { "\($0)" } ?? "-")" }
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var entries: [ReceiptEntry]
    var info: [RenewalInfo] = []
    var changes: [Step]
    var testDescription: String { name }
  }

  static let e = "2017-04-20T08:00:00Z"

  static let cases: [Case] = [
    Case(
      name: "two periods, nothing said: expired, reason unknown",
      entries: [
        sub("1", "2017-02-20T08:00:00Z", "2017-03-20T08:00:00Z"),
        sub("2", "2017-03-20T08:00:00Z", "2017-04-20T08:00:00Z"),
        sub("3", "2017-06-17T08:00:00Z", "2017-07-17T08:00:00Z"),
      ],
      changes: [
        Step(at: "2017-02-20T08:00:00Z", state: .active),
        Step(at: "2017-04-20T08:00:00Z", state: .expired, reason: .unknown),
        Step(at: "2017-06-17T08:00:00Z", state: .active),
        Step(at: "2017-07-17T08:00:00Z", state: .expired, reason: .unknown),
      ]),
    Case(
      name: "grace 16 days, then billing retry to day 60, then exhausted",
      entries: [sub("1", "2017-03-20T08:00:00Z", e)],
      info: [
        RenewalInfo(
          originalTransactionID: "1", autoRenewStatus: true, rawExpirationIntent: 2,
          isInBillingRetryPeriod: true, gracePeriodExpiresDate: instant(e) + .days(16))
      ],
      changes: [
        Step(at: "2017-03-20T08:00:00Z", state: .active),
        Step(at: e, state: .gracePeriod),
        Step(at: "2017-05-06T08:00:00Z", state: .billingRetry),
        Step(at: "2017-06-19T08:00:00Z", state: .expired, reason: .billingRetryExhausted),
      ]),
    Case(
      name: "auto-renew off: expired voluntary at the end, then nothing",
      entries: [sub("1", "2017-03-20T08:00:00Z", e)],
      info: [
        RenewalInfo(originalTransactionID: "1", autoRenewStatus: false, rawExpirationIntent: 1)
      ],
      changes: [
        Step(at: "2017-03-20T08:00:00Z", state: .active),
        Step(at: e, state: .expired, reason: .voluntary),
      ]),
    Case(
      name: "the only purchase refunded: revoked from its purchase",
      entries: [sub("1", "2017-03-20T08:00:00Z", e, cancelled: "2017-03-25")],
      changes: [Step(at: "2017-03-20T08:00:00Z", state: .revoked, reason: .refund)]),
    Case(
      name: "prorated refund: active until the refund, revoked from it",
      entries: [
        sub("1", "2017-03-20T08:00:00Z", e, cancelled: "2017-04-01", revocation: "REFUND_PRORATED")
      ],
      changes: [
        Step(at: "2017-03-20T08:00:00Z", state: .active),
        Step(at: "2017-04-01", state: .revoked, reason: .refund),
      ]),
    Case(
      name: "a refunded renewal after a lapse: expired, then revoked at its purchase",
      entries: [
        sub("1", "2017-02-20T08:00:00Z", "2017-03-20T08:00:00Z"),
        sub("2", "2017-05-01T08:00:00Z", "2017-06-01T08:00:00Z", cancelled: "2017-05-02"),
      ],
      changes: [
        Step(at: "2017-02-20T08:00:00Z", state: .active),
        Step(at: "2017-03-20T08:00:00Z", state: .expired, reason: .unknown),
        Step(at: "2017-05-01T08:00:00Z", state: .revoked, reason: .refund),
      ]),
    Case(
      name: "three purchases at one instant, all refunded: one change",
      entries: [
        sub("1", "2017-03-20T08:00:00Z", e, cancelled: "2017-03-21"),
        sub("2", "2017-03-20T08:00:00Z", e, original: "2", cancelled: "2017-03-21"),
        sub("3", "2017-03-20T08:00:00Z", e, original: "3", cancelled: "2017-03-21"),
      ],
      changes: [Step(at: "2017-03-20T08:00:00Z", state: .revoked, reason: .refund)]),
    Case(
      name: "a lifetime purchase: active for ever, one change",
      entries: [purchase("1", "2017-03-20T08:00:00Z", product: "lifetime")],
      changes: [Step(at: "2017-03-20T08:00:00Z", state: .active)]),
  ]

  static let catalog = ProductCatalog([
    CatalogProduct(
      id: "monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
      entitlement: "premium"),
    CatalogProduct(id: "lifetime", type: .nonConsumable, entitlement: "premium"),
  ])

  @Test(arguments: cases)
  func everyChangeIsWrittenHere(_ test: Case) throws {
    let premium = try evaluateOne(test.entries, renewalInfo: test.info, catalog: Self.catalog)
    let expected = test.changes.map { step in
      Step(at: "\(instant(step.at))", state: step.state, reason: step.reason)
    }
    #expect(
      premium.changes.map { Step(at: "\($0.at)", state: $0.state, reason: $0.reason) } == expected)
    // The next change after each change, and 1 ms before it, is the one written next.
    for (index, change) in premium.changes.enumerated() {
      let next = index + 1 < premium.changes.count ? premium.changes[index + 1] : nil
      #expect(premium.nextChange(after: change.at) == next)
      #expect(premium.nextChange(after: change.at - .milliseconds(1)) == change)
    }
    #expect(premium.nextChange(after: .distantPast) == premium.changes.first)
  }

  @Test func theChangeCarriesTheStatusAtItsInstant() throws {
    let premium = try evaluateOne(
      [sub("1", "2017-03-20T08:00:00Z", Self.e), sub("2", Self.e, "2017-05-20T08:00:00Z")],
      renewalInfo: [RenewalInfo(originalTransactionID: "1", autoRenewStatus: true)],
      catalog: Self.catalog)
    // The renewal on Apr 20 is inside the period: not a change of the status function.
    #expect(
      premium.changes.map(\.at) == [
        instant("2017-03-20T08:00:00Z"), instant("2017-05-20T08:00:00Z"),
      ])
    let first = try #require(premium.changes.first)
    #expect(first.status.expiresAt == instant("2017-05-20T08:00:00Z"))
    #expect(first.status.willRenew == true)
    guard case .active(let active) = first.status else {
      Issue.record("not active: \(first.status)")
      return
    }
    #expect(active.transactionID == "1")
    // On Apr 20 the renewal gives access: same step, other details.
    guard case .active(let renewed) = premium.status(at: instant(Self.e)) else {
      Issue.record("not active on Apr 20")
      return
    }
    #expect(renewed.transactionID == "2")
    #expect(premium.nextChange(after: instant(Self.e))?.at == instant("2017-05-20T08:00:00Z"))
    #expect(premium.nextChange(after: instant("2017-05-20T08:00:00Z")) == nil)
  }

  // MARK: What a new document changed

  static func evaluate(_ entries: [ReceiptEntry], _ info: [RenewalInfo] = []) -> Evaluation {
    Evaluator(catalog: catalog).evaluate(PurchaseHistory(entries: entries, renewalInfo: info))
  }

  struct Comparison: CustomTestStringConvertible, Sendable {
    var name: String
    var before: [ReceiptEntry]
    var beforeInfo: [RenewalInfo] = []
    var after: [ReceiptEntry]
    var afterInfo: [RenewalInfo] = []
    var at: String
    var was: EntitlementState
    var now: EntitlementState
    var statusChanged: Bool
    var pastChanged: Bool
    var nextChangeAt: String?
    var testDescription: String { name }
  }

  static let first = sub("1", "2017-03-20T08:00:00Z", e)
  static let renewal = sub("2", e, "2017-05-20T08:00:00Z")

  static let comparisons: [Comparison] = [
    Comparison(
      name: "a renewal: the same status, the next change later, the past as it was",
      before: [first], after: [first, renewal], at: "2017-04-19", was: .active, now: .active,
      statusChanged: false, pastChanged: false, nextChangeAt: "2017-05-20T08:00:00Z"),
    Comparison(
      name: "a refund of the renewal reaching back: revoked now, the past cut",
      before: [first, renewal],
      after: [first, sub("2", e, "2017-05-20T08:00:00Z", cancelled: "2017-05-01")],
      at: "2017-05-01", was: .active, now: .revoked, statusChanged: true, pastChanged: true,
      nextChangeAt: nil),
    Comparison(
      name: "a failed renewal: expired becomes billing retry, the past as it was",
      before: [first], beforeInfo: [RenewalInfo(originalTransactionID: "1", autoRenewStatus: true)],
      after: [first],
      afterInfo: [
        RenewalInfo(
          originalTransactionID: "1", autoRenewStatus: true, isInBillingRetryPeriod: true)
      ],
      at: "2017-04-21", was: .expired, now: .billingRetry, statusChanged: true,
      pastChanged: false, nextChangeAt: "2017-06-19T08:00:00Z"),
    Comparison(
      name: "a first purchase: not subscribed becomes active, a period added to the past",
      before: [], after: [first], at: "2017-03-21", was: .notSubscribed, now: .active,
      statusChanged: true, pastChanged: true, nextChangeAt: e),
    Comparison(
      name: "a renewal info signed in an earlier lapse: its cause known, the past changed",
      before: [first, sub("3", "2017-06-17T08:00:00Z", "2017-07-17T08:00:00Z")],
      after: [first, sub("3", "2017-06-17T08:00:00Z", "2017-07-17T08:00:00Z")],
      afterInfo: [
        RenewalInfo(
          originalTransactionID: "1", autoRenewStatus: false, rawExpirationIntent: 1,
          signedDate: instant("2017-05-01"))
      ],
      at: "2017-07-01", was: .active, now: .active, statusChanged: false, pastChanged: true,
      nextChangeAt: "2017-07-17T08:00:00Z"),
    Comparison(
      name: "a document about the future only: nothing changed",
      before: [first], after: [first, sub("3", "2017-09-01", "2017-10-01")], at: "2017-04-01",
      was: .active, now: .active, statusChanged: false, pastChanged: false, nextChangeAt: e),
  ]

  @Test(arguments: comparisons)
  func whatANewDocumentChanged(_ test: Comparison) throws {
    let comparison = EvaluationComparison(
      before: Self.evaluate(test.before, test.beforeInfo),
      after: Self.evaluate(test.after, test.afterInfo), at: instant(test.at))
    #expect(comparison.entitlements.map(\.id) == ["premium"])
    let premium = try #require(comparison["premium"])
    #expect(premium.before.state == test.was)
    #expect(premium.after.state == test.now)
    #expect(premium.statusChanged == test.statusChanged)
    #expect(premium.pastChanged == test.pastChanged)
    #expect(premium.nextChange?.at == test.nextChangeAt.map { instant($0) })
    #expect(
      comparison.changed.map(\.id) == (test.statusChanged || test.pastChanged ? ["premium"] : []))
  }

  @Test func entitlementsOfEitherSideAreComparedInIdOrder() {
    let catalog = ProductCatalog([
      CatalogProduct(
        id: "monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
        entitlement: "premium"),
      CatalogProduct(id: "pack", type: .nonConsumable, entitlement: "extras"),
      CatalogProduct(id: "zine", type: .nonConsumable, entitlement: "zine"),
    ])
    let evaluator = Evaluator(catalog: catalog)
    let before = evaluator.evaluate(
      PurchaseHistory(entries: [Self.first, purchase("9", "2017-01-01", product: "zine")]))
    let after = evaluator.evaluate(
      PurchaseHistory(entries: [Self.first, purchase("8", "2017-04-01", product: "pack")]))
    let comparison = EvaluationComparison(before: before, after: after, at: instant("2017-04-02"))
    #expect(comparison.entitlements.map(\.id) == ["extras", "premium", "zine"])
    #expect(comparison.entitlements.map(\.before.state) == [.notSubscribed, .active, .active])
    #expect(comparison.entitlements.map(\.after.state) == [.active, .active, .notSubscribed])
    #expect(comparison.changed.map(\.id) == ["extras", "zine"])
  }
}
