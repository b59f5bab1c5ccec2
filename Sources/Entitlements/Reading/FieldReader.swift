/// Reads Apple's fields from one JSON object, tolerantly: dates in every spelling of SPEC §1
/// (`X_ms` wins over `X`), numbers and booleans as strings or native values. A field present
/// but unreadable becomes a ``Diagnostic`` with its JSON path and the reason, and reads as
/// absent; nothing traps.
struct FieldReader {
  let members: [String: JSONValue]
  let path: String
  var transactionID: TransactionID?
  var diagnostics: [Diagnostic] = []

  init(_ members: [String: JSONValue], path: String) {
    self.members = members
    self.path = path
  }

  func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  mutating func report(_ key: String, _ message: String) {
    diagnostics.append(
      Diagnostic(
        .unreadableField, transactionID: transactionID, field: fieldPath(key), message: message))
  }

  /// A string, or a number's text (ids sometimes arrive as numbers).
  mutating func string(_ key: String) -> String? {
    switch members[key] {
    case nil, .null: return nil
    case .string(let text): return text
    case .number(let text): return text
    case .some(let other):
      report(key, "expected a string, found \(other.kindDescription)")
      return nil
    }
  }

  /// An integer written as a number or a numeric string.
  mutating func int(_ key: String) -> Int? {
    guard let value = members[key], value != .null else { return nil }
    let text: String
    switch value {
    case .string(let string): text = string
    case .number(let number): text = number
    default:
      report(key, "expected an integer, found \(value.kindDescription)")
      return nil
    }
    guard let integer = Int(text) else {
      report(key, "\"\(text.prefix(40))\" is not an integer")
      return nil
    }
    return integer
  }

  /// `true`/`false`, `"true"`/`"false"`, `"1"`/`"0"`, `1`/`0`.
  mutating func bool(_ key: String) -> Bool? {
    guard let value = members[key], value != .null else { return nil }
    switch value {
    case .bool(let flag): return flag
    case .string("true"), .string("1"), .number("1"): return true
    case .string("false"), .string("0"), .number("0"): return false
    default:
      report(key, "expected a boolean (true, false, \"1\", \"0\"), found \(describe(value))")
      return nil
    }
  }

  /// A date: `key_ms` when present (milliseconds), else `key` in any spelling.
  mutating func instant(_ key: String, millisecondsKey: String? = nil) -> Instant? {
    if let millisecondsKey, let value = members[millisecondsKey], value != .null {
      if let instant = instant(from: value, key: millisecondsKey) { return instant }
    }
    guard let value = members[key], value != .null else { return nil }
    return instant(from: value, key: key)
  }

  private mutating func instant(from value: JSONValue, key: String) -> Instant? {
    switch value {
    case .number(let text):
      if let milliseconds = Self.milliseconds(text) {
        return Instant(millisecondsSince1970: milliseconds)
      }
      report(key, "\(text.prefix(40)) is not a millisecond timestamp in range")
      return nil
    case .string(let text):
      if let milliseconds = Self.milliseconds(text) {
        return Instant(millisecondsSince1970: milliseconds)
      }
      do {
        return try Instant(parsing: text)
      } catch {
        report(key, error.description)
        return nil
      }
    default:
      report(key, "expected a date, found \(value.kindDescription)")
      return nil
    }
  }

  /// Milliseconds from a JSON number's text; fractions (Xcode's test payloads) are truncated,
  /// as Apple's libraries do. `nil` for anything else or out of range.
  static func milliseconds(_ text: String) -> Int64? {
    if let whole = Int64(text) { return whole }
    guard text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }),
      let value = Double(text), value.isFinite, abs(value) < 9.2e18
    else { return nil }
    return Int64(value.rounded(.towardZero))
  }

  private func describe(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): "\"\(text.prefix(40))\""
    case .number(let text): String(text.prefix(40))
    default: value.kindDescription
    }
  }
}
