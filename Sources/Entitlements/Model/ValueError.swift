/// A value that could not be read: a date, a duration or a flag in an unexpected spelling.
///
/// Readers wrap it with where the value came from (file, JSON path, transaction id); the value
/// itself only knows what it was given and what it expected.
///
/// ```swift
/// do { _ = try Instant(parsing: "20 Feb 2017") } catch {
///   error.description  // "\"20 Feb 2017\" is not a date: expected RFC 3339, …"
/// }
/// ```
public struct ValueError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text that could not be read.
  public var text: String
  /// What the reader expected instead.
  public var expected: String

  /// Creates a value error.
  ///
  /// - Parameters:
  ///   - text: The text that could not be read.
  ///   - expected: What was expected, in words.
  public init(text: String, expected: String) {
    self.text = text
    self.expected = expected
  }

  /// The text and what was expected, in one line.
  public var description: String {
    "\"\(text.prefix(80))\" is not \(expected)"
  }
}
