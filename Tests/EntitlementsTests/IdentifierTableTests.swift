import EntitlementsTesting
import Testing

@testable import Entitlements

/// The table of ids answers as a `Dictionary` does, whatever the keys (consecutive numbers,
/// numbers that share their low bits, ids that are not plain numbers) and at every size, the
/// sizes where its slots double included.
@Suite("IdentifierTable")
struct IdentifierTableTests {
  struct Case: CustomStringConvertible {
    let name: String
    let ids: [String]
    var description: String { "\(name) (\(ids.count))" }
  }

  /// Each id once, then every id again in another order, then new ones.
  static func cases() -> [Case] {
    var random = SeededRandom(seed: 7)
    let sizes = [0, 1, 3, 4, 5, 8, 9, 63, 64, 65, 1_000, 5_000]
    var cases: [Case] = []
    for size in sizes {
      cases.append(
        Case(name: "consecutive", ids: (0..<size).map { String(2_000_000_000_000_000 + $0) }))
      // Multiples of 2³² share their low 32 bits: a hash of the low bits would pile them up.
      cases.append(
        Case(name: "shared low bits", ids: (1...max(1, size)).map { String(UInt64($0) << 32) }))
      cases.append(
        Case(
          name: "mixed with ids that are not plain numbers",
          ids: (0..<size).map {
            random.chance(0.3) ? "0\($0)" : String(random.int64(in: 1...9_999_999_999_999_999))
          }))
    }
    return cases
  }

  @Test(arguments: cases())
  func answersAsADictionary(_ test: Case) {
    var random = SeededRandom(seed: UInt64(test.ids.count))
    let sequence = test.ids + random.shuffled(test.ids) + ["0", "1", "x", "10"]
    var table = IdentifierTable(minimumCapacity: test.ids.count / 3)
    var reference: [String: Int] = [:]
    for (position, id) in sequence.enumerated() {
      let found = table.position(of: CompactIdentifier(id), orInsert: position)
      #expect(found == reference[id], "\(id) at \(position)")
      if reference[id] == nil { reference[id] = position }
    }
  }
}
