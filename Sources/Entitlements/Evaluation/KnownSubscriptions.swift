/// The subscriptions a history names (`original_transaction_id`), in the order the evaluator
/// meets them, each in a numbered slot: the evaluator's pass notes each group's latest end per
/// subscription as it makes the records, so that neither the lapse rules (SPEC §5: renewal
/// info describes the time after its subscription's last coverage) nor the check that each
/// renewal info matches an entry pass over the entries again (issue: performance; DESIGN.md
/// "Performance").
///
/// A history names one subscription, or a handful: each slot keeps the 16 bytes of the id
/// string that last named it (entries read from one document share one string per
/// subscription), and the index of an entry that names it, to read the id when it is needed.
/// An entry of the subscription met last is recognised by one comparison, with no string read.
/// A history that names more than ``limit`` subscriptions is not described
/// (``isComplete`` is `false`), and the evaluator passes over the entries as before.
///
/// Every call is given the same entries, alive while the slots are used (one evaluation): the
/// bytes kept are compared, never read as a string.
///
/// ```swift
/// var known = KnownSubscriptions()
/// known.slot(of: 0, in: entries)   // 0: the subscription of entries[0]
/// known.slot(of: 1, in: entries)   // 0 again for a renewal of it
/// known.id(at: 0, in: entries)     // entries[0].originalTransactionID
/// ```
struct KnownSubscriptions {
  /// One value per slot.
  typealias Slots<Element> = InlineArray<8, Element>
  /// How many subscriptions are kept.
  static let limit = Slots<Int>.count
  /// The slot of an entry of a history that names more than ``limit`` subscriptions.
  static let unlisted = UInt8.max

  /// One subscription met: the 16 bytes of the id that last named it, and the index of an
  /// entry that names it.
  private struct Slot {
    var bytes: (UInt64, UInt64)
    let entryIndex: Int
  }

  /// The slots, in the order the subscriptions were met. A list, not inline: the value stays
  /// three words, as small as the canonical entries that carry it (inline, its 200 bytes made
  /// the evaluator's pass copy them at each entry, 6% more instructions with no renewal info).
  private var slots: [Slot] = []
  /// The slot found last: the next entry is usually of the same subscription.
  private var last = 0
  /// Whether every entry asked for had a slot: `false` once more than ``limit`` subscriptions
  /// were met.
  private(set) var isComplete = true

  /// How many slots are taken.
  var count: Int { slots.count }

  /// The slot of the subscription of `entries[index]`, given one if it has none yet;
  /// ``unlisted`` once ``limit`` slots are taken by others.
  @inline(__always)
  mutating func slot(of index: Int, in entries: UnsafeBufferPointer<ReceiptEntry>) -> UInt8 {
    let isLast = slots.withUnsafeBufferPointer { slots in
      !slots.isEmpty && slots[last].bytes == entries[index].originalTransactionID.storageBits
    }
    return isLast ? UInt8(truncatingIfNeeded: last) : slot(ofOther: index, in: entries)
  }

  /// ``slot(of:in:)`` for an entry not of the subscription met last. Out of line: the usual
  /// entry needs none of it.
  ///
  /// A slot found by its text takes the bytes of the entry's id, as ``KnownProducts`` does.
  @inline(never)
  private mutating func slot(
    ofOther index: Int, in entries: UnsafeBufferPointer<ReceiptEntry>
  ) -> UInt8 {
    let id = entries[index].originalTransactionID
    let bytes = id.storageBits
    let found =
      slots.firstIndex { $0.bytes == bytes }
      ?? slots.firstIndex { entries[$0.entryIndex].originalTransactionID == id }
    if let found {
      slots[found].bytes = bytes
      last = found
      return UInt8(truncatingIfNeeded: found)
    }
    guard slots.count < Self.limit else {
      isComplete = false
      return Self.unlisted
    }
    if slots.isEmpty { slots.reserveCapacity(Self.limit) }  // one allocation, no regrowth
    slots.append(Slot(bytes: bytes, entryIndex: index))
    last = slots.count - 1
    return UInt8(truncatingIfNeeded: last)
  }

  /// Whether a slot holds `subscription`; its ids are read in place in `entries` (the entries
  /// the slots were given).
  func contains(_ subscription: OriginalTransactionID, in entries: [ReceiptEntry]) -> Bool {
    slots.contains { entries[$0.entryIndex].originalTransactionID == subscription }
  }

  /// The id of the subscription in `slot`, read in `entries` (the entries the slots were
  /// given).
  func id(at slot: Int, in entries: [ReceiptEntry]) -> OriginalTransactionID {
    entries[slots[slot].entryIndex].originalTransactionID
  }
}
