/// SHA-384 (FIPS 180-4 §6.5): SHA-512's compression with its own initial value, the first 48
/// bytes kept. The digest of ecdsa-with-SHA384 certificate signatures (Apple Root CA - G3 signs
/// with it).
///
/// ```swift
/// SHA384.hash(Array("abc".utf8)).prefix(4)  // [0xCB, 0x00, 0x75, 0x3F]
/// ```
struct SHA384: Sendable {
  /// The digest of `bytes`.
  static func hash(_ bytes: [UInt8]) -> [UInt8] {
    var state: [UInt64] = [
      0xCBBB_9D5D_C105_9ED8, 0x629A_292A_367C_D507,
      0x9159_015A_3070_DD17, 0x152F_ECD8_F70E_5939,
      0x6733_2667_FFC0_0B31, 0x8EB4_4A87_6858_1511,
      0xDB0C_2E0D_64F9_8FA7, 0x47B5_481D_BEFA_4FA4,
    ]
    let whole = bytes.count - bytes.count % 128
    bytes.withUnsafeBytes { compress(&state, UnsafeRawBufferPointer(rebasing: $0[0..<whole])) }
    // The rest, 0x80, zeros, and the length in bits as a 128-bit number: one or two blocks.
    var last = Array(bytes[whole...])
    last.append(0x80)
    while last.count % 128 != 112 { last.append(0) }
    let bits = UInt64(bytes.count) &* 8
    let high = UInt64(bytes.count) >> 61
    for word in [high, bits] {
      for shift in stride(from: 56, through: 0, by: -8) {
        last.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
    last.withUnsafeBytes { compress(&state, $0) }
    var digest: [UInt8] = []
    digest.reserveCapacity(48)
    for word in state.prefix(6) {
      for shift in stride(from: 56, through: 0, by: -8) {
        digest.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
    return digest
  }

  /// SHA-512's compression of whole 128-byte blocks into `state`.
  private static func compress(_ state: inout [UInt64], _ blocks: UnsafeRawBufferPointer) {
    guard blocks.count > 0 else { return }
    var w = [UInt64](repeating: 0, count: 80)
    var offset = 0
    while offset < blocks.count {
      for t in 0..<16 {
        w[t] = UInt64(
          bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 8 * t, as: UInt64.self))
      }
      for t in 16..<80 {
        let x = w[t - 15]
        let y = w[t - 2]
        let sigma0 = rotate(x, 1) ^ rotate(x, 8) ^ (x >> 7)
        let sigma1 = rotate(y, 19) ^ rotate(y, 61) ^ (y >> 6)
        w[t] = sigma1 &+ w[t - 7] &+ sigma0 &+ w[t - 16]
      }
      var a = state[0]
      var b = state[1]
      var c = state[2]
      var d = state[3]
      var e = state[4]
      var f = state[5]
      var g = state[6]
      var h = state[7]
      for t in 0..<80 {
        let sum1 = rotate(e, 14) ^ rotate(e, 18) ^ rotate(e, 41)
        let choice = (e & f) ^ (~e & g)
        let t1 = h &+ sum1 &+ choice &+ roundConstants[t] &+ w[t]
        let sum0 = rotate(a, 28) ^ rotate(a, 34) ^ rotate(a, 39)
        let majority = (a & b) ^ (a & c) ^ (b & c)
        let t2 = sum0 &+ majority
        h = g
        g = f
        f = e
        e = d &+ t1
        d = c
        c = b
        b = a
        a = t1 &+ t2
      }
      state[0] &+= a
      state[1] &+= b
      state[2] &+= c
      state[3] &+= d
      state[4] &+= e
      state[5] &+= f
      state[6] &+= g
      state[7] &+= h
      offset += 128
    }
  }

  @_transparent
  private static func rotate(_ x: UInt64, _ count: UInt64) -> UInt64 {
    (x >> count) | (x << (64 - count))
  }

  /// The first 64 bits of the fractional parts of the cube roots of the first 80 primes.
  private static let roundConstants: [UInt64] = [
    0x428A_2F98_D728_AE22, 0x7137_4491_23EF_65CD, 0xB5C0_FBCF_EC4D_3B2F,
    0xE9B5_DBA5_8189_DBBC, 0x3956_C25B_F348_B538, 0x59F1_11F1_B605_D019,
    0x923F_82A4_AF19_4F9B, 0xAB1C_5ED5_DA6D_8118, 0xD807_AA98_A303_0242,
    0x1283_5B01_4570_6FBE, 0x2431_85BE_4EE4_B28C, 0x550C_7DC3_D5FF_B4E2,
    0x72BE_5D74_F27B_896F, 0x80DE_B1FE_3B16_96B1, 0x9BDC_06A7_25C7_1235,
    0xC19B_F174_CF69_2694, 0xE49B_69C1_9EF1_4AD2, 0xEFBE_4786_384F_25E3,
    0x0FC1_9DC6_8B8C_D5B5, 0x240C_A1CC_77AC_9C65, 0x2DE9_2C6F_592B_0275,
    0x4A74_84AA_6EA6_E483, 0x5CB0_A9DC_BD41_FBD4, 0x76F9_88DA_8311_53B5,
    0x983E_5152_EE66_DFAB, 0xA831_C66D_2DB4_3210, 0xB003_27C8_98FB_213F,
    0xBF59_7FC7_BEEF_0EE4, 0xC6E0_0BF3_3DA8_8FC2, 0xD5A7_9147_930A_A725,
    0x06CA_6351_E003_826F, 0x1429_2967_0A0E_6E70, 0x27B7_0A85_46D2_2FFC,
    0x2E1B_2138_5C26_C926, 0x4D2C_6DFC_5AC4_2AED, 0x5338_0D13_9D95_B3DF,
    0x650A_7354_8BAF_63DE, 0x766A_0ABB_3C77_B2A8, 0x81C2_C92E_47ED_AEE6,
    0x9272_2C85_1482_353B, 0xA2BF_E8A1_4CF1_0364, 0xA81A_664B_BC42_3001,
    0xC24B_8B70_D0F8_9791, 0xC76C_51A3_0654_BE30, 0xD192_E819_D6EF_5218,
    0xD699_0624_5565_A910, 0xF40E_3585_5771_202A, 0x106A_A070_32BB_D1B8,
    0x19A4_C116_B8D2_D0C8, 0x1E37_6C08_5141_AB53, 0x2748_774C_DF8E_EB99,
    0x34B0_BCB5_E19B_48A8, 0x391C_0CB3_C5C9_5A63, 0x4ED8_AA4A_E341_8ACB,
    0x5B9C_CA4F_7763_E373, 0x682E_6FF3_D6B2_B8A3, 0x748F_82EE_5DEF_B2FC,
    0x78A5_636F_4317_2F60, 0x84C8_7814_A1F0_AB72, 0x8CC7_0208_1A64_39EC,
    0x90BE_FFFA_2363_1E28, 0xA450_6CEB_DE82_BDE9, 0xBEF9_A3F7_B2C6_7915,
    0xC671_78F2_E372_532B, 0xCA27_3ECE_EA26_619C, 0xD186_B8C7_21C0_C207,
    0xEADA_7DD6_CDE0_EB1E, 0xF57D_4F7F_EE6E_D178, 0x06F0_67AA_7217_6FBA,
    0x0A63_7DC5_A2C8_98A6, 0x113F_9804_BEF9_0DAE, 0x1B71_0B35_131C_471B,
    0x28DB_77F5_2304_7D84, 0x32CA_AB7B_40C7_2493, 0x3C9E_BE0A_15C9_BEBC,
    0x431D_67C4_9C10_0D4C, 0x4CC5_D4BE_CB3E_42B6, 0x597F_299C_FC65_7E2A,
    0x5FCB_6FAB_3AD6_FAEC, 0x6C44_198C_4A47_5817,
  ]
}
