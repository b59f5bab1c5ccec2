import Entitlements

/// Generates realistic purchase histories for property-based tests: renewals that touch,
/// overlap or leave gaps of any length from 1 ms to years; refunds; upgrades with and without
/// `cancellation_date`; free trials and intro offers; sandbox lengths; non-renewing and
/// lifetime purchases; renewal info in every state; release calendars; and a few invalid
/// entries.
///
/// The data is shaped like Apple's: transaction, original transaction and order line ids are
/// 15- or 16-digit numbers that increase with time, product ids are reverse-DNS, a history may
/// hold two entitlements (`premium` and `magazine`) with several products each, and its
/// catalog may list more products than it scans. Now and then a
/// history is long (up to ``largeEntries`` entries, with many subscriptions and renewal infos),
/// so that every size a rule treats differently is reached.
///
/// ```swift
/// let generator = HistoryGenerator(maximumEntries: 8)
/// let customer = generator.generate(seed: 1234)   // the same history on every machine
/// customer.entries.count                          // 0...8, or more for a long history
/// ```
public struct HistoryGenerator: Sendable {
  /// The most entries a usual history has.
  public var maximumEntries: Int
  /// The most entries a long history has.
  public var largeEntries: Int
  /// The chance that a history is long.
  public var largeChance: Double
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
  /// The chance that a history also subscribes to the second entitlement, `magazine`.
  public var secondEntitlementChance: Double

  /// Product ids of the catalog.
  public enum Products {
    /// Auto-renewable, `premium`.
    public static let monthly: ProductID = "com.example.premium.monthly"
    /// Auto-renewable, `premium`.
    public static let yearly: ProductID = "com.example.premium.yearly"
    /// Auto-renewable, `premium`.
    public static let weekly: ProductID = "com.example.premium.weekly"
    /// Non-renewing, one month of `premium`.
    public static let pass: ProductID = "com.example.premium.pass"
    /// Non-consumable, `premium` forever.
    public static let lifetime: ProductID = "com.example.premium.lifetime"
    /// Auto-renewable, `magazine`.
    public static let magazineMonthly: ProductID = "com.example.magazine.monthly"
    /// Auto-renewable, `magazine`.
    public static let magazineYearly: ProductID = "com.example.magazine.yearly"
  }

  /// The catalog every generated history uses: monthly, yearly and weekly subscriptions, a
  /// non-renewing pass and a lifetime purchase unlocking `premium`; a monthly and a yearly
  /// subscription unlocking `magazine`.
  public static let catalog = ProductCatalog([
    CatalogProduct(
      id: Products.monthly, type: .autoRenewable, duration: CalendarPeriod(1, .month),
      entitlement: "premium"),
    CatalogProduct(
      id: Products.yearly, type: .autoRenewable, duration: CalendarPeriod(1, .year),
      entitlement: "premium"),
    CatalogProduct(
      id: Products.weekly, type: .autoRenewable, duration: CalendarPeriod(1, .week),
      entitlement: "premium"),
    CatalogProduct(
      id: Products.pass, type: .nonRenewing, duration: CalendarPeriod(1, .month),
      entitlement: "premium"),
    CatalogProduct(id: Products.lifetime, type: .nonConsumable, entitlement: "premium"),
    CatalogProduct(
      id: Products.magazineMonthly, type: .autoRenewable, duration: CalendarPeriod(1, .month),
      entitlement: "magazine"),
    CatalogProduct(
      id: Products.magazineYearly, type: .autoRenewable, duration: CalendarPeriod(1, .year),
      entitlement: "magazine"),
  ])

  /// ``catalog`` and twenty products of other apps that no generated entry names: more
  /// products than a catalog scans (it hashes its ids past sixteen), as a store with many
  /// apps has.
  public static let largeCatalog = ProductCatalog(
    catalog.products.values.sorted { $0.id < $1.id }
      + (1...20).map { number in
        CatalogProduct(
          id: ProductID("com.example.other\(number).monthly"), type: .autoRenewable,
          duration: CalendarPeriod(1, .month), entitlement: EntitlementID("other\(number)"))
      })

