import Entitlements
import EntitlementsTesting
import Testing

@Suite("Timeline simulator: what the App Store would produce (SPEC §6, §7, §9)")
struct TimelineSimulatorTests {
  static let catalog = ProductCatalog([
    CatalogProduct(
      id: "monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
      entitlement: "magazine"),
    CatalogProduct(
      id: "yearly", type: .autoRenewable, duration: CalendarPeriod(1, .year),
      entitlement: "magazine"),
  ])

  static func run(
    _ events: [CustomerEvent], start: String = "2017-02-20T08:00:00Z", until: String,
    environment: StoreEnvironment = .production, policy: Policy = Policy(),
    gracePeriod: FixedDuration? = nil, product: ProductID = "monthly"
  ) throws -> SimulatedTimeline {
    try TimelineSimulator(
      catalog: catalog, environment: environment, policy: policy, gracePeriod: gracePeriod
    ).simulate(product: product, start: instant(start), events: events, until: instant(until))
  }

  static func evaluate(_ timeline: SimulatedTimeline, policy: Policy = Policy()) throws
    -> EntitlementEvaluation
  {
    let evaluation = Evaluator(catalog: catalog, policy: policy).evaluate(timeline.history)
    let magazine = try #require(evaluation["magazine"])
    #expect(magazine._invariantViolations().isEmpty)
    #expect(evaluation.diagnostics.isEmpty)
    return magazine
  }

