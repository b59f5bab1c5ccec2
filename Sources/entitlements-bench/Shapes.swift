import Entitlements
import EntitlementsTesting
import Foundation

/// (e) no quadratic path, by shape: histories built to reach the engine's less common paths
/// (many subscriptions, many entitlements, ties, duplicates, refunds, upgrades, ids that are
/// not numbers), each evaluated at two sizes ten times apart, and a folded record, readable
/// releases and a simulated timeline, at two sizes too. A path linear or n log n in the
/// history's size takes about 10 to 13 times as long at the larger size (more where the
/// larger one no longer fits the cache); a quadratic one about 100 times.
enum Shapes {
  /// A shape: its name, and the evaluator and history of `n` entries.
  struct Shape: Sendable {
    let name: String
    let make: @Sendable (_ n: Int) -> (Evaluator, PurchaseHistory)
  }

  static let start = Instant(millisecondsSince1970: 1_300_000_000_000)

  /// Entry `index` of a monthly (or `days`-long) subscription `original`.
  static func entry(
    _ index: Int, product: ProductID = "com.example.monthly",
    original: OriginalTransactionID = "1000000700000000", purchase: Instant, days: Int64 = 30,
    transactionID: String? = nil
  ) -> ReceiptEntry {
    ReceiptEntry(
      productID: product,
      transactionID: TransactionID(transactionID ?? String(1_000_000_700_000_000 + index)),
      originalTransactionID: original,
      webOrderLineItemID: WebOrderLineItemID(String(1_000_000_050_000_000 + index)),
      purchaseDate: purchase, expiresDate: purchase + .days(days))
  }

  /// Subscription `index` of a history that names one per entry.
  static func subscription(_ index: Int) -> OriginalTransactionID {
    OriginalTransactionID(String(2_000_000_000_000_000 + index))
  }

  /// One entry per subscription, a day apart.
  static func oneEntryPerSubscription(_ n: Int) -> [ReceiptEntry] {
    (0..<n).map { entry($0, original: subscription($0), purchase: start + .days(Int64($0))) }
  }

  static func shuffled(_ entries: [ReceiptEntry], seed: UInt64) -> [ReceiptEntry] {
    var random = SeededRandom(seed: seed)
    return random.shuffled(entries)
  }

