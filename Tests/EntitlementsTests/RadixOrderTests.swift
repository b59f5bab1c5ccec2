import EntitlementsTesting
import Testing

@testable import Entitlements

/// The radix order equals a stable comparison sort, on keys that share digits and keys that
/// do not.
@Suite("Radix order")
struct RadixOrderTests {
  @Test(
    arguments: [
      ([], []),
      ([7], [0]),
      ([30, 10, 20, 10], [1, 3, 2, 0]),
      ([5, 5, 5], [0, 1, 2]),
      ([UInt64.max, 0, 1 << 63, (1 << 63) - 1], [1, 3, 2, 0]),
      // Keys that differ only above the low 44 bits, and only below them.
      ([3 << 50, 1 << 50, 2 << 50], [1, 2, 0]),
      ([(1 << 44) + 2, (1 << 44) + 1, 1 << 44], [2, 1, 0]),
    ] as [([UInt64], [Int])])
  func ordersKeys(keys: [UInt64], expected: [Int]) {
    #expect(RadixOrder.order(of: keys) == expected)
  }

  /// Seeded keys of every width: the same order as the standard library's stable sort.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func agreesWithAStableSort(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    for width in [4, 12, 23, 41, 64] as [UInt64] {
      let count = Int(random.int64(in: 0...3000)) / (width == 12 ? 60 : 1)  // some under 65
      let keys = (0..<count).map { _ in
        let value = random.next()
        return width == 64 ? value : value & ((1 << width) - 1)
      }
      let expected = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
      #expect(RadixOrder.order(of: keys) == expected, "seed \(seed), width \(width)")
    }
  }
}
