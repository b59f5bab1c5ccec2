// JSON's tokens, read from the bytes: whitespace, objects and arrays, literals, strings'
// bytes, and any value skipped, as strictly as the JSON parser reads them.

extension SchemaReader {
  static let maximumDepth = JSONValue.maximumDepth

  @inline(__always)
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  /// The byte at ``index``, or 0 at the end (no JSON value starts with 0).
  @inline(__always)
  var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

  @inline(__always)
  mutating func expect(_ byte: UInt8) throws(Stop) {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { throw .syntax }
    index += 1
  }

  /// Calls `member` for each member of the object at ``index``, with its key (``KeyID``) and
  /// the offset of its name; `member` reads or skips the value.
  @inline(__always)
  mutating func object(
    _ member: (inout SchemaReader, KeyID, Int) throws(Stop) -> Void
  ) throws(Stop) {
    guard depth < Self.maximumDepth else { throw .syntax }
    try expect(UInt8(ascii: "{"))
    depth += 1
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return
    }
    var previous = KeyID.unknown
    while true {
      skipWhitespace()
      let start = index
      let key = try readKeyAndColon(after: previous)
      previous = key
      try member(&self, key, start)
      skipWhitespace()
      guard index < bytes.count else { throw .syntax }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else { throw .syntax }
      index += 1
      depth -= 1
      return
    }
  }

  /// Calls `element` for each element of the array at ``index``, with its position.
  @inline(__always)
  mutating func array(_ element: (inout SchemaReader, Int) throws(Stop) -> Void) throws(Stop) {
    guard depth < Self.maximumDepth else { throw .syntax }
    try expect(UInt8(ascii: "["))
    depth += 1
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return
    }
    var position = 0
    while true {
      skipWhitespace()
      try element(&self, position)
      position += 1
      skipWhitespace()
      guard index < bytes.count else { throw .syntax }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else { throw .syntax }
      index += 1
      depth -= 1
      return
    }
  }

  @inline(__always)
  mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    let matches = Self.equal(
      UnsafeRawBufferPointer(bytes), index,
      UnsafeRawBufferPointer(start: word.utf8Start, count: count), 0, count)
    if matches { index += count }
    return matches
  }

  /// `null`, read.
  @inline(__always)
  mutating func null() -> Bool {
    skipWhitespace()
    return literal("null")
  }

  /// Skips any JSON value, checking it as strictly as the JSON parser does. A string, the
  /// usual value no schema reads (Apple's `_pst` dates among them), is skipped here in line;
  /// other values in ``skipOther()``.
  @inline(__always)
  mutating func skipValue() throws(Stop) {
    guard depth < Self.maximumDepth else { throw .syntax }
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      try skipString()
    } else {
      try skipOther()
    }
  }

  /// ``skipValue()`` of a member no field is read from, its usual value (a plain string, as
  /// Apple's `_pst` dates) skipped in line.
  @inline(__always)
  mutating func skipMember() throws(Stop) {
    skipWhitespace()
    if peek == UInt8(ascii: "\""), try plainString() != nil { return }
    try skipValue()
  }

  /// ``skipValue()`` of anything but a string.
  @inline(never)
  private mutating func skipOther() throws(Stop) {
    guard index < bytes.count else { throw .syntax }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      try object { reader, _, _ throws(Stop) in try reader.skipNested() }
    case UInt8(ascii: "["):
      try array { reader, _ throws(Stop) in try reader.skipNested() }
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      guard literal("true") || literal("false") || literal("null") else { throw .syntax }
    default:
      try skipNumber()
    }
  }

  /// ``skipValue()`` within an object or array skipped: out of line, so that ``skipValue()``
  /// is no recursive function and can be in line where a member is skipped.
  @inline(never)
  private mutating func skipNested() throws(Stop) {
    try skipValue()
  }

  /// A number, by JSON's grammar.
  mutating func skipNumber() throws(Stop) {
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    guard index < bytes.count else { throw .syntax }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw .syntax }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) { throw .syntax }
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw .syntax }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw .syntax }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
  }

  /// Skips a string: plain bytes eight at a time, anything else (an escape, a byte past
  /// ASCII) checked by the JSON parser's reading of strings.
  @inline(__always)
  mutating func skipString() throws(Stop) {
    if try plainString() != nil { return }
    _ = try decodedString()
  }

  /// The byte range of the contents of the string at ``index`` when they are plain (printable
  /// ASCII with no escape but `\/` when `allowSlash`), ``index`` then past its closing quote;
  /// `nil`, with ``index`` unchanged, for any other string.
  @inline(__always)
  mutating func plainString(allowSlash: Bool = true) throws(Stop) -> (start: Int, end: Int)? {
    try expect(UInt8(ascii: "\""))
    let open = index - 1
    let start = index
    skipPlainWords()
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return (start, index - 1)
      }
      if byte == UInt8(ascii: "\\") {
        guard allowSlash, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") else {
          break
        }
        index += 2
        skipPlainWords()
        continue
      }
      guard byte >= 0x20, byte < 0x80 else { break }
      index += 1
    }
    index = open
    return nil
  }

  /// The string at ``index``, its escapes decoded and its UTF-8 checked by the JSON parser.
  mutating func decodedString() throws(Stop) -> String {
    skipWhitespace()
    do throws(JSONSyntaxError) {
      return try JSONValue.string(in: bytes, at: &index)
    } catch {
      throw .syntax
    }
  }

  /// Advances over plain string bytes (printable ASCII other than `"` and `\`) eight at a time,
  /// stopping on the first other byte (or before the last word): the byte loops read from
  /// there. Each test flags its byte exactly, and can flag a byte above it only by a borrow
  /// from it, so the lowest flagged byte of a word is the first one that is not plain.
  @inline(__always)
  mutating func skipPlainWords() {
    guard let base = bytes.baseAddress else { return }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    while index + 8 <= bytes.count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      // A zero byte of `quote` or `backslash`, a byte below 0x20, or a byte of 0x80 or more.
      let special =
        (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
          | (word &- ones &* 0x20) | word) & high
      if special != 0 {
        index += special.trailingZeroBitCount >> 3
        return
      }
      index += 8
    }
  }

  /// Whether `count` bytes at `a[aStart...]` and `b[bStart...]` are equal, eight at a time.
  @inline(__always)
  static func equal(
    _ a: UnsafeRawBufferPointer, _ aStart: Int, _ b: UnsafeRawBufferPointer, _ bStart: Int,
    _ count: Int
  ) -> Bool {
    var position = 0
    while position + 8 <= count {
      guard
        a.loadUnaligned(fromByteOffset: aStart + position, as: UInt64.self)
          == b.loadUnaligned(fromByteOffset: bStart + position, as: UInt64.self)
      else { return false }
      position += 8
    }
    while position < count {
      guard a[aStart + position] == b[bStart + position] else { return false }
      position += 1
    }
    return true
  }

  /// Whether the `count` bytes of `bytes` at `a` and at `b` are equal, 32 at a time (a JWS
  /// header against the one before).
  static func equal32(
    _ bytes: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int, _ count: Int
  ) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let raw = UnsafeRawPointer(base)
    func word(_ offset: Int) -> UInt64 {
      raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    var position = 0
    while position + 32 <= count {
      let difference =
        (word(a + position) ^ word(b + position))
        | (word(a + position + 8) ^ word(b + position + 8))
        | (word(a + position + 16) ^ word(b + position + 16))
        | (word(a + position + 24) ^ word(b + position + 24))
      guard difference == 0 else { return false }
      position += 32
    }
    while position < count {
      guard bytes[a + position] == bytes[b + position] else { return false }
      position += 1
    }
    return true
  }

  /// How a JSON value is named in messages (`a string`, `an object`), from its first byte; the
  /// value is then skipped, checked.
  mutating func skipDescribing() throws(Stop) -> String {
    skipWhitespace()
    let kind: String
    switch peek {
    case UInt8(ascii: "{"): kind = "an object"
    case UInt8(ascii: "["): kind = "an array"
    case UInt8(ascii: "\""): kind = "a string"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = "a boolean"
    case UInt8(ascii: "n"): kind = "null"
    default: kind = "a number"
    }
    try skipValue()
    return kind
  }
}
