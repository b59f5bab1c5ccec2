// Ids and numbers, read from the bytes: Apple's shapes (16-digit ids, 13-digit dates) first,
// in words, with no loop. Each reading here takes only the shape it names: for anything else
// it returns `nil` with ``index`` unchanged, and the caller reads the value tolerantly.

extension SchemaReader {
  /// An id as an entry keeps it (``CompactIdentifier``), from a plain string: its number read
  /// from its bytes, and a `String` made only when it is not a plain number. With an escape
  /// the bytes hold a backslash, so no number, as the unescaped text (which holds a slash) has
  /// none.
  @inline(__always)
  mutating func plainIdentifier() throws(Stop) -> CompactIdentifier? {
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
    guard peek == UInt8(ascii: "\""), let (start, end) = try plainString() else { return nil }
    let number =
      Self.plainNumber(bytes, start, end)
      ?? IdentifierNumber(digits: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    guard !number.isPlain else { return CompactIdentifier(number: number, text: "") }
    return CompactIdentifier(number: number, text: unescapedSlashes(start, end))
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

  /// Up to 18 decimal digits at ``index`` and how many there were; `nil` past 18 (no
  /// overflow), with ``index`` then unchanged.
  @inline(__always)
  private mutating func digits() -> (value: Int64, count: Int)? {
    let start = index
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
      guard count < 18 else {  // before multiplying: no overflow
        index = start
        return nil
      }
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
  @inline(__always)
  mutating func plainMillisecondsString() -> Int64? {
    skipWhitespace()
    let start = index
    guard peek == UInt8(ascii: "\"") else { return nil }
    index += 1
    guard let (value, count) = digits(), count > 0, index < bytes.count,
      bytes[index] == UInt8(ascii: "\"")
    else {
      index = start
      return nil
    }
    index += 1
    return value
  }

  /// An integer written as a JSON number of 1 to 18 digits or a string of them (a JSON number
  /// has no leading zero; a quoted "007" reads as 7, as `Int("007")` does).
  @inline(__always)
  mutating func plainInteger() -> Int? {
    skipWhitespace()
    let start = index
    guard index < bytes.count else { return nil }
    let quoted = bytes[index] == UInt8(ascii: "\"")
    if quoted { index += 1 }
    guard let (value, count) = digits(), count > 0,
      count == 1 || quoted || bytes[index - count] != 0x30
    else {
      index = start
      return nil
    }
    if quoted {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        index = start
        return nil
      }
      index += 1
    } else if index < bytes.count,
      bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e")
        || bytes[index] == UInt8(ascii: "E")
    {
      index = start
      return nil
    }
    return Int(value)
  }

  /// A JSON number of 1 to 18 digits, negative before 1970, with no fraction or exponent:
  /// milliseconds as the App Store Server API writes dates.
  @inline(__always)
  mutating func plainMillisecondsNumber() -> Int64? {
    skipWhitespace()
    // Dates since 1973 (9 to 15 digits, Apple's have thirteen) first, read in two words
    // while sixteen bytes follow: the number ``plainInteger()`` reads, where the byte after
    // the digits is no fraction or exponent.
    let (value, count) = sixteenDigits()
    if count >= 9, count <= 15, bytes[index] != UInt8(ascii: "0") {
      let after = bytes[index + count]
      if after != UInt8(ascii: "."), after != UInt8(ascii: "e"), after != UInt8(ascii: "E") {
        index += count
        return value
      }
    }
    guard index < bytes.count, bytes[index] != UInt8(ascii: "\"") else { return nil }
    guard bytes[index] == UInt8(ascii: "-") else { return plainInteger().map(Int64.init) }
    let start = index
    index += 1
    // A digit right after the sign: JSON has no space there.
    guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39,
      let magnitude = plainInteger()
    else {
      index = start
      return nil
    }
    return -Int64(magnitude)
  }
}
