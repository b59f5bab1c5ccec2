/// The US Pacific time zone (`America/Los_Angeles`), written out.
///
/// Apple's receipts spell some dates as Pacific wall-clock time (`purchase_date_pst`,
/// `2017-02-20 00:00:00 America/Los_Angeles`). `FoundationEssentials` has no named time zones,
/// so the rule is written here (DESIGN.md, "Pacific-time spellings"):
///
/// - standard time is UTC−8, daylight time UTC−7;
/// - from 2007: daylight time from the second Sunday of March, 02:00 standard time, to the
///   first Sunday of November, 02:00 daylight time;
/// - 1987–2006: first Sunday of April to last Sunday of October;
/// - before 1987: last Sunday of April to last Sunday of October (the 1974–75 energy-crisis
///   years are not modelled; no App Store receipt predates 2008).
///
/// A wall-clock time that occurs twice (01:00–02:00 on the day daylight time ends) is read as
/// the first occurrence, daylight time. A wall-clock time that does not occur (02:00–03:00 on
/// the day daylight time starts) is read with the standard-time offset.
enum PacificTime {
  static let standardOffset = FixedDuration.hours(-8)
  static let daylightOffset = FixedDuration.hours(-7)

  /// The UTC instant of a Pacific wall-clock time.
  static func instant(wallClock civil: CivilDateTime) -> Instant? {
    guard let asUTC = civil.utcInstant else { return nil }
    let (start, end) = daylightBounds(year: civil.year)
    // Wall clock jumps from 02:00 to 03:00 when daylight time starts, and falls back from
    // 02:00 to 01:00 when it ends; 01:00-02:00 that day is read as daylight time.
    let isDaylight = asUTC >= start + .hours(3) && asUTC < end + .hours(2)
    let offset = isDaylight ? daylightOffset : standardOffset
    return asUTC - offset
  }

  /// Midnight (as a UTC-labelled wall clock) of the first and last day of daylight time.
  private static func daylightBounds(year: Int64) -> (Instant, Instant) {
    if year >= 2007 {
      return (nthSunday(2, month: 3, year: year), nthSunday(1, month: 11, year: year))
    } else if year >= 1987 {
      return (nthSunday(1, month: 4, year: year), lastSunday(month: 10, year: year))
    } else {
      return (lastSunday(month: 4, year: year), lastSunday(month: 10, year: year))
    }
  }

  private static func nthSunday(_ n: Int, month: Int, year: Int64) -> Instant {
    let first = CivilDateTime.daysSinceEpoch(year: year, month: month, day: 1)
    let weekday = CivilDateTime.weekday(daysSinceEpoch: first)
    let firstSunday = first + Int64((7 - weekday) % 7)
    return Instant(millisecondsSince1970: 0) + .days(firstSunday + Int64(7 * (n - 1)))
  }

  private static func lastSunday(month: Int, year: Int64) -> Instant {
    let last = CivilDateTime.daysSinceEpoch(
      year: year, month: month, day: CivilDateTime.daysInMonth(month, of: year))
    let weekday = CivilDateTime.weekday(daysSinceEpoch: last)
    return Instant(millisecondsSince1970: 0) + .days(last - Int64(weekday))
  }
}
