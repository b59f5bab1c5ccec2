#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The three parts of a compact JWS, `header.payload.signature` (RFC 7515 §7.1), as ranges of
/// its bytes: the signing input `header.payload` is the prefix before the second dot.
struct CompactJWS {
  var header: Range<Int>
  var payload: Range<Int>
  var signature: Range<Int>

  /// The signing input: `header.payload`.
  var signingInput: Range<Int> { header.lowerBound..<payload.upperBound }

  /// The parts of `bytes`, which must hold exactly two dots and a non-empty header (an empty
  /// payload or signature is refused later, after the header's `alg`: `alg: none` comes with
  /// an empty signature, and is refused as such).
  init(_ bytes: UnsafeBufferPointer<UInt8>) throws(SignatureVerificationError) {
    var dots: [Int] = []
    var start = 0
    while dots.count < 3, let dot = Self.firstDot(in: bytes, from: start) {
      dots.append(dot)
      start = dot + 1
    }
    guard dots.count == 2 else {
      throw .malformed(
        "not a compact JWS: \(dots.count > 2 ? "more than three" : String(dots.count + 1)) "
          + "part\(dots.count == 0 ? "" : "s"), expected header.payload.signature")
    }
    header = 0..<dots[0]
    payload = (dots[0] + 1)..<dots[1]
    signature = (dots[1] + 1)..<bytes.count
    guard !header.isEmpty else { throw .malformed("the JWS header is empty") }
  }

  /// The index of the first `.` at or after `start` (memchr: a notification is 18 KB).
  private static func firstDot(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = bytes.baseAddress, start < bytes.count,
      let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
    else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }
}
