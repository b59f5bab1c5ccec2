import Testing

@testable import Entitlements

/// Classification reads the catalog once per product met, remembers the last two, and keeps
/// runs of entries of one type: whatever the order of products, every entry goes to its product's
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
    // What each product is, written out here rather than looked up in the catalog: `nil`
    // for a purchase event.
    let expectedKinds: [String: (type: ProductKind, entitlement: EntitlementID)?] = [
      "monthly": (.autoRenewable, "premium"), "yearly": (.autoRenewable, "premium"),
      "pass": (.nonRenewing, "magazine"), "lifetime": (.nonConsumable, "magazine"),
      "coins": nil,
      // Missing from the catalog, with an expiry: an auto-renewable subscription of its own
      // entitlement, named by the subscription, and a diagnostic.
      "unknown": (.autoRenewable, "1000000000000000"),
    ]
    for order in [nil, Array(entries.indices.reversed())] {
      let classification = ProductClassification.classify(order, of: entries, catalog: Self.catalog)
      var expected: [EntitlementID: [(Int, ProductKind)]] = [:]
      var events: [TransactionID] = []
      for index in order ?? Array(entries.indices) {
        guard let kind = expectedKinds[products[index]] ?? nil else {
          events.append(entries[index].transactionID)
          continue
        }
        expected[kind.entitlement, default: []].append((index, kind.type))
      }
      #expect(classification.groups.map(\.id) == expected.keys.sorted())
      for group in classification.groups {
        let members = (0..<group.runCount).flatMap { index in
          let run = group.run(index)
          return run.positions.map { (group.entryIndex(at: $0), run.productType) }
        }
        #expect(members.map(\.0) == expected[group.id]?.map(\.0), "\(group.id) in \(products)")
        #expect(members.map(\.1) == expected[group.id]?.map(\.1), "\(group.id) in \(products)")
        // Runs are as long as they can be: two that meet differ in type (monthly and yearly
        // plans in turn are one run).
        for index in 1..<max(1, group.runCount) {
          let (before, after) = (group.run(index - 1), group.run(index))
          #expect(
            before.positions.upperBound != after.positions.lowerBound
              || before.productType != after.productType, "\(group.id) in \(products)")
        }
        // The product missing from the catalog is reported in its own group, once per entry.
        let unknown = members.filter { products[$0.0] == "unknown" }.count
        #expect(
          group.diagnostics.map(\.kind) == Array(repeating: .productNotInCatalog, count: unknown))
      }
      #expect(classification.purchaseEvents.map(\.entry.transactionID) == events)
      #expect(classification.diagnostics.isEmpty)
    }
  }
}
