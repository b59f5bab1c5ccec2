import Entitlements

/// Reads one JSON object of a scenario strictly: every key must be known, every value of the
/// expected type; the first problem is a ``ScenarioError`` naming the file and the key path.
struct StrictObject {
  let members: [String: JSONValue]
  let path: String
  let file: String

  init(_ value: JSONValue, path: String, file: String, allowed: Set<String>) throws(ScenarioError) {
    guard case .object(let members) = value else {
      throw ScenarioError(
        file: file, path: path.isEmpty ? "(top level)" : path,
        message: "expected an object, found \(value.kindDescription)")
    }
    self.members = members
    self.path = path
    self.file = file
    for key in members.keys.sorted() where !allowed.contains(key) {
      let suggestion = Self.nearest(key, in: allowed).map { " (did you mean \"\($0)\"?)" } ?? ""
      throw ScenarioError(file: file, path: at(key), message: "unknown key\(suggestion)")
    }
  }

  func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  func fail(_ key: String, _ message: String) -> ScenarioError {
    ScenarioError(file: file, path: at(key), message: message)
  }

  func has(_ key: String) -> Bool {
    if let value = members[key], value != .null { return true }
    return false
  }

  func value(_ key: String) -> JSONValue? {
    guard let value = members[key], value != .null else { return nil }
    return value
  }

  func string(_ key: String) throws(ScenarioError) -> String? {
    guard let value = value(key) else { return nil }
    guard case .string(let text) = value else {
      throw fail(key, "expected a string, found \(value.kindDescription)")
    }
    return text
  }

  func requiredString(_ key: String) throws(ScenarioError) -> String {
    guard let text = try string(key) else { throw fail(key, "required") }
    return text
  }

  func bool(_ key: String) throws(ScenarioError) -> Bool? {
    guard let value = value(key) else { return nil }
    guard case .bool(let flag) = value else {
      throw fail(key, "expected true or false, found \(value.kindDescription)")
    }
    return flag
  }

  func int(_ key: String) throws(ScenarioError) -> Int? {
    guard let value = value(key) else { return nil }
    guard case .number(let text) = value, let number = Int(text) else {
      throw fail(key, "expected an integer, found \(value.kindDescription)")
    }
    return number
  }

  func instant(_ key: String) throws(ScenarioError) -> Instant? {
    guard let value = value(key) else { return nil }
    switch value {
    case .string(let text):
      do { return try Instant(parsing: text) } catch { throw fail(key, error.description) }
    case .number(let text):
      guard let milliseconds = Int64(text) else {
        throw fail(key, "\(text) is not a millisecond timestamp")
      }
      return Instant(millisecondsSince1970: milliseconds)
    default:
      throw fail(key, "expected a date, found \(value.kindDescription)")
    }
  }

  /// A fixed length: an ISO 8601 duration (`P60D`, `PT5M`) or milliseconds.
  func fixedDuration(_ key: String) throws(ScenarioError) -> FixedDuration? {
    guard let value = value(key) else { return nil }
    switch value {
    case .string(let text):
      do { return try FixedDuration(iso8601: text) } catch { throw fail(key, error.description) }
    case .number(let text):
      guard let milliseconds = Int64(text), milliseconds >= 0 else {
        throw fail(key, "expected a non-negative number of milliseconds")
      }
      return .milliseconds(milliseconds)
    default:
      throw fail(key, "expected a duration, found \(value.kindDescription)")
    }
  }

  func array(_ key: String) throws(ScenarioError) -> [(JSONValue, String)]? {
    guard let value = value(key) else { return nil }
    guard case .array(let elements) = value else {
      throw fail(key, "expected an array, found \(value.kindDescription)")
    }
    return elements.enumerated().map { ($1, "\(at(key))[\($0)]") }
  }

  func oneOf<T: RawRepresentable>(_ key: String, _ type: T.Type) throws(ScenarioError) -> T?
  where T.RawValue == String, T: CaseIterable {
    guard let text = try string(key) else { return nil }
    guard let value = T(rawValue: text) else {
      let allowed = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw fail(key, "\"\(text)\" is not one of \(allowed)")
    }
    return value
  }

  /// An environment: the scenario format's `production` and `sandbox`, or any of Apple's
  /// spellings (``StoreEnvironment/init(appleName:)``).
  func environment(_ key: String) throws(ScenarioError) -> StoreEnvironment? {
    guard let text = try string(key) else { return nil }
    guard let value = StoreEnvironment(appleName: text) else {
      let allowed = StoreEnvironment.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw fail(key, "\"\(text)\" is not an environment (\"production\", \"sandbox\", \(allowed))")
    }
    return value
  }

  /// The allowed key closest to a typo, when it is close (edit distance ≤ 2).
  static func nearest(_ key: String, in allowed: Set<String>) -> String? {
    allowed.map { ($0, distance(key, $0)) }.filter { $0.1 <= 2 }
      .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
  }

  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where i <= a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...max(b.count, 1) where j <= b.count {
        current[j] = Swift.min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
