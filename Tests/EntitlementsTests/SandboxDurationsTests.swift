import Entitlements
import Testing

@Suite("Sandbox durations, both ways (SPEC §7)")
struct SandboxDurationsTests {
  struct Column: CustomTestStringConvertible, Sendable {
    var profile: SandboxProfile
    var minutes: [Int64]  // 1 week, 1 month, 2, 3, 6 months, 1 year
    var testDescription: String { "\(profile)" }
  }

  static let columns: [Column] = [
    .init(profile: .guide, minutes: [3, 5, 10, 15, 30, 60]),
    .init(profile: .renewalRate(.threeMinutes), minutes: [3, 3, 6, 9, 18, 36]),
    .init(profile: .renewalRate(.fiveMinutes), minutes: [3, 5, 10, 15, 30, 60]),
    .init(profile: .renewalRate(.fifteenMinutes), minutes: [5, 15, 30, 45, 90, 180]),
    .init(profile: .renewalRate(.thirtyMinutes), minutes: [10, 30, 60, 90, 180, 360]),
    .init(profile: .renewalRate(.oneHour), minutes: [15, 60, 120, 180, 360, 720]),
    .init(profile: .testFlight, minutes: Array(repeating: 1440, count: 6)),
  ]

  static let production = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"]

  @Test(arguments: columns)
  func everyRowBothWays(_ column: Column) throws {
    for (spelling, minutes) in zip(Self.production, column.minutes) {
      let duration = try CalendarPeriod(iso8601: spelling)
      #expect(column.profile.length(of: duration) == .minutes(minutes), "\(spelling)")
      let match = column.profile.productionDuration(forObserved: .minutes(minutes))
      let sameLength = zip(Self.production, column.minutes).filter { $0.1 == minutes }
      if sameLength.count == 1 {
        #expect(match == .recognized(duration), "\(spelling)")
      } else {
        // 1 week and 1 month both last 3 minutes at the 3-minute rate; TestFlight renews daily.
        let all = try sameLength.map { try CalendarPeriod(iso8601: $0.0) }
        #expect(match == .ambiguous(all), "\(spelling)")
      }
    }
  }

  @Test func twelveMonthsIsAYear() {
    #expect(SandboxProfile.guide.length(of: CalendarPeriod(12, .month)) == .hours(1))
    #expect(SandboxProfile.guide.length(of: CalendarPeriod(5, .day)) == nil)
  }

  @Test func recognitionUsesTheToleranceAndSaysNoMatchOtherwise() {
    let guide = SandboxProfile.guide
    #expect(
      guide.productionDuration(forObserved: .milliseconds(299_996)) == .recognized(.init(1, .month))
    )
    #expect(guide.productionDuration(forObserved: .seconds(305)) == .recognized(.init(1, .month)))
    #expect(guide.productionDuration(forObserved: .seconds(306)) == .noMatch)
    #expect(guide.productionDuration(forObserved: .seconds(240)) == .noMatch)
    #expect(
      guide.productionDuration(forObserved: .seconds(240), tolerance: .seconds(60))
        == .ambiguous([CalendarPeriod(1, .week), CalendarPeriod(1, .month)]))
    #expect(guide.productionDuration(forObserved: .milliseconds(-1_130_598_000)) == .noMatch)
  }

  struct FixtureCase: CustomTestStringConvertible, Sendable {
    var file: String
    var profile: SandboxProfile
    /// For each product, how many records (an entry in both `in_app` and
    /// `latest_receipt_info` counts twice) the table maps to each answer.
    var expected: [String: [SandboxDurationMatch: Int]]
    var testDescription: String { file }
  }

  static let month = SandboxDurationMatch.recognized(CalendarPeriod(1, .month))
  static let week = SandboxDurationMatch.recognized(CalendarPeriod(1, .week))
  static let year = SandboxDurationMatch.recognized(CalendarPeriod(1, .year))

  @Test func windowsScaleByTheProductsRatio() {
    let month = CalendarPeriod(1, .month)
    let production = WindowLengths(billingRetryLimit: .days(60))
    let guide = production.scaled(by: .guide, for: month)
    #expect(guide.billingRetry == .minutes(10))
    #expect(guide.billingCheck == .seconds(100))
    #expect(guide.renewalAttempts == .seconds(10))
    #expect(
      production.scaled(by: .guide, for: CalendarPeriod(1, .year)).billingRetry
        == .milliseconds(591_780))
    #expect(production.scaled(by: .renewalRate(.oneHour), for: month).billingRetry == .hours(2))
    #expect(production.scaled(by: .testFlight, for: month).billingRetry == .days(2))
    // Unknown duration: the 1-month row.
    #expect(production.scaled(by: .guide, for: nil).billingRetry == .minutes(10))
  }

  static let sandboxMonthly = [
    sub("1", "2020-07-16T14:00:00Z", "2020-07-16T14:05:00Z"),
    sub("2", "2020-07-16T14:05:21Z", "2020-07-16T14:10:21Z"),
  ]

  @Test func aShortSandboxGapIsALapseUntilMinimumLapseMergesIt() throws {
    let strict = try evaluateOne(Self.sandboxMonthly, environment: .sandbox)
    #expect(
      strict.lapses.map(\.interval) == [interval("2020-07-16T14:05:00Z", "2020-07-16T14:05:21Z")])
    let merged = try evaluateOne(
      Self.sandboxMonthly, policy: validPolicy { try Policy(minimumLapse: .minutes(1)) },
      environment: .sandbox)
    #expect(merged.lapses.isEmpty)
    #expect(
      merged.periods.map(\.interval) == [interval("2020-07-16T14:00:00Z", "2020-07-16T14:10:21Z")])
  }

  @Test func sandboxRetryWindowIsTenMinutesForAMonthlyProduct() throws {
    let evaluation = try evaluateOne(
      Self.sandboxMonthly,
      renewalInfo: [RenewalInfo(originalTransactionID: "1", isInBillingRetryPeriod: true)],
      catalog: magazineCatalog, environment: .sandbox)
    let expiry = instant("2020-07-16T14:10:21Z")
    #expect(
      evaluation.windows.last?.billingRetry == Interval(start: expiry, end: expiry + .minutes(10)))
    #expect(evaluation.status(at: expiry + .minutes(10) - .milliseconds(1)).state == .billingRetry)
    #expect(evaluation.status(at: expiry + .minutes(10)).reason == .billingRetryExhausted)
    // Without a catalog the length is read from the entry: 5 minutes stands for a month.
    let uncatalogued = try evaluateOne(
      Self.sandboxMonthly,
      renewalInfo: [RenewalInfo(originalTransactionID: "1", isInBillingRetryPeriod: true)],
      environment: .sandbox)
    #expect(uncatalogued.billingRetryLimit == .minutes(10))
    // Scaling off: production lengths, as the policy says.
    let unscaled = try evaluateOne(
      Self.sandboxMonthly, policy: validPolicy { try Policy(scalesSandboxWindows: false) },
      environment: .sandbox)
    #expect(unscaled.billingRetryLimit == .days(60))
  }
}
