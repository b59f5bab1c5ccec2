import Entitlements
import EntitlementsTesting
import Testing

@Suite("Content released over time (SPEC §8)")
struct ReleaseRulesTests {
  static let issues: [Release] = (2...7).map { month in
    Release(id: ReleaseID("2017-0\(month)"), date: instant("2017-0\(month)-01"))
  }

  @Test func table51ReadableFebMarAprJunJulNotMay() throws {
    let magazine = try evaluateOne(GuideTimelineTests.table51Entries)
    let readable = magazine.readableReleases(Self.issues.shuffled())
    #expect(readable.map(\.release.id) == ["2017-02", "2017-03", "2017-04", "2017-06", "2017-07"])
    #expect(
      readable.map(\.reason) == [
        .unlockedAtStart(periodStart: instant("2017-02-20T08:00:00Z")),
        .releasedWhileActive(period: interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z")),
        .releasedWhileActive(period: interval("2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z")),
        .unlockedAtStart(periodStart: instant("2017-06-17T08:00:00Z")),
        .releasedWhileActive(period: interval("2017-06-17T08:00:00Z", "2017-07-17T08:00:00Z")),
      ])
  }

  /// A calendar in date order skips the sort; any other order is sorted first, so the answer
  /// never depends on the order given. "2017-01-b" shares 2017-02's date and sorts before it.
  @Test(arguments: [
    (issues, [String]()),
    (Array(issues.reversed()), []),
    ([issues[1], issues[0]] + issues.dropFirst(2), []),
    (issues + [Release(id: "2017-01-b", date: issues[0].date)], ["2017-01-b"]),
    ([Release(id: "2017-01-b", date: issues[0].date)] + issues, ["2017-01-b"]),
  ])
  func answerDoesNotDependOnTheCalendarsOrder(calendar: [Release], extra: [String]) throws {
    let magazine = try evaluateOne(GuideTimelineTests.table51Entries)
    #expect(
      magazine.readableReleases(calendar).map(\.release.id.rawValue)
        == extra + ["2017-02", "2017-03", "2017-04", "2017-06", "2017-07"])
  }

  @Test(arguments: [
    ("2017-02-20T07:59:59.999Z", [String]()),
    ("2017-02-20T08:00:00Z", ["2017-02"]),
    ("2017-05-10", ["2017-02", "2017-03", "2017-04"]),
    ("2017-06-17T08:00:00Z", ["2017-02", "2017-03", "2017-04", "2017-06"]),
    ("2017-07-01", ["2017-02", "2017-03", "2017-04", "2017-06", "2017-07"]),
  ])
  func asOfAnInstantOnlyWhatHadHappened(at: String, expected: [String]) throws {
    let magazine = try evaluateOne(GuideTimelineTests.table51Entries)
    #expect(
      magazine.readableReleases(Self.issues, asOf: instant(at)).map(\.release.id.rawValue)
        == expected)
  }

  @Test func releaseExactlyAtAPeriodsStartIsReadableAndAtItsEndIsNot() throws {
    let magazine = try evaluateOne([sub("1", "2017-03-01", "2017-04-01")])
    let releases = [
      Release(id: "start", date: instant("2017-03-01")),
      Release(id: "end", date: instant("2017-04-01")),
      Release(id: "before", date: instant("2017-02-01")),
    ]
    let readable = magazine.readableReleases(releases)
    #expect(readable.map(\.release.id) == ["start"])
    #expect(
      readable.first?.reason == .releasedWhileActive(period: interval("2017-03-01", "2017-04-01")))
  }

  @Test func releaseAtAPeriodsEndIsReadableWhenALaterStartUnlocksIt() throws {
    let magazine = try evaluateOne([
      sub("1", "2017-03-01", "2017-04-01"), sub("2", "2017-04-15", "2017-05-15"),
    ])
    let readable = magazine.readableReleases([Release(id: "end", date: instant("2017-04-01"))])
    #expect(readable.map(\.reason) == [.unlockedAtStart(periodStart: instant("2017-04-15"))])
  }

  @Test func twoReleasesOnTheDayOfARestartAreBothUnlocked() throws {
    let magazine = try evaluateOne([
      sub("1", "2017-01-01", "2017-02-01"), sub("2", "2017-03-10", "2017-04-10"),
    ])
    let releases = [
      Release(id: "a", date: instant("2017-03-01")), Release(id: "b", date: instant("2017-03-01")),
      Release(id: "older", date: instant("2017-02-15")),
    ]
    #expect(magazine.readableReleases(releases).map(\.release.id) == ["a", "b"])
  }

  @Test func unlockAtStartIsAPolicy() throws {
    let entries = [sub("1", "2017-03-10", "2017-04-10")]
    let releases = (1...3).map { Release(id: ReleaseID("\($0)"), date: instant("2017-0\($0)-01")) }
    let two = try evaluateOne(entries, policy: try Policy(unlockAtStart: 2))
    #expect(two.readableReleases(releases).map(\.release.id) == ["2", "3"])
    let none = try evaluateOne(entries, policy: try Policy(unlockAtStart: 0))
    #expect(none.readableReleases(releases).isEmpty)
  }

  @Test func graceCountsBillingRetryDoesNot() throws {
    let entries = [sub("1", "2017-03-01", "2017-04-01")]
    let releases = [
      Release(id: "in-grace", date: instant("2017-04-05")),
      Release(id: "in-retry", date: instant("2017-04-20")),
    ]
    let magazine = try evaluateOne(
      entries,
      renewalInfo: [
        RenewalInfo(
          originalTransactionID: "1", isInBillingRetryPeriod: true,
          gracePeriodExpiresDate: instant("2017-04-17"))
      ])
    let readable = magazine.readableReleases(releases)
    #expect(readable.map(\.release.id) == ["in-grace"])
    #expect(readable.first?.reason == .releasedInGracePeriod(interval("2017-04-01", "2017-04-17")))
  }

  @Test func refundedEntriesUnlockNothing() throws {
    let magazine = try evaluateOne([
      sub("1", "2017-01-01", "2017-02-01"),
      sub("2", "2017-03-01", "2017-04-01", cancelled: "2017-03-02"),
    ])
    let releases = [
      Release(id: "jan", date: instant("2017-01-15")),
      Release(id: "feb", date: instant("2017-02-15")),
      Release(id: "mar", date: instant("2017-03-15")),
    ]
    #expect(magazine.readableReleases(releases).map(\.release.id) == ["jan"])
  }

  @Test func releasesOfAnotherEntitlementAreIgnored() throws {
    let magazine = try evaluateOne([sub("1", "2017-01-01", "2017-02-01")])
    let releases = [
      Release(id: "mine", date: instant("2017-01-15"), entitlement: "1"),
      Release(id: "other", date: instant("2017-01-15"), entitlement: "podcast"),
      Release(id: "any", date: instant("2017-01-16")),
    ]
    #expect(magazine.readableReleases(releases).map(\.release.id) == ["mine", "any"])
  }

  /// SPEC §8 by the letter, one release and one period at a time: the reasons in the order
  /// the rules give them (released while active, then unlocked at start, period by period,
  /// then grace), the first one kept; by date, then id.
  static func reference(
    _ releases: [Release], _ evaluation: EntitlementEvaluation, asOf instant: Instant,
    unlockAtStart: Int
  ) -> [ReadableRelease] {
    var reasons: [ReleaseID: ReadableRelease.Reason] = [:]
    func give(_ release: Release, _ reason: ReadableRelease.Reason) {
      if release.date <= instant, reasons[release.id] == nil { reasons[release.id] = reason }
    }
    for period in evaluation.periods.map(\.interval) where period.start <= instant {
      for release in releases where period.start <= release.date && release.date < period.end {
        give(release, .releasedWhileActive(period: period))
      }
      let dates = Set(releases.map(\.date).filter { $0 <= period.start }).sorted().suffix(
        unlockAtStart)
      for release in releases where dates.contains(release.date) {
        give(release, .unlockedAtStart(periodStart: period.start))
      }
    }
    if let grace = evaluation.gracePeriod, evaluation.periods.last?.interval.end == grace.start {
      for release in releases where grace.start <= release.date && release.date < grace.end {
        give(release, .releasedInGracePeriod(grace))
      }
    }
    return releases.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
      .compactMap { release in
        reasons[release.id].map { ReadableRelease(release: release, reason: $0) }
      }
  }

  /// Calendars whose releases share a few dates (before, between and inside periods, and at
  /// their edges), against the rules by the letter, for several `unlockAtStart` and instants.
  /// Each release is marked once: what the start of a period unlocks, past what the start
  /// before it did.
  @Test(arguments: 0..<30 as Range<UInt64>)
  func calendarsWithSharedDatesAgreeWithTheRulesByTheLetter(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let start = instant("2020-01-01")
    // Monthly entries with gaps now and then; the last one in grace now and then.
    var entries: [ReceiptEntry] = []
    var from = start
    for index in 0..<12 {
      if random.chance(0.4) { from = from + .days(random.int64(in: 1...20)) }
      entries.append(
        ReceiptEntry(
          productID: "monthly", transactionID: TransactionID("\(100 + index)"),
          originalTransactionID: "1", purchaseDate: from, expiresDate: from + .days(30)))
      from = from + .days(30)
    }
    let infos =
      random.chance(0.5)
      ? [RenewalInfo(originalTransactionID: "1", gracePeriodExpiresDate: from + .days(6))] : []
    // A few dates: random instants, and the entries' edges.
    var dates = (0..<6).map { _ in start + .days(random.int64(in: -20...500)) }
    dates += entries.prefix(3).compactMap(\.purchaseDate) + [from]
    let releases = (0..<200).map {
      Release(
        id: ReleaseID("r\($0)"), date: dates[Int(random.int64(in: 0...Int64(dates.count - 1)))])
    }
    for unlockAtStart in 0...3 {
      let evaluation = try evaluateOne(
        entries, renewalInfo: infos, policy: try Policy(unlockAtStart: unlockAtStart))
      for asOf in [Instant.distantFuture, start + .days(random.int64(in: 0...500))] {
        #expect(
          evaluation.readableReleases(random.shuffled(releases), asOf: asOf)
            == Self.reference(releases, evaluation, asOf: asOf, unlockAtStart: unlockAtStart),
          "seed \(seed), unlockAtStart \(unlockAtStart), as of \(asOf)")
      }
    }
  }

  @Test func thousandsOfReleasesAndPeriodsWithoutANestedScan() throws {
    // 10 000 one-day periods with one-day gaps, 20 000 daily releases: half are readable.
    let start = instant("2000-01-01")
    let entries = (0..<10_000).map { index in
      let from = start + .days(Int64(2 * index))
      return ReceiptEntry(
        productID: "daily", transactionID: TransactionID("\(index)"), originalTransactionID: "1",
        purchaseDate: from, expiresDate: from + .days(1))
    }
    let releases = (0..<20_000).map {
      Release(id: ReleaseID("\($0)"), date: start + .days(Int64($0)))
    }
    let evaluation = try evaluateOne(entries)
    #expect(evaluation.periods.count == 10_000)
    #expect(evaluation.readableReleases(releases).count == 10_000)
  }
}
