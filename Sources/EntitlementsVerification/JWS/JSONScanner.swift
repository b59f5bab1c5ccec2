/// A small strict JSON reader over bytes that hands out only what is asked for: the claims of
/// a payload, the fields of a header. No tree is built; values not asked for are checked and
/// skipped.
///
/// Strict: RFC 8259's grammar and nothing more (no comments, trailing commas, single quotes,
/// leading zeros, unescaped control characters, or bytes after the value), a nesting limit of
/// 64, and escapes decoded in the strings it returns.
///
/// ```swift
/// try Array(#"{"a": [1, 2], "b": "x"}"#.utf8).withUnsafeBufferPointer { bytes in
///   var scanner = JSONScanner(bytes)
///   try scanner.readObject { scanner, key in
///     if key.is("b") { print(try scanner.readString()) } else { try scanner.skipValue() }
///   }
///   try scanner.finish()
/// }  // prints x
/// ```
struct JSONScanner {
  /// An object's key: compared with a literal without decoding it when it has no escape.
  struct Key {
    var raw: UnsafeBufferPointer<UInt8>
    var decoded: String?

    /// Whether the key is `name`.
    func `is`(_ name: StaticString) -> Bool {
      if let decoded { return decoded == name.description }
      guard raw.count == name.utf8CodeUnitCount else { return false }
      return name.withUTF8Buffer { name in
        for index in 0..<name.count where name[index] != raw[index] { return false }
        return true
      }
    }

    var text: String { decoded ?? String(decoding: raw, as: UTF8.self) }
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var depth = 0
  static let maximumDepth = 64

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// The next non-whitespace byte, not consumed.
  mutating func peek() -> UInt8? {
    skipWhitespace()
    return index < bytes.count ? bytes[index] : nil
  }

  /// Whether the next value is `null` (consumed if so).
  mutating func readNullIfPresent() throws(JSONScanError) -> Bool {
    guard peek() == UInt8(ascii: "n") else { return false }
    try literal("null")
    return true
  }

