/// A point `(x, y)` of a curve other than the point at infinity, coordinates in Montgomery form.
struct AffinePoint<Curve: WeierstrassCurve>: Sendable, Hashable {
  /// `x·R mod p`.
  var x: Curve.Integer
  /// `y·R mod p`.
  var y: Curve.Integer

  /// `−P = (x, −y)`.
  var negated: AffinePoint {
    AffinePoint(x: x, y: Curve.fieldDifference(.zero, y))
  }

  /// Whether `y² = x³ − 3x + b`.
  var isOnCurve: Bool {
    let x2 = Curve.fieldSquare(x)
    let x3 = Curve.fieldProduct(x2, x)
    let threeX = Curve.fieldSum(Curve.fieldSum(x, x), x)
    let right = Curve.fieldSum(Curve.fieldDifference(x3, threeX), Curve.b)
    return Curve.fieldSquare(y) == right
  }

  /// The uncompressed encoding `04 ‖ x ‖ y` (SEC 1 §2.3.3).
  var x963Representation: [UInt8] {
    [4] + Curve.fieldValue(x).bigEndianBytes + Curve.fieldValue(y).bigEndianBytes
  }
}