  static let all: [Shape] = [
    Shape(name: "one purchase instant, shuffled") { n in
      (
        Bench.evaluator,
        PurchaseHistory(entries: shuffled((0..<n).map { entry($0, purchase: start) }, seed: 1))
      )
    },
    Shape(name: "a subscription per entry, renewal info each") { n in
      let infos = (0..<n).map {
        RenewalInfo(
          originalTransactionID: subscription($0), autoRenewStatus: false, rawExpirationIntent: 1)
      }
      return (
        Bench.evaluator,
        PurchaseHistory(entries: shuffled(oneEntryPerSubscription(n), seed: 2), renewalInfo: infos)
      )
    },
    Shape(name: "  the same, in grace each") { n in
      let infos = (0..<n).map {
        RenewalInfo(
          originalTransactionID: subscription($0),
          gracePeriodExpiresDate: start + .days(Int64($0) + 40))
      }
      return (
        Bench.evaluator, PurchaseHistory(entries: oneEntryPerSubscription(n), renewalInfo: infos)
      )
    },
    Shape(name: "an entitlement per subscription, info, recoveries") { n in
      let infos = (0..<n).map {
        RenewalInfo(originalTransactionID: subscription($0), isInBillingRetryPeriod: true)
      }
      let recoveries = (0..<n).map {
        BillingRecovery(
          originalTransactionID: subscription($0), renewedAt: start + .days(Int64($0) + 31))
      }
      return (
        Evaluator(),
        PurchaseHistory(
          entries: oneEntryPerSubscription(n), renewalInfo: infos, billingRecoveries: recoveries)
      )
    },
    Shape(name: "an entitlement per product (catalog), shuffled") { n in
      let products = (0..<min(n, 20_000)).map {
        CatalogProduct(
          id: ProductID("p\($0)"), type: .autoRenewable, duration: CalendarPeriod(1, .month),
          entitlement: EntitlementID("e\($0)"))
      }
      let entries = (0..<n).map {
        entry($0, product: ProductID("p\($0 % products.count)"), purchase: start + .days(Int64($0)))
      }
      return (
        Evaluator(catalog: ProductCatalog(products)),
        PurchaseHistory(entries: shuffled(entries, seed: 3))
      )
    },
    Shape(name: "each entry twice, shuffled") { n in
      let once = (0..<n / 2).map { entry($0, purchase: start + .days(30 * Int64($0))) }
      return (Bench.evaluator, PurchaseHistory(entries: shuffled(once + once, seed: 4)))
    },
    Shape(name: "a lapse after each entry, in billing retry") { n in
      let entries = (0..<n).map { entry($0, purchase: start + .days(40 * Int64($0))) }
      let info = RenewalInfo(
        originalTransactionID: "1000000700000000", isInBillingRetryPeriod: true)
      return (Bench.evaluator, PurchaseHistory(entries: entries, renewalInfo: [info]))
    },
    Shape(name: "every entry refunded, shuffled") { n in
      let entries = (0..<n).map { index in
        var entry = entry(index, purchase: start + .days(30 * Int64(index)))
        entry.cancellationDate = start + .days(30 * Int64(index) + 3)
        return entry
      }
      return (Bench.evaluator, PurchaseHistory(entries: shuffled(entries, seed: 5)))
    },
    Shape(name: "one purchase instant, every entry refunded") { n in
      let entries = (0..<n).map { index in
        var entry = entry(index, purchase: start)
        entry.cancellationDate = start + .days(3)
        return entry
      }
      return (Bench.evaluator, PurchaseHistory(entries: shuffled(entries, seed: 6)))
    },
    Shape(name: "every other entry upgraded, no cancellation") { n in
      let entries = (0..<n).map { index in
        var entry = entry(index, purchase: start + .days(3 * Int64(index)))
        entry.isUpgraded = index % 2 == 0
        return entry
      }
      return (Bench.evaluator, PurchaseHistory(entries: shuffled(entries, seed: 6)))
    },
    Shape(name: "a yearly bought each day (overlaps)") { n in
      let entries = (0..<n).map {
        entry($0, product: "com.example.yearly", purchase: start + .days(Int64($0)), days: 365)
      }
      return (Bench.evaluator, PurchaseHistory(entries: entries))
    },
    Shape(name: "ids that are not numbers, shuffled") { n in
      let entries = (0..<n).map {
        entry($0, purchase: start + .days(30 * Int64($0)), transactionID: "t-\($0)")
      }
      return (Bench.evaluator, PurchaseHistory(entries: shuffled(entries, seed: 7)))
    },
  ]

  /// A record folded from single-entry documents, with as many upgrade evidences, asked for
  /// its history (the reading side's one step per subscriber that is not a document).
  struct MemoryDocument: PurchaseDocument {
    var entries: [ReceiptEntry]
    var upgrades: [UpgradeEvidence]
    var timestamp: Instant?
    var renewalInfo: [RenewalInfo] { [] }
    var billingRecoveries: [BillingRecovery] { [] }
    var environment: StoreEnvironment? { nil }
    var diagnostics: [Diagnostic] { [] }
  }

  static func record(_ n: Int) -> [MemoryDocument] {
    (0..<n).map { index in
      let purchase = start + .days(Int64(index))
      return MemoryDocument(
        entries: [
          entry(index, original: OriginalTransactionID(String(index % 100)), purchase: purchase)
        ],
        upgrades: [
          UpgradeEvidence(
            originalTransactionID: OriginalTransactionID(String(index % 100)),
            newTransactionID: TransactionID(String(9_000_000 + index)),
            upgradedAt: purchase + .hours(5))
        ],
        timestamp: purchase)
    }
  }

