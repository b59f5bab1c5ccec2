/// Multiples of one point for multiplication without doublings: `k·P` as a sum of one table
/// entry per window of the scalar.
///
/// The scalar is cut into windows of `w` bits, recoded as signed digits in
/// `[−2^(w−1), 2^(w−1)]`; window `i` of the table holds `j·2^(w·i)·P` for `j` in
/// `1…2^(w−1)`, affine, so that `k·P = Σ ±table[i][|dᵢ|]` costs one mixed addition per non-zero
/// digit and no doubling. The generator's tables are built once per process; a leaf
/// certificate's key gets one when its chain is cached (``AppStoreSignatureVerifier``), since every
/// payload of an app is signed by the same key.
///
/// - Complexity: Building: `windowCount·2^(w−1)` additions and one inversion. Use: at most
///   `windowCount` mixed additions.
struct FixedBaseTable<Curve: WeierstrassCurve>: Sendable {
  /// The width `w` of a window.
  let windowBits: Int
  /// The number of windows: enough for a scalar below `2^bitCount` and the last carry.
  let windowCount: Int
  /// Window `i`, multiple `j` (from 1) at `i·2^(w−1) + j − 1`.
  let points: [AffinePoint<Curve>]

  /// The table of `base` with windows of `windowBits` bits.
  init(base: AffinePoint<Curve>, windowBits: Int) {
    self.windowBits = windowBits
    windowCount = (Curve.bitCount + windowBits) / windowBits
    let half = 1 << (windowBits - 1)
    var jacobian: [JacobianPoint<Curve>] = []
    jacobian.reserveCapacity(windowCount * half)
    var windowBase = JacobianPoint(base)
    for _ in 0..<windowCount {
      var multiple = windowBase
      jacobian.append(multiple)
      for _ in 1..<half {
        multiple = multiple.adding(windowBase)
        jacobian.append(multiple)
      }
      // 2^w·B = 2·(2^(w−1)·B).
      windowBase = multiple.doubled()
    }
    points = JacobianPoint.affine(jacobian)
  }

  /// Adds `scalar·P` to `sum`.
  ///
  /// - Parameters:
  ///   - scalar: Below `2^bitCount`.
  ///   - sum: The point added to.
  func accumulate(_ scalar: Curve.Integer, into sum: inout JacobianPoint<Curve>) {
    let half = 1 << (windowBits - 1)
    let full = 1 << windowBits
    var carry = 0
    points.withUnsafeBufferPointer { points in
      for window in 0..<windowCount {
        var digit = Int(scalar.bits(at: window * windowBits, count: windowBits)) + carry
        if digit > half {
          digit -= full
          carry = 1
        } else {
          carry = 0
        }
        if digit > 0 {
          sum = sum.adding(points[window * half + digit - 1])
        } else if digit < 0 {
          sum = sum.adding(points[window * half - digit - 1].negated)
        }
      }
    }
  }
}
