extension Instant {
  /// Reads a date in any spelling of SPEC §1.
  ///
  /// | spelling | example |
  /// |---|---|
  /// | RFC 3339 | `2017-02-20T08:00:00Z`, `2017-02-20T08:00:00.123+08:00` |
  /// | Apple's receipt style | `2017-02-20 08:00:00 Etc/GMT` (also `GMT`, `UTC`, `Etc/UTC`) |
  /// | Apple's Pacific style | `2017-02-20 00:00:00 America/Los_Angeles` |
  /// | milliseconds since 1970 | `1487577600000` (a numeric string) |
  /// | a bare date, midnight UTC | `2017-02-20` |
  ///
  /// ```swift
  /// try Instant(parsing: "2017-02-20 00:00:00 America/Los_Angeles")
  /// // 2017-02-20T08:00:00Z
  /// try Instant(parsing: "1487577600000") == Instant(parsing: "2017-02-20T08:00:00Z")  // true
  /// ```
  ///
  /// - Parameter text: The date as Apple or a person wrote it.
  /// - Throws: ``ValueError`` naming the text when it is none of these spellings or names an
  ///   impossible date (Feb 30, hour 24).
  public init(parsing text: String) throws(ValueError) {
    var scanner = DateScanner(text)
    guard let instant = scanner.instant() else {
      throw ValueError(
        text: text,
        expected:
          "a date: expected RFC 3339 (2017-02-20T08:00:00Z), Apple's "
          + "'2017-02-20 08:00:00 Etc/GMT' or '… America/Los_Angeles', milliseconds since 1970, "
          + "or a bare date 2017-02-20")
    }
    self = instant
  }
}

/// Reads the date spellings of SPEC §1 from bytes, without `DateFormatter` or a locale.
private struct DateScanner {
  var bytes: ArraySlice<UInt8>

  init(_ text: String) {
    bytes = Array(text.utf8)[...]
  }

  mutating func instant() -> Instant? {
    if let milliseconds = millisecondsSince1970() { return milliseconds }
    guard let year = number(digits: 4), expect("-"), let month = number(digits: 2), expect("-"),
      let day = number(digits: 2), (1...12).contains(month),
      day >= 1, day <= CivilDateTime.daysInMonth(Int(month), of: year)
    else { return nil }
    var civil = CivilDateTime(year: year, month: Int(month), day: Int(day), millisecondOfDay: 0)
    if bytes.isEmpty { return civil.utcInstant }
    let isRFC3339 = bytes.first == UInt8(ascii: "T") || bytes.first == UInt8(ascii: "t")
    guard isRFC3339 || bytes.first == UInt8(ascii: " ") else { return nil }
    bytes.removeFirst()
    guard let timeOfDay = timeOfDay() else { return nil }
    civil.millisecondOfDay = timeOfDay
    if isRFC3339 {
      guard let offset = rfc3339Offset(), bytes.isEmpty, let utc = civil.utcInstant else {
        return nil
      }
      return utc - offset
    }
    guard expect(" ") else { return nil }
    switch String(decoding: bytes, as: UTF8.self) {
    case "Etc/GMT", "GMT", "UTC", "Etc/UTC", "Z": return civil.utcInstant
    case "America/Los_Angeles", "PST8PDT", "US/Pacific":
      return PacificTime.instant(wallClock: civil)
    default: return nil
    }
  }

  private mutating func millisecondsSince1970() -> Instant? {
    var digits = bytes
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits.removeFirst() }
    guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= 48 && $0 <= 57 })
    else { return nil }
    // A bare 4-digit number is far more likely a mistyped year than 1970 plus a few seconds,
    // but Apple never writes fewer than 10 digits, and neither would a person: refuse < 5.
    guard digits.count >= 5 else { return nil }
    let value = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) }
    return Instant(millisecondsSince1970: negative ? -value : value)
  }

  private mutating func timeOfDay() -> Int64? {
    guard let hour = number(digits: 2), expect(":"), let minute = number(digits: 2), expect(":"),
      let second = number(digits: 2), hour < 24, minute < 60, second < 60
    else { return nil }
    var milliseconds = ((hour * 60 + minute) * 60 + second) * 1000
    if bytes.first == UInt8(ascii: ".") {
      bytes.removeFirst()
      var scale: Int64 = 100
      var count = 0
      while let digit = bytes.first, digit >= 48, digit <= 57 {
        milliseconds += Int64(digit - 48) * scale
        scale /= 10
        count += 1
        bytes.removeFirst()
      }
      guard count > 0, count <= 9 else { return nil }
    }
    return milliseconds
  }

  private mutating func rfc3339Offset() -> FixedDuration? {
    guard let sign = bytes.popFirst() else { return nil }
    if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") { return .zero }
    guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
      let hours = number(digits: 2), expect(":"), let minutes = number(digits: 2),
      hours < 24, minutes < 60
    else { return nil }
    let offset = FixedDuration.minutes(hours * 60 + minutes)
    return sign == UInt8(ascii: "+") ? offset : .milliseconds(-offset.milliseconds)
  }

  private mutating func number(digits: Int) -> Int64? {
    guard bytes.count >= digits else { return nil }
    var value: Int64 = 0
    for _ in 0..<digits {
      guard let digit = bytes.first, digit >= 48, digit <= 57 else { return nil }
      value = value * 10 + Int64(digit - 48)
      bytes.removeFirst()
    }
    return value
  }

  private mutating func expect(_ character: Unicode.Scalar) -> Bool {
    guard bytes.first == UInt8(ascii: character) else { return false }
    bytes.removeFirst()
    return true
  }
}
