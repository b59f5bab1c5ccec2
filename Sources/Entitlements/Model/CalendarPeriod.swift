/// A calendar length: a count of days, weeks, months or years, as a product's duration (`P1M`).
///
/// Calendar periods are used only where SPEC §1 allows: to compute the coverage of a
/// non-renewing subscription (§6), in the Gregorian calendar in UTC, with end-of-month
/// clamping. Auto-renewable coverage never comes from a calendar period: it comes from
/// Apple's `expires_date` (§4).
///
/// The n-th period is computed from the anchor (anchor + n months), never by chaining one
/// month n times, so that a subscription anchored on Jan 31 ends on Feb 29, Mar 31, Apr 30.
///
/// ```swift
/// let month = try CalendarPeriod(iso8601: "P1M")
/// let jan31 = try Instant(parsing: "2024-01-31T10:00:00Z")
/// month.advance(jan31)               // 2024-02-29T10:00:00Z
/// month.advance(jan31, times: 3)     // 2024-04-30T10:00:00Z
/// ```
public struct CalendarPeriod: Hashable, Sendable, CustomStringConvertible {
  /// The unit of a calendar period.
  public enum Unit: String, Hashable, Sendable, CaseIterable {
    /// Calendar days (in UTC, always 24 hours).
    case day
    /// Weeks of seven days.
    case week
    /// Calendar months, clamped to the month's last day.
    case month
    /// Calendar years (Feb 29 clamps to Feb 28).
    case year
  }

  /// The unit.
  public var unit: Unit
  /// How many units, at least 1.
  public var count: Int

  /// Creates a calendar period.
  ///
  /// - Parameters:
  ///   - count: How many units; must be at least 1.
  ///   - unit: The unit.
  public init(_ count: Int, _ unit: Unit) {
    self.unit = unit
    self.count = count
  }

  /// Reads an ISO 8601 duration with one date unit: `P1W`, `P1M`, `P2M`, `P3M`, `P6M`, `P1Y`,
  /// `P3D`.
  ///
  /// - Parameter text: The duration as written in a catalog.
  /// - Throws: ``ValueError`` when the text is not a duration with exactly one of `D`, `W`,
  ///   `M`, `Y` and a positive count.
  public init(iso8601 text: String) throws(ValueError) {
    let parts = try ISO8601DurationParts(text)
    let units: [(Int64, Unit)] = [
      (parts.years, .year), (parts.months, .month), (parts.weeks, .week), (parts.days, .day),
    ]
    let present = units.filter { $0.0 != 0 }
    guard parts.timeMilliseconds == 0, present.count == 1, let only = present.first,
      only.0 > 0, only.0 <= 10_000
    else {
      throw ValueError(
        text: text,
        expected: "a calendar duration with one unit, like P1W, P1M, P3M or P1Y")
    }
    self.init(Int(only.0), only.1)
  }

  /// The ISO 8601 spelling, such as `P1M`.
  public var description: String {
    switch unit {
    case .day: "P\(count)D"
    case .week: "P\(count)W"
    case .month: "P\(count)M"
    case .year: "P\(count)Y"
    }
  }

  /// The instant `times` periods after `anchor`, computed from the anchor in UTC.
  ///
  /// Month and year arithmetic clamps to the last day of the target month: Jan 31 + 1 month
  /// is Feb 28, or Feb 29 in a leap year (SPEC §1).
  ///
  /// - Parameters:
  ///   - anchor: The start of the first period.
  ///   - times: How many periods to advance; 1 by default.
  /// - Returns: The end of the `times`-th period; ``Instant/distantFuture`` when it would not
  ///   be representable.
  /// - Complexity: O(1).
  public func advance(_ anchor: Instant, times: Int = 1) -> Instant {
    if anchor.isDistantFuture { return anchor }
    let steps = Int64(count).multipliedSaturating(by: Int64(times))
    switch unit {
    case .day: return anchor + .days(steps)
    case .week: return anchor + .days(steps.multipliedSaturating(by: 7))
    case .month: return Self.addMonths(steps, to: anchor)
    case .year: return Self.addMonths(steps.multipliedSaturating(by: 12), to: anchor)
    }
  }

  private static func addMonths(_ months: Int64, to anchor: Instant) -> Instant {
    guard abs(months) < 12 * 1_000_000 else { return months > 0 ? .distantFuture : .distantPast }
    var civil = CivilDateTime(utc: anchor)
    let monthIndex = civil.year * 12 + Int64(civil.month - 1) + months
    let year = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
    civil.year = year
    civil.month = Int(monthIndex - year * 12) + 1
    civil.day = min(civil.day, CivilDateTime.daysInMonth(civil.month, of: civil.year))
    return civil.utcInstant ?? (months > 0 ? .distantFuture : .distantPast)
  }
}