  /// Creates a generator.
  ///
  /// - Parameters:
  ///   - maximumEntries: The most entries a usual history has.
  ///   - largeEntries: The most entries a long history has.
  ///   - largeChance: The chance that a history is long.
  ///   - refundChance: The chance that an entry is refunded.
  ///   - upgradeChance: The chance that an entry is upgraded.
  ///   - invalidChance: The chance that an entry is invalid.
  ///   - sandboxChance: The chance that a history is in the sandbox.
  ///   - oneTimePurchaseChance: The chance of non-renewing and lifetime purchases.
  ///   - secondEntitlementChance: The chance of a second entitlement's subscription.
  public init(
    maximumEntries: Int = 10, largeEntries: Int = 150, largeChance: Double = 0.03,
    refundChance: Double = 0.1, upgradeChance: Double = 0.08, invalidChance: Double = 0.03,
    sandboxChance: Double = 0.25, oneTimePurchaseChance: Double = 0.15,
    secondEntitlementChance: Double = 0.3
  ) {
    self.maximumEntries = maximumEntries
    self.largeEntries = largeEntries
    self.largeChance = largeChance
    self.refundChance = refundChance
    self.upgradeChance = upgradeChance
    self.invalidChance = invalidChance
    self.sandboxChance = sandboxChance
    self.oneTimePurchaseChance = oneTimePurchaseChance
    self.secondEntitlementChance = secondEntitlementChance
  }

  /// Apple-shaped ids: 15- or 16-digit numbers from a per-history base, increasing in the
  /// order they are drawn. A 15-digit base near the top may cross into 16 digits within one
  /// history, where the ids' text order (SPEC §3's tie-break) differs from their numeric order.
  struct IDs {
    private var next: UInt64

    init(_ random: inout SeededRandom) {
      next =
        random.chance(0.3)
        ? 100_000_000_000_000 + UInt64(random.int64(in: 0...899_999_999_000_000))
        : 2_000_000_000_000_000 + UInt64(random.int64(in: 0...900_000_000_000_000))
    }

    mutating func draw(_ random: inout SeededRandom) -> String {
      next += UInt64(random.int64(in: 1...50_000))
      return String(next)
    }
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
    let count =
      random.chance(largeChance)
      ? random.int(in: maximumEntries...max(maximumEntries, largeEntries))
      : random.int(in: 0...maximumEntries)
    var transactions = IDs(&random)
    var orderLines = IDs(&random)
    var entries: [ReceiptEntry] = []
    var end = start
    for (products, share) in [
      ([Products.monthly, Products.monthly, Products.yearly, Products.weekly], 1.0),
      ([Products.magazineMonthly, Products.magazineMonthly, Products.magazineYearly], 0.5),
    ] {
      guard share == 1.0 || random.chance(secondEntitlementChance) else { continue }
      let subscribed = subscriptions(
        products, count: max(share == 1.0 ? count : 1, Int(Double(count) * share)),
        from: start, sandbox: sandbox, transactions: &transactions, orderLines: &orderLines,
        random: &random)
      entries += subscribed.entries
      end = max(end, subscribed.end)
    }
    if random.chance(oneTimePurchaseChance) {
      for _ in 0..<random.int(in: 1...3) {
        let product = random.chance(0.8) ? Products.pass : Products.lifetime
        let date = start + .days(random.int64(in: -30...900))
        var entry = ReceiptEntry(
          productID: product, transactionID: TransactionID(transactions.draw(&random)),
          purchaseDate: date)
        if random.chance(refundChance) {
          entry.cancellationDate = date + .days(random.int64(in: 0...40))
        }
        entries.append(entry)
      }
    }
    // Entries come in the order of their ids, as Apple numbers them; that is usually, not
    // always, the order of purchase (overlaps bought earlier, one-time purchases).
    return GeneratedHistory(
      seed: seed, entries: entries,
      renewalInfo: renewalInfo(for: entries, sandbox: sandbox, random: &random),
      catalog: random.chance(0.3) ? Self.largeCatalog : Self.catalog,
      releases: releases(from: start, to: end, random: &random),
      environment: sandbox ? .sandbox : .production)
  }

