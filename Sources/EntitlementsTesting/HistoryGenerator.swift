import Entitlements

/// Generates realistic purchase histories for property-based tests: renewals that touch,
/// overlap or leave gaps of any length from 1 ms to years; refunds; upgrades with and without
/// `cancellation_date`; free trials and intro offers; sandbox lengths; non-renewing and
/// lifetime purchases; renewal info in every state; release calendars; and a few invalid
/// entries.
///
/// ```swift
/// let generator = HistoryGenerator(maximumEntries: 8)
/// let customer = generator.generate(seed: 1234)   // the same history on every machine
/// customer.entries.count                          // 0...8
/// ```
public struct HistoryGenerator: Sendable {
  /// The most entries a history has.
  public var maximumEntries: Int
  /// The chance that an entry is refunded.
  public var refundChance: Double
  /// The chance that an entry is upgraded (half of them with `cancellation_date`).
  public var upgradeChance: Double
  /// The chance that an entry is invalid (`expires_date` not after `purchase_date`).
  public var invalidChance: Double
  /// The chance that a history is in the sandbox.
  public var sandboxChance: Double
  /// The chance that a history also has non-renewing and lifetime purchases.
  public var oneTimePurchaseChance: Double

  /// The catalog every generated history uses: monthly, yearly and a weekly trial product, a
  /// non-renewing pass and a lifetime purchase, all unlocking `premium`.
  public static let catalog = ProductCatalog([
    CatalogProduct(
      id: "monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
      entitlement: "premium"),
    CatalogProduct(
      id: "yearly", type: .autoRenewable, duration: CalendarPeriod(1, .year), entitlement: "premium"
    ),
    CatalogProduct(
      id: "weekly", type: .autoRenewable, duration: CalendarPeriod(1, .week), entitlement: "premium"
    ),
    CatalogProduct(
      id: "pass", type: .nonRenewing, duration: CalendarPeriod(1, .month), entitlement: "premium"),
    CatalogProduct(id: "lifetime", type: .nonConsumable, entitlement: "premium"),
  ])

  /// Creates a generator.
  ///
  /// - Parameters:
  ///   - maximumEntries: The most entries a history has.
  ///   - refundChance: The chance that an entry is refunded.
  ///   - upgradeChance: The chance that an entry is upgraded.
  ///   - invalidChance: The chance that an entry is invalid.
  ///   - sandboxChance: The chance that a history is in the sandbox.
  ///   - oneTimePurchaseChance: The chance of non-renewing and lifetime purchases.
  public init(
    maximumEntries: Int = 10, refundChance: Double = 0.1, upgradeChance: Double = 0.08,
    invalidChance: Double = 0.03, sandboxChance: Double = 0.25, oneTimePurchaseChance: Double = 0.15
  ) {
    self.maximumEntries = maximumEntries
    self.refundChance = refundChance
    self.upgradeChance = upgradeChance
    self.invalidChance = invalidChance
    self.sandboxChance = sandboxChance
    self.oneTimePurchaseChance = oneTimePurchaseChance
  }

  /// The history for a seed: the same seed always gives the same history.
  ///
  /// - Parameter seed: The seed.
  /// - Returns: The history.
  public func generate(seed: UInt64) -> GeneratedHistory {
    var random = SeededRandom(seed: seed)
    let sandbox = random.chance(sandboxChance)
    let start = Instant(
      millisecondsSince1970: random.int64(in: 1_262_304_000_000...1_735_689_600_000))
    let count = random.int(in: 0...maximumEntries)
    var entries: [ReceiptEntry] = []
    var cursor = start
    var subscription = OriginalTransactionID("s1")
    for index in 0..<count {
      let product: ProductID = random.pick(["monthly", "monthly", "yearly", "weekly"])
      let length = Self.length(of: product, sandbox: sandbox, random: &random)
      let purchase: Instant
      switch random.int(in: 0...9) {
      case 0...4: purchase = cursor  // touches: a renewal
      case 5...7: purchase = cursor + gap(&random, sandbox: sandbox)  // a lapse
      default: purchase = cursor - .milliseconds(random.int64(in: 1...max(1, length.milliseconds)))
      }
      if index > 0, random.chance(0.1) { subscription = OriginalTransactionID("s\(index + 1)") }
      var entry = ReceiptEntry(
        productID: product, transactionID: TransactionID("t\(index + 1)"),
        originalTransactionID: subscription,
        webOrderLineItemID: WebOrderLineItemID("w\(index + 1)"),
        purchaseDate: purchase, expiresDate: purchase + length,
        isTrialPeriod: index == 0 && random.chance(0.2),
        isInIntroOfferPeriod: index == 0 && random.chance(0.1))
      if random.chance(invalidChance) {
        entry.expiresDate = purchase - .milliseconds(random.int64(in: 0...1000))
      } else if random.chance(refundChance) {
        entry.cancellationDate =
          purchase + .milliseconds(random.int64(in: 0...(length.milliseconds * 2)))
        entry.rawCancellationReason = random.pick(["0", "1"])
      } else if random.chance(upgradeChance) {
        entry.isUpgraded = true
        if random.chance(0.5) {
          entry.cancellationDate =
            purchase + .milliseconds(random.int64(in: 0...length.milliseconds))
        }
      }
      if random.chance(0.05) { entry.rawInAppOwnershipType = "FAMILY_SHARED" }
      entries.append(entry)
      cursor = max(cursor, purchase + length)
    }
    if random.chance(oneTimePurchaseChance) {
      for index in 0..<random.int(in: 1...3) {
        let product: ProductID = random.chance(0.8) ? "pass" : "lifetime"
        let date = start + .days(random.int64(in: -30...900))
        var entry = ReceiptEntry(
          productID: product, transactionID: TransactionID("o\(index + 1)"), purchaseDate: date)
        if random.chance(refundChance) {
          entry.cancellationDate = date + .days(random.int64(in: 0...40))
        }
        entries.append(entry)
      }
    }
    return GeneratedHistory(
      seed: seed, entries: entries,
      renewalInfo: renewalInfo(for: entries, sandbox: sandbox, random: &random),
      catalog: Self.catalog, releases: releases(from: start, to: cursor, random: &random),
      environment: sandbox ? .sandbox : .production)
  }

