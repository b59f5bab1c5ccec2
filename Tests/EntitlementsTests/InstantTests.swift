import Entitlements
import EntitlementsTesting
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite("Instant: the date spellings of SPEC §1")
struct InstantTests {
  struct Spelling: CustomTestStringConvertible, Sendable {
    var text: String
    var milliseconds: Int64
    var testDescription: String { text }
  }

  static let spellings: [Spelling] = [
    .init(text: "2017-02-20T08:00:00Z", milliseconds: 1_487_577_600_000),
    .init(text: "2017-02-20T08:00:00.123Z", milliseconds: 1_487_577_600_123),
    .init(text: "2017-02-20T16:00:00.123+08:00", milliseconds: 1_487_577_600_123),
    .init(text: "2017-02-20T03:00:00-05:00", milliseconds: 1_487_577_600_000),
    .init(text: "2017-02-20 08:00:00 Etc/GMT", milliseconds: 1_487_577_600_000),
    .init(text: "2017-02-20 00:00:00 America/Los_Angeles", milliseconds: 1_487_577_600_000),
    .init(text: "1487577600000", milliseconds: 1_487_577_600_000),
    .init(text: "2017-02-20", milliseconds: 1_487_548_800_000),
    .init(text: "1970-01-01T00:00:00Z", milliseconds: 0),
    .init(text: "1969-12-31T23:59:59.999Z", milliseconds: -1),
    .init(text: "2024-02-29", milliseconds: 1_709_164_800_000),
  ]

  @Test(arguments: spellings)
  func readsEverySpelling(_ spelling: Spelling) throws {
    #expect(try Instant(parsing: spelling.text).millisecondsSince1970 == spelling.milliseconds)
  }

  /// Triples as Apple writes them in real receipts: `X_pst`, `X` and `X_ms` of one
  /// field, one per month of the year, so both daylight and standard time are covered.
  static let appleTriples: [(pacific: String, utc: String, milliseconds: Int64)] = [
    ("2020-01-10 05:27:17 America/Los_Angeles", "2020-01-10 13:27:17 Etc/GMT", 1_578_662_837_000),
    ("2018-02-26 07:16:13 America/Los_Angeles", "2018-02-26 15:16:13 Etc/GMT", 1_519_658_173_000),
    ("2014-03-12 03:15:06 America/Los_Angeles", "2014-03-12 10:15:06 Etc/GMT", 1_394_619_306_000),
    ("2014-05-16 19:09:45 America/Los_Angeles", "2014-05-17 02:09:45 Etc/GMT", 1_400_292_585_000),
    ("2017-07-24 01:13:24 America/Los_Angeles", "2017-07-24 08:13:24 Etc/GMT", 1_500_884_004_000),
    ("2013-08-01 00:00:00 America/Los_Angeles", "2013-08-01 07:00:00 Etc/GMT", 1_375_340_400_000),
    ("2020-09-28 05:55:53 America/Los_Angeles", "2020-09-28 12:55:53 Etc/GMT", 1_601_297_753_000),
    ("2020-10-07 02:33:05 America/Los_Angeles", "2020-10-07 09:33:05 Etc/GMT", 1_602_063_185_000),
    ("2013-11-14 02:20:44 America/Los_Angeles", "2013-11-14 10:20:44 Etc/GMT", 1_384_424_444_000),
    ("2012-12-01 23:15:54 America/Los_Angeles", "2012-12-02 07:15:54 Etc/GMT", 1_354_432_554_000),
  ]

  @Test func pacificSpellingsAgreeWithApplesOwnUTCFields() throws {
    for triple in Self.appleTriples {
      #expect(try Instant(parsing: triple.pacific).millisecondsSince1970 == triple.milliseconds)
      #expect(try Instant(parsing: triple.utc).millisecondsSince1970 == triple.milliseconds)
    }
  }

