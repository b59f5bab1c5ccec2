/// The components of an ISO 8601 duration such as `P1M`, `P60D` or `PT5M30.5S`.
///
/// Shared by ``CalendarPeriod`` (which accepts date units only) and ``FixedDuration`` (which
/// accepts weeks, days and time units, days being 24 hours).
struct ISO8601DurationParts: Equatable {
  var years: Int64 = 0
  var months: Int64 = 0
  var weeks: Int64 = 0
  var days: Int64 = 0
  var timeMilliseconds: Int64 = 0

  init(_ text: String) throws(ValueError) {
    let failure = ValueError(text: text, expected: "an ISO 8601 duration such as P1M or PT5M")
    var bytes = Array(text.utf8)[...]
    guard bytes.popFirst() == UInt8(ascii: "P"), !bytes.isEmpty else { throw failure }
    var inTime = false
    var sawComponent = false
    while let first = bytes.first {
      if first == UInt8(ascii: "T") {
        guard !inTime else { throw failure }
        inTime = true
        bytes.removeFirst()
        continue
      }
      var whole: Int64 = 0
      var digits = 0
      while let digit = bytes.first, digit >= 48, digit <= 57 {
        guard digits < 12 else { throw failure }
        whole = whole * 10 + Int64(digit - 48)
        digits += 1
        bytes.removeFirst()
      }
      var fractionMilliseconds: Int64 = 0
      if bytes.first == UInt8(ascii: ".") || bytes.first == UInt8(ascii: ",") {
        bytes.removeFirst()
        var scale: Int64 = 100
        var fractionDigits = 0
        while let digit = bytes.first, digit >= 48, digit <= 57 {
          fractionMilliseconds += Int64(digit - 48) * scale
          scale /= 10
          fractionDigits += 1
          bytes.removeFirst()
        }
        guard fractionDigits > 0 else { throw failure }
      }
      guard digits > 0, let designator = bytes.popFirst() else { throw failure }
      let hasFraction = fractionMilliseconds != 0
      switch (inTime, designator) {
      case (false, UInt8(ascii: "Y")) where !hasFraction: years = whole
      case (false, UInt8(ascii: "M")) where !hasFraction: months = whole
      case (false, UInt8(ascii: "W")) where !hasFraction: weeks = whole
      case (false, UInt8(ascii: "D")) where !hasFraction: days = whole
      case (true, UInt8(ascii: "H")) where !hasFraction:
        timeMilliseconds += whole * 3_600_000
      case (true, UInt8(ascii: "M")) where !hasFraction:
        timeMilliseconds += whole * 60_000
      case (true, UInt8(ascii: "S")):
        timeMilliseconds += whole * 1000 + fractionMilliseconds
      default: throw failure
      }
      sawComponent = true
    }
    guard sawComponent else { throw failure }
  }
}
