/// Text output's defence against its input: control characters from a document, a scenario or
/// a file (a key holding a newline, an ESC sequence in a name) are written as `\u001b`, so that
/// no input can forge a line of output or hide one. JSON output escapes them by JSON's rules.
///
/// ```swift
/// ControlCharacters.escaped("fake\nverified  x")  // "fake\\u000averified  x"
/// ```
package enum ControlCharacters {
  /// `text` with every control character (C0, DEL, C1), line and paragraph separator and
  /// bidirectional override written as `\uXXXX`; `text` itself, not copied, when it has none.
  package static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isEscaped) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if isEscaped(scalar) {
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether a scalar is written escaped.
  private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x2028, 0x2029: true  // line and paragraph separators
    case 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional overrides and isolates
    case 0x200E, 0x200F, 0x061C: true  // bidirectional marks
    default: false
    }
  }
}
