/// A 256-bit unsigned integer in four 64-bit limbs, least significant first: P-256's field
/// elements and scalars.
struct UInt256: LargeInteger {
  var l0: UInt64
  var l1: UInt64
  var l2: UInt64
  var l3: UInt64

  static var limbCount: Int { 4 }
  static var zero: UInt256 { UInt256(l0: 0, l1: 0, l2: 0, l3: 0) }

  /// The integer of four limbs, least significant first.
  @_transparent
  init(l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64) {
    self.l0 = l0
    self.l1 = l1
    self.l2 = l2
    self.l3 = l3
  }

  /// The integer of four limbs, most significant first, as constants are written.
  init(_ l3: UInt64, _ l2: UInt64, _ l1: UInt64, _ l0: UInt64) {
    self.init(l0: l0, l1: l1, l2: l2, l3: l3)
  }

  subscript(limb index: Int) -> UInt64 {
    get {
      switch index {
      case 0: l0
      case 1: l1
      case 2: l2
      default: l3
      }
    }
    set {
      switch index {
      case 0: l0 = newValue
      case 1: l1 = newValue
      case 2: l2 = newValue
      default: l3 = newValue
      }
    }
  }
}
