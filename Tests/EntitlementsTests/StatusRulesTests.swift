import Entitlements
import Testing

@Suite("Status at an instant: the six states of SPEC §5")
struct StatusRulesTests {
  static let expiry = "2017-04-20T08:00:00Z"
  static let history = [
    sub("1", "2017-02-20T08:00:00Z", "2017-03-20T08:00:00Z"),
    sub("2", "2017-03-20T08:00:00Z", expiry),
  ]

  @Test func theInstantEqualToAPeriodsEndIsOutside() throws {
    let evaluation = try evaluateOne(Self.history)
    let end = instant(Self.expiry)
    #expect(evaluation.status(at: end - .milliseconds(1)).state == .active)
    #expect(evaluation.status(at: end).state == .expired)
    #expect(evaluation.status(at: end - .milliseconds(1)).expiresAt == end)
    #expect(!evaluation.isEntitled(at: end))
  }

  @Test func theInstantEqualToAPeriodsStartIsInside() throws {
    let evaluation = try evaluateOne(Self.history)
    let start = instant("2017-02-20T08:00:00Z")
    #expect(evaluation.status(at: start).state == .active)
    #expect(evaluation.status(at: start - .milliseconds(1)) == .notSubscribed)
  }

  struct Row: CustomTestStringConvertible, Sendable {
    var at: Instant
    var state: EntitlementState
    var entitled: Bool
    var reason: ExpiryReason? = nil
    var testDescription: String { "\(at): \(state)" }
  }

  /// Expiry E = Apr 20; grace 16 days; Apple retries to day 60.
  static let graceThenRetryThenExhausted: [Row] = {
    let e = instant(expiry)
    return [
      Row(at: e - .milliseconds(1), state: .active, entitled: true),
      Row(at: e, state: .gracePeriod, entitled: true),
      Row(at: e + .days(16) - .milliseconds(1), state: .gracePeriod, entitled: true),
      Row(at: e + .days(16), state: .billingRetry, entitled: false),
      Row(at: e + .days(60) - .milliseconds(1), state: .billingRetry, entitled: false),
      Row(
        at: e + .days(60), state: .expired, entitled: false, reason: .billingRetryExhausted),
    ]
  }()

  @Test(arguments: graceThenRetryThenExhausted)
  func gracePeriodThenBillingRetryThenExhausted(_ row: Row) throws {
    let e = instant(Self.expiry)
    let evaluation = try evaluateOne(
      Self.history,
      renewalInfo: [
        RenewalInfo(
          originalTransactionID: "1", autoRenewStatus: true, rawExpirationIntent: 2,
          isInBillingRetryPeriod: true, gracePeriodExpiresDate: e + .days(16))
      ])
    let status = evaluation.status(at: row.at)
    #expect(status.state == row.state)
    #expect(status.isEntitled == row.entitled)
    #expect(status.reason == row.reason)
    if row.state == .gracePeriod {
      #expect(status.gracePeriodEndsAt == e + .days(16))
      #expect(status.retryEndsAt == e + .days(60))
    }
    if row.state == .billingRetry {
      #expect(status.retryEndsAt == e + .days(60))
    }
  }

  @Test func billingRetryLimitIsAPolicy() throws {
    let e = instant(Self.expiry)
    let evaluation = try evaluateOne(
      Self.history,
      renewalInfo: [RenewalInfo(originalTransactionID: "1", isInBillingRetryPeriod: true)],
      policy: validPolicy { try Policy(billingRetryLimit: .days(30)) })
    #expect(evaluation.status(at: e + .days(30) - .milliseconds(1)).state == .billingRetry)
    #expect(evaluation.status(at: e + .days(30)).reason == .billingRetryExhausted)
  }

  struct IntentCase: CustomTestStringConvertible, Sendable {
    var intent: Int?
    var reason: ExpiryReason
    var testDescription: String { "expiration_intent \(intent.map(String.init) ?? "absent")" }
  }

  @Test(arguments: [
    IntentCase(intent: 1, reason: .voluntary), IntentCase(intent: 2, reason: .billingError),
    IntentCase(intent: 3, reason: .priceIncrease),
    IntentCase(intent: 4, reason: .productUnavailable), IntentCase(intent: 5, reason: .unknown),
    IntentCase(intent: 9, reason: .unknown),
    // Without an intent, auto-renew off at the expiry is evidence too (SPEC §5, rule 6).
    IntentCase(intent: nil, reason: .voluntary),
  ])
  func expiredReasonComesFromExpirationIntent(_ test: IntentCase) throws {
    let evaluation = try evaluateOne(
      Self.history,
      renewalInfo: [
        RenewalInfo(
          originalTransactionID: "1", autoRenewStatus: false, rawExpirationIntent: test.intent)
      ])
    let status = evaluation.status(at: instant("2017-06-01"))
    #expect(status == .expired(expiredAt: instant(Self.expiry), reason: test.reason))
  }