  @Test func sandboxMonthlyRenewsEveryFiveMinutesSixTimesThenStops() throws {
    let t = instant("2020-07-16T14:00:00Z")
    let timeline = try Self.run(
      [], start: t.description, until: "2020-07-17T14:00:00Z", environment: .sandbox)
    #expect(timeline.entries.count == 7)
    #expect(timeline.entries.map(\.purchaseDate) == (0...6).map { t + .minutes(5 * $0) })
    #expect(timeline.entries.map(\.expiresDate) == (1...7).map { t + .minutes(5 * $0) })
    #expect(timeline.renewalInfo.autoRenewStatus == false)
    let magazine = try Self.evaluate(timeline)
    #expect(magazine.periods.map(\.interval) == [Interval(start: t, end: t + .minutes(35))])
    #expect(magazine.status(at: t + .minutes(35) - .milliseconds(1)).state == .active)
    #expect(
      magazine.status(at: t + .minutes(35))
        == .expired(expiredAt: t + .minutes(35), reason: .voluntary))
  }

  @Test func renewalRateProfileAllowsTwelveRenewals() throws {
    let timeline = try Self.run(
      [], start: "2025-10-01T00:00:00Z", until: "2025-10-02T00:00:00Z", environment: .sandbox,
      policy: validPolicy { try Policy(sandboxProfile: .renewalRate(.threeMinutes)) })
    #expect(timeline.entries.count == 13)
    #expect(
      timeline.entries.allSatisfy { entry in
        guard let purchase = entry.purchaseDate, let expires = entry.expiresDate else {
          return false
        }
        return expires - purchase == .minutes(3)
      })
  }

  @Test func testFlightRenewsDailySixTimes() throws {
    let timeline = try Self.run(
      [], start: "2025-10-01T00:00:00Z", until: "2025-11-01T00:00:00Z", environment: .sandbox,
      policy: validPolicy { try Policy(sandboxProfile: .testFlight) }, product: "yearly")
    #expect(timeline.entries.count == 7)
    #expect(timeline.entries.last?.expiresDate == instant("2025-10-08T00:00:00Z"))
  }

  static let issues: [Release] = (2...7).map { month in
    Release(id: ReleaseID("2017-0\(month)"), date: instant("2017-0\(month)-01"))
  }

  @Test func table51IsAHandfulOfEvents() throws {
    let timeline = try Self.run(
      [.autoRenewOff(at: instant("2017-04-01")), .subscribe(at: instant("2017-06-17T08:00:00Z"))],
      until: "2017-07-17T08:00:00Z")
    let magazine = try Self.evaluate(timeline)
    #expect(
      timeline.entries.map {
        Interval(start: $0.purchaseDate ?? .distantPast, end: $0.expiresDate ?? .distantPast)
      }
        == GuideTimelineTests.table51Entries.map {
          Interval(start: $0.purchaseDate ?? .distantPast, end: $0.expiresDate ?? .distantPast)
        })
    #expect(
      magazine.periods.map(\.interval) == [
        interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z"),
        interval("2017-06-17T08:00:00Z", "2017-07-17T08:00:00Z"),
      ])
    #expect(
      magazine.readableReleases(Self.issues).map(\.release.id) == [
        "2017-02", "2017-03", "2017-04", "2017-06", "2017-07",
      ])
  }

  @Test func table52IsAHandfulOfEvents() throws {
    let events: [CustomerEvent] = [
      .paymentFails(at: instant("2017-04-19")), .paymentFixed(at: instant("2017-05-05T08:00:00Z")),
    ]
    let during = try Self.run(events, until: "2017-04-25")
    #expect(during.renewalInfo.isInBillingRetryPeriod == true)
    #expect(during.renewalInfo.rawExpirationIntent == 2)
    let retrying = try Self.evaluate(during)
    #expect(
      retrying.status(at: instant("2017-04-25"))
        == .billingRetry(
          expiredAt: instant("2017-04-20T08:00:00Z"), retryEndsAt: instant("2017-06-19T08:00:00Z"),
          renewal: PendingRenewal(productID: "monthly", willRenew: true, nextProductID: "monthly")))

    let timeline = try Self.run(events, until: "2017-07-01")
    #expect(
      timeline.billingRecoveries == [
        BillingRecovery(originalTransactionID: "1", renewedAt: instant("2017-05-05T08:00:00Z"))
      ])
    let magazine = try Self.evaluate(timeline)
    #expect(
      magazine.periods.map(\.interval) == [
        interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z"),
        interval("2017-05-05T08:00:00Z", "2017-07-05T08:00:00Z"),
      ])
    #expect(magazine.lapses.map(\.cause) == [.billingError])
    #expect(magazine.status(at: instant("2017-06-10")).expiresAt == instant("2017-07-05T08:00:00Z"))
  }

  @Test func recoveryInsideGraceKeepsTheRenewalDate() throws {
    let timeline = try Self.run(
      [.paymentFails(at: instant("2017-04-19")), .paymentFixed(at: instant("2017-04-25"))],
      until: "2017-05-01", gracePeriod: .days(16))
    let magazine = try Self.evaluate(timeline)
    #expect(timeline.billingRecoveries.isEmpty)
    #expect(
      magazine.periods.map(\.interval) == [interval("2017-02-20T08:00:00Z", "2017-05-20T08:00:00Z")]
    )
    let stillInGrace = try Self.run(
      [.paymentFails(at: instant("2017-04-19"))], until: "2017-04-25", gracePeriod: .days(16))
    #expect(
      try Self.evaluate(stillInGrace).status(at: instant("2017-04-25"))
        == .gracePeriod(
          expiredAt: instant("2017-04-20T08:00:00Z"),
          gracePeriodEndsAt: instant("2017-05-06T08:00:00Z"),
          retryEndsAt: instant("2017-06-19T08:00:00Z"),
          renewal: PendingRenewal(productID: "monthly", willRenew: true, nextProductID: "monthly")))
  }

  @Test func retryWindowPassingEndsTheSubscription() throws {
    let timeline = try Self.run(
      [
        .paymentFails(at: instant("2017-04-19")),
        .paymentFixed(at: instant("2017-06-19T08:00:00Z")),
      ],
      until: "2017-07-01")
    #expect(timeline.entries.count == 2)
    #expect(timeline.renewalInfo.isInBillingRetryPeriod == false)
    let magazine = try Self.evaluate(timeline)
    #expect(magazine.status(at: instant("2017-06-20")).reason == .billingError)
  }

  @Test func productionRenewalDatesAreAnchored() throws {
    let timeline = try Self.run([], start: "2024-01-31T10:00:00Z", until: "2024-05-01")
    #expect(
      timeline.entries.compactMap(\.expiresDate) == [
        instant("2024-02-29T10:00:00Z"), instant("2024-03-31T10:00:00Z"),
        instant("2024-04-30T10:00:00Z"), instant("2024-05-31T10:00:00Z"),
      ])
  }

  @Test func upgradeCutsTheCurrentEntry() throws {
    let timeline = try Self.run(
      [.upgrade(to: "yearly", at: instant("2017-03-01"))], until: "2017-06-01")
    #expect(timeline.entries.map(\.isUpgraded) == [true, false])
    #expect(timeline.entries.first?.cancellationDate == instant("2017-03-01"))
    let magazine = try Self.evaluate(timeline)
    #expect(magazine.periods.map(\.interval) == [interval("2017-02-20T08:00:00Z", "2018-03-01")])
    #expect(magazine.lapses.isEmpty)
  }

  @Test func downgradeTakesEffectAtTheNextRenewal() throws {
    let events: [CustomerEvent] = [.downgrade(to: "monthly", at: instant("2017-06-01"))]
    let pending = try Self.run(events, until: "2017-07-01", product: "yearly")
    #expect(pending.renewalInfo.autoRenewProductID == "monthly")
    #expect(pending.entries.map(\.productID) == ["yearly"])
    guard case .active(let active) = try Self.evaluate(pending).status(at: instant("2017-07-01"))
    else {
      Issue.record("expected active")
      return
    }
    #expect(active.productID == "yearly")
    #expect(active.nextProductID == "monthly")
    let after = try Self.run(events, until: "2018-03-01", product: "yearly")
    #expect(after.entries.map(\.productID) == ["yearly", "monthly"])
    #expect(after.entries.last?.expiresDate == instant("2018-03-20T08:00:00Z"))
  }

  @Test func refundOfAnEarlierTransaction() throws {
    // Transaction 2 covered Mar 20 – Apr 20; on Apr 25 transaction 3 is current.
    let timeline = try Self.run(
      [.refund("2", at: instant("2017-04-25"))], until: "2017-05-01")
    #expect(timeline.entries.count == 3)
    let magazine = try Self.evaluate(timeline)
    #expect(magazine.lapses.map(\.cause) == [.refund])
    #expect(magazine.status(at: instant("2017-03-25")).state == .revoked)
  }

  @Test func refundOfTheCurrentTransactionEndsTheSubscription() throws {
    let timeline = try Self.run([.refund("2", at: instant("2017-04-01"))], until: "2017-05-01")
    #expect(timeline.entries.count == 2)
    #expect(timeline.renewalInfo.autoRenewStatus == false)
    let magazine = try Self.evaluate(timeline)
    #expect(
      magazine.status(at: instant("2017-04-02"))
        == .revoked(transactionID: "2", revokedAt: instant("2017-04-01"), reason: .refund))
  }

  /// A refund names its transaction by id: the entries' own ids ("1", "2", …, also after an
  /// upgrade put its entry back), and no other spelling of one ("02", "+2", " 2").
  @Test(arguments: [
    ("1", true), ("2", true), ("3", false), ("02", false), ("+2", false), (" 2", false),
    ("0", false), ("4", false), ("-1", false), ("x", false),
  ])
  func aRefundFindsItsTransactionByItsId(id: String, isFound: Bool) throws {
    // Feb 20 monthly, upgraded on Mar 1 (entry 1 put back), then yearly entries 2 and 3 would
    // follow only after a year: refund on Apr 1, when entries 1 and 2 exist, and 3 not yet.
    let events: [CustomerEvent] = [
      .upgrade(to: "yearly", at: instant("2017-03-01")),
      .refund(TransactionID(id), at: instant("2017-04-01")),
    ]
    guard isFound else {
      #expect(throws: SimulationError.self, "\(id)") {
        try Self.run(events, until: "2017-05-01")
      }
      return
    }
    let timeline = try Self.run(events, until: "2017-05-01")
    #expect(timeline.entries.map(\.transactionID.rawValue) == ["1", "2"])
    // The upgraded entry is cut either way; the yearly one only when it is refunded.
    #expect(timeline.entries.map { $0.cancellationDate != nil } == [true, id == "2"])
    #expect(
      timeline.entries.map(\.rawCancellationReason) == [
        id == "1" ? "0" : nil, id == "2" ? "0" : nil,
      ])
  }

  @Test func impossibleInputIsRefusedWithAReason() {
    #expect(throws: SimulationError.self) { try Self.run([], until: "2017-03-01", product: "nope") }
    #expect(throws: SimulationError.self) {
      try Self.run([.subscribe(at: instant("2017-03-01"))], until: "2017-04-01")
    }
    #expect(throws: SimulationError.self) {
      try Self.run([.refund("9", at: instant("2017-03-01"))], until: "2017-04-01")
    }
  }
}
