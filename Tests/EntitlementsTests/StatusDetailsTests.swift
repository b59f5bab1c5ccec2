import Testing

@testable import Entitlements

/// What a status gives a backend to act on (issue 47, item 4): the offer of the entry giving
/// access, the purchases and ownership of the entitlement, the renewal retried in grace and
/// billing retry, and Apple's own `type` for a product no catalog lists.
@Suite("What a status gives a backend to act on")
struct StatusDetailsTests {
  struct OfferRow: Sendable, CustomTestStringConvertible {
    let name: String
    let entry: ReceiptEntry
    let offer: ActiveStatus.Offer?
    var testDescription: String { name }
  }

  static func bought(
    trial: Bool = false, intro: Bool = false, promotional: String? = nil, code: String? = nil,
    winBack: Bool = false
  ) -> ReceiptEntry {
    ReceiptEntry(
      productID: "monthly", transactionID: "1", originalTransactionID: "1",
      purchaseDate: instant("2026-01-01"), expiresDate: instant("2026-02-01"),
      isTrialPeriod: trial, isInIntroOfferPeriod: intro, offerCodeRefName: code,
      promotionalOfferID: promotional, isWinBackOffer: winBack)
  }

  static let offers: [OfferRow] = [
    OfferRow(name: "no offer", entry: bought(), offer: nil),
    OfferRow(name: "a free trial", entry: bought(trial: true), offer: .freeTrial),
    OfferRow(name: "an introductory price", entry: bought(intro: true), offer: .introductory),
    OfferRow(name: "a promotional offer", entry: bought(promotional: "p1"), offer: .promotional),
    OfferRow(name: "an offer code", entry: bought(code: "SPRING"), offer: .offerCode),
    OfferRow(name: "a win-back offer", entry: bought(winBack: true), offer: .winBack),
  ]

  @Test(arguments: offers)
  func theOfferOfTheEntryGivingAccess(_ row: OfferRow) throws {
    let evaluation = try evaluateOne([row.entry], catalog: magazineCatalog)
    guard case .active(let active) = evaluation.status(at: instant("2026-01-15")) else {
      Issue.record("not active")
      return
    }
    #expect(active.offer == row.offer)
  }

  /// A v2 transaction's `offerType` 4 is a win-back offer; `type` is kept as a kind.
  @Test func theReaderKeepsWinBackAndType() throws {
    let payload = """
      {"transactionId": "7", "originalTransactionId": "7", "productId": "m",
       "purchaseDate": 1767225600000, "expiresDate": 1769904000000, "offerType": 4,
       "offerIdentifier": "comeback", "type": "Auto-Renewable Subscription"}
      """
    let transaction = try AppStoreTransaction(unverifiedJSON: Array(payload.utf8))
    #expect(transaction.entry?.isWinBackOffer == true)
    #expect(transaction.entry?.appleProductType == .autoRenewable)
    #expect(transaction.entry?.promotionalOfferID == nil)
  }

  /// The first purchase, and the latest at or before an instant, with its ownership.
  @Test func theFirstAndLatestPurchase() throws {
    var shared = sub("3", "2026-03-01", "2026-04-01")
    shared.rawInAppOwnershipType = "FAMILY_SHARED"
    let evaluation = try evaluateOne(
      [sub("1", "2026-01-01", "2026-02-01"), sub("2", "2026-02-01", "2026-03-01"), shared],
      catalog: magazineCatalog, environment: .sandbox)
    #expect(evaluation.firstPurchaseDate == instant("2026-01-01"))
    #expect(evaluation.latestPurchase(atOrBefore: instant("2025-12-31")) == nil)
    #expect(evaluation.latestPurchase(atOrBefore: instant("2026-02-01"))?.transactionID == "2")
    #expect(
      evaluation.latestPurchase(atOrBefore: instant("2026-03-15"))?.inAppOwnershipType
        == .familyShared)
    #expect(evaluation.environment == .sandbox)
  }

  /// In billing retry: the lapsed product, and what its renewal info says of renewing.
  @Test func billingRetryNamesTheRenewalRetried() throws {
    let info = RenewalInfo(
      originalTransactionID: "1", autoRenewProductID: "yearly", autoRenewStatus: true,
      isInBillingRetryPeriod: true)
    let evaluation = try evaluateOne(
      [sub("1", "2026-01-01", "2026-02-01")], renewalInfo: [info], catalog: magazineCatalog)
    let status = evaluation.status(at: instant("2026-02-10"))
    #expect(status.state == .billingRetry)
    #expect(status.productID == "monthly")
    #expect(status.willRenew == true)
    #expect(status.nextProductID == "yearly")
    // Expired, nothing is retried.
    #expect(evaluation.status(at: instant("2026-05-01")).productID == nil)
  }

  struct TypeRow: Sendable, CustomTestStringConvertible {
    let name: String
    let type: ProductKind?
    let catalog: ProductCatalog
    /// Whether the purchase unlocks an entitlement; else it is a purchase event.
    let unlocks: Bool
    let diagnostics: [Diagnostic.Kind]
    var testDescription: String { name }
  }

  static let lifetime = ProductCatalog([
    CatalogProduct(id: "lifetime", type: .nonConsumable, entitlement: "lifetime")
  ])

  static let types: [TypeRow] = [
    TypeRow(
      name: "no type, no catalog: unknown, a purchase event", type: nil, catalog: .empty,
      unlocks: false, diagnostics: [.unknownProductType]),
    TypeRow(
      name: "Apple says Non-Consumable, no catalog: owned", type: .nonConsumable,
      catalog: .empty, unlocks: true, diagnostics: [.productTypeFromApple]),
    TypeRow(
      name: "Apple says Consumable, no catalog: a purchase event", type: .consumable,
      catalog: .empty, unlocks: false, diagnostics: [.productTypeFromApple]),
    TypeRow(
      name: "Apple says Non-Renewing, no catalog duration: a purchase event",
      type: .nonRenewing, catalog: .empty, unlocks: false,
      diagnostics: [.productTypeFromApple]),
    TypeRow(
      name: "Apple says Non-Consumable, missing from a catalog: owned, both said",
      type: .nonConsumable, catalog: magazineCatalog, unlocks: true,
      diagnostics: [.productNotInCatalog, .productTypeFromApple]),
    TypeRow(
      name: "the catalog lists it: the catalog decides, nothing said", type: .consumable,
      catalog: lifetime, unlocks: true, diagnostics: []),
  ]

  @Test(arguments: types)
  func applesTypeDecidesWhereNoCatalogDoes(_ row: TypeRow) {
    let entry = ReceiptEntry(
      productID: "lifetime", transactionID: "9", originalTransactionID: "9",
      purchaseDate: instant("2026-01-01"), appleProductType: row.type)
    let evaluation = Evaluator(catalog: row.catalog).evaluate(PurchaseHistory(entries: [entry]))
    #expect(evaluation.entitlements.isEmpty == !row.unlocks)
    #expect(evaluation.purchaseEvents.count == (row.unlocks ? 0 : 1))
    if row.unlocks {
      #expect(evaluation.entitlements.first?.status(at: instant("2030-01-01")).isEntitled == true)
    }
    #expect(
      evaluation.diagnostics.map(\.kind).sorted { $0.rawValue < $1.rawValue } == row.diagnostics)
  }
}
