/// A JSON document as read by ``JSONValue/init(parsing:)``: the reading layer's view of
/// Apple's bytes, before any field is interpreted.
///
/// Numbers keep their text (`"1487577600000"`, `"1697679936049.7297"`), so a millisecond
/// timestamp never passes through a `Double` unless it has a fraction, and a huge number is a
/// readable field error instead of a silent rounding.
///
/// ```swift
/// let value = try JSONValue(parsing: Array(#"{"status": 0}"#.utf8))
/// value["status"]   // .number("0")
/// ```
package indirect enum JSONValue: Hashable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, as written.
  case number(String)
  /// A string, unescaped.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object. When a key appears twice, the last value is kept, as most readers do.
  case object([String: JSONValue])

  /// The member of an object, or `nil`.
  package subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// The element of an array, or `nil`.
  package subscript(index: Int) -> JSONValue? {
    if case .array(let elements) = self, elements.indices.contains(index) {
      return elements[index]
    }
    return nil
  }

  /// The name of the JSON type, for messages: `"a string"`, `"an object"`.
  package var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// A document that is not JSON, with the byte offset where reading stopped.
///
/// ```swift
/// do { _ = try JSONValue(parsing: Array(#"{"a": tru}"#.utf8)) } catch {
///   error.offset   // 6
/// }
/// ```
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The byte offset, from 0, at which the document stopped being JSON.
  public var offset: Int
  /// What was expected there.
  public var message: String

  /// Creates a syntax error.
  ///
  /// - Parameters:
  ///   - offset: The byte offset.
  ///   - message: What was expected there.
  public init(offset: Int, message: String) {
    self.offset = offset
    self.message = message
  }

  /// "at byte 6: expected a value".
  public var description: String { "at byte \(offset): \(message)" }
}