  /// `count` entries of one entitlement's `products`, from `start`: renewals, lapses,
  /// overlaps, refunds, upgrades, a new subscription now and then; and where they end.
  func subscriptions(
    _ products: [ProductID], count: Int, from start: Instant, sandbox: Bool,
    transactions: inout IDs, orderLines: inout IDs, random: inout SeededRandom
  ) -> (entries: [ReceiptEntry], end: Instant) {
    var entries: [ReceiptEntry] = []
    var cursor = start
    var subscription: OriginalTransactionID?
    for index in 0..<count {
      let product = random.pick(products)
      let length = Self.length(of: product, sandbox: sandbox, random: &random)
      let purchase: Instant
      switch random.int(in: 0...9) {
      case 0...4: purchase = cursor  // touches: a renewal
      case 5...7: purchase = cursor + gap(&random, sandbox: sandbox)  // a lapse
      default: purchase = cursor - .milliseconds(random.int64(in: 1...max(1, length.milliseconds)))
      }
      let transaction = TransactionID(transactions.draw(&random))
      if subscription == nil || random.chance(0.1) {
        subscription = OriginalTransactionID(transaction.rawValue)
      }
      var entry = ReceiptEntry(
        productID: product, transactionID: transaction, originalTransactionID: subscription,
        webOrderLineItemID: WebOrderLineItemID(orderLines.draw(&random)),
        purchaseDate: purchase, expiresDate: purchase + length,
        isTrialPeriod: index == 0 && random.chance(0.2),
        isInIntroOfferPeriod: index == 0 && random.chance(0.1))
      if random.chance(invalidChance) {
        entry.expiresDate = purchase - .milliseconds(random.int64(in: 0...1000))
      } else if random.chance(refundChance) {
        entry.cancellationDate =
          purchase + .milliseconds(random.int64(in: 0...(length.milliseconds * 2)))
        entry.rawCancellationReason = random.pick(["0", "1"])
        // Apple's revocation types (2026): a prorated refund and a family revocation end
        // access at the revocation; a full refund, or none said, is as before. Drawn from the
        // transaction's own stream, so that every seed still makes the history it made before
        // they existed (the replay seeds of the property tests keep their histories).
        var own = SeededRandom(seed: UInt64(transaction.rawValue) ?? 0)
        entry.rawRevocationType = own.pick([
          nil, "REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE",
        ])
        if entry.revocationType == .refundProrated {
          entry.revocationPercentage = own.int(in: 1...99_999)
        }
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
    markCommitment(in: &entries)
    return (entries, cursor)
  }

  /// Now and then, the last months of the last subscription are billing periods of a
  /// commitment (a one-year product paid monthly, Apple's 2026 plan), from one to twelve of
  /// them, the last one its twelfth or an earlier one. Drawn from the subscription's own
  /// stream, so that every seed still makes the history it made before commitments existed.
  private func markCommitment(in entries: inout [ReceiptEntry]) {
    guard let last = entries.last else { return }
    var own = SeededRandom(seed: (UInt64(last.transactionID.rawValue) ?? 0) ^ 0x2026)
    guard own.chance(0.15) else { return }
    let months = entries.indices.filter {
      entries[$0].originalTransactionID == last.originalTransactionID
        && entries[$0].cancellationDate == nil && !entries[$0].isUpgraded
    }
    guard !months.isEmpty else { return }
    let count = min(months.count, own.int(in: 1...12))
    let lastNumber = own.int(in: count...12)
    let end =
      (entries[months[months.count - 1]].expiresDate ?? .distantPast)
      + .days(Int64(30 * (12 - lastNumber)))
    for (offset, index) in months.suffix(count).enumerated() {
      entries[index].rawBillingPlanType = "MONTHLY"
      entries[index].commitment = ReceiptEntry.Commitment(
        billingPeriodNumber: lastNumber - count + 1 + offset, totalBillingPeriods: 12,
        expiresDate: end)
    }
  }

  /// A subscription length: calendar months in production, the guide's table in the sandbox,
  /// now and then a short trial.
  static func length(of product: ProductID, sandbox: Bool, random: inout SeededRandom)
    -> FixedDuration
  {
    let yearly = product == Products.yearly || product == Products.magazineYearly
    if sandbox {
      if yearly { return .hours(1) }
      return product == Products.weekly ? .minutes(3) : .minutes(5)
    }
    if yearly { return .days(random.pick([365, 366])) }
    return product == Products.weekly ? .days(7) : .days(random.int64(in: 28...31))
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
        originalTransactionID: subscription,
        productID: entries.last { $0.originalTransactionID == subscription }?.productID,
        autoRenewProductID: entries.last { $0.originalTransactionID == subscription }?.productID,
        autoRenewStatus: random.chance(0.1) ? nil : random.chance(0.6),
        rawExpirationIntent: random.chance(0.5) ? nil : random.int(in: 1...6),
        isInBillingRetryPeriod: random.chance(0.1) ? nil : inRetry,
        gracePeriodExpiresDate: grace
          ? lastExpiry
            + (sandbox ? .minutes(random.int64(in: 1...10)) : .days(random.pick([3, 6, 16, 28])))
          : nil,
        priceConsentStatus: random.chance(0.1) ? random.chance(0.5) : nil,
        commitment: commitmentRenewal(of: subscription, in: entries))
    }
  }

  /// The renewal info's commitment, when the subscription's last entry is a billing period of
  /// one: whether it renews, drawn from the subscription's own stream.
  private func commitmentRenewal(
    of subscription: OriginalTransactionID, in entries: [ReceiptEntry]
  ) -> RenewalInfo.Commitment? {
    guard entries.last(where: { $0.originalTransactionID == subscription })?.commitment != nil
    else { return nil }
    var own = SeededRandom(seed: (UInt64(subscription.rawValue) ?? 0) ^ 0x2027)
    return RenewalInfo.Commitment(autoRenewStatus: own.chance(0.6))
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
