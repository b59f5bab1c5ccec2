import Testing

@testable import EntitlementsVerification

/// The arithmetic under ECDSA, checked against simpler ways to compute the same thing: the
/// P-256 shortcuts against generic Montgomery multiplication, inverses by multiplying back,
/// tables and windowed forms against each other, and the group's order.
@Suite("Curve arithmetic")
struct CurveArithmeticTests {
  static func random256(_ generator: inout SplitMix64, below modulus: UInt256) -> UInt256 {
    while true {
      let value = UInt256(
        l0: generator.next(), l1: generator.next(), l2: generator.next(), l3: generator.next())
      if value.isLess(than: modulus) { return value }
    }
  }

  static func edges(_ modulus: UInt256) -> [UInt256] {
    let one = UInt256(l0: 1, l1: 0, l2: 0, l3: 0)
    let minusOne = modulus.subtractingReportingBorrow(one).difference
    return [.zero, one, minusOne, minusOne.subtractingReportingBorrow(one).difference]
  }

  @Test(arguments: [1 as UInt64, 2, 3])
  func p256ShortcutsAgreeWithGenericMontgomery(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let p = P256.fieldModulus
    var values = Self.edges(p)
    for _ in 0..<200 { values.append(Self.random256(&generator, below: p)) }
    for a in values {
      #expect(UInt256.p256Square(a) == UInt256.montgomeryProduct(a, a, modulus: p, inverse: 1))
      let b = Self.random256(&generator, below: p)
      #expect(UInt256.p256Product(a, b) == UInt256.montgomeryProduct(a, b, modulus: p, inverse: 1))
    }
  }

  @Test func inversesMultiplyBackToOne() {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<20 {
      let x = Self.random256(&generator, below: P256.fieldModulus)
      guard !x.isZero else { continue }
      #expect(P256.fieldProduct(x, P256.fieldInverse(x)) == P256.fieldOne)
      let s = Self.random256(&generator, below: P256.order)
      guard !s.isZero else { continue }
      let sMontgomery = P256.scalarProduct(s, P256.scalarRSquared)
      #expect(P256.scalarProduct(sMontgomery, P256.scalarInverse(sMontgomery)) == P256.scalarOne)
    }
    let x384 = P384.fieldElement(UInt384(l0: 12345, l1: 6, l2: 7, l3: 8, l4: 9, l5: 10))
    #expect(P384.fieldProduct(x384, P384.fieldInverse(x384)) == P384.fieldOne)
  }

  /// The binary GCD inverse agrees with Fermat's, at random and at the edges (1, n−1, n−2,
  /// powers of two, values with long runs of zeros or ones).
  @Test(arguments: [21 as UInt64, 22, 23])
  func binaryInverseAgreesWithFermat(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let n = P256.order
    var values = Self.edges(n).dropFirst().map { $0 }
    for bit in [0, 1, 63, 64, 127, 128, 200, 255] {
      var power = UInt256.zero
      power[limb: bit / 64] = 1 << UInt64(bit % 64)
      if power.isLess(than: n) { values.append(power) }
    }
    values.append(UInt256(l0: .max, l1: .max, l2: 0, l3: 0))
    values.append(UInt256(l0: 0, l1: 0, l2: .max, l3: 0x0FFF_FFFF_FFFF_FFFF))
    for _ in 0..<300 { values.append(Self.random256(&generator, below: n)) }
    for s in values where !s.isZero {
      let fermat = P256.scalarInverse(P256.scalarProduct(s, P256.scalarRSquared))
      #expect(P256.montgomeryScalarInverse(s) == fermat, "s = \(s.bigEndianBytes.hex)")
    }
  }

  @Test func generatorsAreOnTheirCurvesAndHaveTheirOrder() {
    #expect(P256.generator.isOnCurve)
    #expect(P384.generator.isOnCurve)
    // n·G = infinity; (n − 1)·G = −G.
    let one256 = UInt256(l0: 1, l1: 0, l2: 0, l3: 0)
    let nMinusOne = P256.order.subtractingReportingBorrow(one256).difference
    #expect(WindowedNAF.multiply(nMinusOne, P256.generator).affine == P256.generator.negated)
    var sum = JacobianPoint<P256>.infinity
    P256.generatorTable.accumulate(nMinusOne, into: &sum)
    #expect(sum.affine == P256.generator.negated)
    #expect(sum.adding(P256.generator).isInfinity)
    let one384 = UInt384(l0: 1, l1: 0, l2: 0, l3: 0, l4: 0, l5: 0)
    let n384MinusOne = P384.order.subtractingReportingBorrow(one384).difference
    #expect(WindowedNAF.multiply(n384MinusOne, P384.generator).affine == P384.generator.negated)
  }

  /// The windowed form's digits recombine to the scalar, and the two ways to multiply agree.
  @Test(arguments: [11 as UInt64, 12])
  func multiplicationsAgree(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let point = WindowedNAF.multiply(
      Self.random256(&generator, below: P256.order), P256.generator
    ).affine
    guard let point else {
      Issue.record("a random multiple of G is infinity")
      return
    }
    let table = FixedBaseTable(base: point, windowBits: 7)
    for _ in 0..<10 {
      let k = Self.random256(&generator, below: P256.order)
      let digits = WindowedNAF.digits(of: k, bitCount: 256, width: 5)
      #expect(digits.allSatisfy { $0 == 0 || ($0 % 2 != 0 && abs(Int($0)) < 16) })
      var fromTable = JacobianPoint<P256>.infinity
      table.accumulate(k, into: &fromTable)
      #expect(fromTable.affine == WindowedNAF.multiply(k, point).affine)
    }
  }

  /// Addition's special cases: P + P doubles, P + (−P) is infinity, infinity is neutral.
  @Test func additionSpecialCases() {
    let g = JacobianPoint(P256.generator)
    #expect(g.adding(g).affine == g.doubled().affine)
    #expect(g.adding(P256.generator).affine == g.doubled().affine)
    #expect(g.adding(g.negated).isInfinity)
    #expect(g.adding(P256.generator.negated).isInfinity)
    #expect(JacobianPoint<P256>.infinity.adding(g).affine == P256.generator)
    #expect(g.adding(.infinity).affine == P256.generator)
    #expect(JacobianPoint<P256>.infinity.doubled().isInfinity)
  }

  /// Keys off the curve, or with a coordinate not below p, are refused when made.
  @Test func publicKeysAreValidated() throws {
    let encoded = P256.generator.x963Representation
    #expect(throws: Never.self) { try ECDSAPublicKey(x963Representation: encoded) }
    var offCurve = encoded
    offCurve[64] ^= 1
    #expect(throws: SignatureVerificationError.self) {
      try ECDSAPublicKey(x963Representation: offCurve)
    }
    // x = p: not below the prime.
    let tooLarge = [4] + P256.fieldModulus.bigEndianBytes + Array(encoded[33...])
    #expect(throws: SignatureVerificationError.self) {
      try ECDSAPublicKey(x963Representation: tooLarge)
    }
    var compressed = Array(encoded[0..<33])
    compressed[0] = 2
    #expect(throws: SignatureVerificationError.self) {
      try ECDSAPublicKey(x963Representation: compressed)
    }
    #expect(throws: SignatureVerificationError.self) {
      try ECDSAPublicKey(x963Representation: [0])
    }
    let key = try ECDSAPublicKey(x963Representation: encoded)
    #expect(key.x963Representation == encoded)
    #expect(key.curve == .p256)
  }
}
