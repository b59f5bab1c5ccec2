/// A 384-bit unsigned integer in six 64-bit limbs, least significant first: P-384's field
/// elements and scalars.
struct UInt384: LargeInteger {
  var l0: UInt64
  var l1: UInt64
  var l2: UInt64
  var l3: UInt64
  var l4: UInt64
  var l5: UInt64

  static var limbCount: Int { 6 }
  static var zero: UInt384 { UInt384(l0: 0, l1: 0, l2: 0, l3: 0, l4: 0, l5: 0) }

  /// The integer of six limbs, least significant first.
  @_transparent
  init(l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64, l5: UInt64) {
    self.l0 = l0
    self.l1 = l1
    self.l2 = l2
    self.l3 = l3
    self.l4 = l4
    self.l5 = l5
  }

  /// The integer of six limbs, most significant first, as constants are written.
  init(_ l5: UInt64, _ l4: UInt64, _ l3: UInt64, _ l2: UInt64, _ l1: UInt64, _ l0: UInt64) {
    self.init(l0: l0, l1: l1, l2: l2, l3: l3, l4: l4, l5: l5)
  }

  subscript(limb index: Int) -> UInt64 {
    get {
      switch index {
      case 0: l0
      case 1: l1
      case 2: l2
      case 3: l3
      case 4: l4
      default: l5
      }
    }
    set {
      switch index {
      case 0: l0 = newValue
      case 1: l1 = newValue
      case 2: l2 = newValue
      case 3: l3 = newValue
      case 4: l4 = newValue
      default: l5 = newValue
      }
    }
  }
}
