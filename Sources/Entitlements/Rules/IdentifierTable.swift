/// A set of identifiers for duplicate detection on the hot path (issue: performance): an
/// open-addressing table of entry indices in caller-provided memory (stack memory for small
/// histories), with a fixed, non-cryptographic hash of the identifier's UTF-8 bytes.
///
/// The standard library's `Set` is seeded per process and hashes with SipHash: safe against
/// chosen collisions but several times slower for short ids. A fixed hash can be attacked, so
/// the table bounds its work instead: past a budget of probes, ``insert(_:index:)`` answers
/// `nil` and the caller falls back to `Set` (no quadratic path whatever the ids).
struct IdentifierTable {
  private let slots: UnsafeMutableBufferPointer<Int32>
  private let mask: Int
  private var probeBudget: Int

  /// The slot count for `count` identifiers: a power of two, at least twice `count`.
  static func capacity(for count: Int) -> Int {
    var capacity = 16
    while capacity < 2 * count { capacity <<= 1 }
    return capacity
  }

  /// A table over `memory` (of ``capacity(for:)`` slots), for `count` identifiers.
  init(memory: UnsafeMutableBufferPointer<Int32>, count: Int) {
    memory.initialize(repeating: -1)
    slots = memory
    mask = memory.count - 1
    probeBudget = 8 * count + 64
  }

  /// Inserts the identifier of entry `index`, given `key(i)` reads entry i's identifier.
  ///
  /// - Returns: whether it was new; `nil` when the probe budget is spent (give up).
  mutating func insert(_ text: String, index: Int, key: (Int) -> String) -> Bool? {
    var slot = Self.hash(text) & mask
    while true {
      let occupant = Int(slots[slot])
      if occupant < 0 {
        slots[slot] = Int32(truncatingIfNeeded: index)
        return true
      }
      if key(occupant) == text { return false }
      probeBudget -= 1
      if probeBudget < 0 { return nil }
      slot = (slot + 1) & mask
    }
  }

  /// FNV-1a over the UTF-8 bytes, finished with a multiply-xorshift so that the low bits mix.
  static func hash(_ text: String) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    if done == nil {
      for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    hash ^= hash >> 29
    hash = hash &* 0xbf58_476d_1ce4_e5b9
    hash ^= hash >> 32
    return Int(truncatingIfNeeded: hash)
  }
}
