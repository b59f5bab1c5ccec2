extension JSONValue {
  /// Parses a whole document for a reader: a syntax error becomes
  /// ``ReadError/malformedJSON(_:)`` with its byte offset.
  static func document(_ bytes: [UInt8]) throws(ReadError) -> JSONValue {
    do { return try JSONValue(parsing: bytes) } catch { throw .malformedJSON(error) }
  }

  /// The members of a document (or part of one) that must be an object; anything else is
  /// ``ReadError/unexpectedShape(path:expected:found:)`` at `path`.
  func documentObject(at path: String) throws(ReadError) -> [String: JSONValue] {
    guard case .object(let members) = self else {
      throw .unexpectedShape(
        path: path.isEmpty ? "(document)" : path, expected: "an object", found: kindDescription)
    }
    return members
  }
}
