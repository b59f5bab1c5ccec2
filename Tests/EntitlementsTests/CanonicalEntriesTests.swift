import EntitlementsTesting
import Testing

@testable import Entitlements

/// What the evaluator reads of out-of-order entries: each entry's fields, index, product slot
/// and subscription slot (their order is `PurchaseBucketsTests`').
@Suite("Canonical entries")
struct CanonicalEntriesTests {
  static let catalog = ProductCatalog(
    (0..<10).map {
      Product(
        id: ProductID("p\($0)"), type: .autoRenewable, duration: CalendarPeriod(1, .month),
        entitlement: "premium")
    })

  /// An entry of product `p<product>` bought at `purchase` (ms; `nil` for none), of
  /// subscription `o<product / 3>`.
  static func entry(_ id: String, _ purchase: Int64?, product: Int = 0) -> ReceiptEntry {
    ReceiptEntry(
      productID: ProductID("p\(product)"), transactionID: TransactionID(id),
      originalTransactionID: OriginalTransactionID("o\(product / 3)"),
      webOrderLineItemID: WebOrderLineItemID("w\(id)"),
      purchaseDate: purchase.map { Instant(millisecondsSince1970: $0) },
      expiresDate: purchase.map { Instant(millisecondsSince1970: $0 + 1000) },
      cancellationDate: id.hasSuffix("7")
        ? purchase.map { Instant(millisecondsSince1970: $0) } : nil,
      isTrialPeriod: id.hasSuffix("3"))
  }

  @Test(arguments: [false, true])
  func eachEntryKeepsItsFieldsProductAndSubscription(tracksSubscriptions: Bool) throws {
    // Eleven products, p10 down to p0: the first eight listed ones met (p9...p2) take the
    // slots; p1 and p0 are listed beyond them, and p10 is not listed.
    let entries = (0...10).reversed().map { Self.entry(String(20 + $0), Int64($0), product: $0) }
    let canonical = try #require(
      CanonicalEntries.make(
        entries, catalog: Self.catalog, tracksSubscriptions: tracksSubscriptions))
    // Subscriptions o3 down to o0, in the order met, when tracked.
    let subscriptions = canonical.subscriptions
    #expect(subscriptions.isComplete)
    #expect(
      (0..<subscriptions.count).map { subscriptions.id(at: $0, in: entries) }
        == (tracksSubscriptions ? (0...3).reversed().map { OriginalTransactionID("o\($0)") } : []))
    let known = canonical.products
    #expect(
      (0..<known.count).map { known.product(at: $0, in: Self.catalog).id }
        == (2...9).reversed().map { ProductID("p\($0)") })
    for arranged in canonical.entries(of: entries) {
      let entry = entries[Int(arranged.index)]
      #expect(arranged.fields.purchaseDate == entry.purchaseDate)
      #expect(arranged.fields.expiresDate == entry.expiresDate)
      #expect(arranged.fields.cancellationDate == entry.cancellationDate)
      #expect(arranged.fields.isTrialPeriod == entry.isTrialPeriod)
      #expect(arranged.fields.transactionNumber == entry.transactionNumber)
      #expect(arranged.fields.orderLineNumber == entry.orderLineNumber)
      #expect(
        tracksSubscriptions
          ? subscriptions.id(at: Int(arranged.subscription), in: entries)
            == entry.originalTransactionID
          : arranged.subscription == 0)
      if arranged.product == CanonicalEntries.Entry.unlisted {
        #expect(["p0", "p1", "p10"].contains(entry.productID.rawValue))
      } else {
        #expect(
          canonical.products.product(at: Int(arranged.product), in: Self.catalog).id
            == entry.productID)
      }
    }
  }

  /// The subscription's slot fits in the bytes the alignment of the index left: what the pass
  /// reads of an entry stays 48 bytes.
  @Test func anEntryIsFortyEightBytes() {
    #expect(MemoryLayout<CanonicalEntries.Entry>.stride == 48)
  }
}