  /// A subscription length: calendar months in production, the guide's table in the sandbox,
  /// now and then a short trial.
  static func length(of product: ProductID, sandbox: Bool, random: inout SeededRandom)
    -> FixedDuration
  {
    if sandbox {
      switch product {
      case "yearly": return .hours(1)
      case "weekly": return .minutes(3)
      default: return .minutes(5)
      }
    }
    switch product {
    case "yearly": return .days(random.pick([365, 366]))
    case "weekly": return .days(7)
    default: return .days(random.int64(in: 28...31))
    }
  }

  /// A gap between purchases: log-uniform from 1 ms to two years (or to a day in the sandbox).
  func gap(_ random: inout SeededRandom, sandbox: Bool) -> FixedDuration {
    let maximumExponent = sandbox ? 7.9 : 10.8  // 10^7.9 ms ≈ 22 h; 10^10.8 ms ≈ 2 years
    let exponent = Double(random.int(in: 0...1000)) / 1000 * maximumExponent
    var value = 1.0
    for _ in 0..<Int(exponent) { value *= 10 }
    value *= 1 + (exponent - Double(Int(exponent))) * 9
    return .milliseconds(max(1, Int64(value)))
  }

  /// Renewal info in every state, for some of the subscriptions.
  func renewalInfo(for entries: [ReceiptEntry], sandbox: Bool, random: inout SeededRandom)
    -> [RenewalInfo]
  {
    let subscriptions = Set(entries.filter { $0.expiresDate != nil }.map(\.originalTransactionID))
    return subscriptions.sorted().compactMap { subscription in
      guard random.chance(0.8) else { return nil }
      let lastExpiry =
        entries.filter { $0.originalTransactionID == subscription }.compactMap(\.expiresDate).max()
        ?? .distantPast
      let inRetry = random.chance(0.3)
      let grace = inRetry && random.chance(0.5)
      return RenewalInfo(
        originalTransactionID: subscription, productID: "monthly",
        autoRenewProductID: random.pick(["monthly", "yearly"]),
        autoRenewStatus: random.chance(0.1) ? nil : random.chance(0.6),
        rawExpirationIntent: random.chance(0.5) ? nil : random.int(in: 1...6),
        isInBillingRetryPeriod: random.chance(0.1) ? nil : inRetry,
        gracePeriodExpiresDate: grace
          ? lastExpiry
            + (sandbox ? .minutes(random.int64(in: 1...10)) : .days(random.pick([3, 6, 16, 28])))
          : nil,
        priceConsentStatus: random.chance(0.1) ? random.chance(0.5) : nil)
    }
  }

  /// A release calendar around the history: monthly issues, a few extra, some on one day.
  func releases(from start: Instant, to end: Instant, random: inout SeededRandom) -> [Release] {
    guard random.chance(0.7) else { return [] }
    let count = random.int(in: 1...30)
    let span = max((end - start).milliseconds, 1) + FixedDuration.days(120).milliseconds
    var releases: [Release] = []
    for index in 0..<count {
      let date = start - .days(60) + .milliseconds(random.int64(in: 0...span))
      releases.append(Release(id: ReleaseID("r\(index)"), date: date))
      if random.chance(0.1) { releases.append(Release(id: ReleaseID("r\(index)b"), date: date)) }
    }
    return releases
  }
}
