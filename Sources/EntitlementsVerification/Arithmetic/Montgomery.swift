// Montgomery multiplication and modular addition for the two widths, with the carry steps
// they are made of.
//
// All of it is in one file on purpose: in a debug build (where `swift test` runs) each file is
// compiled apart, and a `@_transparent` function is inlined only into callers of its own file.
// Here every step is inlined into the products, so that a debug build multiplies ten times
// faster than with calls (0.29 µs instead of 2.6 µs for P-256; `@_optimize(speed)` changes
// nothing in -Onone, measured). In release the whole module is optimized together anyway.
//
// The carries are written as comparisons (`sum < addend`), which the optimizer turns into
// `adc`/`sbb`; spelled with `addingReportingOverflow` and a Bool, they became branches that
// mispredict on random limbs (82 ns instead of 26 ns per P-256 multiplication in release).

/// `a·b + t + c` as a (high, low) pair; it never overflows 128 bits.
@_transparent
func multiplyAdd(_ a: UInt64, _ b: UInt64, _ t: UInt64, _ c: UInt64) -> (high: UInt64, low: UInt64)
{
  let (high, low) = a.multipliedFullWidth(by: b)
  let sum = low &+ t
  let high1 = high &+ (sum < t ? 1 : 0)
  let sum2 = sum &+ c
  return (high1 &+ (sum2 < c ? 1 : 0), sum2)
}

/// `a + b + carry` (carry 0 or 1) as (carry out, sum).
@_transparent
func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (carry: UInt64, sum: UInt64) {
  let sum = a &+ b
  let carry1: UInt64 = sum < b ? 1 : 0
  let sum2 = sum &+ carry
  return (carry1 &+ (sum2 < carry ? 1 : 0), sum2)
}

/// `a − b − borrow` (borrow 0 or 1) as (borrow out, difference).
@_transparent
func subtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (
  borrow: UInt64, difference: UInt64
) {
  let difference = a &- b
  let borrow1: UInt64 = a < b ? 1 : 0
  let difference2 = difference &- borrow
  return (borrow1 | (difference < borrow ? 1 : 0), difference2)
}

extension UInt256 {
  /// `a·b·2⁻²⁵⁶ mod m` for `a, b < m` (Montgomery multiplication, CIOS), fully reduced.
  ///
  /// - Parameters:
  ///   - a: Below `m`.
  ///   - b: Below `m`.
  ///   - m: An odd modulus below 2²⁵⁶.
  ///   - inverse: `−m⁻¹ mod 2⁶⁴`.
  /// - Returns: The product, below `m`.
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

extension UInt256 {
  /// P-256's prime, p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1: limbs 2⁶⁴−1, 2³²−1, 0, 2⁶⁴−2³²+1.
  static let p256Prime = UInt256(
    0xFFFF_FFFF_0000_0001, 0x0000_0000_0000_0000, 0x0000_0000_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF)

  /// `a·b·2⁻²⁵⁶ mod p` for P-256's prime: CIOS with the prime's shape used in each reduction
  /// step (one multiplication instead of four; 20 % faster, measured).
  @_transparent
  static func p256Product(_ a: UInt256, _ b: UInt256) -> UInt256 {
    var t0: UInt64 = 0
    var t1: UInt64 = 0
    var t2: UInt64 = 0
    var t3: UInt64 = 0
    var t4: UInt64 = 0
    p256Row(&t0, &t1, &t2, &t3, &t4, a, b.l0)
    p256Row(&t0, &t1, &t2, &t3, &t4, a, b.l1)
    p256Row(&t0, &t1, &t2, &t3, &t4, a, b.l2)
    p256Row(&t0, &t1, &t2, &t3, &t4, a, b.l3)
    return reduceOnce(t0, t1, t2, t3, t4, p256Prime)
  }

  /// One CIOS row for P-256: `t = (t + a·word + q·p) / 2⁶⁴`, `q = t₀` (−p⁻¹ ≡ 1 mod 2⁶⁴).
  @_transparent
  static func p256Row(
    _ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64,
    _ t4: inout UInt64, _ a: UInt256, _ word: UInt64
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
    var (x5, x4) = addWithCarry(t4, carry, 0)
    p256Reduce(&x0, &x1, &x2, &x3, &x4)
    (t0, t1, t2, t3) = (x1, x2, x3, x4)
    t4 = x5 &+ x0
  }

