import EntitlementsTesting
import Testing

@testable import Entitlements

/// Renewal info by subscription, as the rules look it up (SPEC §5; issue: performance).
@Suite("Renewal info table")
struct RenewalInfoTableTests {
  /// The renewal info of subscription `1000000000000<number>`, 16 digits as Apple's.
  static func info(_ number: Int, autoRenew: Bool? = nil) -> RenewalInfo {
    RenewalInfo(
      originalTransactionID: OriginalTransactionID(String(1_000_000_000_000_000 + number)),
      autoRenewStatus: autoRenew)
  }

  /// Tables of every size around the search's change of method (eight infos searched in
  /// order), given in a shuffled order: each subscription is found, with its own info, and
  /// ids between and around them are not.
  @Test(arguments: [0, 1, 2, 7, 8, 9, 20])
  func everySubscriptionIsFoundAndNoOther(count: Int) {
    var random = SeededRandom(seed: UInt64(count))
    let infos = random.shuffled((0..<count).map { Self.info(2 * $0 + 1, autoRenew: $0 % 2 == 0) })
    var diagnostics: [Diagnostic] = []
    let table = RenewalInfoTable(infos, diagnostics: &diagnostics)
    #expect(diagnostics.isEmpty)
    #expect(table.isEmpty == (count == 0))
    #expect(table.infos.map(\.originalTransactionID) == infos.map(\.originalTransactionID).sorted())
    for number in 0...(2 * count + 1) {
      let id = Self.info(number).originalTransactionID
      #expect(table[id] == infos.first { $0.originalTransactionID == id }, "subscription \(number)")
    }
  }

  /// Duplicates that agree are one info; duplicates that disagree keep the same one whatever
  /// their order, and are reported once per subscription.
  @Test func duplicatesKeepOneWhateverTheOrder() {
    let infos = [
      Self.info(1, autoRenew: true), Self.info(2, autoRenew: true),
      Self.info(1, autoRenew: false), Self.info(3), Self.info(3), Self.info(1, autoRenew: true),
    ]
    var kept: Set<[RenewalInfo]> = []
    for seed in 0..<8 as Range<UInt64> {
      var random = SeededRandom(seed: seed)
      var diagnostics: [Diagnostic] = []
      let table = RenewalInfoTable(random.shuffled(infos), diagnostics: &diagnostics)
      kept.insert(table.infos)
      #expect(diagnostics.map(\.kind) == [.conflictingRenewalInfo])
      #expect(diagnostics.map(\.originalTransactionID) == [Self.info(1).originalTransactionID])
      #expect(table.infos.count == 3)
    }
    #expect(kept.count == 1)
  }
}
