import Testing

@testable import Entitlements

/// Tiers (SPEC §2, issue 47): a catalog product may unlock several entitlements, and an
/// upgrade ends the old plan at the upgrade whatever the two plans unlock.
@Suite("Tiers: a product unlocking several entitlements")
struct TiersTests {
  static func catalog(premiumUnlocks: [EntitlementID]) -> ProductCatalog {
    ProductCatalog([
      CatalogProduct(
        id: "basic", type: .autoRenewable, duration: CalendarPeriod(1, .month),
        entitlement: "basic"),
      CatalogProduct(
        id: "premium", type: .autoRenewable, duration: CalendarPeriod(1, .month),
        entitlements: premiumUnlocks),
      CatalogProduct(id: "lifetime", type: .nonConsumable, entitlements: ["extras", "basic"]),
      CatalogProduct(id: "coins", type: .consumable, entitlements: ["basic", "premium"]),
    ])
  }

  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    let premiumUnlocks: [EntitlementID]
    let entries: [ReceiptEntry]
    /// The periods expected of each entitlement, by id.
    let periods: [EntitlementID: [Interval]]
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "premium includes basic: an upgrade keeps basic unbroken",
      premiumUnlocks: ["premium", "basic"],
      entries: [
        sub("1", "2026-01-01", "2026-02-01", product: "basic", upgraded: true),
        sub("2", "2026-01-15", "2026-02-15", product: "premium"),
      ],
      periods: [
        "basic": [interval("2026-01-01", "2026-02-15")],
        "premium": [interval("2026-01-15", "2026-02-15")],
      ]),
    Row(
      name: "premium alone: the upgraded basic ends where premium begins, as its successor",
      premiumUnlocks: ["premium"],
      entries: [
        sub("1", "2026-01-01", "2026-02-01", product: "basic", upgraded: true),
        sub("2", "2026-01-15", "2026-02-15", product: "premium"),
        // Apple's copy of an upgraded transaction ends at the upgrade.
      ].map { entry in
        var entry = entry
        if entry.isUpgraded { entry.cancellationDate = instant("2026-01-15") }
        return entry
      },
      periods: [
        "basic": [interval("2026-01-01", "2026-01-15")],
        "premium": [interval("2026-01-15", "2026-02-15")],
      ]),
    Row(
      name: "a non-consumable unlocking two: forever in each, a consumable in none",
      premiumUnlocks: ["premium"],
      entries: [
        purchase("5", "2026-03-01", product: "lifetime"),
        purchase("6", "2026-03-02", product: "coins"),
      ],
      periods: [
        "extras": [Interval(start: instant("2026-03-01"), end: .distantFuture)],
        "basic": [Interval(start: instant("2026-03-01"), end: .distantFuture)],
      ]),
    Row(
      name: "interleaved: basic, premium, basic again, each in basic's one group",
      premiumUnlocks: ["premium", "basic"],
      entries: [
        sub("1", "2026-01-01", "2026-02-01", product: "basic"),
        sub("2", "2026-02-01", "2026-03-01", product: "premium", original: "2"),
        sub("3", "2026-03-01", "2026-04-01", product: "basic"),
        sub("4", "2026-05-01", "2026-06-01", product: "premium", original: "2"),
      ],
      periods: [
        "basic": [interval("2026-01-01", "2026-04-01"), interval("2026-05-01", "2026-06-01")],
        "premium": [interval("2026-02-01", "2026-03-01"), interval("2026-05-01", "2026-06-01")],
      ]),
  ]

  @Test(arguments: rows)
  func eachEntitlementGetsTheProductsThatUnlockIt(_ row: Row) throws {
    let evaluation = Evaluator(catalog: Self.catalog(premiumUnlocks: row.premiumUnlocks))
      .evaluate(PurchaseHistory(entries: row.entries))
    #expect(Set(evaluation.entitlements.map(\.id)) == Set(row.periods.keys))
    for (id, periods) in row.periods {
      let entitlement = try #require(evaluation[id])
      #expect(entitlement.periods.map(\.interval) == periods, "\(id)")
      #expect(entitlement._invariantViolations().isEmpty)
    }
    #expect(!evaluation.diagnostics.contains { $0.kind == .upgradeWithoutSuccessor })
    // The consumable is a purchase event, whatever it lists.
    #expect(
      evaluation.purchaseEvents.map(\.entry.transactionID)
        == row.entries.filter { $0.productID == "coins" }.map(\.transactionID))
  }

  /// An upgrade notification alone marks the old plan upgraded and ends it at the upgrade,
  /// whether or not the new plan unlocks the old one's entitlement: two monthly renewals of
  /// one plan, then `DID_CHANGE_RENEWAL_PREF` / `UPGRADE` to the yearly plan on day 40.
  @Test(arguments: [["yearly", "monthly"], ["yearly"]] as [[EntitlementID]])
  func anUpgradeNotificationAloneEndsTheOldPlan(yearlyUnlocks: [EntitlementID]) throws {
    typealias Documents = NotificationEffectTests
    let (start, day) = (Documents.start, Documents.day)
    let catalog = ProductCatalog([
      CatalogProduct(
        id: ProductID(Documents.monthly), type: .autoRenewable,
        duration: CalendarPeriod(1, .month), entitlement: "monthly"),
      CatalogProduct(
        id: ProductID(Documents.yearly), type: .autoRenewable,
        duration: CalendarPeriod(1, .year), entitlements: yearlyUnlocks),
    ])
    var record = SubscriberRecord()
    let upgrade = Documents.notification(
      "DID_CHANGE_RENEWAL_PREF", "UPGRADE", signed: start + 40 * day, status: 1,
      transaction: Documents.transaction(
        2_000_000_000_000_250, product: Documents.yearly, purchase: start + 40 * day,
        expires: start + 405 * day),
      renewal: Documents.renewal(signed: start + 40 * day, product: Documents.yearly))
    for text in Documents.history(months: 2) + [upgrade] {
      record.fold(try DocumentReader.readUnverified(Array(text.utf8)))
    }
    let evaluation = Evaluator(catalog: catalog).evaluate(record.history)
    let monthly = try #require(evaluation["monthly"])
    let upgradeInstant = Instant(millisecondsSince1970: start + 40 * day)
    let ends = monthly.coverage.first { $0.entry.transactionID == "2000000000000201" }
    #expect(ends?.interval?.end == upgradeInstant)
    #expect(ends?.entry.isUpgraded == true)
    let after = monthly.status(at: upgradeInstant + .days(5))
    #expect(after.isEntitled == yearlyUnlocks.contains("monthly"))
    #expect(after.willRenew == (yearlyUnlocks.contains("monthly") ? true : nil))
    #expect(evaluation.diagnostics.isEmpty, "\(evaluation.diagnostics)")
  }

  /// A product's list keeps each entitlement once, its own first; an empty one stands for
  /// the product id.
  @Test func theCatalogListsEntitlements() {
    let product = CatalogProduct(
      id: "premium", type: .autoRenewable, entitlements: ["premium", "basic", "premium"])
    #expect(product.entitlements == ["premium", "basic"])
    #expect(product.entitlement == "premium")
    #expect(CatalogProduct(id: "x", type: .nonConsumable, entitlements: []).entitlement == "x")
  }
}
