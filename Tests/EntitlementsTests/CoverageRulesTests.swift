import Testing

@testable import Entitlements

@Suite("Coverage of one entry (SPEC §4, §6)")
struct CoverageRulesTests {
  @Test func autoRenewableCoversPurchaseToExpiry() throws {
    let magazine = try evaluateOne([sub("1", "2017-02-20", "2017-03-20")])
    let coverage = try #require(magazine.coverage.first)
    #expect(coverage.interval == interval("2017-02-20", "2017-03-20"))
    #expect(coverage.disposition == .covers)
  }

  @Test func refundVoidsTheEntryByDefault() throws {
    let magazine = try evaluateOne([
      sub("1", "2017-02-20", "2017-03-20", cancelled: "2017-03-01")
    ])
    #expect(magazine.coverage.first?.disposition == .refundVoided)
    #expect(magazine.coverage.first?.interval == nil)
    #expect(magazine.periods.isEmpty)
    #expect(magazine.status(at: instant("2017-02-25")).state == .revoked)
    // Before the purchase, nothing was bought yet.
    #expect(magazine.status(at: instant("2017-02-19")).state == .notSubscribed)
  }

  @Test func refundEndsAtCancellationUnderThatPolicy() throws {
    let magazine = try evaluateOne(
      [sub("1", "2017-02-20", "2017-03-20", cancelled: "2017-03-01")],
      policy: validPolicy { try Policy(cancellation: .endAtCancellation) })
    #expect(magazine.coverage.first?.interval == interval("2017-02-20", "2017-03-01"))
    #expect(magazine.coverage.first?.disposition == .refundEndedAt(instant("2017-03-01")))
    #expect(magazine.status(at: instant("2017-02-28T23:59:59.999Z")).state == .active)
    #expect(magazine.status(at: instant("2017-03-01")).state == .revoked)
  }

