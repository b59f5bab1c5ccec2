import Entitlements
import Testing

@Suite("CalendarPeriod and FixedDuration: two kinds of length, never mixed (SPEC §1)")
struct DurationTests {
  struct Advance: CustomTestStringConvertible, Sendable {
    var anchor: String
    var period: String
    var times: Int
    var expected: String
    var testDescription: String { "\(anchor) + \(times) × \(period) = \(expected)" }
  }

  static let advances: [Advance] = [
    .init(
      anchor: "2017-01-31T10:00:00Z", period: "P1M", times: 1, expected: "2017-02-28T10:00:00Z"),
    .init(
      anchor: "2024-01-31T10:00:00Z", period: "P1M", times: 1, expected: "2024-02-29T10:00:00Z"),
    // Anchored, not chained: Jan 31 + 2 months is Mar 31, not Mar 28/29.
    .init(
      anchor: "2024-01-31T10:00:00Z", period: "P1M", times: 2, expected: "2024-03-31T10:00:00Z"),
    .init(
      anchor: "2024-01-31T10:00:00Z", period: "P1M", times: 3, expected: "2024-04-30T10:00:00Z"),
    .init(
      anchor: "2017-02-20T08:00:00Z", period: "P1M", times: 1, expected: "2017-03-20T08:00:00Z"),
    .init(
      anchor: "2017-11-30T00:00:00Z", period: "P3M", times: 1, expected: "2018-02-28T00:00:00Z"),
    .init(
      anchor: "2017-12-15T00:00:00Z", period: "P1M", times: 1, expected: "2018-01-15T00:00:00Z"),
    .init(
      anchor: "2024-02-29T00:00:00Z", period: "P1Y", times: 1, expected: "2025-02-28T00:00:00Z"),
    .init(
      anchor: "2024-02-29T00:00:00Z", period: "P1Y", times: 4, expected: "2028-02-29T00:00:00Z"),
    .init(
      anchor: "2017-03-10T00:00:00Z", period: "P1W", times: 1, expected: "2017-03-17T00:00:00Z"),
    .init(
      anchor: "2017-03-10T00:00:00Z", period: "P6M", times: 1, expected: "2017-09-10T00:00:00Z"),
    .init(
      anchor: "1969-12-31T00:00:00Z", period: "P2M", times: 1, expected: "1970-02-28T00:00:00Z"),
  ]

  @Test(arguments: advances)
  func calendarArithmeticClampsAtMonthEnd(_ advance: Advance) throws {
    let period = try CalendarPeriod(iso8601: advance.period)
    let result = period.advance(instant(advance.anchor), times: advance.times)
    #expect(result == instant(advance.expected))
  }

  @Test func readsCatalogDurations() throws {
    #expect(try CalendarPeriod(iso8601: "P1W") == CalendarPeriod(1, .week))
    #expect(try CalendarPeriod(iso8601: "P3M") == CalendarPeriod(3, .month))
    #expect(try CalendarPeriod(iso8601: "P1Y").description == "P1Y")
    for bad in ["", "P", "1M", "P1M1D", "PT5M", "P0M", "P1.5M", "PM", "P-1M"] {
      #expect(throws: ValueError.self, "\(bad)") { try CalendarPeriod(iso8601: bad) }
    }
  }

  @Test func readsFixedLengths() throws {
    #expect(try FixedDuration(iso8601: "P60D") == .days(60))
    #expect(try FixedDuration(iso8601: "P60D").milliseconds == 5_184_000_000)
    #expect(try FixedDuration(iso8601: "PT24H") == .hours(24))
    #expect(try FixedDuration(iso8601: "PT5M") == .minutes(5))
    #expect(try FixedDuration(iso8601: "PT0.5S") == .milliseconds(500))
    #expect(try FixedDuration(iso8601: "P1DT1H") == .hours(25))
    #expect(try FixedDuration(iso8601: "0") == .zero)
    #expect(try FixedDuration(iso8601: "300000") == .minutes(5))
    // Months and years are calendar lengths: refused as fixed lengths.
    for bad in ["P1M", "P1Y", "PT", "P1H", "5 minutes", "-5"] {
      #expect(throws: ValueError.self, "\(bad)") { try FixedDuration(iso8601: bad) }
    }
  }
}
