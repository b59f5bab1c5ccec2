/// A date and time of day in the proleptic Gregorian calendar, without a time zone.
///
/// The library's only calendar. It is written out here, rather than taken from `Calendar`, so
/// that no ambient calendar, locale or time zone can reach a rule (DESIGN.md, "No ambient
/// state"), and so that the library needs only `FoundationEssentials`.
struct CivilDateTime: Hashable, Sendable {
  var year: Int64
  var month: Int  // 1...12
  var day: Int  // 1...31
  var millisecondOfDay: Int64  // 0..<86_400_000

  static let millisecondsPerDay: Int64 = 86_400_000

  /// Whether `year` is a leap year in the Gregorian calendar.
  static func isLeapYear(_ year: Int64) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  /// The number of days in `month` of `year`.
  static func daysInMonth(_ month: Int, of year: Int64) -> Int {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a civil date (era-based computation over 400-year cycles).
  static func daysSinceEpoch(year: Int64, month: Int, day: Int) -> Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The civil date of a count of days since 1970-01-01.
  static func date(daysSinceEpoch days: Int64) -> (year: Int64, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
    let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  /// The day of the week, 0 = Sunday … 6 = Saturday.
  static func weekday(daysSinceEpoch days: Int64) -> Int {
    // 1970-01-01 was a Thursday (4).
    Int(((days % 7) + 7 + 4) % 7)
  }

  init(year: Int64, month: Int, day: Int, millisecondOfDay: Int64) {
    self.year = year
    self.month = month
    self.day = day
    self.millisecondOfDay = millisecondOfDay
  }

  /// The UTC civil date and time of an instant.
  init(utc instant: Instant) {
    let milliseconds = instant.millisecondsSince1970
    var days = milliseconds / Self.millisecondsPerDay
    var remainder = milliseconds % Self.millisecondsPerDay
    if remainder < 0 {
      days -= 1
      remainder += Self.millisecondsPerDay
    }
    let date = Self.date(daysSinceEpoch: days)
    self.init(year: date.year, month: date.month, day: date.day, millisecondOfDay: remainder)
  }

  /// The instant at which UTC shows this date and time; `nil` past the range of ``Instant``.
  var utcInstant: Instant? {
    let days = Self.daysSinceEpoch(year: year, month: month, day: day)
    let (dayMilliseconds, overflow) = days.multipliedReportingOverflow(
      by: Self.millisecondsPerDay)
    if overflow { return nil }
    let (total, overflow2) = dayMilliseconds.addingReportingOverflow(millisecondOfDay)
    if overflow2 { return nil }
    return Instant(millisecondsSince1970: total)
  }
}
