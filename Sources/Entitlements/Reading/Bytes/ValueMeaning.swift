/// What one of Apple's values means when it is not in Apple's usual shape: the tolerant
/// readings of SPEC §1 and §3, on the value parsed. Each gives the value, or why it cannot be
/// used (the message of a ``Diagnostic``); `null` is absent, with no message.
///
/// The reader takes Apple's usual shapes straight from the bytes (``SchemaReader``) and
/// comes here for any other; both give one answer for every value (tested on each shape).
///
/// ```swift
/// ValueMeaning.flag(.string("1"))        // (true, nil)
/// ValueMeaning.integer(.number("1.5"))   // (nil, "\"1.5\" is not an integer")
/// ```
enum ValueMeaning {
  /// A value, or why there is none.
  typealias Meaning<Value> = (value: Value?, problem: String?)

  /// A string, or a number's text (ids sometimes arrive as numbers).
  static func string(_ value: JSONValue) -> Meaning<String> {
    switch value {
    case .null: (nil, nil)
    case .string(let text): (text, nil)
    case .number(let text): (text, nil)
    default: (nil, "expected a string, found \(value.kindDescription)")
    }
  }

  /// An integer written as a number or a numeric string.
  static func integer(_ value: JSONValue) -> Meaning<Int> {
    let text: String
    switch value {
    case .null: return (nil, nil)
    case .string(let string): text = string
    case .number(let number): text = number
    default: return (nil, "expected an integer, found \(value.kindDescription)")
    }
    guard let integer = Int(text) else { return (nil, "\"\(text.prefix(40))\" is not an integer") }
    return (integer, nil)
  }

  /// `true`/`false`, `"true"`/`"false"`, `"1"`/`"0"`, `1`/`0`.
  static func flag(_ value: JSONValue) -> Meaning<Bool> {
    switch value {
    case .null: (nil, nil)
    case .bool(let flag): (flag, nil)
    case .string("true"), .string("1"), .number("1"): (true, nil)
    case .string("false"), .string("0"), .number("0"): (false, nil)
    default:
      (nil, "expected a boolean (true, false, \"1\", \"0\"), found \(describe(value))")
    }
  }

  /// A date: milliseconds since 1970 as a number or a string, or a date's text in any
  /// spelling of SPEC §1.
  static func instant(_ value: JSONValue) -> Meaning<Instant> {
    switch value {
    case .null: return (nil, nil)
    case .number(let text):
      if let milliseconds = milliseconds(text) {
        return (Instant(millisecondsSince1970: milliseconds), nil)
      }
      return (nil, "\(text.prefix(40)) is not a millisecond timestamp in range")
    case .string(let text): return instant(text: text)
    default: return (nil, "expected a date, found \(value.kindDescription)")
    }
  }

  /// A date's text: milliseconds, or a date in any spelling of SPEC §1.
  static func instant(text: String) -> Meaning<Instant> {
    if let milliseconds = milliseconds(text) {
      return (Instant(millisecondsSince1970: milliseconds), nil)
    }
    do {
      return (try Instant(parsing: text), nil)
    } catch {
      return (nil, error.description)
    }
  }

  /// Milliseconds from a number's text; fractions (Xcode's test payloads) are truncated, as
  /// Apple's libraries do. `nil` for anything else or out of range.
  static func milliseconds(_ text: String) -> Int64? {
    if let whole = Int64(text) { return whole }
    guard text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }),
      let value = Double(text), value.isFinite, abs(value) < 9.2e18
    else { return nil }
    return Int64(value.rounded(.towardZero))
  }

  /// A value as a message names it: a short text or number as written, else its kind.
  private static func describe(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): "\"\(text.prefix(40))\""
    case .number(let text): String(text.prefix(40))
    default: value.kindDescription
    }
  }
}
