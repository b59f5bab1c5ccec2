/// NIST P-256 (secp256r1, prime256v1): the curve of ES256 and of App Store leaf certificates
/// (FIPS 186-4 D.1.2.3). Constants are little-endian limbs, written most significant first.
enum P256: WeierstrassCurve {
  typealias Integer = UInt256

  static var bitCount: Int { 256 }

  /// p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1.
  static var fieldModulus: UInt256 {
    UInt256(
      0xFFFF_FFFF_0000_0001, 0x0000_0000_0000_0000, 0x0000_0000_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF)
  }
  static var order: UInt256 {
    UInt256(
      0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0xBCE6_FAAD_A717_9E84, 0xF3B9_CAC2_FC63_2551)
  }
  static var fieldOne: UInt256 {
    UInt256(
      0x0000_0000_FFFF_FFFE, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000, 0x0000_0000_0000_0001)
  }
  static var fieldRSquared: UInt256 {
    UInt256(
      0x0000_0004_FFFF_FFFD, 0xFFFF_FFFF_FFFF_FFFE, 0xFFFF_FFFB_FFFF_FFFF, 0x0000_0000_0000_0003)
  }
  static var scalarOne: UInt256 {
    UInt256(
      0x0000_0000_FFFF_FFFF, 0x0000_0000_0000_0000, 0x4319_0552_58E8_617B, 0x0C46_353D_039C_DAAF)
  }
  static var scalarRSquared: UInt256 {
    UInt256(
      0x66E1_2D94_F3D9_5620, 0x2845_B239_2B6B_EC59, 0x4699_799C_49BD_6FA6, 0x8324_4C95_BE79_EEA2)
  }
  static var b: UInt256 {
    UInt256(
      0xDC30_061D_0487_4834, 0xE5A2_20AB_F721_2ED6, 0xACF0_05CD_7884_3090, 0xD89C_DF62_29C4_BDDF)
  }
  static var generator: AffinePoint<P256> {
    AffinePoint(
      x: UInt256(
        0x1890_5F76_A537_55C6, 0x79FB_732B_7762_2510, 0x75BA_95FC_5FED_B601, 0x79E7_30D4_18A9_143C),
      y: UInt256(
        0x8571_FF18_2588_5D85, 0xD2E8_8688_DD21_F325, 0x8B4A_B8E4_BA19_E45C, 0xDDF2_5357_CE95_560A))
  }

  /// 37 windows of 7 bits, 64 points each (2 368 points, 151 KB), built on first use.
  static let generatorTable = FixedBaseTable<P256>(base: generator, windowBits: 7)

  @_transparent
  static func fieldProduct(_ a: UInt256, _ b: UInt256) -> UInt256 {
    UInt256.p256Product(a, b)
  }

  @_transparent
  static func fieldSquare(_ a: UInt256) -> UInt256 {
    UInt256.p256Square(a)
  }

  @_transparent
  static func fieldSum(_ a: UInt256, _ b: UInt256) -> UInt256 {
    UInt256.modularSum(a, b, modulus: fieldModulus)
  }

  @_transparent
  static func fieldDifference(_ a: UInt256, _ b: UInt256) -> UInt256 {
    UInt256.modularDifference(a, b, modulus: fieldModulus)
  }

  /// `s⁻¹·R mod n` by a binary GCD: about five times cheaper than Fermat's exponentiation.
  static func montgomeryScalarInverse(_ s: UInt256) -> UInt256 {
    BinaryGCD.inverse(
      s, modulus: order, negatedInverse: 0xCCD1_C8AA_EE00_BC4F,
      shiftedModulus: BinaryGCD.Wide(
        l0: 0xFC63_2551_0000_0000, l1: 0xA717_9E84_F3B9_CAC2, l2: 0xFFFF_FFFF_BCE6_FAAD,
        l3: 0x0000_0000_FFFF_FFFF, l4: 0x0000_0000_FFFF_FFFF),
      correction: UInt256(
        0x60F8_DD24_C8F7_3E30, 0x6353_F0FD_A6EE_59BB, 0x07EF_BF8E_AD7B_DE0E, 0x4705_CB62_3FB2_87A5))
  }

  @_transparent
  static func scalarProduct(_ a: UInt256, _ b: UInt256) -> UInt256 {
    UInt256.montgomeryProduct(a, b, modulus: order, inverse: 0xCCD1_C8AA_EE00_BC4F)
  }
}
