extension Instant: CustomStringConvertible {
  /// The instant in RFC 3339, UTC: `2017-02-20T08:00:00Z`, with `.123` when it has
  /// milliseconds; `distantFuture` and `distantPast` for the sentinels.
  ///
  /// ```swift
  /// Instant(millisecondsSince1970: 1_487_577_600_123).description
  /// // "2017-02-20T08:00:00.123Z"
  /// ```
  public var description: String {
    if self == .distantFuture { return "distantFuture" }
    if self == .distantPast { return "distantPast" }
    var text: [UInt8] = []
    text.reserveCapacity(24)
    appendRFC3339(to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends the instant in RFC 3339, UTC, as ``description`` writes it: for writers of JSON,
  /// which would otherwise make a `String` per date. The sentinels are the caller's to name
  /// (``description`` writes `distantFuture` and `distantPast`).
  package func appendRFC3339(to text: inout [UInt8]) {
    let civil = CivilDateTime(utc: self)
    let milliseconds = civil.millisecondOfDay % 1000
    let seconds = civil.millisecondOfDay / 1000
    // Written digit by digit: dates are written by the thousand in reports.
    append(civil.year, width: 4, to: &text)
    text.append(UInt8(ascii: "-"))
    append(Int64(civil.month), width: 2, to: &text)
    text.append(UInt8(ascii: "-"))
    append(Int64(civil.day), width: 2, to: &text)
    text.append(UInt8(ascii: "T"))
    append(seconds / 3600, width: 2, to: &text)
    text.append(UInt8(ascii: ":"))
    append(seconds / 60 % 60, width: 2, to: &text)
    text.append(UInt8(ascii: ":"))
    append(seconds % 60, width: 2, to: &text)
    if milliseconds != 0 {
      text.append(UInt8(ascii: "."))
      append(milliseconds, width: 3, to: &text)
    }
    text.append(UInt8(ascii: "Z"))
  }
}

/// Appends `value` in decimal, zero-padded to `width` digits, with `-` when negative.
private func append(_ value: Int64, width: Int, to text: inout [UInt8]) {
  if value < 0 { text.append(UInt8(ascii: "-")) }
  let magnitude = value.magnitude
  var divisor: UInt64 = 1
  var count = 1
  while divisor <= magnitude / 10 {
    divisor *= 10
    count += 1
  }
  if count < width {
    text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - count))
  }
  while divisor > 0 {
    text.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
    divisor /= 10
  }
}