  @Test func refundInTheMiddleOfAHistory() throws {
    let magazine = try evaluateOne([
      sub("1", "2017-01-01", "2017-02-01"),
      sub("2", "2017-02-01", "2017-03-01", cancelled: "2017-02-10"),
      sub("3", "2017-03-01", "2017-04-01"),
    ])
    #expect(
      magazine.periods.map(\.interval) == [
        interval("2017-01-01", "2017-02-01"), interval("2017-03-01", "2017-04-01"),
      ])
    #expect(magazine.lapses.map(\.cause) == [.refund])
    #expect(magazine.status(at: instant("2017-02-15")).state == .revoked)
    #expect(magazine.status(at: instant("2017-03-15")).state == .active)
    #expect(magazine.periods.map(\.start) == [.firstPurchase, .restart])
  }

  @Test func upgradeMidPeriodEndsTheOldEntryAtTheCancellation() throws {
    let catalog = ProductCatalog([
      CatalogProduct(id: "monthly", type: .autoRenewable, entitlement: "premium"),
      CatalogProduct(id: "yearly", type: .autoRenewable, entitlement: "premium"),
    ])
    let premium = try evaluateOne(
      [
        sub("1", "2017-02-01", "2017-03-01", cancelled: "2017-02-10", upgraded: true),
        sub("2", "2017-02-10", "2018-02-10", product: "yearly"),
      ], catalog: catalog)
    let old = try #require(premium.coverage.first)
    #expect(old.interval == interval("2017-02-01", "2017-02-10"))
    #expect(old.disposition == .endedByUpgrade(at: instant("2017-02-10")))
    #expect(premium.periods.map(\.interval) == [interval("2017-02-01", "2018-02-10")])
    // An upgrade is not a refund.
    #expect(premium.lapses.isEmpty)
    guard case .active(let before) = premium.status(at: instant("2017-02-09T23:59:59.999Z")),
      case .active(let after) = premium.status(at: instant("2017-02-10"))
    else {
      Issue.record("expected active on both sides of the upgrade")
      return
    }
    #expect(before.productID == "monthly")
    #expect(after.productID == "yearly")
  }

  @Test func upgradeWithoutCancellationEndsWhereTheUpgradeBegins() throws {
    let premium = try evaluateOne([
      sub("1", "2020-11-20T10:00:00Z", "2020-11-20T11:00:00Z", product: "year", upgraded: true),
      sub("2", "2020-11-20T10:20:00Z", "2020-11-20T10:25:00Z", product: "month"),
    ])
    #expect(
      premium.coverage.first?.interval
        == interval("2020-11-20T10:00:00Z", "2020-11-20T10:20:00Z"))
    #expect(premium.periods.map(\.interval.end) == [instant("2020-11-20T10:25:00Z")])
    #expect(premium.diagnostics.isEmpty)
  }

  /// An entry without a purchase date comes first and covers nothing: the upgrade still
  /// finds its successor among the others, by their own positions.
  @Test func upgradeWithoutCancellationFindsItsSuccessorPastAnEntryWithoutPurchaseDate() throws {
    var undated = sub("0", "2020-11-20T09:00:00Z", "2020-11-20T12:00:00Z")
    undated.purchaseDate = nil
    let premium = try evaluateOne([
      undated,
      sub("1", "2020-11-20T10:00:00Z", "2020-11-20T11:00:00Z", upgraded: true),
      sub("2", "2020-11-20T10:20:00Z", "2020-11-20T10:25:00Z"),
    ])
    #expect(premium.coverage.map(\.entry.transactionID) == ["0", "1", "2"])
    #expect(premium.coverage[0].interval == nil)
    #expect(
      premium.coverage[1].interval == interval("2020-11-20T10:00:00Z", "2020-11-20T10:20:00Z"))
    #expect(premium.diagnostics.map(\.kind) == [.missingPurchaseDate])
  }

  @Test func upgradeWithoutCancellationOrSuccessorKeepsItsExpiryAndSaysSo() throws {
    let premium = try evaluateOne([
      sub("1", "2020-11-20T10:00:00Z", "2020-11-20T11:00:00Z", upgraded: true)
    ])
    #expect(
      premium.coverage.first?.interval == interval("2020-11-20T10:00:00Z", "2020-11-20T11:00:00Z"))
    #expect(premium.diagnostics.map(\.kind) == [.upgradeWithoutSuccessor])
    #expect(premium.diagnostics.first?.transactionID == "1")
    #expect(premium.diagnostics.first?.field == "is_upgraded")
  }

  struct InvalidCase: CustomTestStringConvertible, Sendable {
    var name: String
    var entry: ReceiptEntry
    var kind: Diagnostic.Kind
    var field: String
    var testDescription: String { name }
  }

  static let invalidCases: [InvalidCase] = [
    .init(
      name: "no purchase date",
      entry: ReceiptEntry(
        productID: "monthly", transactionID: "9", originalTransactionID: "1",
        purchaseDate: nil, expiresDate: instant("2017-04-20")),
      kind: .missingPurchaseDate, field: "purchase_date"),
    .init(
      name: "expires equal to purchase",
      entry: sub("9", "2017-04-20", "2017-04-20"),
      kind: .expiresNotAfterPurchase, field: "expires_date"),
    .init(
      name: "expires before purchase",
      entry: sub("9", "2017-04-20", "2017-04-19"),
      kind: .expiresNotAfterPurchase, field: "expires_date"),
  ]

  @Test(arguments: invalidCases)
  func invalidEntryBecomesADiagnosticAndNothingElseIsLost(_ invalid: InvalidCase) throws {
    let good = sub("1", "2017-02-20", "2017-03-20")
    let evaluation = Evaluator().evaluate(PurchaseHistory(entries: [good, invalid.entry]))
    let magazine = try #require(evaluation["1"])
    #expect(magazine.periods.map(\.interval) == [interval("2017-02-20", "2017-03-20")])
    #expect(evaluation.diagnostics.count == 1)
    let diagnostic = try #require(evaluation.diagnostics.first)
    #expect(diagnostic.kind == invalid.kind)
    #expect(diagnostic.transactionID == "9")
    #expect(diagnostic.field == invalid.field)
    #expect(diagnostic.description.hasPrefix("transaction 9: \(invalid.field): "))
    #expect(magazine.coverage.count == 2)
    #expect(magazine.coverage.contains { $0.disposition == .invalid(invalid.kind) })
  }

  static let nonRenewingCatalog = ProductCatalog([
    CatalogProduct(
      id: "pass", type: .nonRenewing, duration: CalendarPeriod(1, .month), entitlement: "pass")
  ])

  @Test func nonRenewingJan31PlusOneMonthIsFeb28() throws {
    let pass = try evaluateOne(
      [purchase("1", "2017-01-31T12:00:00Z", product: "pass")], catalog: Self.nonRenewingCatalog)
    #expect(
      pass.periods.map(\.interval) == [interval("2017-01-31T12:00:00Z", "2017-02-28T12:00:00Z")])
    #expect(pass.windows.isEmpty)
  }

  @Test func nonRenewingPurchasesStack() throws {
    let entries = [
      purchase("1", "2024-01-31", product: "pass"),
      purchase("2", "2024-02-10", product: "pass"),
      purchase("3", "2024-06-01", product: "pass"),
    ]
    let pass = try evaluateOne(entries, catalog: Self.nonRenewingCatalog)
    #expect(
      pass.coverage.map(\.interval) == [
        interval("2024-01-31", "2024-02-29"), interval("2024-02-29", "2024-03-29"),
        interval("2024-06-01", "2024-07-01"),
      ])
    #expect(
      pass.periods.map(\.interval) == [
        interval("2024-01-31", "2024-03-29"), interval("2024-06-01", "2024-07-01"),
      ])
    let fromPurchase = try evaluateOne(
      entries, catalog: Self.nonRenewingCatalog,
      policy: validPolicy { try Policy(nonRenewingStacking: .fromPurchase) })
    #expect(
      fromPurchase.periods.map(\.interval) == [
        interval("2024-01-31", "2024-03-10"), interval("2024-06-01", "2024-07-01"),
      ])
  }

  @Test func refundedNonRenewingPurchaseDoesNotStack() throws {
    let pass = try evaluateOne(
      [
        purchase("1", "2024-01-01", product: "pass", cancelled: "2024-01-05"),
        purchase("2", "2024-01-10", product: "pass"),
      ], catalog: Self.nonRenewingCatalog)
    #expect(pass.periods.map(\.interval) == [interval("2024-01-10", "2024-02-10")])
  }

  @Test func nonRenewingWithoutDurationIsReported() throws {
    let catalog = ProductCatalog([CatalogProduct(id: "pass", type: .nonRenewing)])
    let pass = try evaluateOne([purchase("1", "2024-01-01", product: "pass")], catalog: catalog)
    #expect(pass.periods.isEmpty)
    #expect(pass.diagnostics.map(\.kind) == [.missingDuration])
  }

  @Test func nonConsumableIsOwnedFromPurchaseForever() throws {
    let catalog = ProductCatalog([CatalogProduct(id: "lifetime", type: .nonConsumable)])
    let lifetime = try evaluateOne(
      [purchase("1", "2017-02-20", product: "lifetime")], catalog: catalog)
    #expect(
      lifetime.periods.map(\.interval) == [
        Interval(start: instant("2017-02-20"), end: .distantFuture)
      ])
    #expect(lifetime.status(at: instant("2017-02-19T23:59:59.999Z")).state == .notSubscribed)
    #expect(lifetime.status(at: instant("2017-02-20")).state == .active)
    #expect(lifetime.status(at: Instant(millisecondsSince1970: .max - 1)).willRenew == false)
    #expect(lifetime.windows.isEmpty)
  }

  @Test func consumablesArePurchaseEventsOnly() {
    let catalog = ProductCatalog([CatalogProduct(id: "coins", type: .consumable)])
    let evaluation = Evaluator(catalog: catalog).evaluate(
      PurchaseHistory(entries: [purchase("1", "2017-02-20", product: "coins")]))
    #expect(evaluation.entitlements.isEmpty)
    #expect(evaluation.purchaseEvents.map(\.productID) == ["coins"])
    #expect(evaluation.diagnostics.isEmpty)
  }

  @Test func untypedEntryWithoutCatalogIsAReportedPurchaseEvent() {
    let evaluation = Evaluator().evaluate(
      PurchaseHistory(entries: [purchase("1", "2017-02-20", product: "something")]))
    #expect(evaluation.entitlements.isEmpty)
    #expect(evaluation.purchaseEvents.map(\.productType) == [nil])
    #expect(evaluation.diagnostics.map(\.kind) == [.unknownProductType])
  }

  @Test func productMissingFromTheCatalogIsGroupedBySubscriptionAndReported() throws {
    let evaluation = Evaluator(catalog: magazineCatalog).evaluate(
      PurchaseHistory(entries: [
        sub("1", "2017-02-20", "2017-03-20", product: "other", original: "7")
      ]))
    #expect(evaluation.entitlements.map(\.id) == ["7"])
    #expect(evaluation.diagnostics.map(\.kind) == [.productNotInCatalog])
    #expect(evaluation.diagnostics.first?.field == "product_id")
  }
}

