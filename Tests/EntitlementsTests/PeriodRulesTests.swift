import Entitlements
import Testing

@Suite("Active periods: union of coverage, merged where they overlap or touch (SPEC §5)")
struct PeriodRulesTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var entries: [ReceiptEntry]
    var policy = Policy()
    var periods: [Interval]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    .init(
      name: "touching renewals merge",
      entries: [sub("1", "2017-02-20", "2017-03-20"), sub("2", "2017-03-20", "2017-04-20")],
      periods: [interval("2017-02-20", "2017-04-20")]),
    .init(
      name: "a 1 ms gap is a lapse",
      entries: [
        sub("1", "2017-02-20", "2017-03-20"),
        sub("2", "2017-03-20T00:00:00.001Z", "2017-04-20"),
      ],
      periods: [
        interval("2017-02-20", "2017-03-20"), interval("2017-03-20T00:00:00.001Z", "2017-04-20"),
      ]),
    .init(
      name: "overlapping cross-grades without a flag count once",
      entries: [
        sub("1", "2020-11-20T10:00:00Z", "2020-11-20T11:00:00Z", product: "year"),
        sub("2", "2020-11-20T10:30:00Z", "2020-11-20T10:35:00Z", product: "month"),
        sub("3", "2020-11-20T10:50:00Z", "2020-11-20T11:05:00Z", product: "month"),
      ],
      periods: [interval("2020-11-20T10:00:00Z", "2020-11-20T11:05:00Z")]),
    .init(
      name: "minimumLapse merges a shorter gap",
      entries: [
        sub("1", "2020-07-16T14:00:00Z", "2020-07-16T14:05:00Z"),
        sub("2", "2020-07-16T14:05:21Z", "2020-07-16T14:10:21Z"),
      ],
      policy: validPolicy { try Policy(minimumLapse: .minutes(1)) },
      periods: [interval("2020-07-16T14:00:00Z", "2020-07-16T14:10:21Z")]),
    .init(
      name: "minimumLapse keeps a gap of exactly its length",
      entries: [
        sub("1", "2020-07-16T14:00:00Z", "2020-07-16T14:05:00Z"),
        sub("2", "2020-07-16T14:06:00Z", "2020-07-16T14:11:00Z"),
      ],
      policy: validPolicy { try Policy(minimumLapse: .minutes(1)) },
      periods: [
        interval("2020-07-16T14:00:00Z", "2020-07-16T14:05:00Z"),
        interval("2020-07-16T14:06:00Z", "2020-07-16T14:11:00Z"),
      ]),
    .init(
      name: "an entry inside another adds nothing",
      entries: [sub("1", "2017-01-01", "2017-12-31"), sub("2", "2017-03-01", "2017-04-01")],
      periods: [interval("2017-01-01", "2017-12-31")]),
  ]

  @Test(arguments: cases)
  func merges(_ test: Case) throws {
    let evaluation = try evaluateOne(test.entries, policy: test.policy)
    #expect(evaluation.periods.map(\.interval) == test.periods)
  }

  @Test func periodRecordsItsEntriesOfferAndHowItBegan() throws {
    let evaluation = try evaluateOne([
      sub("1", "2017-02-20", "2017-02-27", trial: true),
      sub("2", "2017-02-27", "2017-03-27"),
      sub("3", "2017-05-01", "2017-06-01", intro: true),
    ])
    try #require(evaluation.periods.count == 2)
    let first = evaluation.periods[0]
    #expect(first.start == .firstPurchase)
    #expect(first.beganWithTrial)
    #expect(!first.beganWithIntroOffer)
    #expect(first.transactionIDs == ["1", "2"])
    #expect(first.lastTransactionID == "2")
    let second = evaluation.periods[1]
    #expect(second.start == .restart)
    #expect(!second.beganWithTrial)
    #expect(second.beganWithIntroOffer)
    guard case .active(let active) = evaluation.status(at: instant("2017-02-21")) else {
      Issue.record("expected active during the trial")
      return
    }
    #expect(active.offer == .freeTrial)
  }

  /// A period's ids are read from the evaluation's coverage: equal to, and hashing like, a
  /// period built with the same ids listed, for periods out of order of purchase too.
  @Test func periodIdsReadFromCoverageEqualListedIds() throws {
    let evaluation = try evaluateOne([
      sub("1", "2017-01-01", "2017-02-01"), sub("2", "2017-02-01", "2017-03-01"),
      sub("4", "2017-01-15", "2017-01-20"), sub("3", "2017-05-01", "2017-06-01"),
    ])
    try #require(evaluation.periods.count == 2)
    let listed = evaluation.periods.map { period in
      ActivePeriod(
        interval: period.interval, start: period.start, transactionIDs: period.transactionIDs,
        lastTransactionID: period.lastTransactionID, beganWithTrial: period.beganWithTrial,
        beganWithIntroOffer: period.beganWithIntroOffer)
    }
    #expect(evaluation.periods[0].transactionIDs == ["1", "4", "2"])
    #expect(evaluation.periods[1].transactionIDs == ["3"])
    #expect(listed == evaluation.periods)
    #expect(listed.map(\.hashValue) == evaluation.periods.map(\.hashValue))
    let other = ActivePeriod(
      interval: listed[0].interval, start: listed[0].start, transactionIDs: ["1", "2"],
      lastTransactionID: listed[0].lastTransactionID)
    #expect(other != evaluation.periods[0])
    #expect(evaluation.periods.map(\.lastTransactionID) == ["2", "3"])
  }

  /// Coverage in order needs no order list, so a period's slice of the coverage can hold voided
  /// refunds (first, inside, last, and alone between two periods): they are no members, and
  /// the offer flags, the last entry and the entry giving access skip them.
  @Test func voidedRefundsInsideAPeriodAreNoMembers() throws {
    let evaluation = try evaluateOne([
      sub("1", "2017-01-01", "2017-02-01", cancelled: "2017-01-02", trial: true),
      sub("2", "2017-01-01", "2017-02-01", intro: true),
      sub("3", "2017-01-20", "2017-03-01", cancelled: "2017-01-25"),
      sub("4", "2017-02-01", "2017-03-01"),
      sub("5", "2017-02-15", "2017-04-01", cancelled: "2017-02-16"),
      sub("6", "2017-03-10", "2017-04-01", cancelled: "2017-03-11"),
      sub("7", "2017-05-01", "2017-06-01"),
    ])
    try #require(evaluation.periods.count == 2)
    #expect(evaluation.periods.map(\.transactionIDs) == [["2", "4"], ["7"]])
    #expect(evaluation.periods.map(\.lastTransactionID) == ["4", "7"])
    #expect(evaluation.periods[0].interval == interval("2017-01-01", "2017-03-01"))
    #expect(!evaluation.periods[0].beganWithTrial && evaluation.periods[0].beganWithIntroOffer)
    let listed = evaluation.periods.map { period in
      ActivePeriod(
        interval: period.interval, start: period.start, transactionIDs: period.transactionIDs,
        lastTransactionID: period.lastTransactionID, beganWithTrial: period.beganWithTrial,
        beganWithIntroOffer: period.beganWithIntroOffer)
    }
    #expect(listed == evaluation.periods)
    #expect(listed.map(\.hashValue) == evaluation.periods.map(\.hashValue))
    guard case .active(let active) = evaluation.status(at: instant("2017-02-20")) else {
      Issue.record("expected active inside the first period")
      return
    }
    #expect(active.transactionID == "4")
  }

  @Test func continuousSubscriptionStartSkipsLapsesShorterThan60Days() throws {
    let evaluation = try evaluateOne([
      sub("1", "2016-01-01", "2016-02-01"),
      // 61-day lapse: a new run starts.
      sub("2", "2016-04-02", "2016-05-02"),
      // 59-day lapse: same run.
      sub("3", "2016-06-30", "2016-07-30"),
    ])
    #expect(evaluation.continuousSubscriptionStart == instant("2016-04-02"))
    let sandbox = try evaluateOne(
      [
        sub("1", "2020-01-01T10:00:00Z", "2020-01-01T10:05:00Z"),
        sub("2", "2020-01-01T10:14:59Z", "2020-01-01T10:19:59Z"),
        sub("3", "2020-01-01T10:30:00Z", "2020-01-01T10:35:00Z"),
      ], environment: .sandbox)
    #expect(sandbox.continuousSubscriptionStart == instant("2020-01-01T10:30:00Z"))
  }

  /// SPEC §5: a run continues over lapses *shorter* than 60 days; a lapse of exactly 60 days
  /// (60 × 86 400 000 ms) starts a new run, one millisecond less does not.
  @Test(arguments: [
    ("2016-03-31T00:00:00Z", "2016-03-31T00:00:00Z"),  // lapse Jan 31 – Mar 31: 60 days
    ("2016-03-30T23:59:59.999Z", "2016-01-01T00:00:00Z"),  // 60 days − 1 ms
  ])
  func continuousSubscriptionAtExactlySixtyDays(restart: String, expectedStart: String) throws {
    let evaluation = try evaluateOne([
      sub("1", "2016-01-01T00:00:00Z", "2016-01-31T00:00:00Z"),
      sub("2", restart, "2016-05-01T00:00:00Z"),
    ])
    #expect(evaluation.continuousSubscriptionStart == instant(expectedStart))
  }
}
