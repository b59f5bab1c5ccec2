/// ECDSA verification (SEC 1 v2 §4.1.4, FIPS 186-4 §6.4.2), generic over the curve.
///
/// Public data, public keys: nothing here is secret, so the code branches and indexes tables
/// by the scalars' digits freely (no constant-time discipline), and stays exact: every
/// rejection Wycheproof asks for is made (r or s outside `[1, n−1]`, a point at infinity,
/// `x(R) ≠ r mod n`).
enum ECDSA {
  /// Whether `(r, s)` signs `digest` under `key`.
  ///
  /// - Parameters:
  ///   - r: The signature's `r`, any value (the range is checked here).
  ///   - s: The signature's `s`, any value.
  ///   - digest: The message's hash; its leftmost `bitCount` bits are used (SEC 1 §4.1.3 step
  ///     5), so a SHA-384 digest fits a P-256 key and a SHA-256 digest a P-384 key.
  ///   - key: The public key, on the curve.
  ///   - keyTable: A fixed-base table of `key`, when one is kept: then `u₂·Q` costs no
  ///     doublings either.
  /// - Returns: Whether the signature verifies.
  static func isValid<Curve: WeierstrassCurve>(
    r: Curve.Integer, s: Curve.Integer, digest: [UInt8], key: AffinePoint<Curve>,
    keyTable: FixedBaseTable<Curve>? = nil
  ) -> Bool {
    let n = Curve.order
    guard !r.isZero, !s.isZero, r.isLess(than: n), s.isLess(than: n) else { return false }
    guard var e = Curve.Integer(bigEndian: digest.prefix(Curve.Integer.byteCount)) else {
      return false
    }
    if !e.isLess(than: n) { e = e.subtractingReportingBorrow(n).difference }
    // w = s⁻¹ in Montgomery form; a Montgomery product of a plain number with it is plain.
    let w = Curve.montgomeryScalarInverse(s)
    let u1 = Curve.scalarProduct(e, w)
    let u2 = Curve.scalarProduct(r, w)
    var sum: JacobianPoint<Curve>
    if let keyTable {
      sum = .infinity
      keyTable.accumulate(u2, into: &sum)
    } else {
      sum = WindowedNAF.multiply(u2, key)
    }
    Curve.generatorTable.accumulate(u1, into: &sum)
    guard !sum.isInfinity else { return false }
    // x(R) = X/Z² ≡ r (mod n): X = r·Z² in the field, or (r + n)·Z² when r + n < p (x(R)
    // may lie in [n, p)). No inversion needed.
    let z2 = Curve.fieldSquare(sum.z)
    if Curve.fieldProduct(Curve.fieldElement(r), z2) == sum.x { return true }
    let (shifted, carry) = r.addingReportingCarry(n)
    if !carry, shifted.isLess(than: Curve.fieldModulus) {
      return Curve.fieldProduct(Curve.fieldElement(shifted), z2) == sum.x
    }
    return false
  }
}
