import Entitlements
import EntitlementsTesting
import Testing

@Suite("The generator kit tests itself")
struct ShrinkerTests {
  /// A planted bug: periods computed by a merge that treats touching coverage as a lapse.
  static func buggyPeriods(_ entitlement: EntitlementEvaluation) -> [Interval] {
    var periods: [Interval] = []
    for interval in entitlement.coverage.compactMap(\.interval).sorted(by: { $0.start < $1.start })
    {
      if let last = periods.last, interval.start < last.end {  // the bug: < instead of <=
        periods[periods.count - 1].end = max(last.end, interval.end)
      } else {
        periods.append(interval)
      }
    }
    return periods
  }

  @Test func aPlantedBugIsCaughtAndShrunkToAtMostThreeEntries() throws {
    let failure = try #require(
      checkProperty(500, seed: 20_261_122) { customer in
        customer.evaluate().entitlements.allSatisfy {
          Self.buggyPeriods($0) == $0.periods.map(\.interval)
        }
      })
    #expect(failure.shrunk.entries.count <= 3)
    #expect(failure.shrunk.entries.count >= 2)
    #expect(failure.description.contains("seed 20261122"))
    // The report shows the history that fails: two touching renewals.
    print(failure)
  }

  @Test func theSameSeedGivesTheSameHistory() {
    let generator = HistoryGenerator()
    for seed in [0, 1, 42, .max] as [UInt64] {
      #expect(generator.generate(seed: seed) == generator.generate(seed: seed))
    }
    #expect(generator.generate(seed: 1) != generator.generate(seed: 2))
  }

  @Test func theRandomSourceIsFixedAcrossPlatforms() {
    // SplitMix64 from seed 0: these values are the algorithm's, not the platform's.
    var random = SeededRandom(seed: 0)
    #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    var bounded = SeededRandom(seed: 99)
    let draws = (0..<1000).map { _ in bounded.int(in: 1...6) }
    #expect(Set(draws) == Set(1...6))
  }

  @Test func generatedHistoriesCoverTheShapesTheyPromise() {
    let generator = HistoryGenerator()
    var refunds = 0
    var upgrades = 0
    var sandbox = 0
    var touching = 0
    var gaps = 0
    var trials = 0
    var twoEntitlements = 0
    var manyPeriods = 0
    var manyRenewalInfos = 0
    var idsAreApples = true
    var idLengths: Set<Int> = []
    var largeCatalogs = 0
    for seed in 0..<500 as Range<UInt64> {
      let customer = generator.generate(seed: seed)
      let entitlements = Set(
        customer.entries.compactMap { customer.catalog[$0.productID]?.entitlement })
      if entitlements.count > 1 { twoEntitlements += 1 }
      if customer.evaluate().entitlements.contains(where: { $0.periods.count > 8 }) {
        manyPeriods += 1
      }
      if customer.renewalInfo.count > 4 { manyRenewalInfos += 1 }
      for entry in customer.entries {
        let ids =
          [entry.transactionID.rawValue, entry.originalTransactionID.rawValue]
          + (entry.webOrderLineItemID.map { [$0.rawValue] } ?? [])
        idsAreApples =
          idsAreApples && ids.allSatisfy { (15...16).contains($0.count) && UInt64($0) != nil }
        idLengths.formUnion(ids.map(\.count))
      }
      if customer.catalog.products.count > 16 { largeCatalogs += 1 }
      refunds += customer.entries.filter { $0.cancellationDate != nil && !$0.isUpgraded }.count
      upgrades += customer.entries.filter(\.isUpgraded).count
      trials += customer.entries.filter(\.isTrialPeriod).count
      if customer.environment == .sandbox { sandbox += 1 }
      let sorted = customer.entries.filter { $0.expiresDate != nil }.sorted {
        ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast)
      }
      for (a, b) in zip(sorted, sorted.dropFirst()) {
        if a.expiresDate == b.purchaseDate { touching += 1 }
        if let end = a.expiresDate, let start = b.purchaseDate, start > end { gaps += 1 }
      }
    }
    #expect(refunds > 50)
    #expect(upgrades > 30)
    #expect(sandbox > 50)
    #expect(touching > 200)
    #expect(gaps > 100)
    #expect(trials > 20)
    // Apple-shaped data that reaches the sizes the rules treat differently.
    #expect(idsAreApples)
    #expect(idLengths == [15, 16])
    #expect(largeCatalogs > 50)
    #expect(twoEntitlements > 50)
    #expect(manyPeriods > 3)
    #expect(manyRenewalInfos > 3)
  }
}
