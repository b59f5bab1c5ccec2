import Entitlements
import EntitlementsTesting
import Testing

/// The README's "Property tests in your backend" example, with a stand-in for the backend's
/// cache, kept compiling and passing.
@Suite("README property example")
struct ReadmePropertyExampleTests {
  /// A backend's cache of access, rebuilt from the same history (here: from the periods).
  struct MyEntitlementCache {
    var periods: [EntitlementID: [Interval]]

    init(rebuiltFrom history: PurchaseHistory) {
      let evaluation = Evaluator(catalog: HistoryGenerator.catalog).evaluate(history)
      periods = Dictionary(
        uniqueKeysWithValues: evaluation.entitlements.map { ($0.id, $0.periods.map(\.interval)) })
    }

    func hasAccess(_ id: EntitlementID, at instant: Instant) -> Bool {
      periods[id]?.contains { $0.contains(instant) } ?? false
    }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func accessMatchesOurCache(seed: UInt64) {
    forAll(500, seed: seed) { customer in
      let evaluation = customer.evaluate()
      let cached = MyEntitlementCache(rebuiltFrom: customer.history)
      return evaluation.entitlements.allSatisfy { entitlement in
        [customer.entries.first?.purchaseDate].compactMap { $0 }.allSatisfy {
          // Our cache ignores grace periods: compare active time only.
          cached.hasAccess(entitlement.id, at: $0) == (entitlement.status(at: $0).state == .active)
        }
      }
    }
  }
}
