import Entitlements

/// Dates and lengths as the timeline writes them: short, in UTC, at the axis's scale ("Feb
/// 20", "13:05"), never with a locale or time zone of the machine.
///
/// ```swift
/// let date = TimelineDateFormat(try Instant(parsing: "2017-02-20T08:00:00Z"))
/// date.day        // "Feb 20"
/// date.full       // "Feb 20, 2017 08:00 UTC"
/// TimelineDateFormat.duration(.days(58))  // "58 days"
/// ```
struct TimelineDateFormat {
  var year: Int
  var month: Int
  var dayOfMonth: Int
  var hour: Int
  var minute: Int
  var second: Int

  static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// Reads the parts from the instant's RFC 3339 text (UTC), the library's one calendar.
  init(_ instant: Instant) {
    // "2017-02-20T08:00:00Z" or "2017-02-20T08:00:00.123Z".
    let text = Array(instant.description.utf8)
    func number(_ range: Range<Int>) -> Int {
      guard range.upperBound <= text.count else { return 0 }
      return text[range].reduce(0) { value, byte in
        byte >= 0x30 && byte <= 0x39 ? value * 10 + Int(byte - 0x30) : value
      }
    }
    year = number(0..<4)
    month = min(max(number(5..<7), 1), 12)
    dayOfMonth = number(8..<10)
    hour = number(11..<13)
    minute = number(14..<16)
    second = number(17..<19)
  }

  var monthName: String { Self.monthNames[month - 1] }
  /// "2017".
  var yearText: String { String(year) }
  /// "Feb".
  var monthText: String { monthName }
  /// "Feb 2017".
  var monthYear: String { "\(monthName) \(year)" }
  /// "Feb 20".
  var day: String { "\(monthName) \(dayOfMonth)" }
  /// "Feb 20, 2017".
  var dayYear: String { "\(monthName) \(dayOfMonth), \(year)" }
  /// "08:00": hours and minutes (a label; the tooltip has the seconds).
  var time: String { "\(Self.two(hour)):\(Self.two(minute))" }
  /// "08:00", or "08:00:05" when the seconds are not zero.
  var preciseTime: String { second == 0 ? time : timeWithSeconds }
  /// "08:00:05".
  var timeWithSeconds: String { "\(Self.two(hour)):\(Self.two(minute)):\(Self.two(second))" }
  /// Whether the instant is at midnight, UTC, to the second.
  var isMidnight: Bool { hour == 0 && minute == 0 && second == 0 }
  /// "Feb 20, 2017 08:00 UTC", or "Feb 20, 2017" at midnight: for tooltips.
  var full: String { isMidnight ? dayYear : "\(dayYear) \(preciseTime) UTC" }

  /// The same date at increasing abbreviation, for a label that must fit: with the time when
  /// the axis shows hours or the instant is not at midnight, with the year when the picture
  /// spans more than one.
  ///
  /// - Parameters:
  ///   - detail: What the axis shows around the instant.
  ///   - showsYear: Whether the picture spans several years.
  /// - Returns: The texts, longest first.
  func labels(detail: Detail, showsYear: Bool) -> [String] {
    switch detail {
    case .seconds:
      return (showsYear ? ["\(dayYear) \(timeWithSeconds)"] : [])
        + ["\(day) \(timeWithSeconds)", timeWithSeconds]
    case .minutes:
      return (showsYear ? ["\(dayYear) \(time)"] : []) + ["\(day) \(time)", time]
    case .days:
      return (showsYear ? [dayYear] : []) + [day]
    case .months: return [showsYear ? dayYear : day, day]
    }
  }

  /// What an axis shows, from its scale.
  enum Detail: Comparable {
    case seconds
    case minutes
    case days
    case months
  }

  /// The detail of dates in a picture: hours and minutes when an hour is at least 40 pixels
  /// or the shortest period lasts less than a day (a sandbox history, whose days the axis
  /// writes), seconds when a minute is 40 pixels or a period lasts less than a minute.
  ///
  /// - Parameters:
  ///   - millisecondsPerPixel: The scale.
  ///   - shortest: The shortest period drawn, in milliseconds.
  /// - Returns: The detail.
  static func detail(millisecondsPerPixel: Double, shortest: Double? = nil) -> Detail {
    let pixelsPerMinute = 60_000 / millisecondsPerPixel
    let shortest = shortest ?? .infinity
    if pixelsPerMinute >= 40 || shortest < 60_000 { return .seconds }
    if pixelsPerMinute * 60 >= 40 || shortest < 86_400_000 { return .minutes }
    if pixelsPerMinute * 60 * 24 * 30 >= 40 { return .days }
    return .months
  }

  /// A length for people: "58 days", "1 day", "5 h", "25 min", "18 s".
  static func duration(_ length: FixedDuration) -> String {
    let milliseconds = length.milliseconds
    let minute: Int64 = 60_000
    let hour = 60 * minute
    let day = 24 * hour
    switch milliseconds {
    case (730 * day)...: return "\(Int((Double(milliseconds) / Double(365 * day)).rounded())) years"
    case (2 * day)...: return "\(Int((Double(milliseconds) / Double(day)).rounded())) days"
    case day...: return "1 day"
    case (2 * hour)...: return "\(Int((Double(milliseconds) / Double(hour)).rounded())) h"
    case minute...: return "\(Int((Double(milliseconds) / Double(minute)).rounded())) min"
    default: return "\(max(Int(milliseconds / 1000), 0)) s"
    }
  }

  private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
