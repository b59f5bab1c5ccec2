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

  /// `a·b·2⁻²⁵⁶ mod m` for `a, b < m` (Montgomery multiplication, CIOS), fully reduced.
  ///
  /// - Parameters:
  ///   - m: An odd modulus below 2²⁵⁶.
  ///   - inverse: `−m⁻¹ mod 2⁶⁴`.
  @_transparent
  static func montgomeryProduct(_ a: UInt256, _ b: UInt256, modulus m: UInt256, inverse: UInt64)
    -> UInt256
  {
    var t0: UInt64 = 0
    var t1: UInt64 = 0
    var t2: UInt64 = 0
    var t3: UInt64 = 0
    var t4: UInt64 = 0
    montgomeryRow(&t0, &t1, &t2, &t3, &t4, a, b.l0, m, inverse)
    montgomeryRow(&t0, &t1, &t2, &t3, &t4, a, b.l1, m, inverse)
    montgomeryRow(&t0, &t1, &t2, &t3, &t4, a, b.l2, m, inverse)
    montgomeryRow(&t0, &t1, &t2, &t3, &t4, a, b.l3, m, inverse)
    return reduceOnce(t0, t1, t2, t3, t4, m)
  }

  /// One row of CIOS: `t = (t + a·word + q·m) / 2⁶⁴` with `q` making the division exact.
  @_transparent
  static func montgomeryRow(
    _ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64,
    _ t4: inout UInt64, _ a: UInt256, _ word: UInt64, _ m: UInt256, _ inverse: UInt64
  ) {
    var carry: UInt64
    var x0: UInt64
    var x1: UInt64
    var x2: UInt64
    var x3: UInt64
    (carry, x0) = multiplyAdd(a.l0, word, t0, 0)
    (carry, x1) = multiplyAdd(a.l1, word, t1, carry)
    (carry, x2) = multiplyAdd(a.l2, word, t2, carry)
    (carry, x3) = multiplyAdd(a.l3, word, t3, carry)
    let (x5, x4) = addWithCarry(t4, carry, 0)
    let q = x0 &* inverse
    (carry, _) = multiplyAdd(q, m.l0, x0, 0)
    (carry, t0) = multiplyAdd(q, m.l1, x1, carry)
    (carry, t1) = multiplyAdd(q, m.l2, x2, carry)
    (carry, t2) = multiplyAdd(q, m.l3, x3, carry)
    let (carry2, sum) = addWithCarry(x4, carry, 0)
    t3 = sum
    t4 = x5 &+ carry2
  }

  /// The five-limb `t < 2m` reduced below `m`.
  @_transparent
  static func reduceOnce(
    _ t0: UInt64, _ t1: UInt64, _ t2: UInt64, _ t3: UInt64, _ t4: UInt64, _ m: UInt256
  ) -> UInt256 {
    var borrow: UInt64
    var r0: UInt64
    var r1: UInt64
    var r2: UInt64
    var r3: UInt64
    (borrow, r0) = subtractWithBorrow(t0, m.l0, 0)
    (borrow, r1) = subtractWithBorrow(t1, m.l1, borrow)
    (borrow, r2) = subtractWithBorrow(t2, m.l2, borrow)
    (borrow, r3) = subtractWithBorrow(t3, m.l3, borrow)
    (borrow, _) = subtractWithBorrow(t4, 0, borrow)
    return borrow == 0
      ? UInt256(l0: r0, l1: r1, l2: r2, l3: r3) : UInt256(l0: t0, l1: t1, l2: t2, l3: t3)
  }

  /// `a + b mod m` for `a, b < m`.
  @_transparent
  static func modularSum(_ a: UInt256, _ b: UInt256, modulus m: UInt256) -> UInt256 {
    var carry: UInt64
    var t0: UInt64
    var t1: UInt64
    var t2: UInt64
    var t3: UInt64
    (carry, t0) = addWithCarry(a.l0, b.l0, 0)
    (carry, t1) = addWithCarry(a.l1, b.l1, carry)
    (carry, t2) = addWithCarry(a.l2, b.l2, carry)
    (carry, t3) = addWithCarry(a.l3, b.l3, carry)
    return reduceOnce(t0, t1, t2, t3, carry, m)
  }

  /// `a − b mod m` for `a, b < m`.
  @_transparent
  static func modularDifference(_ a: UInt256, _ b: UInt256, modulus m: UInt256) -> UInt256 {
    var borrow: UInt64
    var t0: UInt64
    var t1: UInt64
    var t2: UInt64
    var t3: UInt64
    (borrow, t0) = subtractWithBorrow(a.l0, b.l0, 0)
    (borrow, t1) = subtractWithBorrow(a.l1, b.l1, borrow)
    (borrow, t2) = subtractWithBorrow(a.l2, b.l2, borrow)
    (borrow, t3) = subtractWithBorrow(a.l3, b.l3, borrow)
    // Add m back when it borrowed: the mask is all ones then, zero otherwise.
    let mask = 0 &- borrow
    var carry: UInt64
    (carry, t0) = addWithCarry(t0, m.l0 & mask, 0)
    (carry, t1) = addWithCarry(t1, m.l1 & mask, carry)
    (carry, t2) = addWithCarry(t2, m.l2 & mask, carry)
    (_, t3) = addWithCarry(t3, m.l3 & mask, carry)
    return UInt256(l0: t0, l1: t1, l2: t2, l3: t3)
  }
}
