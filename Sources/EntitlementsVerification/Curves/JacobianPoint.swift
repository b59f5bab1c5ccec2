/// A point in Jacobian coordinates `(X, Y, Z)`, standing for `(X/Z², Y/Z³)`, Montgomery form;
/// `Z = 0` is the point at infinity.
///
/// The formulas are those of the Explicit-Formulas Database for `a = −3`: dbl-2001-b,
/// add-2007-bl and madd-2007-bl. Each addition looks at the cases those formulas leave out
/// (an operand at infinity, equal points, opposite points): ECDSA verification meets them for
/// crafted signatures (Wycheproof's PointDuplication and EdgeCaseShamirMultiplication).
struct JacobianPoint<Curve: WeierstrassCurve>: Sendable {
  var x: Curve.Integer
  var y: Curve.Integer
  var z: Curve.Integer

  /// The point at infinity, the group's zero.
  static var infinity: JacobianPoint {
    JacobianPoint(x: Curve.fieldOne, y: Curve.fieldOne, z: .zero)
  }

  init(x: Curve.Integer, y: Curve.Integer, z: Curve.Integer) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// The point of an affine one (`Z = 1`).
  init(_ point: AffinePoint<Curve>) {
    self.init(x: point.x, y: point.y, z: Curve.fieldOne)
  }

  var isInfinity: Bool { z.isZero }

  /// `−P`.
  var negated: JacobianPoint {
    JacobianPoint(x: x, y: Curve.fieldDifference(.zero, y), z: z)
  }

  /// `2P` (3M + 5S). These curves have no point of order two, so only infinity doubles to
  /// infinity, and `Z₃ = 2YZ` is then 0 by itself.
  func doubled() -> JacobianPoint {
    let delta = Curve.fieldSquare(z)
    let gamma = Curve.fieldSquare(y)
    let beta = Curve.fieldProduct(x, gamma)
    let t = Curve.fieldProduct(Curve.fieldDifference(x, delta), Curve.fieldSum(x, delta))
    let alpha = Curve.fieldSum(Curve.fieldSum(t, t), t)
    let beta2 = Curve.fieldSum(beta, beta)
    let beta4 = Curve.fieldSum(beta2, beta2)
    let beta8 = Curve.fieldSum(beta4, beta4)
    let x3 = Curve.fieldDifference(Curve.fieldSquare(alpha), beta8)
    let yz = Curve.fieldSum(y, z)
    let z3 = Curve.fieldDifference(Curve.fieldDifference(Curve.fieldSquare(yz), gamma), delta)
    let gamma2 = Curve.fieldSquare(gamma)
    let gamma4 = Curve.fieldSum(gamma2, gamma2)
    let gamma8 = Curve.fieldSum(gamma4, gamma4)
    let y3 = Curve.fieldDifference(
      Curve.fieldProduct(alpha, Curve.fieldDifference(beta4, x3)), Curve.fieldSum(gamma8, gamma8))
    return JacobianPoint(x: x3, y: y3, z: z3)
  }

  /// `P + Q` (11M + 5S in general).
  func adding(_ other: JacobianPoint) -> JacobianPoint {
    if isInfinity { return other }
    if other.isInfinity { return self }
    let z1z1 = Curve.fieldSquare(z)
    let z2z2 = Curve.fieldSquare(other.z)
    let u1 = Curve.fieldProduct(x, z2z2)
    let u2 = Curve.fieldProduct(other.x, z1z1)
    let s1 = Curve.fieldProduct(Curve.fieldProduct(y, other.z), z2z2)
    let s2 = Curve.fieldProduct(Curve.fieldProduct(other.y, z), z1z1)
    let h = Curve.fieldDifference(u2, u1)
    let sDifference = Curve.fieldDifference(s2, s1)
    if h.isZero {
      // Same x: the same point (double it) or opposite points (their sum is infinity).
      return sDifference.isZero ? doubled() : .infinity
    }
    let r = Curve.fieldSum(sDifference, sDifference)
    let h2 = Curve.fieldSum(h, h)
    let i = Curve.fieldSquare(h2)
    let j = Curve.fieldProduct(h, i)
    let v = Curve.fieldProduct(u1, i)
    let x3 = Curve.fieldDifference(
      Curve.fieldDifference(Curve.fieldSquare(r), j), Curve.fieldSum(v, v))
    let s1j = Curve.fieldProduct(s1, j)
    let y3 = Curve.fieldDifference(
      Curve.fieldProduct(r, Curve.fieldDifference(v, x3)), Curve.fieldSum(s1j, s1j))
    let zSum = Curve.fieldSum(z, other.z)
    let z3 = Curve.fieldProduct(
      Curve.fieldDifference(Curve.fieldDifference(Curve.fieldSquare(zSum), z1z1), z2z2), h)
    return JacobianPoint(x: x3, y: y3, z: z3)
  }