  /// An entitlement of `n` periods (a lapse after each entry) and a calendar of `n` releases,
  /// all at one date before the first period: each period's start unlocks all of them.
  static func releases(_ n: Int) -> (EntitlementEvaluation, [Release]) {
    let entries = (0..<n).map { entry($0, purchase: start + .days(40 * Int64($0))) }
    let calendar = (0..<n).map { Release(id: ReleaseID("issue-\($0)"), date: start - .days(1)) }
    guard
      let evaluation = Bench.evaluator.evaluate(PurchaseHistory(entries: entries)).entitlements
        .first
    else { fatalError("entitlements-bench: the releases shape has no entitlement") }
    return (evaluation, calendar)
  }

  /// A timed shape beside the histories: its name, and for `n`, inputs made untimed and the
  /// work to time (which returns a value for the checksum).
  struct Timed: Sendable {
    let name: String
    let prepare: @Sendable (_ n: Int) -> () -> Int
  }

  /// Each history shape, timed evaluating and asking every entitlement for its status and
  /// periods; then the record, the releases and the simulated timeline.
  static let timed: [Timed] =
    all.map { shape in
      Timed(name: shape.name) { n in
        let (evaluator, history) = shape.make(n)
        return {
          evaluator.evaluate(history).entitlements.reduce(0) { sink, entitlement in
            sink + (entitlement.status(at: Bench.probe).isEntitled ? 1 : 0)
              + entitlement.periods.count
          }
        }
      }
    } + [
      Timed(name: "a record of single-entry documents and upgrades") { n in
        let documents = record(n)
        return {
          var record = SubscriberRecord()
          for document in documents { record.fold(document) }
          return record.history.entries.count
        }
      },
      Timed(name: "readable releases: all at one date, a period each") { n in
        let (evaluation, calendar) = releases(n)
        return { evaluation.readableReleases(calendar).count }
      },
      Timed(name: "a simulated timeline: daily renewals, each refunded") { days in
        let catalog = ProductCatalog([
          CatalogProduct(
            id: "daily", type: .autoRenewable, duration: CalendarPeriod(1, .day),
            entitlement: "premium")
        ])
        // Each day's renewal refunded an hour into the next day.
        let events = (1..<days).map { day in
          CustomerEvent.refund(
            TransactionID(String(day)), at: start + .days(Int64(day)) + .hours(1))
        }
        return {
          do {
            return try TimelineSimulator(catalog: catalog).simulate(
              product: "daily", start: start, events: events, until: start + .days(Int64(days))
            ).entries.count
          } catch {
            fatalError("entitlements-bench: the simulated shape does not simulate: \(error)")
          }
        }
      },
    ]

  /// Prints each shape's time at the two sizes (best of three) and their ratio.
  static func run(quick: Bool) -> Int {
    var sink = 0
    // BENCH_N sets the larger size (for a closer look at a shape).
    let large =
      ProcessInfo.processInfo.environment["BENCH_N"].flatMap { Int($0) }
      ?? (quick ? 10_000 : 100_000)
    let small = large / 10
    print("")
    print(
      "(e) shapes: no quadratic path (n = \(format(Double(small))) and \(format(Double(large))); "
        + "about 10-13x for n log n, 100x if quadratic)")
    /// The best of three timed runs of `shape` at `n`.
    func bestOfThree(_ shape: Timed, _ n: Int) -> Double {
      let work = shape.prepare(n)
      return (0..<3).map { _ in seconds { sink &+= work() } }.min() ?? 0
    }
    // BENCH_SHAPE runs the shapes whose name contains it (for profiling).
    let only = ProcessInfo.processInfo.environment["BENCH_SHAPE"]
    for shape in timed where only.map({ shape.name.contains($0) }) ?? true {
      let (smallTime, largeTime) = (bestOfThree(shape, small), bestOfThree(shape, large))
      print(
        "    \(shape.name.padding(toLength: 52, withPad: " ", startingAt: 0))"
          + String(
            format: "%9.2f ms %9.2f ms  x%5.1f", smallTime * 1000, largeTime * 1000,
            largeTime / smallTime))
    }
    return sink
  }
}
