/// A member name that appears a second time in one JSON object, as reported by
/// ``JSONValue/init(parsing:repeatedKeys:)``.
///
/// JSON (RFC 8259) leaves repeated names to the reader; Apple's documents are read keeping the
/// last value, while a scenario file written by a person treats one as a mistake.
///
/// ```swift
/// // {"name": "a", "name": "b"}
/// repeated.first?.path    // "name"
/// repeated.first?.offset  // 14: the second "name"
/// ```
package struct JSONRepeatedKey: Hashable, Sendable {
  /// The JSON path of the repeated member (`expect[4].at`).
  package var path: String
  /// The byte offset, from 0, of the second occurrence of the name.
  package var offset: Int

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - path: The JSON path of the member.
  ///   - offset: The byte offset of its second name.
  package init(path: String, offset: Int) {
    self.path = path
    self.offset = offset
  }
}
