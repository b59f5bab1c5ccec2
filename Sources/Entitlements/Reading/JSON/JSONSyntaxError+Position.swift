extension JSONSyntaxError {
  /// The line and column of ``offset`` in the document, both from 1, as an editor shows them:
  /// lines end at `\n` (a `\r\n` counts once) and columns count characters (Unicode scalars),
  /// not bytes.
  ///
  /// ```swift
  /// let bytes = Array("{\n  \"a\": tru\n}".utf8)
  /// do { _ = try JSONValue(parsing: bytes) } catch {
  ///   error.offset                // 9
  ///   error.position(in: bytes)   // (line: 2, column: 8)
  /// }
  /// ```
  ///
  /// - Parameter document: The bytes that were read.
  /// - Returns: The line and column; past the end, the position just after the last byte.
  /// - Complexity: O(offset).
  public func position(in document: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for byte in document.prefix(max(offset, 0)) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80, byte != UInt8(ascii: "\r") {
        // Continuation bytes of UTF-8 belong to the character already counted.
        column += 1
      }
    }
    return (line, column)
  }
}
