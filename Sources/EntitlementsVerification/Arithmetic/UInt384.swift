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

  /// `a·b·2⁻³⁸⁴ mod m` for `a, b < m` (Montgomery multiplication, CIOS), fully reduced.
  ///
  /// - Parameters:
  ///   - m: An odd modulus below 2³⁸⁴.
  ///   - inverse: `−m⁻¹ mod 2⁶⁴`.
  @_transparent
  static func montgomeryProduct(_ a: UInt384, _ b: UInt384, modulus m: UInt384, inverse: UInt64)
    -> UInt384
  {
    var t = UInt384.zero
    var t6: UInt64 = 0
    montgomeryRow(&t, &t6, a, b.l0, m, inverse)
    montgomeryRow(&t, &t6, a, b.l1, m, inverse)
    montgomeryRow(&t, &t6, a, b.l2, m, inverse)
    montgomeryRow(&t, &t6, a, b.l3, m, inverse)
    montgomeryRow(&t, &t6, a, b.l4, m, inverse)
    montgomeryRow(&t, &t6, a, b.l5, m, inverse)
    return reduceOnce(t, t6, m)
  }

  /// One row of CIOS: `t = (t + a·word + q·m) / 2⁶⁴` with `q` making the division exact.
  @_transparent
  static func montgomeryRow(
    _ t: inout UInt384, _ t6: inout UInt64, _ a: UInt384, _ word: UInt64, _ m: UInt384,
    _ inverse: UInt64
  ) {
    var carry: UInt64
    var x0: UInt64
    var x1: UInt64
    var x2: UInt64
    var x3: UInt64
    var x4: UInt64
    var x5: UInt64
    (carry, x0) = multiplyAdd(a.l0, word, t.l0, 0)
    (carry, x1) = multiplyAdd(a.l1, word, t.l1, carry)
    (carry, x2) = multiplyAdd(a.l2, word, t.l2, carry)
    (carry, x3) = multiplyAdd(a.l3, word, t.l3, carry)
    (carry, x4) = multiplyAdd(a.l4, word, t.l4, carry)
    (carry, x5) = multiplyAdd(a.l5, word, t.l5, carry)
    let (x7, x6) = addWithCarry(t6, carry, 0)
    let q = x0 &* inverse
    (carry, _) = multiplyAdd(q, m.l0, x0, 0)
    (carry, t.l0) = multiplyAdd(q, m.l1, x1, carry)
    (carry, t.l1) = multiplyAdd(q, m.l2, x2, carry)
    (carry, t.l2) = multiplyAdd(q, m.l3, x3, carry)
    (carry, t.l3) = multiplyAdd(q, m.l4, x4, carry)
    (carry, t.l4) = multiplyAdd(q, m.l5, x5, carry)
    let (carry2, sum) = addWithCarry(x6, carry, 0)
    t.l5 = sum
    t6 = x7 &+ carry2
  }

  /// The seven-limb `t + t6·2³⁸⁴ < 2m` reduced below `m`.
  @_transparent
  static func reduceOnce(_ t: UInt384, _ t6: UInt64, _ m: UInt384) -> UInt384 {
    var borrow: UInt64
    var r = UInt384.zero
    (borrow, r.l0) = subtractWithBorrow(t.l0, m.l0, 0)
    (borrow, r.l1) = subtractWithBorrow(t.l1, m.l1, borrow)
    (borrow, r.l2) = subtractWithBorrow(t.l2, m.l2, borrow)
    (borrow, r.l3) = subtractWithBorrow(t.l3, m.l3, borrow)
    (borrow, r.l4) = subtractWithBorrow(t.l4, m.l4, borrow)
    (borrow, r.l5) = subtractWithBorrow(t.l5, m.l5, borrow)
    (borrow, _) = subtractWithBorrow(t6, 0, borrow)
    return borrow == 0 ? r : t
  }

  /// `a + b mod m` for `a, b < m`.
  @_transparent
  static func modularSum(_ a: UInt384, _ b: UInt384, modulus m: UInt384) -> UInt384 {
    var carry: UInt64
    var t = UInt384.zero
    (carry, t.l0) = addWithCarry(a.l0, b.l0, 0)
    (carry, t.l1) = addWithCarry(a.l1, b.l1, carry)
    (carry, t.l2) = addWithCarry(a.l2, b.l2, carry)
    (carry, t.l3) = addWithCarry(a.l3, b.l3, carry)
    (carry, t.l4) = addWithCarry(a.l4, b.l4, carry)
    (carry, t.l5) = addWithCarry(a.l5, b.l5, carry)
    return reduceOnce(t, carry, m)
  }

  /// `a − b mod m` for `a, b < m`.
  @_transparent
  static func modularDifference(_ a: UInt384, _ b: UInt384, modulus m: UInt384) -> UInt384 {
    var borrow: UInt64
    var t = UInt384.zero
    (borrow, t.l0) = subtractWithBorrow(a.l0, b.l0, 0)
    (borrow, t.l1) = subtractWithBorrow(a.l1, b.l1, borrow)
    (borrow, t.l2) = subtractWithBorrow(a.l2, b.l2, borrow)
    (borrow, t.l3) = subtractWithBorrow(a.l3, b.l3, borrow)
    (borrow, t.l4) = subtractWithBorrow(a.l4, b.l4, borrow)
    (borrow, t.l5) = subtractWithBorrow(a.l5, b.l5, borrow)
    // Add m back when it borrowed: the mask is all ones then, zero otherwise.
    let mask = 0 &- borrow
    var carry: UInt64
    (carry, t.l0) = addWithCarry(t.l0, m.l0 & mask, 0)
    (carry, t.l1) = addWithCarry(t.l1, m.l1 & mask, carry)
    (carry, t.l2) = addWithCarry(t.l2, m.l2 & mask, carry)
    (carry, t.l3) = addWithCarry(t.l3, m.l3 & mask, carry)
    (carry, t.l4) = addWithCarry(t.l4, m.l4 & mask, carry)
    (_, t.l5) = addWithCarry(t.l5, m.l5 & mask, carry)
    return t
  }
}
