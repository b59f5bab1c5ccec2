extension JSONValue {
  /// The value as JSON text: numbers as written, strings escaped, members sorted by name (a
  /// value parsed keeps no order). The document reader reads Apple's documents from their
  /// bytes; a document already parsed (a scenario's) is written back for it.
  ///
  /// ```swift
  /// JSONValue.object(["b": .number("1"), "a": .string("x\n")]).bytes  // {"a":"x\n","b":1}
  /// ```
  package var bytes: [UInt8] {
    var output: [UInt8] = []
    write(to: &output)
    return output
  }

  private func write(to output: inout [UInt8]) {
    switch self {
    case .null: output += Array("null".utf8)
    case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
    case .number(let text): output += Array(text.utf8)
    case .string(let text): Self.write(text, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        element.write(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (position, (name, value)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        Self.write(name, to: &output)
        output.append(UInt8(ascii: ":"))
        value.write(to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// A string in quotes, `"`, `\` and control characters escaped.
  private static func write(_ text: String, to output: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        output += [UInt8(ascii: "\\"), byte]
      case 0..<0x20:
        output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default:
        output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