/// `CoverageList` reads like the array of coverage it replaced, and compares by its elements.
@Suite("Coverage list")
struct CoverageListTests {
  static let catalog = ProductCatalog([
    CatalogProduct(id: "monthly", type: .autoRenewable, entitlement: "magazine"),
    CatalogProduct(id: "music", type: .autoRenewable, entitlement: "music"),
  ])
  static let magazineEntries = [
    sub("1", "2017-01-01", "2017-02-01"),
    sub("2", "2017-02-01", "2017-03-01", cancelled: "2017-02-10"),
    sub("3", "2017-03-01", "2017-04-01"),
  ]

  @Test func elementsAreTheEntriesWithTheirCoverage() throws {
    let magazine = try evaluateOne(Self.magazineEntries, catalog: Self.catalog)
    let coverage = Array(magazine.coverage)
    #expect(coverage.map(\.entry) == Self.magazineEntries)
    #expect(coverage.map(\.disposition) == [.covers, .refundVoided, .covers])
    #expect(coverage.map(\.productType) == [.autoRenewable, .autoRenewable, .autoRenewable])
    #expect(
      coverage.map(\.interval) == [
        interval("2017-01-01", "2017-02-01"), nil, interval("2017-03-01", "2017-04-01"),
      ])
    #expect(coverage[1].naturalInterval == interval("2017-02-01", "2017-03-01"))
    #expect(magazine.coverage.indices == 0..<3)
  }

  /// The same coverage read from a history with another entitlement's entries (a different
  /// shared entry array, other indices) is equal and hashes equal.
  @Test func equalityIsByElementsWhateverTheHistory() throws {
    let alone = try evaluateOne(Self.magazineEntries, catalog: Self.catalog)
    let mixed = Evaluator(catalog: Self.catalog).evaluate(
      PurchaseHistory(
        entries: [sub("0", "2016-12-01", "2017-01-01", product: "music", original: "9")]
          + Self.magazineEntries))
    let magazine = try #require(mixed["magazine"])
    #expect(magazine.coverage == alone.coverage)
    #expect(magazine.coverage.hashValue == alone.coverage.hashValue)
    #expect(magazine == alone)
    let changed = try evaluateOne(
      Self.magazineEntries, catalog: Self.catalog,
      policy: validPolicy { try Policy(cancellation: .endAtCancellation) })
    #expect(changed.coverage != alone.coverage)
    let shorter = try evaluateOne(Array(Self.magazineEntries.prefix(2)), catalog: Self.catalog)
    #expect(shorter.coverage != alone.coverage)
  }
}