  /// Pacific wall clock at the daylight-time changes, under both US rules.
  static let pacificTransitions: [Spelling] = [
    // 2017: daylight from Sun Mar 12, 02:00 to Sun Nov 5, 02:00.
    .init(text: "2017-03-12 01:59:59 America/Los_Angeles", milliseconds: 1_489_312_799_000),
    .init(text: "2017-03-12 02:30:00 America/Los_Angeles", milliseconds: 1_489_314_600_000),
    .init(text: "2017-03-12 03:00:00 America/Los_Angeles", milliseconds: 1_489_312_800_000),
    .init(text: "2017-11-05 00:59:59 America/Los_Angeles", milliseconds: 1_509_868_799_000),
    .init(text: "2017-11-05 01:30:00 America/Los_Angeles", milliseconds: 1_509_870_600_000),
    .init(text: "2017-11-05 02:00:00 America/Los_Angeles", milliseconds: 1_509_876_000_000),
    // 2006: daylight from Sun Apr 2 to Sun Oct 29.
    .init(text: "2006-03-12 12:00:00 America/Los_Angeles", milliseconds: 1_142_193_600_000),
    .init(text: "2006-04-02 03:00:00 America/Los_Angeles", milliseconds: 1_143_972_000_000),
    .init(text: "2006-10-28 12:00:00 America/Los_Angeles", milliseconds: 1_162_062_000_000),
    .init(text: "2006-10-29 02:00:00 America/Los_Angeles", milliseconds: 1_162_116_000_000),
  ]

  @Test(arguments: pacificTransitions)
  func pacificDaylightTimeChanges(_ spelling: Spelling) throws {
    #expect(try Instant(parsing: spelling.text).millisecondsSince1970 == spelling.milliseconds)
  }

  @Test(arguments: [
    "", "2017-02-30", "2017-13-01", "2017-02-20T24:00:00Z", "2017-02-20T08:00:00",
    "2017-02-20 08:00:00 Europe/Paris", "20 Feb 2017", "2017-2-20", "2017-02-20T08:00:00Z junk",
    "1e12", "2017", "tomorrow",
  ])
  func refusesWhatIsNotADate(_ text: String) {
    #expect(throws: ValueError.self) { try Instant(parsing: text) }
  }

  @Test func describesInRFC3339() {
    #expect(Instant(millisecondsSince1970: 1_487_577_600_000).description == "2017-02-20T08:00:00Z")
    #expect(
      Instant(millisecondsSince1970: 1_487_577_600_123).description == "2017-02-20T08:00:00.123Z")
    #expect(Instant(millisecondsSince1970: -1).description == "1969-12-31T23:59:59.999Z")
    #expect(
      Instant(millisecondsSince1970: 1_487_577_600_005).description == "2017-02-20T08:00:00.005Z")
    #expect(
      Instant(millisecondsSince1970: -62_135_596_800_000).description == "0001-01-01T00:00:00Z")
    #expect(
      Instant(millisecondsSince1970: 253_402_300_800_000).description == "10000-01-01T00:00:00Z")
    #expect(Instant.distantFuture.description == "distantFuture")
  }

  @Test func descriptionRoundTrips() throws {
    var random = SeededRandom(seed: 7)
    for _ in 0..<2000 {
      let value = Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &random)
      let original = Instant(millisecondsSince1970: value)
      #expect(try Instant(parsing: original.description) == original)
    }
  }

  @Test func convertsToAndFromDate() {
    let instant = Instant(millisecondsSince1970: 1_500_000_000_123)
    #expect(Instant(instant.date) == instant)
    // Fractional milliseconds (Xcode test payloads) are truncated, as Apple's libraries do.
    #expect(
      Instant(Date(timeIntervalSince1970: 1_697_679_936.049_729_7)).millisecondsSince1970
        == 1_697_679_936_049)
  }

  @Test func arithmeticSaturatesInsteadOfTrapping() {
    #expect(Instant.distantFuture + .days(1) == .distantFuture)
    #expect(Instant.distantPast - .days(1) == .distantPast)
    #expect((Instant.distantFuture - Instant.distantPast).milliseconds == .max)
  }
}
