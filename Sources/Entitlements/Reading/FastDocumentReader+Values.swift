// Tokens and scalar values, read from the bytes: whitespace, strings, ids, numbers, skips.

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

  /// An id as an entry keeps it (``CompactIdentifier``): its number read from its bytes, and
  /// a `String` made only when it is not a plain number. With an escape the bytes hold a
  /// backslash, so no number, as the unescaped text (which holds a slash) has none.
  mutating func identifier() throws(GiveUp) -> CompactIdentifier {
    skipWhitespace()
    // Apple's ids, sixteen digits between quotes, first: their number read in place, with no
    // scan for the closing quote (the same number as below, from the string's range).
    if index + 18 <= bytes.count, bytes[index] == UInt8(ascii: "\""),
      bytes[index + 17] == UInt8(ascii: "\""),
      let number = Self.plainNumber(bytes, index + 1, index + 17)
    {
      index += 18
      return CompactIdentifier(number: number, text: "")
    }
    let start = index
    let (textStart, textEnd) = try rawString(allowSlashEscape: true)
    let number =
      Self.plainNumber(bytes, textStart, textEnd)
      ?? IdentifierNumber(digits: UnsafeBufferPointer(rebasing: bytes[textStart..<textEnd]))
    guard !number.isPlain else { return CompactIdentifier(number: number, text: "") }
    index = start
    let text = try string()
    return CompactIdentifier(number: number, text: text)
  }

  /// The number of the 8 to 16 bytes `bytes[start..<end]` when they are a plain number
  /// (``IdentifierNumber``: digits, no leading zero), read eight digits at a time as Apple's
  /// 16-digit ids are; `nil` for anything else, which ``IdentifierNumber/init(digits:)``
  /// decides byte by byte.
  @inline(__always)
  private static func plainNumber(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> IdentifierNumber? {
    let count = end - start
    guard count >= 8, count <= 16, bytes[start] != UInt8(ascii: "0"),
      let base = bytes.baseAddress
    else { return nil }
    let raw = UnsafeRawPointer(base)
    // The last eight bytes, with those that are also among the first eight made "0".
    let shared = UInt64(16 - count) * 8
    let sharedMask: UInt64 = shared == 64 ? .max : (1 << shared) - 1
    let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
    guard let high = eightDigits(raw, start),
      let low = eightDigits((last & ~sharedMask) | (0x3030_3030_3030_3030 & sharedMask))
    else { return nil }
    let scale = powerOfTen(count - 8)
    return IdentifierNumber(plainValue: UInt64(high) * scale + UInt64(low))
  }

  /// 10 to the power `power`, for 0 to 8.
  @inline(__always)
  private static func powerOfTen(_ power: Int) -> UInt64 {
    switch power {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    default: 100_000_000
    }
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
  private static func equal(
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

  /// A product id or an original transaction id: the `String` of one read before with the
  /// same bytes, among the last ``sharedPerKind`` distinct ones of its kind, so that the
  /// entries of a document share one storage per product and per subscription (no allocation
  /// per entry for an id of more than 15 bytes, as Apple's are).
  mutating func sharedString(_ id: SharedID) throws(GiveUp) -> String {
    let (start, end) = try rawString(allowSlashEscape: true)
    let raw = UnsafeRawBufferPointer(bytes)
    let first = id.rawValue * Self.sharedPerKind
    func isSame(_ place: Int) -> Bool {
      let known = shared[first + place]
      return end - start == known.count
        && Self.equal(raw, start, raw, known.start, known.count)
    }
    let last = sharedLast[id.rawValue]
    if isSame(last) { return shared[first + last].value }
    for place in 0..<Self.sharedPerKind where place != last && isSame(place) {
      sharedLast[id.rawValue] = place
      return shared[first + place].value
    }
    index = start - 1
    let value = try string()
    let place = sharedNext[id.rawValue]
    shared[first + place] = (start, end - start, value)
    (sharedLast[id.rawValue], sharedNext[id.rawValue]) = (place, (place + 1) % Self.sharedPerKind)
    return value
  }

  /// A product id (`subscription` false) or an original transaction id of a decoded payload:
  /// the `String` of ``memo`` with the same bytes, else the string read, remembered first.
  mutating func memoString(subscription: Bool) throws(GiveUp) -> String {
    let first = subscription ? 2 : 0
    // The two ids of the kind read last, compared where the next one lies: its opening
    // quote, the bytes one was read from, and a closing quote right after them (which ends
    // the string: a string read holds no backslash before its closing quote), with no scan.
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "\""), let base = bytes.baseAddress {
      for place in first..<first + 2 {
        let spelling = memo.spellings[place]
        let end = index + 1 + spelling.count
        guard spelling.count >= 0, end < bytes.count, bytes[end] == UInt8(ascii: "\""),
          spelling.isSpelt(at: index + 1, in: UnsafeRawPointer(base))
        else { continue }
        index = end + 1
        if place != first {
          memo.strings.swapAt(first, place)
          memo.spellings.swapAt(first, place)
        }
        return memo.strings[first]
      }
    }
    let (start, end) = try rawString(allowSlashEscape: true)
    for place in first..<first + 2
    where memo.spellings[place].count < 0 && Self.spells(memo.strings[place], bytes, start, end) {
      let value = memo.strings[place]
      if place != first {
        memo.strings.swapAt(first, place)
        memo.spellings.swapAt(first, place)
      }
      return value
    }
    index = start - 1
    let value = try string()
    memo.strings[first + 1] = memo.strings[first]
    memo.spellings[first + 1] = memo.spellings[first]
    memo.strings[first] = value
    memo.spellings[first] = PayloadMemo.Spelling(bytes, start, end)
    return value
  }

  /// Whether `bytes[start..<end]` are the UTF-8 of `value`.
  private static func spells(
    _ value: String, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> Bool {
    guard value.utf8.count == end - start, let base = bytes.baseAddress else { return false }
    return value.utf8.withContiguousStorageIfAvailable { utf8 in
      equal(
        UnsafeRawBufferPointer(utf8), 0, UnsafeRawBufferPointer(start: base, count: end), start,
        end - start)
    } ?? false
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

  /// Up to 18 decimal digits (more give up: no overflow), and how many there were.
  private mutating func digits() throws(GiveUp) -> (value: Int64, count: Int) {
    var value: Int64 = 0
    var count = 0
    // While sixteen bytes follow, up to sixteen digits are read in two words, with no loop
    // (a millisecond date has thirteen, an id sixteen); a seventeenth takes the loop below.
    let (twoWords, twoWordsCount) = sixteenDigits()
    if twoWordsCount >= 0 {
      (value, count) = (twoWords, twoWordsCount)
      index += count
      guard count == 16 else { return (value, count) }
    } else if index + 8 <= bytes.count, let base = bytes.baseAddress,
      let eight = Self.eightDigits(UnsafeRawPointer(base), index)
    {
      // Eight digits at a time near the end of the bytes.
      value = eight
      count = 8
      index += 8
    }
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
      guard count < 18 else { throw GiveUp() }  // before multiplying: no overflow
      value = value * 10 + Int64(bytes[index] - 0x30)
      count += 1
      index += 1
    }
    return (value, count)
  }

  /// The value and count of the 0 to 16 decimal digits at ``index``, read in two words with no
  /// loop, when sixteen bytes follow (else a count of -1); a count of 16 may be followed by
  /// more digits.
  @inline(__always)
  private func sixteenDigits() -> (value: Int64, count: Int) {
    guard index + 16 <= bytes.count, let base = bytes.baseAddress else { return (0, -1) }
    let raw = UnsafeRawPointer(base)
    let first = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    let firstCount = Self.leadingDigits(first)
    guard firstCount == 8 else {
      return (Self.value(ofLeading: firstCount, digitsOf: first), firstCount)
    }
    let second = UInt64(
      littleEndian: raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
    let secondCount = Self.leadingDigits(second)
    return (
      Self.value(ofDigits: first) * Int64(Self.powerOfTen(secondCount))
        + Self.value(ofLeading: secondCount, digitsOf: second),
      8 + secondCount
    )
  }

  /// How many of a word's bytes, from its first (lowest), are decimal digits before the first
  /// that is not: 0 to 8. A digit is 0x30...0x39: high nibble 3, and adding 6 leaves the high
  /// nibble 3. Adding 6 carries into the next byte only from a byte of 0xFA or more, which is
  /// not a digit and comes first, so the first byte flagged is exactly the first non-digit.
  @inline(__always)
  private static func leadingDigits(_ word: UInt64) -> Int {
    let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    let flagged =
      ((word & nibbles) | (((word &+ 0x0606_0606_0606_0606) & nibbles) >> 4))
      ^ 0x3333_3333_3333_3333
    return flagged.trailingZeroBitCount >> 3
  }

  /// The value of a word's first `count` bytes (0 to 8), all decimal digits: moved to the top
  /// of the word, below them zero digits.
  @inline(__always)
  private static func value(ofLeading count: Int, digitsOf word: UInt64) -> Int64 {
    value(ofDigits: (word << UInt64(64 - 8 * count)) | (0x3030_3030_3030_3030 >> UInt64(8 * count)))
  }

  /// The value of the eight bytes at `offset` when all are decimal digits.
  @inline(__always)
  private static func eightDigits(_ raw: UnsafeRawPointer, _ offset: Int) -> Int64? {
    eightDigits(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
  }

  /// ``eightDigits(_:_:)`` of a word already loaded (its first byte lowest).
  @inline(__always)
  private static func eightDigits(_ word: UInt64) -> Int64? {
    guard leadingDigits(word) == 8 else { return nil }
    return value(ofDigits: word)
  }

  /// The value of eight decimal digits, the first in the lowest byte: pairs, quads and the two
  /// halves combined by three multiplications.
  @inline(__always)
  private static func value(ofDigits word: UInt64) -> Int64 {
    var digits = word & 0x0F0F_0F0F_0F0F_0F0F  // byte i: digit i (the first is lowest)
    digits = (digits &* (10 << 8 + 1)) >> 8  // 16-bit lanes: two digits
    digits = ((digits & 0x00FF_00FF_00FF_00FF) &* (100 << 16 + 1)) >> 16  // 32-bit: four
    digits = ((digits & 0x0000_FFFF_0000_FFFF) &* (10_000 << 32 + 1)) >> 32  // eight
    return Int64(digits)
  }

  /// A string of 1 to 18 digits, as Apple writes `*_ms`.
  mutating func millisecondsString() throws(GiveUp) -> Int64 {
    try expect(UInt8(ascii: "\""))
    let (value, count) = try digits()
    guard count > 0, index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw GiveUp()
    }
    index += 1
    return value
  }

  /// An integer written as a JSON number or a string of digits.
  mutating func integer() throws(GiveUp) -> Int {
    skipWhitespace()
    guard index < bytes.count else { throw GiveUp() }
    let quoted = bytes[index] == UInt8(ascii: "\"")
    if quoted { index += 1 }
    let (value, count) = try digits()
    // JSON numbers have no leading zero; a quoted "007" reads as 7, as Int("007") does.
    guard count > 0, count == 1 || quoted || bytes[index - count] != 0x30 else {
      throw GiveUp()
    }
    if quoted {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GiveUp() }
      index += 1
    } else if index < bytes.count,
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index])
    {
      throw GiveUp()
    }
    return Int(value)
  }

  /// A JSON number of 1 to 18 digits, negative before 1970, with no fraction or exponent:
  /// milliseconds as the App Store Server API writes dates.
  mutating func millisecondsNumber() throws(GiveUp) -> Int64 {
    skipWhitespace()
    // Dates since 1973 (9 to 15 digits, Apple's have thirteen) first, read in two words
    // while sixteen bytes follow: the number ``integer()`` reads, where the byte after the
    // digits is no fraction or exponent (else that reading gives up).
    let (value, count) = sixteenDigits()
    if count >= 9, count <= 15, bytes[index] != UInt8(ascii: "0") {
      let after = bytes[index + count]
      if after != UInt8(ascii: "."), after != UInt8(ascii: "e"), after != UInt8(ascii: "E") {
        index += count
        return value
      }
    }
    guard index < bytes.count, bytes[index] != UInt8(ascii: "\"") else { throw GiveUp() }
    guard bytes[index] == UInt8(ascii: "-") else { return Int64(try integer()) }
    index += 1
    guard index < bytes.count, bytes[index] != UInt8(ascii: "\"") else { throw GiveUp() }
    return -Int64(try integer())
  }

  /// A string, or an integer number kept as its digits (`revocationReason` is a number).
  mutating func stringOrInteger() throws(GiveUp) -> String {
    skipWhitespace()
    guard index < bytes.count else { throw GiveUp() }
    if bytes[index] == UInt8(ascii: "\"") { return try string() }
    let start = index
    _ = try integer()
    return text((start, index))
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