  @Test func insideAnEarlierLapseTheRenewalInfoDoesNotApply() throws {
    let evaluation = try evaluateOne(
      Self.history + [sub("3", "2017-05-05T08:00:00Z", "2017-06-05T08:00:00Z")],
      renewalInfo: [RenewalInfo(originalTransactionID: "1", isInBillingRetryPeriod: true)],
      recoveries: [
        BillingRecovery(originalTransactionID: "1", renewedAt: instant("2017-05-05T08:00:00Z"))
      ])
    // May 1 lies in the Apr 20 – May 5 lapse: expired with the lapse's cause, not
    // billingRetry from the renewal info (which describes the time after Jun 5).
    #expect(
      evaluation.status(at: instant("2017-05-01"))
        == .expired(expiredAt: instant(Self.expiry), reason: .billingError))
    #expect(evaluation.status(at: instant("2017-06-06")).state == .billingRetry)
  }

  @Test func pendingDowngradeShowsAsTheNextProductWhileTheCurrentPlanContinues() throws {
    let catalog = ProductCatalog([
      CatalogProduct(id: "premium.yearly", type: .autoRenewable, entitlement: "premium"),
      CatalogProduct(id: "premium.monthly", type: .autoRenewable, entitlement: "premium"),
    ])
    let evaluation = try evaluateOne(
      [sub("1", "2017-01-10", "2018-01-10", product: "premium.yearly")],
      renewalInfo: [
        RenewalInfo(
          originalTransactionID: "1", productID: "premium.yearly",
          autoRenewProductID: "premium.monthly", autoRenewStatus: true)
      ], catalog: catalog)
    guard case .active(let active) = evaluation.status(at: instant("2017-06-01")) else {
      Issue.record("expected active")
      return
    }
    #expect(active.productID == "premium.yearly")
    #expect(active.nextProductID == "premium.monthly")
    #expect(active.willRenew == true)
    #expect(active.expiresAt == instant("2018-01-10"))
    #expect(evaluation.periods.count == 1)
  }

  @Test func willRenewIsKnownOnlyForTheLastPeriod() throws {
    let evaluation = try evaluateOne(
      Self.history + [sub("3", "2017-06-17T08:00:00Z", "2017-07-17T08:00:00Z")],
      renewalInfo: [RenewalInfo(originalTransactionID: "1", autoRenewStatus: false)])
    #expect(evaluation.status(at: instant("2017-03-01")).willRenew == nil)
    #expect(evaluation.status(at: instant("2017-07-01")).willRenew == false)
  }

  @Test func revokedWhenTheLatestPurchaseWasRefunded() throws {
    let evaluation = try evaluateOne(
      Self.history + [
        sub("3", "2017-04-20T08:00:00Z", "2017-05-20T08:00:00Z", cancelled: "2017-05-01")
      ])
    #expect(
      evaluation.status(at: instant("2017-04-25"))
        == .revoked(transactionID: "3", revokedAt: instant("2017-05-01"), reason: .refund))
    #expect(evaluation.status(at: instant("2017-04-25")).reason == .refund)
    // Before the refunded purchase, the earlier period still counts.
    #expect(evaluation.status(at: instant("2017-04-01")).state == .active)
  }

  @Test func lifetimeAndSubscriptionUnlockOneEntitlement() throws {
    let catalog = ProductCatalog([
      CatalogProduct(id: "monthly", type: .autoRenewable, entitlement: "premium"),
      CatalogProduct(id: "lifetime", type: .nonConsumable, entitlement: "premium"),
    ])
    let evaluation = try evaluateOne(
      [sub("1", "2017-01-01", "2017-02-01"), purchase("2", "2017-03-01", product: "lifetime")],
      renewalInfo: [RenewalInfo(originalTransactionID: "1", autoRenewStatus: false)],
      catalog: catalog)
    #expect(evaluation.status(at: instant("2017-02-15")).reason == .voluntary)
    guard case .active(let active) = evaluation.status(at: instant("2030-01-01")) else {
      Issue.record("expected active forever")
      return
    }
    #expect(active.expiresAt == .distantFuture)
    #expect(active.willRenew == false)
    #expect(active.nextProductID == nil)
  }

  @Test func revokedFamilySharedPurchaseIsRevoked() throws {
    let shared = ReceiptEntry(
      productID: "monthly", transactionID: "1", purchaseDate: instant("2017-01-01"),
      expiresDate: instant("2017-02-01"), cancellationDate: instant("2017-01-15"),
      rawInAppOwnershipType: "FAMILY_SHARED")
    let evaluation = try evaluateOne([shared])
    #expect(evaluation.status(at: instant("2017-01-10")).state == .revoked)
    #expect(evaluation.coverage.first?.entry.inAppOwnershipType == .familyShared)
  }
}

