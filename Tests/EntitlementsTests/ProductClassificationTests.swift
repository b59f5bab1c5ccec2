import Testing

@testable import Entitlements

/// Classification reads the catalog once per product met, remembers the last two, and keeps
/// runs of entries: whatever the order of products, every entry goes to its product's
/// entitlement with its product's type (SPEC §2).
@Suite("Product classification: groups and types, whatever the order of products")
struct ProductClassificationTests {
  static let catalog = ProductCatalog([
    CatalogProduct(id: "monthly", type: .autoRenewable, entitlement: "premium"),
    CatalogProduct(id: "yearly", type: .autoRenewable, entitlement: "premium"),
    CatalogProduct(id: "pass", type: .nonRenewing, entitlement: "magazine"),
    CatalogProduct(id: "coins", type: .consumable, entitlement: "coins"),
    CatalogProduct(id: "lifetime", type: .nonConsumable, entitlement: "magazine"),
  ])

  /// Products in runs, alternating, returning after others, between purchase events and
  /// products missing from the catalog.
  @Test(arguments: [
    ["monthly", "monthly", "monthly"],
    ["monthly", "yearly", "monthly", "yearly", "monthly"],
    ["monthly", "pass", "monthly", "pass", "yearly", "pass", "monthly"],
    ["monthly", "coins", "monthly", "coins", "coins", "monthly"],
    ["pass", "unknown", "pass", "unknown", "monthly", "lifetime", "monthly", "lifetime"],
    ["lifetime", "pass", "lifetime", "monthly", "yearly", "pass", "yearly", "lifetime"],
  ])
  func everyEntryGoesToItsProductsEntitlement(products: [String]) {
    let start = Instant(millisecondsSince1970: 1_700_000_000_000)
    let entries = products.indices.map { index in
      ReceiptEntry(
        productID: ProductID(products[index]),
        transactionID: TransactionID(String(1_000_000_000_000_000 + index)),
        originalTransactionID: "1000000000000000",
        purchaseDate: start + .days(Int64(index) * 30),
        expiresDate: start + .days(Int64(index) * 30 + 30))
    }
    for order in [nil, Array(entries.indices.reversed())] {
      let classification = ProductClassification.classify(order, of: entries, catalog: Self.catalog)
      var expected: [EntitlementID: [(Int, ProductKind)]] = [:]
      var events: [Int] = []
      for index in order ?? Array(entries.indices) {
        // A product missing from the catalog, with an expiry: an auto-renewable subscription
        // of its own entitlement, named by the subscription.
        let product =
          Self.catalog[entries[index].productID]
          ?? CatalogProduct(
            id: entries[index].productID, type: .autoRenewable, entitlement: "1000000000000000")
        guard product.type != .consumable else {
          events.append(index)
          continue
        }
        expected[product.entitlement, default: []].append((index, product.type))
      }
      #expect(classification.groups.map(\.id) == expected.keys.sorted())
      for group in classification.groups {
        let members = group.runs.flatMap { run in
          run.positions.map { (group.entryIndex(at: $0), run.productType) }
        }
        #expect(members.map(\.0) == expected[group.id]?.map(\.0), "\(group.id) in \(products)")
        #expect(members.map(\.1) == expected[group.id]?.map(\.1), "\(group.id) in \(products)")
      }
      #expect(classification.purchaseEvents.count == events.count)
    }
  }
}