  /// Reads an object, calling `body` for each key; `body` must read or skip the value.
  mutating func readObject(_ body: (inout JSONScanner, Key) throws(JSONScanError) -> Void)
    throws(JSONScanError)
  {
    try enter(UInt8(ascii: "{"), "an object")
    if peek() == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return
    }
    while true {
      guard peek() == UInt8(ascii: "\"") else { throw JSONScanError("expected a key") }
      let key = try readKey()
      guard peek() == UInt8(ascii: ":") else { throw JSONScanError("expected ':'") }
      index += 1
      try body(&self, key)
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        depth -= 1
        return
      default: throw JSONScanError("expected ',' or '}'")
      }
    }
  }

  /// Reads an array, calling `body` for each element; `body` must read or skip it.
  mutating func readArray(_ body: (inout JSONScanner) throws(JSONScanError) -> Void)
    throws(JSONScanError)
  {
    try enter(UInt8(ascii: "["), "an array")
    if peek() == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return
    }
    while true {
      try body(&self)
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        depth -= 1
        return
      default: throw JSONScanError("expected ',' or ']'")
      }
    }
  }

  /// Reads a string, escapes decoded.
  mutating func readString() throws(JSONScanError) -> String {
    guard peek() == UInt8(ascii: "\"") else { throw JSONScanError("expected a string") }
    let (raw, escaped) = try scanString()
    return escaped ? try Self.unescape(raw) : String(decoding: raw, as: UTF8.self)
  }

  /// Reads an integer written without fraction or exponent (`appAppleId`).
  mutating func readInteger() throws(JSONScanError) -> Int64 {
    let (text, isInteger) = try scanNumber()
    guard isInteger, let value = Int64(String(decoding: text, as: UTF8.self)) else {
      throw JSONScanError("expected an integer")
    }
    return value
  }

  /// Reads a number of milliseconds, any fraction dropped toward zero: Apple's Xcode payloads
  /// write `1697679936056.485` (like Apple's libraries, the fraction is truncated).
  mutating func readMilliseconds() throws(JSONScanError) -> Int64 {
    let (text, isInteger) = try scanNumber()
    let string = String(decoding: text, as: UTF8.self)
    if isInteger, let value = Int64(string) { return value }
    guard let value = Double(string), value.isFinite, abs(value) < 9.2e18 else {
      throw JSONScanError("a date out of range")
    }
    return Int64(value.rounded(.towardZero))
  }

  /// Checks and skips any value.
  mutating func skipValue() throws(JSONScanError) {
    switch peek() {
    case UInt8(ascii: "\""): _ = try scanString()
    case UInt8(ascii: "{"):
      try readObject { scanner, _ throws(JSONScanError) in try scanner.skipValue() }
    case UInt8(ascii: "["):
      try readArray { scanner throws(JSONScanError) in try scanner.skipValue() }
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case nil: throw JSONScanError("ends where a value is expected")
    default: _ = try scanNumber()
    }
  }

  /// Fails unless only whitespace follows.
  mutating func finish() throws(JSONScanError) {
    guard peek() == nil else { throw JSONScanError("bytes after the value") }
  }

  // MARK: - Tokens

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  private mutating func enter(_ open: UInt8, _ what: String) throws(JSONScanError) {
    guard peek() == open else { throw JSONScanError("expected \(what)") }
    depth += 1
    guard depth <= Self.maximumDepth else { throw JSONScanError("nested too deeply") }
    index += 1
  }

  private mutating func literal(_ word: StaticString) throws(JSONScanError) {
    let count = word.utf8CodeUnitCount
    guard bytes.count - index >= count else { throw JSONScanError("bad literal") }
    let matches = word.withUTF8Buffer { word in
      (0..<count).allSatisfy { word[$0] == bytes[index + $0] }
    }
    guard matches else { throw JSONScanError("bad literal") }
    index += count
  }

  private mutating func readKey() throws(JSONScanError) -> Key {
    let (raw, escaped) = try scanString()
    return Key(raw: raw, decoded: escaped ? try Self.unescape(raw) : nil)
  }

  /// The raw contents of the string at `index` (quotes excluded) and whether it has escapes.
  private mutating func scanString() throws(JSONScanError) -> (UnsafeBufferPointer<UInt8>, Bool) {
    index += 1
    let start = index
    var escaped = false
    while index < bytes.count {
      skipPlainWords()
      guard index < bytes.count else { break }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        return (raw, escaped)
      }
      if byte < 0x20 { throw JSONScanError("control character in a string") }
      if byte == UInt8(ascii: "\\") {
        escaped = true
        index += 1
        guard index < bytes.count else { break }
        switch bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          break
        case UInt8(ascii: "u"):
          guard bytes.count - index > 4,
            (1...4).allSatisfy({ Self.hexValue(bytes[index + $0]) != nil })
          else { throw JSONScanError("bad \\u escape") }
          index += 4
        default:
          throw JSONScanError("bad escape")
        }
      }
      index += 1
    }
    throw JSONScanError("unterminated string")
  }

  /// Skips whole 8-byte words of a string that hold no quote, backslash or control
  /// character, tested all at once (SWAR): a nested JWS is thousands of plain bytes.
  private mutating func skipPlainWords() {
    guard let base = bytes.baseAddress else { return }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while bytes.count - index >= 8 {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      // A byte is zero in `x` where `x &- ones` sets its high bit and `x` did not have it;
      // bytes below 0x20 are found the same way on `word &- 0x20…`.
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let special =
        ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        | ((word &- ones &* 0x20) & ~word)
      guard special & highs == 0 else { return }
      index += 8
    }
  }

  /// The text of the number at `index`, checked against the grammar, and whether it is an
  /// integer (no fraction, no exponent).
  private mutating func scanNumber() throws(JSONScanError) -> (UnsafeBufferPointer<UInt8>, Bool) {
    skipWhitespace()
    let start = index
    func digits() -> Int {
      let first = index
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
      return index - first
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let leading = index
    let integerDigits = digits()
    guard integerDigits > 0 else { throw JSONScanError("expected a value") }
    if integerDigits > 1, bytes[leading] == UInt8(ascii: "0") {
      throw JSONScanError("leading zero in a number")
    }
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      isInteger = false
      guard digits() > 0 else { throw JSONScanError("no digit after '.'") }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      isInteger = false
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { throw JSONScanError("no digit in an exponent") }
    }
    return (UnsafeBufferPointer(rebasing: bytes[start..<index]), isInteger)
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// The string of raw contents already checked by `scanString`, escapes decoded; a lone
  /// surrogate is an error.
  private static func unescape(_ raw: UnsafeBufferPointer<UInt8>) throws(JSONScanError) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(raw.count)
    var index = 0
    func hex4(_ at: Int) -> UInt32 {
      (0..<4).reduce(0) { $0 << 4 | (hexValue(raw[at + $1]) ?? 0) }
    }
    while index < raw.count {
      let byte = raw[index]
      guard byte == UInt8(ascii: "\\") else {
        output.append(byte)
        index += 1
        continue
      }
      let kind = raw[index + 1]
      index += 2
      switch kind {
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = hex4(index)
        index += 4
        if (0xD800..<0xDC00).contains(scalar) {
          guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"),
            raw[index + 1] == UInt8(ascii: "u")
          else { throw JSONScanError("lone surrogate") }
          let low = hex4(index + 2)
          guard (0xDC00..<0xE000).contains(low) else { throw JSONScanError("lone surrogate") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          index += 6
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw JSONScanError("lone surrogate") }
        output.append(contentsOf: Array(String(Character(unicode)).utf8))
      default: output.append(kind)
      }
    }
    return String(decoding: output, as: UTF8.self)
  }
}
