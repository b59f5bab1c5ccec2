// Tokens and scalar values, read from the bytes: whitespace, strings, literals, flags, skips.

extension FastDocumentReader {
  @inline(__always)
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  @inline(__always)
  mutating func expect(_ byte: UInt8) throws(GiveUp) {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { throw GiveUp() }
    index += 1
  }

  /// Calls `member` for each key of an object; the member must read or skip its value.
  @inline(__always)
  mutating func object(
    _ member: (inout FastDocumentReader, Key) throws(GiveUp) -> Void
  ) throws(GiveUp) {
    var previous = Key.unknown
    try sequence(open: UInt8(ascii: "{"), close: UInt8(ascii: "}")) { reader throws(GiveUp) in
      let key = try reader.readKeyAndColon(after: previous)
      previous = key
      try member(&reader, key)
    }
  }

  @inline(__always)
  mutating func array(_ element: (inout FastDocumentReader) throws(GiveUp) -> Void)
    throws(GiveUp)
  {
    try sequence(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), element)
  }

  /// `open item (, item)* close`, whitespace allowed between tokens.
  @inline(__always)
  private mutating func sequence(
    open: UInt8, close: UInt8, _ item: (inout FastDocumentReader) throws(GiveUp) -> Void
  ) throws(GiveUp) {
    try expect(open)
    skipWhitespace()
    if index < bytes.count, bytes[index] == close {
      index += 1
      return
    }
    while true {
      try item(&self)
      skipWhitespace()
      guard index < bytes.count else { throw GiveUp() }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == close else { throw GiveUp() }
      index += 1
      return
    }
  }

  /// A member name and the colon after it; the name is matched against the known keys on
  /// its bytes; escapes and non-ASCII give up (the general reader decodes them).
  @inline(__always)
  private mutating func readKeyAndColon(after previous: Key) throws(GiveUp) -> Key {
    guard let base = bytes.baseAddress else { throw GiveUp() }
    let raw = UnsafeRawPointer(base)
    let predicted = followers[previous]
    // The predicted name checked in place, with no scan: its words, then the closing quote
    // (and the colon when it follows at once). A known name is plain ASCII, so the scan
    // would have found the same range.
    skipWhitespace()
    // Most often the token `"name":` itself, compared in words.
    if predicted != .unknown,
      let count = keys.tokenLength(of: predicted.rawValue, at: index, in: raw, bytes.count)
    {
      index += count
      return predicted
    }
    if predicted != .unknown, index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      let start = index + 1
      let count = keys.length(of: predicted.rawValue)
      if start + count + 1 < bytes.count, bytes[start + count] == UInt8(ascii: "\""),
        keys.matches(predicted.rawValue, raw, bytes.count, start, count)
      {
        if bytes[start + count + 1] == UInt8(ascii: ":") {
          index = start + count + 2
        } else {
          index = start + count + 1
          try expect(UInt8(ascii: ":"))
        }
        return predicted
      }
    }
    let (start, end) = try rawString(allowSlashEscape: false)
    let key = keys.key(raw, bytes.count, start, end - start)
    followers[previous] = key
    try expect(UInt8(ascii: ":"))
    return key
  }

  /// The byte range of a string's contents: ASCII, no control characters, and no escape but
  /// `\/` when allowed. Anything else gives up.
  mutating func rawString(allowSlashEscape: Bool) throws(GiveUp) -> (Int, Int) {
    try expect(UInt8(ascii: "\""))
    let start = index
    skipPlainWords()
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return (start, index - 1)
      }
      if byte == UInt8(ascii: "\\") {
        guard allowSlashEscape, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/")
        else { throw GiveUp() }
        index += 2
        skipPlainWords()
        continue
      }
      guard byte >= 0x20, byte < 0x80 else { throw GiveUp() }
      index += 1
    }
    throw GiveUp()
  }

  /// Advances over plain string bytes (printable ASCII other than `"` and `\`) eight at a time,
  /// stopping on the first other byte (or before the last word): the byte loops read from
  /// there. Each test flags its byte exactly, and can flag a byte above it only by a borrow
  /// from it, so the lowest flagged byte of a word is the first one that is not plain.
  @inline(__always)
  private mutating func skipPlainWords() {
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

  /// A date's text, decoded only when needed (without `_ms`).
  func text(_ range: (Int, Int)) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range.0..<range.1]), as: UTF8.self)
  }

  /// A string whose only escape is `\/` (Apple escapes slashes); anything else gives up.
  mutating func string() throws(GiveUp) -> String {
    try expect(UInt8(ascii: "\""))
    let start = index
    var ascii = true
    var slashes = false
    skipPlainWords()
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") { break }
      if byte == UInt8(ascii: "\\") {
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") else {
          throw GiveUp()
        }
        slashes = true
        index += 2
        skipPlainWords()
        continue
      }
      if byte < 0x20 { throw GiveUp() }
      if byte >= 0x80 { ascii = false }
      index += 1
    }
    guard index < bytes.count else { throw GiveUp() }
    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
    index += 1
    guard ascii else { throw GiveUp() }
    if !slashes { return String(decoding: slice, as: UTF8.self) }
    var unescaped: [UInt8] = []
    unescaped.reserveCapacity(slice.count)
    var position = 0
    while position < slice.count {
      if slice[position] == UInt8(ascii: "\\") { position += 1 }
      unescaped.append(slice[position])
      position += 1
    }
    return String(decoding: unescaped, as: UTF8.self)
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

  /// Whether `count` bytes at `a[aStart...]` and `b[bStart...]` are equal, eight at a time.
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

  /// `type` of a decoded transaction: Apple's four spellings matched on bytes (no `String`
  /// made for them), any other as a decoded string.
  mutating func productType() throws(GiveUp) -> String {
    skipWhitespace()
    if literal("\"Auto-Renewable Subscription\"") { return "Auto-Renewable Subscription" }
    if literal("\"Non-Consumable\"") { return "Non-Consumable" }
    if literal("\"Consumable\"") { return "Consumable" }
    if literal("\"Non-Renewing Subscription\"") { return "Non-Renewing Subscription" }
    return try string()
  }

  /// `environment` of a decoded payload: the App Store Server API's two usual spellings
  /// matched on bytes (no `String` made for them), any other read as a string and named as
  /// ``StoreEnvironment/init(appleName:)`` names it (`nil` for a name it does not know).
  mutating func storeEnvironment() throws(GiveUp) -> StoreEnvironment? {
    skipWhitespace()
    if literal("\"Production\"") { return .production }
    if literal("\"Sandbox\"") { return .sandbox }
    return StoreEnvironment(appleName: try string())
  }

  /// `"true"`, `"false"`, `"1"`, `"0"`, a JSON boolean, or the number 0 or 1.
  mutating func flag() throws(GiveUp) -> Bool {
    skipWhitespace()
    guard index < bytes.count else { throw GiveUp() }
    if bytes[index] == UInt8(ascii: "\"") {
      // Apple's four spellings matched on bytes; anything else as a decoded string.
      if literal("\"true\"") || literal("\"1\"") { return true }
      if literal("\"false\"") || literal("\"0\"") { return false }
      switch try string() {
      case "true", "1": return true
      case "false", "0": return false
      default: throw GiveUp()
      }
    }
    if literal("true") { return true }
    if literal("false") { return false }
    switch try integer() {  // the numbers 0 and 1, as Apple writes autoRenewStatus
    case 1: return true
    case 0: return false
    default: throw GiveUp()
    }
  }

  /// `in_app_ownership_type`: Apple's two spellings matched on bytes (no `String` made for
  /// them), any other as a decoded string.
  mutating func ownershipType() throws(GiveUp) -> String {
    skipWhitespace()
    if literal("\"PURCHASED\"") { return "PURCHASED" }
    if literal("\"FAMILY_SHARED\"") { return "FAMILY_SHARED" }
    return try string()
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

  /// Skips any JSON value, checking it as strictly as the general reader would. A string, the
  /// usual value no schema reads (Apple's `_pst` dates among them), is skipped here in line;
  /// other values in ``skipOther(depth:)``.
  @inline(__always)
  mutating func skipValue(depth: Int) throws(GiveUp) {
    guard depth < JSONValue.maximumDepth else { throw GiveUp() }
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      _ = try rawString(allowSlashEscape: true)
    } else {
      try skipOther(depth: depth)
    }
  }

  /// ``skipValue(depth:)`` of anything but a string.
  private mutating func skipOther(depth: Int) throws(GiveUp) {
    guard index < bytes.count else { throw GiveUp() }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      try object { reader, _ throws(GiveUp) in try reader.skipValue(depth: depth + 1) }
    case UInt8(ascii: "["):
      try array { reader throws(GiveUp) in try reader.skipValue(depth: depth + 1) }
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      guard literal("true") || literal("false") || literal("null") else { throw GiveUp() }
    default:
      try skipNumber()
    }
  }

  private mutating func skipNumber() throws(GiveUp) {
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) { throw GiveUp() }
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
  }
}
