extension FixedDuration {
  /// Reads a fixed length written as an ISO 8601 duration (`P60D`, `PT24H`, `PT5M`, `PT0.5S`)
  /// or as a count of milliseconds (`"5184000000"`).
  ///
  /// Days and weeks are fixed 24-hour days here; months and years are calendar lengths and are
  /// refused, since a fixed length must not depend on the calendar (SPEC §1).
  ///
  /// ```swift
  /// try FixedDuration(iso8601: "P60D") == .days(60)  // true
  /// try FixedDuration(iso8601: "P1M")                // throws: months are calendar lengths
  /// ```
  ///
  /// - Parameter text: The duration as a policy or scenario writes it.
  /// - Throws: ``ValueError`` when the text is neither.
  public init(iso8601 text: String) throws(ValueError) {
    if let milliseconds = Int64(text), milliseconds >= 0 {
      self.init(milliseconds: milliseconds)
      return
    }
    let parts = try ISO8601DurationParts(text)
    guard parts.years == 0, parts.months == 0 else {
      throw ValueError(
        text: text,
        expected: "a fixed length (months and years are calendar lengths): use days, like P60D")
    }
    let days = parts.weeks.multipliedSaturating(by: 7) + parts.days
    self = .days(days) + .milliseconds(parts.timeMilliseconds)
  }

  /// The sum of two fixed lengths, saturating instead of overflowing.
  public static func + (lhs: FixedDuration, rhs: FixedDuration) -> FixedDuration {
    let (sum, overflow) = lhs.milliseconds.addingReportingOverflow(rhs.milliseconds)
    if overflow { return .milliseconds(rhs.milliseconds > 0 ? .max : .min) }
    return .milliseconds(sum)
  }

  /// A fixed length multiplied by a count, saturating instead of overflowing.
  public static func * (lhs: FixedDuration, rhs: Int64) -> FixedDuration {
    .milliseconds(lhs.milliseconds.multipliedSaturating(by: rhs))
  }
}
