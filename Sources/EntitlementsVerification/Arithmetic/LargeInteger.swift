/// A fixed-width unsigned integer of 64-bit limbs, least significant first: the common part of
/// ``UInt256`` and ``UInt384`` (conversions, comparison, bit windows).
///
/// Arithmetic that must be fast (Montgomery multiplication) is written for each width; what is
/// here runs a few times per signature.
protocol LargeInteger: Hashable, Sendable {
  /// The number of 64-bit limbs.
  static var limbCount: Int { get }
  /// Zero.
  static var zero: Self { get }
  /// Limb `index`, 0 being the least significant.
  subscript(limb index: Int) -> UInt64 { get set }
}

extension LargeInteger {
  /// The width in bytes.
  static var byteCount: Int { limbCount * 8 }

  /// The integer of a big-endian byte string of at most ``byteCount`` bytes.
  init?(bigEndian bytes: some Collection<UInt8>) {
    guard bytes.count <= Self.byteCount else { return nil }
    self = .zero
    var position = 0
    for byte in bytes.reversed() {
      self[limb: position / 8] |= UInt64(byte) << (8 * UInt64(position % 8))
      position += 1
    }
  }

  /// The big-endian bytes, ``byteCount`` of them.
  var bigEndianBytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Self.byteCount)
    for index in stride(from: Self.limbCount - 1, through: 0, by: -1) {
      let limb = self[limb: index]
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift)))
      }
    }
    return bytes
  }

  var isZero: Bool {
    for index in 0..<Self.limbCount where self[limb: index] != 0 { return false }
    return true
  }

  /// Whether `self < other`.
  func isLess(than other: Self) -> Bool {
    for index in stride(from: Self.limbCount - 1, through: 0, by: -1) {
      let (left, right) = (self[limb: index], other[limb: index])
      if left != right { return left < right }
    }
    return false
  }

  /// `self + other` and whether it carried out of the width.
  func addingReportingCarry(_ other: Self) -> (sum: Self, carry: Bool) {
    var sum = Self.zero
    var carry: UInt64 = 0
    for index in 0..<Self.limbCount {
      (carry, sum[limb: index]) = addWithCarry(self[limb: index], other[limb: index], carry)
    }
    return (sum, carry != 0)
  }

  /// `self − other` and whether it borrowed (then the difference wrapped around).
  func subtractingReportingBorrow(_ other: Self) -> (difference: Self, borrow: Bool) {
    var difference = Self.zero
    var borrow: UInt64 = 0
    for index in 0..<Self.limbCount {
      (borrow, difference[limb: index]) = subtractWithBorrow(
        self[limb: index], other[limb: index], borrow)
    }
    return (difference, borrow != 0)
  }

  /// Bit `index` (0 the least significant; beyond the width, 0).
  func bit(_ index: Int) -> UInt64 {
    guard index < Self.limbCount * 64 else { return 0 }
    return (self[limb: index / 64] >> UInt64(index % 64)) & 1
  }

  /// `count` (at most 32) bits starting at bit `index`, as a number (bits beyond the width are 0).
  func bits(at index: Int, count: Int) -> UInt64 {
    let limbIndex = index / 64
    guard limbIndex < Self.limbCount else { return 0 }
    let shift = UInt64(index % 64)
    var value = self[limb: limbIndex] >> shift
    if shift + UInt64(count) > 64, limbIndex + 1 < Self.limbCount {
      value |= self[limb: limbIndex + 1] << (64 - shift)
    }
    return value & ((1 << UInt64(count)) - 1)
  }
}
