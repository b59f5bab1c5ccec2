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
    let civil = CivilDateTime(utc: self)
    let milliseconds = civil.millisecondOfDay % 1000
    let seconds = civil.millisecondOfDay / 1000
    var text =
      "\(pad(civil.year, 4))-\(pad(Int64(civil.month), 2))-\(pad(Int64(civil.day), 2))"
      + "T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
    if milliseconds != 0 { text += ".\(pad(milliseconds, 3))" }
    return text + "Z"
  }
}

private func pad(_ value: Int64, _ width: Int) -> String {
  let digits = String(value.magnitude)
  let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
  return value < 0 ? "-" + padded : padded
}
