/// A set of identifiers for duplicate detection on the hot path (issue: performance): an
/// open-addressing table of entry indices in caller-provided memory (stack memory for small
/// histories), with a fixed, non-cryptographic hash of the identifier's UTF-8 bytes.
///
/// The standard library's `Set` is seeded per process and hashes with SipHash: safe against
/// chosen collisions but several times slower for short ids. A fixed hash can be attacked, so
/// the table bounds its work instead: past a budget of probes, ``insert(_:index:key:)``
/// answers `nil` and the caller falls back to `Set` (no quadratic path whatever the ids).
///
/// Each slot holds the entry index and 32 more bits of the hash, so an occupied slot is
/// compared by those bits first and the entry (far away in memory) is read only when they
/// match.
struct IdentifierTable {
  private let slots: UnsafeMutableBufferPointer<UInt64>
  private let mask: Int
  private var probeBudget: Int

  /// The slot count for `count` identifiers: a power of two, at least twice `count`.
  static func capacity(for count: Int) -> Int {
    var capacity = 16
    while capacity < 2 * count { capacity <<= 1 }
    return capacity
  }

  /// A table over `memory` (of ``capacity(for:)`` slots), for `count` identifiers (fewer
  /// than 2³² − 1).
  init(memory: UnsafeMutableBufferPointer<UInt64>, count: Int) {
    memory.initialize(repeating: 0)
    slots = memory
    mask = memory.count - 1
    probeBudget = 8 * count + 64
  }

  /// Inserts the identifier of entry `index`, given `key(i)` reads entry i's identifier.
  ///
  /// - Returns: whether it was new; `nil` when the probe budget is spent (give up).
  mutating func insert(_ text: String, index: Int, key: (Int) -> String) -> Bool? {
    let hash = Self.hash(text)
    let tag = hash & 0xFFFF_FFFF_0000_0000
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let occupant = slots[slot]
      if occupant == 0 {
        slots[slot] = tag | UInt64(index + 1)  // 0 marks an empty slot
        return true
      }
      if occupant & 0xFFFF_FFFF_0000_0000 == tag,
        key(Int(occupant & 0xFFFF_FFFF) - 1) == text
      {
        return false
      }
      probeBudget -= 1
      if probeBudget < 0 { return nil }
      slot = (slot + 1) & mask
    }
  }

  /// A multiply-mix hash of the UTF-8 bytes, eight at a time.
  static func hash(_ text: String) -> UInt64 {
    func mix(_ value: UInt64) -> UInt64 {
      var value = value
      value ^= value >> 32
      value = value &* 0xd6e8_feb8_6659_fd93
      value ^= value >> 32
      return value
    }
    func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
      var state: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(bytes.count)
      let raw = UnsafeRawBufferPointer(bytes)
      var offset = 0
      while offset + 8 <= raw.count {
        state = mix(state ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset += 8
      }
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while offset < raw.count {
        tail |= UInt64(raw[offset]) << shift
        shift += 8
        offset += 1
      }
      return mix(state ^ tail ^ 0xff51_afd7_ed55_8ccd)
    }
    if let value = text.utf8.withContiguousStorageIfAvailable(hash) { return value }
    return Array(text.utf8).withUnsafeBufferPointer(hash)
  }
}