/// The packed record gives back exactly what it was made from, for every disposition.
@Suite("Coverage record")
struct CoverageRecordTests {
  static let natural = interval("2017-02-01", "2017-03-01")
  static let cut = interval("2017-02-01", "2017-02-10")

  @Test(
    arguments: [
      (Self.natural, EntryCoverage.Disposition.covers, Self.natural),
      (Self.cut, .endedByUpgrade(at: instant("2017-02-10")), Self.natural),
      (nil, .endedByUpgrade(at: instant("2017-02-01")), Self.natural),
      (nil, .refundVoided, Self.natural),
      (Self.cut, .refundEndedAt(instant("2017-02-10")), Self.natural),
      (Self.natural, .refundEndedAt(instant("2017-04-01")), Self.natural),
      (nil, .invalid(.missingExpiresDate), nil),
      (nil, .invalid(.missingPurchaseDate), nil),
    ] as [(Interval?, EntryCoverage.Disposition, Interval?)])
  func roundTrips(interval: Interval?, disposition: EntryCoverage.Disposition, natural: Interval?) {
    for (index, type) in [(0, ProductKind.autoRenewable), (41, .nonRenewing)] {
      let record = CoverageRecord(
        entryIndex: index, productType: type, interval: interval, disposition: disposition,
        naturalInterval: natural)
      #expect(record.entryIndex == index)
      #expect(record.productType == type)
      #expect(record.interval == interval)
      #expect(record.disposition == disposition)
      #expect(record.naturalInterval == natural)
    }
  }

  @Test func isSmall() {
    #expect(MemoryLayout<CoverageRecord>.stride <= 32)
  }
}
