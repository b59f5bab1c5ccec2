import Entitlements
import Testing

/// Reads a date in any SPEC §1 spelling; records an issue (and returns `distantPast`) if it
/// cannot, so a typo in a test fails that test instead of trapping.
func instant(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Instant {
  do {
    return try Instant(parsing: text)
  } catch {
    Issue.record("bad test date \(text): \(error)", sourceLocation: sourceLocation)
    return .distantPast
  }
}

/// A concise auto-renewable entry: `sub("1", "2017-02-20", "2017-03-20")`.
func sub(
  _ transaction: String, _ purchase: String, _ expires: String,
  product: String = "monthly", original: String = "1", webOrder: String? = nil,
  cancelled: String? = nil, upgraded: Bool = false, trial: Bool = false, intro: Bool = false,
  revocation: String? = nil, commitment: ReceiptEntry.Commitment? = nil
) -> ReceiptEntry {
  ReceiptEntry(
    productID: ProductID(product), transactionID: TransactionID(transaction),
    originalTransactionID: OriginalTransactionID(original),
    webOrderLineItemID: webOrder.map(WebOrderLineItemID.init(rawValue:)),
    purchaseDate: instant(purchase), expiresDate: instant(expires),
    cancellationDate: cancelled.map { instant($0) }, isTrialPeriod: trial,
    isInIntroOfferPeriod: intro, isUpgraded: upgraded, rawRevocationType: revocation,
    commitment: commitment)
}

/// A one-time purchase (non-renewing, non-consumable or consumable, per the catalog).
func purchase(
  _ transaction: String, _ date: String, product: String, cancelled: String? = nil
) -> ReceiptEntry {
  ReceiptEntry(
    productID: ProductID(product), transactionID: TransactionID(transaction),
    purchaseDate: instant(date), cancellationDate: cancelled.map { instant($0) })
}

/// `[start, end)` from two dates.
func interval(_ start: String, _ end: String) -> Interval {
  Interval(start: instant(start), end: instant(end))
}

/// Evaluates and returns the only entitlement (recording an issue when there is not exactly
/// one).
func evaluateOne(
  _ entries: [ReceiptEntry], renewalInfo: [RenewalInfo] = [],
  recoveries: [BillingRecovery] = [], catalog: ProductCatalog = .empty,
  policy: Policy = Policy(), environment: StoreEnvironment = .production,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> EntitlementEvaluation {
  let evaluation = Evaluator(catalog: catalog, policy: policy).evaluate(
    PurchaseHistory(
      entries: entries, renewalInfo: renewalInfo, billingRecoveries: recoveries,
      environment: environment))
  #expect(evaluation.entitlements.count == 1, sourceLocation: sourceLocation)
  let only = try #require(evaluation.entitlements.first, sourceLocation: sourceLocation)
  #expect(only._invariantViolations().isEmpty, sourceLocation: sourceLocation)
  return only
}

/// The monthly product of the guide's examples, unlocking "magazine".
let magazineCatalog = ProductCatalog([
  CatalogProduct(
    id: "monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
    entitlement: "magazine")
])

/// A policy a test table knows to be valid: a mistake in the table stops the run, naming the
/// field.
func validPolicy(_ make: () throws -> Policy) -> Policy {
  do { return try make() } catch { preconditionFailure("invalid policy in a test table: \(error)") }
}
