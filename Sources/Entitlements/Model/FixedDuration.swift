/// A fixed length of time in milliseconds: "60 days", "24 hours", "5 minutes".
///
/// The guide's windows (10-day billing check, 24-hour renewal attempts, 60-day billing retry)
/// and every sandbox length are fixed lengths: 60 days is always 60 × 86 400 000 ms, whatever
/// the calendar says (SPEC §1). Calendar lengths such as "1 month" are a different type,
/// ``CalendarPeriod``, and the two never mix: there is no `+` between them.
///
/// ```swift
/// FixedDuration.days(60).milliseconds   // 5_184_000_000
/// FixedDuration.minutes(5) < .hours(1)  // true
/// try FixedDuration(iso8601: "PT5M")    // 5 minutes
/// ```
public struct FixedDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The length in milliseconds.
  public var milliseconds: Int64

  /// Creates a length from milliseconds.
  ///
  /// - Parameter milliseconds: The length in milliseconds; negative lengths are allowed in
  ///   arithmetic but rejected by ``Policy`` validation.
  public init(milliseconds: Int64) {
    self.milliseconds = milliseconds
  }

  /// No time at all.
  public static let zero = FixedDuration(milliseconds: 0)

  /// A length in milliseconds.
  public static func milliseconds(_ count: Int64) -> FixedDuration {
    FixedDuration(milliseconds: count)
  }

  /// A length in seconds.
  public static func seconds(_ count: Int64) -> FixedDuration {
    FixedDuration(milliseconds: count.multipliedSaturating(by: 1000))
  }

  /// A length in minutes.
  public static func minutes(_ count: Int64) -> FixedDuration {
    FixedDuration(milliseconds: count.multipliedSaturating(by: 60_000))
  }

  /// A length in hours.
  public static func hours(_ count: Int64) -> FixedDuration {
    FixedDuration(milliseconds: count.multipliedSaturating(by: 3_600_000))
  }

  /// A length in days of exactly 24 hours (not calendar days).
  public static func days(_ count: Int64) -> FixedDuration {
    FixedDuration(milliseconds: count.multipliedSaturating(by: 86_400_000))
  }

  /// The length in milliseconds, as `"5184000000 ms"`.
  public var description: String { "\(milliseconds) ms" }

  /// Orders lengths: the shorter first.
  public static func < (lhs: FixedDuration, rhs: FixedDuration) -> Bool {
    lhs.milliseconds < rhs.milliseconds
  }
}

extension Int64 {
  func multipliedSaturating(by factor: Int64) -> Int64 {
    let (product, overflow) = multipliedReportingOverflow(by: factor)
    if overflow { return (self < 0) == (factor < 0) ? .max : .min }
    return product
  }
}
