import Entitlements
import EntitlementsTesting
import Testing

/// How a backend tests its own access cache against the engine with `EntitlementsTesting`
/// (README, "Testing"): a stand-in for the backend's cache that shares no code with the
/// engine, compared on generated histories.
@Suite("A backend's own access cache against the engine")
struct BackendCacheExampleTests {
  /// A backend's cache of access, as many backends write it: a purchase row gives access from
  /// its purchase to its expiry unless it was refunded, or to its revocation when Apple says
  /// the time before it stays paid for (a prorated refund, a family revocation).
  struct MyEntitlementCache {
    var rows: [(product: ProductID, start: Instant, end: Instant)] = []

    init(rebuiltFrom history: PurchaseHistory) {
      for entry in history.entries {
        guard let start = entry.purchaseDate, var end = entry.expiresDate else { continue }
        if let revoked = entry.cancellationDate {
          guard ["REFUND_PRORATED", "FAMILY_REVOKE"].contains(entry.rawRevocationType) else {
            continue
          }
          end = min(end, revoked)
        }
        if end > start { rows.append((entry.productID, start, end)) }
      }
    }

    func hasAccess(_ id: EntitlementID, at instant: Instant, catalog: ProductCatalog) -> Bool {
      rows.contains { row in
        catalog[row.product]?.entitlement == id && row.start <= instant && instant < row.end
      }
    }
  }

  /// The cache agrees with the engine's active periods at every boundary of every history the
  /// cache is meant for (no upgrades, no one-time purchases: the cache does not know them).
  @Test(arguments: [1, 2, 3] as [UInt64])
  func accessMatchesOurCache(seed: UInt64) {
    let generator = HistoryGenerator(upgradeChance: 0, oneTimePurchaseChance: 0)
    forAll(500, seed: seed, generator: generator) { customer in
      let evaluation = customer.evaluate()
      let cached = MyEntitlementCache(rebuiltFrom: customer.history)
      return evaluation.entitlements.allSatisfy { entitlement in
        customer.entries.flatMap { [$0.purchaseDate, $0.expiresDate, $0.cancellationDate] }
          .compactMap { $0 }
          .allSatisfy { instant in
            // The cache ignores grace periods: compare active time only.
            cached.hasAccess(entitlement.id, at: instant, catalog: customer.catalog)
              == (entitlement.status(at: instant).state == .active)
          }
      }
    }
  }
}
