import Entitlements

extension JSONValue {
  /// The value as JSON text, object keys sorted, so that the same value always gives the same
  /// bytes (for `entitlements explain --json` and golden tests).
  ///
  /// ```swift
  /// JSONValue.object(["b": .bool(true), "a": .null]).jsonText()  // {"a":null,"b":true}
  /// ```
  ///
  /// - Parameter indent: Spaces per level; 0 for one line.
  /// - Returns: The JSON text.
  package func jsonText(indent: Int = 0) -> String {
    var output = ""
    write(to: &output, indent: indent, level: 0)
    return output
  }

  private func write(to output: inout String, indent: Int, level: Int) {
    let newline = indent > 0 ? "\n" : ""
    let pad = String(repeating: " ", count: indent * (level + 1))
    let closePad = String(repeating: " ", count: indent * level)
    switch self {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .number(let text): output += text
    case .string(let text): output += Self.quoted(text)
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "[]"
        return
      }
      output += "[" + newline
      for (index, element) in elements.enumerated() {
        output += pad
        element.write(to: &output, indent: indent, level: level + 1)
        output += (index < elements.count - 1 ? "," : "") + newline
      }
      output += closePad + "]"
    case .object(let members):
      guard !members.isEmpty else {
        output += "{}"
        return
      }
      output += "{" + newline
      let keys = members.keys.sorted()
      for (index, key) in keys.enumerated() {
        output += pad + Self.quoted(key) + (indent > 0 ? ": " : ":")
        members[key]?.write(to: &output, indent: indent, level: level + 1)
        output += (index < keys.count - 1 ? "," : "") + newline
      }
      output += closePad + "}"
    }
  }

  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case let control where control.value < 0x20:
        let hex = String(control.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
