/// Variable-base multiplication `k·P` by a width-w non-adjacent form: odd digits
/// `|d| < 2^(w−1)`, each followed by at least `w − 1` zeros, so that about `bitCount/(w+1)`
/// additions of precomputed odd multiples join the `bitCount` doublings.
enum WindowedNAF {
  /// The digits of `scalar`, least significant first, `bitCount + 1` of them.
  ///
  /// Each step looks at the next bit plus the carry: even, the digit is 0; odd, the next `w`
  /// bits (plus the carry) make the digit, taken negative (with a carry) when above
  /// `2^(w−1)`.
  static func digits<Integer: LargeInteger>(of scalar: Integer, bitCount: Int, width: Int)
    -> [Int8]
  {
    var digits = [Int8](repeating: 0, count: bitCount + 1)
    var carry: UInt64 = 0
    var bit = 0
    while bit <= bitCount {
      if scalar.bit(bit) == carry {
        bit += 1
        continue
      }
      var word = Int(scalar.bits(at: bit, count: width) + carry)
      carry = UInt64(word >> (width - 1)) & 1
      word -= Int(carry) << width
      digits[bit] = Int8(word)
      bit += width
    }
    return digits
  }

  /// `scalar·point`.
  static func multiply<Curve: WeierstrassCurve>(
    _ scalar: Curve.Integer, _ point: AffinePoint<Curve>, width: Int = 5
  ) -> JacobianPoint<Curve> {
    let digits = digits(of: scalar, bitCount: Curve.bitCount, width: width)
    // P, 3P, 5P, …, (2^(w−1) − 1)P.
    let base = JacobianPoint(point)
    let twice = base.doubled()
    var odd = [base]
    for index in 1..<(1 << (width - 2)) { odd.append(odd[index - 1].adding(twice)) }
    var sum = JacobianPoint<Curve>.infinity
    for index in stride(from: digits.count - 1, through: 0, by: -1) {
      if !sum.isInfinity { sum = sum.doubled() }
      let digit = Int(digits[index])
      if digit > 0 {
        sum = sum.adding(odd[digit >> 1])
      } else if digit < 0 {
        sum = sum.adding(odd[(-digit) >> 1].negated)
      }
    }
    return sum
  }
}