  /// `(x + q·p) / 2⁶⁴` with `q = x₀`, in place: x₀ + q·(2⁶⁴−1) = q·2⁶⁴ carries q into limb 1,
  /// where q·(2³²−1) + q = q·2³²; limb 2 gets nothing but carries (p's limb is 0); limb 3
  /// gets q·(2⁶⁴−2³²+1). The result is in x₁…x₄, and the carry out of x₄ is left in x₀.
  @_transparent
  static func p256Reduce(
    _ x0: inout UInt64, _ x1: inout UInt64, _ x2: inout UInt64, _ x3: inout UInt64,
    _ x4: inout UInt64
  ) {
    var carry: UInt64
    (carry, x1) = addWithCarry(x1, x0 << 32, 0)
    (carry, x2) = addWithCarry(x2, x0 >> 32, carry)
    let (high, low) = x0.multipliedFullWidth(by: 0xFFFF_FFFF_0000_0001)
    (carry, x3) = addWithCarry(x3, low, carry)
    (carry, x4) = addWithCarry(x4, high, carry)
    x0 = carry
  }

  /// `a²·2⁻²⁵⁶ mod p` for P-256's prime: the 512-bit square from 10 products (each cross
  /// product once, doubled), then four reduction steps.
  @_transparent
  static func p256Square(_ a: UInt256) -> UInt256 {
    var carry: UInt64
    var t1: UInt64
    var t2: UInt64
    var t3: UInt64
    var t4: UInt64
    var t5: UInt64
    var t6: UInt64
    (carry, t1) = a.l0.multipliedFullWidth(by: a.l1)
    (carry, t2) = multiplyAdd(a.l0, a.l2, carry, 0)
    (t4, t3) = multiplyAdd(a.l0, a.l3, carry, 0)
    (carry, t3) = multiplyAdd(a.l1, a.l2, t3, 0)
    (t5, t4) = multiplyAdd(a.l1, a.l3, t4, carry)
    (t6, t5) = multiplyAdd(a.l2, a.l3, t5, 0)
    let t7 = t6 >> 63
    t6 = t6 << 1 | t5 >> 63
    t5 = t5 << 1 | t4 >> 63
    t4 = t4 << 1 | t3 >> 63
    t3 = t3 << 1 | t2 >> 63
    t2 = t2 << 1 | t1 >> 63
    t1 = t1 << 1
    var high: UInt64
    var low: UInt64
    var t0: UInt64
    (high, t0) = a.l0.multipliedFullWidth(by: a.l0)
    (carry, t1) = addWithCarry(t1, high, 0)
    (high, low) = a.l1.multipliedFullWidth(by: a.l1)
    (carry, t2) = addWithCarry(t2, low, carry)
    (carry, t3) = addWithCarry(t3, high, carry)
    (high, low) = a.l2.multipliedFullWidth(by: a.l2)
    (carry, t4) = addWithCarry(t4, low, carry)
    (carry, t5) = addWithCarry(t5, high, carry)
    (high, low) = a.l3.multipliedFullWidth(by: a.l3)
    (carry, t6) = addWithCarry(t6, low, carry)
    var t7b = t7 &+ high &+ carry
    // Reduce the low half four times: each step divides by 2⁶⁴.
    var x0 = t0
    var x1 = t1
    var x2 = t2
    var x3 = t3
    var x4: UInt64 = 0
    for _ in 0..<4 {
      p256Reduce(&x0, &x1, &x2, &x3, &x4)
      (x0, x1, x2, x3, x4) = (x1, x2, x3, x4, x0)
    }
    // x0…x3 is (low + q·p)/2²⁵⁶ < p + 1 and x4 its carry (0); add the high half.
    (carry, x0) = addWithCarry(x0, t4, 0)
    (carry, x1) = addWithCarry(x1, t5, carry)
    (carry, x2) = addWithCarry(x2, t6, carry)
    (carry, x3) = addWithCarry(x3, t7b, carry)
    t7b = x4 &+ carry
    return reduceOnce(x0, x1, x2, x3, t7b, p256Prime)
  }
}

extension UInt384 {
  /// `a·b·2⁻³⁸⁴ mod m` for `a, b < m` (Montgomery multiplication, CIOS), fully reduced.
  ///
  /// - Parameters:
  ///   - a: Below `m`.
  ///   - b: Below `m`.
  ///   - m: An odd modulus below 2³⁸⁴.
  ///   - inverse: `−m⁻¹ mod 2⁶⁴`.
  /// - Returns: The product, below `m`.
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