@Suite("Refunds never add access")
struct RefundNeverAddsAccessTests {
  static let catalog = ProductCatalog([
    CatalogProduct(
      id: "monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
      entitlement: "premium"),
    CatalogProduct(
      id: "yearly", type: .autoRenewable, duration: CalendarPeriod(1, .year),
      entitlement: "premium"),
    CatalogProduct(
      id: "pass", type: .nonRenewing, duration: CalendarPeriod(1, .month),
      entitlement: "premium"),
  ])

  /// Subscription 1 (monthly) is in its grace period to Jan 29 after expiring on Jan 1; the
  /// customer's other subscription, 2 (yearly), ran to Jan 26. Read from the subscription
  /// that ends the last period only, there was no grace, and refunding the yearly plan gave
  /// one (found by the law `refundingAnEntryNeverAddsAccess`, seed 28).
  @Test func graceOfASubscriptionThatDoesNotEndTheLastPeriod() throws {
    let grace = RenewalInfo(
      originalTransactionID: "1", autoRenewStatus: true, isInBillingRetryPeriod: true,
      gracePeriodExpiresDate: instant("2026-01-29"))
    let monthly = sub("m", "2025-12-01", "2026-01-01")
    let yearly = sub("y", "2025-01-26", "2026-01-26", product: "yearly", original: "2")
    let both = try evaluateOne([monthly, yearly], renewalInfo: [grace], catalog: Self.catalog)
    #expect(both.gracePeriod == interval("2026-01-26", "2026-01-29"))
    #expect(
      both.status(at: instant("2026-01-27"))
        == .gracePeriod(
          expiredAt: instant("2026-01-26"), gracePeriodEndsAt: instant("2026-01-29"),
          retryEndsAt: instant("2026-01-26") + .days(60),
          // The subscription in grace (1, monthly), which renews: not the yearly that ended.
          renewal: PendingRenewal(productID: "monthly", willRenew: true, nextProductID: nil)))
    // Boundaries: the period's end is outside it (grace begins there), and so is grace's end.
    #expect(both.status(at: instant("2026-01-26") - .milliseconds(1)).state == .active)
    #expect(both.status(at: instant("2026-01-26")).state == .gracePeriod)
    #expect(!both.isEntitled(at: instant("2026-01-29")))
    let refunded = try evaluateOne(
      [
        monthly,
        sub(
          "y", "2025-01-26", "2026-01-26", product: "yearly", original: "2",
          cancelled: "2025-02-01"),
      ],
      renewalInfo: [grace], catalog: Self.catalog)
    for day in ["2026-01-01", "2026-01-27", "2026-01-28"] {
      #expect(refunded.isEntitled(at: instant(day)) == false || both.isEntitled(at: instant(day)))
    }
  }

  /// The yearly subscription 2 was refunded, so it covers nothing; its renewal info still
  /// says it is in grace to Mar 9, 2012. The monthly subscription 1 ends the last period on
  /// Oct 15, 2011, with no grace of its own: the entitlement is expired from Oct 15, not in a
  /// five-month grace lent by a subscription the customer was refunded (found by the naive
  /// model on a generated history, seed 11412848779935246406).
  @Test func aRefundedSubscriptionLendsNoGrace() throws {
    let refundedGrace = RenewalInfo(
      originalTransactionID: "2", autoRenewStatus: true, isInBillingRetryPeriod: true,
      gracePeriodExpiresDate: instant("2012-03-09"))
    let monthly = sub("m", "2011-09-15", "2011-10-15")
    let refundedYearly = sub(
      "y", "2011-03-03", "2012-03-03", product: "yearly", original: "2", cancelled: "2011-06-06")
    let evaluation = try evaluateOne(
      [monthly, refundedYearly], renewalInfo: [refundedGrace], catalog: Self.catalog)
    #expect(evaluation.gracePeriod == nil)
    #expect(evaluation.status(at: instant("2011-10-15") - .milliseconds(1)).state == .active)
    #expect(evaluation.status(at: instant("2011-10-15")).state == .expired)
    #expect(!evaluation.isEntitled(at: instant("2011-11-01")))
    // Not refunded, the yearly plan ends the last period and its grace follows it.
    let kept = try evaluateOne(
      [monthly, sub("y", "2011-03-03", "2012-03-03", product: "yearly", original: "2")],
      renewalInfo: [refundedGrace], catalog: Self.catalog)
    #expect(kept.gracePeriod == interval("2012-03-03", "2012-03-09"))
  }

  /// A monthly pass stacked on subscription 1 runs past its expiry (Jun 12) to Jul 7, while
  /// the subscription is in its grace period to Jul 10 and in billing retry: the grace
  /// continues after the pass, then billing retry (its renewal info describes the time after
  /// the period), and releases of the grace are readable (law seed 12).
  @Test func graceContinuesAfterAPassThatRanPastTheSubscription() throws {
    let info = RenewalInfo(
      originalTransactionID: "1", isInBillingRetryPeriod: true,
      gracePeriodExpiresDate: instant("2016-07-10"))
    let evaluation = try evaluateOne(
      [
        purchase("p", "2016-05-07", product: "pass"),
        sub("w", "2016-06-05", "2016-06-12"),
      ], renewalInfo: [info], catalog: Self.catalog)
    #expect(evaluation.periods.map(\.interval) == [interval("2016-05-07", "2016-06-12")])
    let stacked = try evaluateOne(
      [
        purchase("p", "2016-05-07", product: "pass"),
        purchase("q", "2016-05-09", product: "pass"),
        sub("w", "2016-06-05", "2016-06-12"),
      ], renewalInfo: [info], catalog: Self.catalog)
    let end = instant("2016-07-07")
    #expect(stacked.periods.map(\.interval) == [Interval(start: instant("2016-05-07"), end: end)])
    #expect(stacked.renewalInfo == info)
    #expect(stacked.gracePeriod == Interval(start: end, end: instant("2016-07-10")))
    #expect(stacked.status(at: instant("2016-07-08")).state == .gracePeriod)
    #expect(
      stacked.status(at: instant("2016-07-11"))
        == .billingRetry(
          expiredAt: end, retryEndsAt: end + .days(60),
          // The subscription the pass ran past, whose renewal info says nothing of renewing.
          renewal: PendingRenewal(productID: "monthly", willRenew: nil, nextProductID: nil)))
    let release = Release(id: "issue", date: instant("2016-07-08"))
    #expect(
      stacked.readableReleases([release], asOf: instant("2016-07-09")).map(\.reason)
        == [.releasedInGracePeriod(Interval(start: end, end: instant("2016-07-10")))])
  }

  /// Renewal info of a subscription with no entry in the entitlement gives it no grace.
  @Test func graceOfAnotherEntitlementsSubscriptionDoesNotCount() throws {
    let catalog = ProductCatalog([
      CatalogProduct(id: "monthly", type: .autoRenewable, entitlement: "premium"),
      CatalogProduct(id: "other", type: .autoRenewable, entitlement: "other"),
    ])
    let evaluation = Evaluator(catalog: catalog).evaluate(
      PurchaseHistory(
        entries: [
          sub("a", "2020-01-01", "2020-02-01"),
          sub("b", "2020-01-15", "2020-02-15", product: "other", original: "2"),
        ],
        renewalInfo: [
          RenewalInfo(
            originalTransactionID: "2", isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: instant("2020-03-01"))
        ]))
    #expect(evaluation["premium"]?.gracePeriod == nil)
    #expect(evaluation["premium"]?.isEntitled(at: instant("2020-02-10")) == false)
    #expect(evaluation["other"]?.gracePeriod == interval("2020-02-15", "2020-03-01"))
  }

  @Test func refundingTheNewPlanDoesNotGiveTheOldPlanBack() throws {
    let upgraded = sub("1", "2020-01-01", "2020-12-31", product: "yearly", upgraded: true)
    let newPlan = sub("2", "2020-03-01", "2020-04-01")
    let before = try evaluateOne([upgraded, newPlan])
    let after = try evaluateOne([
      upgraded, sub("2", "2020-03-01", "2020-04-01", cancelled: "2020-03-10"),
    ])
    #expect(before.isEntitled(at: instant("2020-06-01")) == false)
    #expect(after.isEntitled(at: instant("2020-06-01")) == false)
    #expect(after.coverage.first?.interval == interval("2020-01-01", "2020-03-01"))
  }

  @Test func graceDoesNotApplyBeforeALaterRefundedPurchase() throws {
    let grace = RenewalInfo(
      originalTransactionID: "1", isInBillingRetryPeriod: true,
      gracePeriodExpiresDate: instant("2020-03-01"))
    let entries = [sub("1", "2020-01-01", "2020-02-01"), sub("2", "2020-02-20", "2020-03-20")]
    let before = try evaluateOne(entries, renewalInfo: [grace])
    #expect(before.isEntitled(at: instant("2020-02-10")) == false)
    let refunded = try evaluateOne(
      [entries[0], sub("2", "2020-02-20", "2020-03-20", cancelled: "2020-02-25")],
      renewalInfo: [grace])
    #expect(
      refunded.status(at: instant("2020-02-10"))
        == .expired(expiredAt: instant("2020-02-01"), reason: .unknown))
    #expect(refunded.status(at: instant("2020-02-21")).state == .revoked)
  }
}
