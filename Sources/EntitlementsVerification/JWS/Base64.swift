/// Strict base64 decoding (RFC 4648): the URL-safe alphabet without padding for JWS parts
/// (RFC 7515 §2), the standard alphabet with padding for `x5c` certificates (RFC 7515 §4.1.6),
/// as Apple writes them.
///
/// Strict means canonical: no character outside the alphabet, no whitespace, padding exactly
/// where the standard alphabet needs it and nowhere in the URL-safe one, a length that some
/// byte string encodes to, and unused low bits of the last character zero, so that every byte
/// string has exactly one accepted spelling.
///
/// ```swift
/// Base64.decode(Array("aGk".utf8), alphabet: .url)    // [0x68, 0x69] ("hi")
/// Base64.decode(Array("aGk=".utf8), alphabet: .url)   // nil: no padding in base64url
/// Base64.decode(Array("aGl".utf8), alphabet: .url)    // nil: unused bits set
/// ```
enum Base64 {
  enum Alphabet {
    /// `A–Z a–z 0–9 + /` with `=` padding.
    case standard
    /// `A–Z a–z 0–9 - _`, unpadded.
    case url
  }

  /// The bytes `text` encodes, or nil when it is not canonical base64 of `alphabet`.
  static func decode(_ text: [UInt8], alphabet: Alphabet) -> [UInt8]? {
    text.withUnsafeBufferPointer { decode($0, alphabet: alphabet) }
  }

  /// The bytes `text` encodes, or nil when it is not canonical base64 of `alphabet`.
  static func decode(_ text: UnsafeBufferPointer<UInt8>, alphabet: Alphabet) -> [UInt8]? {
    var count = text.count
    if alphabet == .standard {
      guard count % 4 == 0 else { return nil }
      if count > 0, text[count - 1] == UInt8(ascii: "=") {
        count -= 1
        if text[count - 1] == UInt8(ascii: "=") { count -= 1 }
      }
    }
    let remainder = count % 4
    guard remainder != 1 else { return nil }
    let outputCount = count / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
    let table = alphabet == .standard ? standardValues : urlValues
    var valid = true
    let bytes = table.withUnsafeBufferPointer { table in
      [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
        var input = 0
        var out = 0
        var bad: UInt8 = 0
        while input + 4 <= count {
          let a = table[Int(text[input])]
          let b = table[Int(text[input + 1])]
          let c = table[Int(text[input + 2])]
          let d = table[Int(text[input + 3])]
          bad |= a | b | c | d
          output[out] = a << 2 | b >> 4
          output[out + 1] = b << 4 | c >> 2
          output[out + 2] = c << 6 | d
          input += 4
          out += 3
        }
        if remainder == 2 {
          let a = table[Int(text[input])]
          let b = table[Int(text[input + 1])]
          bad |= a | b | (b & 0x0F == 0 ? 0 : 0x80)
          output[out] = a << 2 | b >> 4
          out += 1
        } else if remainder == 3 {
          let a = table[Int(text[input])]
          let b = table[Int(text[input + 1])]
          let c = table[Int(text[input + 2])]
          bad |= a | b | c | (c & 0x03 == 0 ? 0 : 0x80)
          output[out] = a << 2 | b >> 4
          output[out + 1] = b << 4 | c >> 2
          out += 2
        }
        // Invalid characters map to 0x80, which no valid 6-bit value has.
        valid = bad & 0x80 == 0
        initialized = out
      }
    }
    return valid ? bytes : nil
  }

  private static let standardValues = values(Array("+/".utf8))
  private static let urlValues = values(Array("-_".utf8))

  /// Character → 6-bit value, 0x80 for a character outside the alphabet.
  private static func values(_ last: [UInt8]) -> [UInt8] {
    var table = [UInt8](repeating: 0x80, count: 256)
    let alphabet =
      Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8) + last
    for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
    return table
  }
}
