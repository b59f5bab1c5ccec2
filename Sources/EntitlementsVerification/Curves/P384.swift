/// NIST P-384 (secp384r1): the curve of Apple Root CA - G3 and of its intermediate
/// certificates (FIPS 186-4 D.1.2.4). Constants are little-endian limbs, written most
/// significant first.
enum P384: WeierstrassCurve {
  typealias Integer = UInt384

  static var bitCount: Int { 384 }

  /// p = 2³⁸⁴ − 2¹²⁸ − 2⁹⁶ + 2³² − 1.
  static var fieldModulus: UInt384 {
    UInt384(
      0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFE,
      0xFFFF_FFFF_0000_0000, 0x0000_0000_FFFF_FFFF)
  }
  static var order: UInt384 {
    UInt384(
      0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0xC763_4D81_F437_2DDF,
      0x581A_0DB2_48B0_A77A, 0xECEC_196A_CCC5_2973)
  }
  static var fieldOne: UInt384 {
    UInt384(
      0x0000_0000_0000_0000, 0x0000_0000_0000_0000, 0x0000_0000_0000_0000, 0x0000_0000_0000_0001,
      0x0000_0000_FFFF_FFFF, 0xFFFF_FFFF_0000_0001)
  }
  static var fieldRSquared: UInt384 {
    UInt384(
      0x0000_0000_0000_0000, 0x0000_0000_0000_0001, 0x0000_0002_0000_0000, 0xFFFF_FFFE_0000_0000,
      0x0000_0002_0000_0000, 0xFFFF_FFFE_0000_0001)
  }
  static var scalarOne: UInt384 {
    UInt384(
      0x0000_0000_0000_0000, 0x0000_0000_0000_0000, 0x0000_0000_0000_0000, 0x389C_B27E_0BC8_D220,
      0xA7E5_F24D_B74F_5885, 0x1313_E695_333A_D68D)
  }
  static var scalarRSquared: UInt384 {
    UInt384(
      0x0C84_EE01_2B39_BF21, 0x3FB0_5B7A_2826_6895, 0xD40D_4917_4AAB_1CC5, 0xBC3E_483A_FCB8_2947,
      0xFF3D_81E5_DF1A_A419, 0x2D31_9B24_19B4_09A9)
  }
  static var b: UInt384 {
    UInt384(
      0xCD08_114B_604F_BFF9, 0xB62B_21F4_1F02_2094, 0xE337_4BEE_9493_8AE2, 0x77F2_209B_1920_022E,
      0xF729_ADD8_7A4C_32EC, 0x0811_8871_9D41_2DCC)
  }
  static var generator: AffinePoint<P384> {
    AffinePoint(
      x: UInt384(
        0x4D3A_ADC2_299E_1513, 0x812F_F723_614E_DE2B, 0x6454_8684_59A3_0EFF, 0x879C_3AFC_541B_4D6E,
        0x20E3_78E2_A0D6_CE38, 0x3DD0_7566_49C0_B528),
      y: UInt384(
        0x2B78_ABC2_5A15_C5E9, 0xDD80_0226_3969_A840, 0xC6C3_5219_68F4_FFD9, 0x8BAD_E756_2E83_B050,
        0xA1BF_A8BF_7BB4_A9AC, 0x2304_3DAD_4B03_A4FE))
  }

  /// 55 windows of 7 bits, 64 points each (3 520 points, 338 KB), built on first use.
  static let generatorTable = FixedBaseTable<P384>(base: generator, windowBits: 7)

  @_transparent
  static func fieldProduct(_ a: UInt384, _ b: UInt384) -> UInt384 {
    UInt384.montgomeryProduct(a, b, modulus: fieldModulus, inverse: 0x1_0000_0001)
  }

  @_transparent
  static func fieldSquare(_ a: UInt384) -> UInt384 {
    UInt384.montgomeryProduct(a, a, modulus: fieldModulus, inverse: 0x1_0000_0001)
  }

  @_transparent
  static func fieldSum(_ a: UInt384, _ b: UInt384) -> UInt384 {
    UInt384.modularSum(a, b, modulus: fieldModulus)
  }

  @_transparent
  static func fieldDifference(_ a: UInt384, _ b: UInt384) -> UInt384 {
    UInt384.modularDifference(a, b, modulus: fieldModulus)
  }

  @_transparent
  static func scalarProduct(_ a: UInt384, _ b: UInt384) -> UInt384 {
    UInt384.montgomeryProduct(a, b, modulus: order, inverse: 0x6ED4_6089_E88F_DC45)
  }
}
