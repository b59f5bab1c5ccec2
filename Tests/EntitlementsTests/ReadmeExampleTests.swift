import Entitlements
import Testing

/// The README's example without Apple's documents ("Without Apple's documents"), kept true.
@Suite("README example")
struct ReadmeExampleTests {
  @Test func firstScreenExample() throws {
    let evaluator = Evaluator(
      catalog: ProductCatalog([
        CatalogProduct(
          id: "com.example.magazine.monthly", type: .autoRenewable,
          duration: CalendarPeriod(1, .month), entitlement: "magazine")
      ]))
    let history = PurchaseHistory(
      entries: [
        ReceiptEntry(
          productID: "com.example.magazine.monthly", transactionID: "1",
          purchaseDate: try Instant(parsing: "2017-02-20T08:00:00Z"),
          expiresDate: try Instant(parsing: "2017-03-20T08:00:00Z")),
        ReceiptEntry(
          productID: "com.example.magazine.monthly", transactionID: "2",
          originalTransactionID: "1",
          purchaseDate: try Instant(parsing: "2017-03-20 08:00:00 Etc/GMT"),
          expiresDate: try Instant(parsing: "1492675200000")),
      ],
      renewalInfo: [
        RenewalInfo(originalTransactionID: "1", autoRenewStatus: false, rawExpirationIntent: 1)
      ])
    let magazine = try #require(evaluator.evaluate(history)["magazine"])
    #expect(
      magazine.periods.map(\.interval.description) == [
        "[2017-02-20T08:00:00Z, 2017-04-20T08:00:00Z)"
      ])
    #expect(magazine.status(at: try Instant(parsing: "2017-04-01")).isEntitled)
    #expect(
      magazine.status(at: try Instant(parsing: "2017-05-10"))
        == .expired(expiredAt: try Instant(parsing: "2017-04-20T08:00:00Z"), reason: .voluntary))
  }
}
