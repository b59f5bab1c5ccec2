/// Contents of DER primitive types, read strictly (X.690 §8.2, §8.3, §8.6, §8.19, §11).
enum DERValues {
  /// An INTEGER's contents, checked minimal (no needless leading 0x00 or 0xFF byte).
  static func integer(_ element: DERElement) throws(DERError) -> ArraySlice<UInt8> {
    let content = element.content
    guard let first = content.first else { throw DERError("empty INTEGER") }
    if content.count > 1 {
      let second = content[content.startIndex + 1]
      if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
        throw DERError("INTEGER not minimal")
      }
    }
    return content
  }

  /// A non-negative INTEGER's magnitude, big-endian without the sign byte.
  static func unsignedInteger(_ element: DERElement) throws(DERError) -> ArraySlice<UInt8> {
    let content = try integer(element)
    guard let first = content.first, first & 0x80 == 0 else {
      throw DERError("negative INTEGER")
    }
    return first == 0 && content.count > 1 ? content.dropFirst() : content
  }

  /// A small non-negative INTEGER (a version, a path length).
  static func smallInteger(_ element: DERElement) throws(DERError) -> Int {
    let magnitude = try unsignedInteger(element)
    guard magnitude.count <= 4 else { throw DERError("INTEGER too large") }
    return magnitude.reduce(0) { $0 << 8 | Int($1) }
  }

  /// A BOOLEAN: one byte, 0x00 or 0xFF.
  static func boolean(_ element: DERElement) throws(DERError) -> Bool {
    guard element.content.count == 1, let byte = element.content.first,
      byte == 0x00 || byte == 0xFF
    else { throw DERError("BOOLEAN not DER") }
    return byte == 0xFF
  }

  /// A BIT STRING of whole bytes (a key, a signature): the unused-bits octet must be 0.
  static func octetAlignedBits(_ element: DERElement) throws(DERError) -> ArraySlice<UInt8> {
    guard let unused = element.content.first else { throw DERError("empty BIT STRING") }
    guard unused == 0 else { throw DERError("BIT STRING with unused bits") }
    return element.content.dropFirst()
  }

  /// A named-bit BIT STRING (key usage) as flags, bit 0 first: unused bits must be zero and
  /// trailing zero bits absent (X.690 §11.2.2).
  static func namedBits(_ element: DERElement) throws(DERError) -> [Bool] {
    guard let unused = element.content.first, unused < 8 else {
      throw DERError("BIT STRING not DER")
    }
    let bytes = element.content.dropFirst()
    guard let last = bytes.last else {
      guard unused == 0 else { throw DERError("BIT STRING not DER") }
      return []
    }
    let unusedMask = UInt8((1 << Int(unused)) - 1)
    guard last & unusedMask == 0 else { throw DERError("BIT STRING unused bits set") }
    guard last & (unusedMask + 1) != 0 else { throw DERError("BIT STRING trailing zero bits") }
    var flags: [Bool] = []
    for byte in bytes {
      for shift in stride(from: 7, through: 0, by: -1) { flags.append(byte >> shift & 1 == 1) }
    }
    return Array(flags.dropLast(Int(unused)))
  }

  /// An OBJECT IDENTIFIER's contents, checked: non-empty, minimal sub-identifiers, complete.
  static func objectIdentifier(_ element: DERElement) throws(DERError) -> OID {
    let content = element.content
    guard let last = content.last, last & 0x80 == 0 else {
      throw DERError("OBJECT IDENTIFIER incomplete")
    }
    var startsArc = true
    for byte in content {
      if startsArc && byte == 0x80 { throw DERError("OBJECT IDENTIFIER not minimal") }
      startsArc = byte & 0x80 == 0
    }
    return OID(der: Array(content))
  }

  /// A UTCTime (`YYMMDDHHMMSSZ`, years 1950–2049) or GeneralizedTime (`YYYYMMDDHHMMSSZ`), as
  /// seconds since 1970 (RFC 5280 §4.1.2.5).
  static func time(_ element: DERElement) throws(DERError) -> Int64 {
    let text = Array(element.content)
    let yearDigits: Int
    switch element.tag {
    case DERTag.utcTime: yearDigits = 2
    case DERTag.generalizedTime: yearDigits = 4
    default: throw DERError("a time is neither UTCTime nor GeneralizedTime")
    }
    guard text.count == yearDigits + 11, text.last == UInt8(ascii: "Z") else {
      throw DERError("time not in DER form (…Z, no fraction)")
    }
    var fields: [Int] = []
    var index = 0
    for width in [yearDigits, 2, 2, 2, 2, 2] {
      var value = 0
      for _ in 0..<width {
        let digit = Int(text[index]) - 48
        guard (0...9).contains(digit) else { throw DERError("time has a non-digit") }
        value = value * 10 + digit
        index += 1
      }
      fields.append(value)
    }
    var year = fields[0]
    if yearDigits == 2 { year += year >= 50 ? 1900 : 2000 }
    let (month, day, hour, minute, second) = (fields[1], fields[2], fields[3], fields[4], fields[5])
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60
    else { throw DERError("time out of range") }
    let days = daysSince1970(year: year, month: month, day: day)
    return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (the civil-from-days inverse).
  static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
