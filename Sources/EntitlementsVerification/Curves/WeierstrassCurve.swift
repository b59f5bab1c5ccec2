/// A prime-order curve `y² = x³ − 3x + b` over a prime field: P-256 and P-384 (FIPS 186-4
/// D.1.2, SEC 2 §2.4.2, §2.5.1).
///
/// Field elements are kept in Montgomery form (`x·R mod p`, `R = 2^(64·limbs)`), fully reduced,
/// so that zero and equality are plain comparisons. The conforming types give the constants and
/// the multiplication written for their width; everything else (points, tables, ECDSA) is
/// generic and specialized by the optimizer.
protocol WeierstrassCurve: Sendable {
  /// The fixed-width integer holding field elements and scalars.
  associatedtype Integer: LargeInteger

  /// The bit length of the field prime and of the group order (equal for these curves).
  static var bitCount: Int { get }
  /// The field prime `p`.
  static var fieldModulus: Integer { get }
  /// The group order `n`.
  static var order: Integer { get }
  /// `R mod p`: one in Montgomery form.
  static var fieldOne: Integer { get }
  /// `R² mod p`, to enter Montgomery form.
  static var fieldRSquared: Integer { get }
  /// `R mod n`: one in the scalars' Montgomery form.
  static var scalarOne: Integer { get }
  /// `R² mod n`.
  static var scalarRSquared: Integer { get }
  /// The curve's `b`, in Montgomery form.
  static var b: Integer { get }
  /// The base point `G`, in Montgomery form.
  static var generator: AffinePoint<Self> { get }
  /// Multiples of `G` for fixed-base multiplication, built once.
  static var generatorTable: FixedBaseTable<Self> { get }

  /// `a·b` in Montgomery form.
  static func fieldProduct(_ a: Integer, _ b: Integer) -> Integer
  /// `a²` in Montgomery form.
  static func fieldSquare(_ a: Integer) -> Integer
  /// `a + b mod p`.
  static func fieldSum(_ a: Integer, _ b: Integer) -> Integer
  /// `a − b mod p`.
  static func fieldDifference(_ a: Integer, _ b: Integer) -> Integer
  /// `a·b·R⁻¹ mod n`.
  static func scalarProduct(_ a: Integer, _ b: Integer) -> Integer
  /// `s⁻¹·R mod n` for a plain `s` in `[1, n−1]`: the inverse in Montgomery form. By default
  /// Fermat's `s^(n−2)`; P-256 uses a binary GCD.
  static func montgomeryScalarInverse(_ s: Integer) -> Integer
}

extension WeierstrassCurve {
  /// `x` (below p) in Montgomery form.
  static func fieldElement(_ x: Integer) -> Integer { fieldProduct(x, fieldRSquared) }

  /// The ordinary value of a Montgomery-form element.
  static func fieldValue(_ x: Integer) -> Integer {
    var one = Integer.zero
    one[limb: 0] = 1
    return fieldProduct(x, one)
  }

  /// `x⁻¹` for a non-zero element (Fermat: `x^(p−2)`); used when tables are built, never per
  /// signature.
  static func fieldInverse(_ x: Integer) -> Integer {
    var two = Integer.zero
    two[limb: 0] = 2
    let exponent = fieldModulus.subtractingReportingBorrow(two).difference
    var result = fieldOne
    for index in stride(from: bitCount - 1, through: 0, by: -1) {
      result = fieldSquare(result)
      if exponent.bit(index) == 1 { result = fieldProduct(result, x) }
    }
    return result
  }

  /// `s⁻¹·R mod n` by Fermat: `(s·R)^(n−2)` in Montgomery form.
  static func montgomeryScalarInverse(_ s: Integer) -> Integer {
    scalarInverse(scalarProduct(s, scalarRSquared))
  }

  /// `s⁻¹` in the scalars' Montgomery form, for `s` in that form and non-zero (`s^(n−2)`, with
  /// a window of four bits: about `bitCount` squarings and `bitCount/4` products).
  static func scalarInverse(_ s: Integer) -> Integer {
    var two = Integer.zero
    two[limb: 0] = 2
    let exponent = order.subtractingReportingBorrow(two).difference
    var powers = [Integer](repeating: scalarOne, count: 16)
    for index in 1..<16 { powers[index] = scalarProduct(powers[index - 1], s) }
    var result = scalarOne
    for window in stride(from: bitCount / 4 - 1, through: 0, by: -1) {
      result = scalarProduct(result, result)
      result = scalarProduct(result, result)
      result = scalarProduct(result, result)
      result = scalarProduct(result, result)
      let digit = Int(exponent.bits(at: window * 4, count: 4))
      if digit != 0 { result = scalarProduct(result, powers[digit]) }
    }
    return result
  }

  /// Whether `(x, y)`, ordinary integers, is a point of the curve: both below p and
  /// `y² = x³ − 3x + b`.
  static func point(x: Integer, y: Integer) -> AffinePoint<Self>? {
    guard x.isLess(than: fieldModulus), y.isLess(than: fieldModulus) else { return nil }
    let point = AffinePoint<Self>(x: fieldElement(x), y: fieldElement(y))
    return point.isOnCurve ? point : nil
  }
}
