/// Base64url (RFC 4648 §5), as a JWS payload is written: padding allowed, base64's `+` and
/// `/` read as `-` and `_`, anything else refused.
enum Base64URL {
  /// The value of each symbol; 255 for any other byte. Written once, when first used, and
  /// only read through this read-only pointer (a pointer, not an array: no reference counted
  /// at each payload).
  nonisolated(unsafe) static let values: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 {
      let value: UInt8 =
        switch byte {
        case 65...90: UInt8(byte - 65)
        case 97...122: UInt8(byte - 97 + 26)
        case 48...57: UInt8(byte - 48 + 52)
        case 45, 43: 62  // "-" and "+"
        case 95, 47: 63  // "_" and "/"
        default: 255
        }
      (table + byte).initialize(to: value)
    }
    return UnsafePointer(table)
  }()

  /// `text` decoded; `nil` when it is not base64url.
  static func decode(_ text: [UInt8]) -> [UInt8]? {
    var buffer: [UInt8] = []
    let count = text.withUnsafeBufferPointer { decode($0, 0, $0.count, into: &buffer) }
    return count.map { Array(buffer.prefix($0)) }
  }

  /// Decodes `bytes[start..<end]` into the start of `buffer` (grown when too small, never
  /// shrunk: it is reused from payload to payload), four symbols to three bytes, the invalid
  /// symbols gathered in one mask. Returns the count of bytes decoded; `nil` for a byte that is
  /// no symbol, or a length no base64url text has.
  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into buffer: inout [UInt8]
  ) -> Int? {
    var end = end
    while end > start, bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
    let symbols = end - start
    if symbols == 0 { return 0 }
    guard symbols % 4 != 1, let base = bytes.baseAddress else { return nil }
    let count = symbols / 4 * 3 + max(symbols % 4 - 1, 0)
    if buffer.count < count {
      buffer = [UInt8](repeating: 0, count: max(count, 2 * buffer.count, 4_096))
    }
    let table = values
    let valid = buffer.withUnsafeMutableBufferPointer { output -> Bool in
      guard var out = output.baseAddress else { return false }
      var input = base + start
      var invalid: UInt8 = 0
      for _ in 0..<(symbols / 4) {
        let a = table[Int(input[0])]
        let b = table[Int(input[1])]
        let c = table[Int(input[2])]
        let d = table[Int(input[3])]
        invalid |= a | b | c | d
        let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
        out[0] = UInt8(truncatingIfNeeded: value >> 16)
        out[1] = UInt8(truncatingIfNeeded: value >> 8)
        out[2] = UInt8(truncatingIfNeeded: value)
        input += 4
        out += 3
      }
      // Two or three symbols left: one or two bytes, the bits below them dropped.
      if symbols % 4 >= 2 {
        let a = table[Int(input[0])]
        let b = table[Int(input[1])]
        let c = symbols % 4 == 3 ? table[Int(input[2])] : 0
        invalid |= a | b | c
        let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
        out[0] = UInt8(truncatingIfNeeded: value >> 16)
        if symbols % 4 == 3 { out[1] = UInt8(truncatingIfNeeded: value >> 8) }
      }
      return invalid & 0x80 == 0
    }
    return valid ? count : nil
  }
}
