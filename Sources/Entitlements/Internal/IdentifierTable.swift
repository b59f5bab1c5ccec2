/// A table from the ids of one history's entries to positions: open addressing over the plain
/// numbers of Apple's ids (a multiplicative hash, linear probing, at most half full), and a
/// `Dictionary` for the rare ids that are not plain numbers.
///
/// `Dictionary` hashes each key with a seeded SipHash: on a history whose ids do not increase
/// (a receipt of several subscriptions, a document folded out of order), that hashing was most
/// of folding and of proving the history free of duplicates. A plain number is already a
/// well-spread key; one multiplication places it.
///
/// ```swift
/// var table = IdentifierTable()
/// table.position(of: CompactIdentifier("2000000000000001"), orInsert: 0)  // nil: inserted
/// table.position(of: CompactIdentifier("2000000000000001"), orInsert: 1)  // 0: found
/// ```
struct IdentifierTable: Sendable {
  /// The plain numbers, each in its slot; ``empty`` where there is none. A power of two
  /// slots, or none before the first number.
  private var keys: [UInt64] = []
  /// The position of the number in the same slot.
  private var values: [Int] = []
  /// How many numbers the slots hold.
  private var count = 0
  /// 64 minus the number of bits of a slot: the shift that takes a slot from a product.
  private var shift: UInt64 = 64
  /// Ids that are not plain numbers.
  private var others: [CompactIdentifier: Int] = [:]

  /// No plain number has this value (it is ``IdentifierNumber/none``'s).
  private static let empty = IdentifierNumber.none.value

  /// An empty table, with room for `minimumCapacity` plain numbers before it grows.
  init(minimumCapacity: Int = 0) {
    if minimumCapacity > 0 { grow(toHold: minimumCapacity) }
  }

  /// The position stored for `key`; when there is none, stores `position` for it and returns
  /// `nil`. One probe sequence for both.
  mutating func position(of key: CompactIdentifier, orInsert position: Int) -> Int? {
    let number = key.number
    guard number.isPlain else {
      if let found = others[key] { return found }
      others[key] = position
      return nil
    }
    if 2 * (count + 1) > keys.count { grow(toHold: count + 1) }
    let mask = keys.count - 1
    var slot = Self.slot(of: number.value, shift)
    while keys[slot] != Self.empty {
      if keys[slot] == number.value { return values[slot] }
      slot = (slot + 1) & mask
    }
    keys[slot] = number.value
    values[slot] = position
    count += 1
    return nil
  }

  /// The first slot of `number`: the high bits of its product with 2⁶⁴ / φ (Fibonacci
  /// hashing), which spreads consecutive numbers (Apple's ids are) over the slots.
  @inline(__always)
  private static func slot(of number: UInt64, _ shift: UInt64) -> Int {
    Int(truncatingIfNeeded: (number &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// Enough slots for `needed` numbers at most half full (at least 8), every number placed
  /// again.
  private mutating func grow(toHold needed: Int) {
    var slots = max(8, keys.count)
    while slots < 2 * needed { slots *= 2 }
    let (oldKeys, oldValues) = (keys, values)
    keys = [UInt64](repeating: Self.empty, count: slots)
    values = [Int](repeating: 0, count: slots)
    shift = UInt64(64 - (slots - 1).nonzeroBitCount)
    let mask = slots - 1
    for index in oldKeys.indices where oldKeys[index] != Self.empty {
      var slot = Self.slot(of: oldKeys[index], shift)
      while keys[slot] != Self.empty { slot = (slot + 1) & mask }
      keys[slot] = oldKeys[index]
      values[slot] = oldValues[index]
    }
  }
}