  /// `P + Q` for an affine `Q` (7M + 4S in general).
  func adding(_ other: AffinePoint<Curve>) -> JacobianPoint {
    if isInfinity { return JacobianPoint(other) }
    let z1z1 = Curve.fieldSquare(z)
    let u2 = Curve.fieldProduct(other.x, z1z1)
    let s2 = Curve.fieldProduct(Curve.fieldProduct(other.y, z), z1z1)
    let h = Curve.fieldDifference(u2, x)
    let sDifference = Curve.fieldDifference(s2, y)
    if h.isZero {
      return sDifference.isZero ? doubled() : .infinity
    }
    let r = Curve.fieldSum(sDifference, sDifference)
    let hh = Curve.fieldSquare(h)
    let hh2 = Curve.fieldSum(hh, hh)
    let i = Curve.fieldSum(hh2, hh2)
    let j = Curve.fieldProduct(h, i)
    let v = Curve.fieldProduct(x, i)
    let x3 = Curve.fieldDifference(
      Curve.fieldDifference(Curve.fieldSquare(r), j), Curve.fieldSum(v, v))
    let y1j = Curve.fieldProduct(y, j)
    let y3 = Curve.fieldDifference(
      Curve.fieldProduct(r, Curve.fieldDifference(v, x3)), Curve.fieldSum(y1j, y1j))
    let zh = Curve.fieldSum(z, h)
    let z3 = Curve.fieldDifference(Curve.fieldDifference(Curve.fieldSquare(zh), z1z1), hh)
    return JacobianPoint(x: x3, y: y3, z: z3)
  }

  /// The affine point, or nil at infinity.
  var affine: AffinePoint<Curve>? {
    guard !isInfinity else { return nil }
    let zInverse = Curve.fieldInverse(z)
    let zInverse2 = Curve.fieldSquare(zInverse)
    return AffinePoint(
      x: Curve.fieldProduct(x, zInverse2),
      y: Curve.fieldProduct(y, Curve.fieldProduct(zInverse2, zInverse)))
  }

  /// The affine points of many points, none at infinity, with one inversion (Montgomery's
  /// trick: invert the product of all `Z`, then peel each off).
  static func affine(_ points: [JacobianPoint]) -> [AffinePoint<Curve>] {
    guard !points.isEmpty else { return [] }
    var prefix: [Curve.Integer] = []
    prefix.reserveCapacity(points.count)
    var product = Curve.fieldOne
    for point in points {
      product = Curve.fieldProduct(product, point.z)
      prefix.append(product)
    }
    var inverse = Curve.fieldInverse(product)
    var result = [AffinePoint<Curve>](
      repeating: AffinePoint(x: .zero, y: .zero), count: points.count)
    for index in stride(from: points.count - 1, through: 0, by: -1) {
      let zInverse = index == 0 ? inverse : Curve.fieldProduct(inverse, prefix[index - 1])
      inverse = Curve.fieldProduct(inverse, points[index].z)
      let zInverse2 = Curve.fieldSquare(zInverse)
      result[index] = AffinePoint(
        x: Curve.fieldProduct(points[index].x, zInverse2),
        y: Curve.fieldProduct(points[index].y, Curve.fieldProduct(zInverse2, zInverse)))
    }
    return result
  }
}
