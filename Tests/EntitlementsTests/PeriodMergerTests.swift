import EntitlementsTesting
import Testing

@testable import Entitlements

/// The evaluator merges each record into periods as it is made (``PeriodMerger``); merging the
/// finished records at once (``PeriodRules``) must give the same layout, for histories with
/// refunds, upgrades, gaps, invalid entries and several entitlements.
@Suite("Period merger: one record at a time equals all at once (SPEC §5)")
struct PeriodMergerTests {
  @Test(arguments: [0, 1, 2, 3] as [UInt64])
  func mergingAsRecordsAreMadeEqualsMergingThemAll(block: UInt64) {
    let generator = HistoryGenerator()
    var periods = 0
    for seed in block * 100..<(block + 1) * 100 {
      let customer = generator.generate(seed: seed)
      let evaluator = Evaluator(catalog: customer.catalog)
      for entitlement in evaluator.evaluate(customer.history).entitlements {
        let whole = PeriodRules.periods(
          of: entitlement.coverage.records, in: entitlement.coverage.entries,
          minimumLapse: evaluator.policy.minimumLapse)
        #expect(entitlement.layout == whole.layout, "seed \(seed)")
        #expect(entitlement.periods == whole.periods, "seed \(seed)")
        periods += entitlement.periods.count
      }
    }
    #expect(periods > 100)
  }

  /// With gaps shorter than the minimum lapse merged away, fed out of order it stops.
  /// A record covering `[start, end)`.
  static func record(_ start: String, _ end: String) -> CoverageRecord {
    let span = interval(start, end)
    return CoverageRecord(
      entryIndex: 0, productType: .autoRenewable, interval: span, disposition: .covers,
      naturalInterval: span)
  }

  @Test func mergesShortGapsAndStopsOutOfOrder() {
    let record = Self.record
    var merger = PeriodMerger(minimumLapse: .hours(1), checksOrder: true)
    merger.add(record("2020-01-01T00:00:00Z", "2020-01-02T00:00:00Z"), at: 0, coverageIndex: 0)
    merger.add(record("2020-01-02T00:30:00Z", "2020-01-03T00:00:00Z"), at: 2, coverageIndex: 2)
    merger.add(record("2020-01-05T00:00:00Z", "2020-01-06T00:00:00Z"), at: 3, coverageIndex: 3)
    let spans = merger.finish(end: 5)
    #expect(spans?.map(\.range) == [0..<3, 3..<5])
    #expect(
      spans?.map(\.interval) == [
        interval("2020-01-01T00:00:00Z", "2020-01-03T00:00:00Z"),
        interval("2020-01-05T00:00:00Z", "2020-01-06T00:00:00Z"),
      ])
    #expect(spans?.map(\.ending.coverageIndex) == [2, 3])
    var unordered = PeriodMerger(minimumLapse: .zero, checksOrder: true)
    unordered.add(record("2020-02-01", "2020-03-01"), at: 0, coverageIndex: 0)
    unordered.add(record("2020-01-01", "2020-02-01"), at: 1, coverageIndex: 1)
    #expect(!unordered.isMerging)
    #expect(unordered.finish(end: 2) == nil)
  }

  /// With a limit of periods, one period more stops the merge (the caller merges again).
  @Test(
    arguments: [(1, nil), (2, [0..<1, 1..<2]), (3, [0..<1, 1..<2])] as [(Int, [Range<Int>]?)])
  func aPeriodPastTheLimitStopsTheMerge(limit: Int, expected: [Range<Int>]?) {
    let record = Self.record
    var merger = PeriodMerger(minimumLapse: .zero, checksOrder: true, spanLimit: limit)
    merger.add(record("2020-01-01", "2020-02-01"), at: 0, coverageIndex: 0)
    merger.add(record("2020-03-01", "2020-04-01"), at: 1, coverageIndex: 1)
    #expect(merger.finish(end: 2)?.map(\.range) == expected)
    #expect(merger.isMerging == (expected != nil))
  }
}
