extension JSONValue {
  /// The deepest nesting read; deeper documents are refused rather than exhausting the stack.
  package static let maximumDepth = 256

  /// Reads a JSON document (RFC 8259) from UTF-8 bytes.
  ///
  /// Strict where it matters for safety: invalid UTF-8, unpaired surrogates, trailing commas,
  /// control characters in strings, leading zeros and nesting deeper than ``maximumDepth``
  /// are errors naming the byte offset. It never traps, whatever the bytes.
  ///
  /// ```swift
  /// try JSONValue(parsing: Array(#"[1, "a"]"#.utf8))  // .array([.number("1"), .string("a")])
  /// ```
  ///
  /// - Parameter bytes: The document.
  /// - Throws: ``JSONSyntaxError`` with the byte offset.
  /// - Complexity: O(n).
  package init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
    self = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
      var parser = JSONParser(bytes: buffer)
      return try parser.document()
    }
  }

  /// Reads a JSON document like ``init(parsing:)`` and also reports every member name that
  /// appears twice in one object, for documents written by people (scenario files), where a
  /// repeated key is a mistake. The value keeps the last member, as ``init(parsing:)`` does;
  /// Apple's documents are read with ``init(parsing:)``, which does not look.
  ///
  /// ```swift
  /// var repeated: [JSONRepeatedKey] = []
  /// _ = try JSONValue(parsing: Array(#"{"a": [{"b": 1, "b": 2}]}"#.utf8), repeatedKeys: &repeated)
  /// repeated.map(\.path)  // ["a[0].b"]
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The document.
  ///   - repeatedKeys: Receives the repeated names, in document order.
  /// - Throws: ``JSONSyntaxError`` with the byte offset.
  /// - Complexity: O(n), plus the length of the path at each repeated name.
  package init(parsing bytes: [UInt8], repeatedKeys: inout [JSONRepeatedKey])
    throws(JSONSyntaxError)
  {
    let (value, repeated) = try bytes.withUnsafeBufferPointer {
      buffer throws(JSONSyntaxError) in
      var parser = JSONParser(bytes: buffer)
      parser.path = []
      return (try parser.document(), parser.repeatedKeys)
    }
    repeatedKeys += repeated
    self = value
  }

  /// The first syntax error of the document `bytes`, as ``init(parsing:)`` would throw it;
  /// `nil` for a valid document. The document reader asks it for the exact offset and words of
  /// an error it meets, so that its errors are this parser's.
  ///
  /// - Complexity: O(n).
  static func syntaxError(in bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? {
    var parser = JSONParser(bytes: bytes)
    do {
      _ = try parser.document()
      return nil
    } catch {
      return error
    }
  }

  /// Reads the JSON value that begins at `index` of `bytes` (whitespace before it allowed),
  /// nested in `depth` containers, and moves `index` past it: one value of a document the
  /// document reader reads from its bytes, where that reader meets an unusual one.
  ///
  /// - Throws: ``JSONSyntaxError`` with the offset in `bytes`.
  static func value(
    in bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, depth: Int
  ) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    parser.index = index
    parser.skipWhitespace()
    let value = try parser.value(depth: depth)
    index = parser.index
    return value
  }

  /// Reads the JSON string whose opening quote is at `index` of `bytes`, escapes decoded and
  /// its UTF-8 checked, and moves `index` past its closing quote.
  ///
  /// - Throws: ``JSONSyntaxError`` with the offset in `bytes`.
  static func string(
    in bytes: UnsafeBufferPointer<UInt8>, at index: inout Int
  ) throws(JSONSyntaxError) -> String {
    var parser = JSONParser(bytes: bytes)
    parser.index = index
    let text = try parser.string()
    index = parser.index
    return text
  }
}

private struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  /// The members and elements being read, when repeated keys are reported; `nil` otherwise,
  /// so that Apple's documents pay nothing for it.
  var path: [PathComponent]?
  var repeatedKeys: [JSONRepeatedKey] = []

  enum PathComponent {
    case member(String)
    case element(Int)
  }

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// A whole document: one value, whitespace around it, nothing after it.
  mutating func document() throws(JSONSyntaxError) -> JSONValue {
    skipWhitespace()
    let value = try value(depth: 0)
    skipWhitespace()
    guard index == bytes.count else {
      throw fail("unexpected data after the document")
    }
    return value
  }

  /// "expect[4].at": the path of the member `key` of the object being read.
  func pathText(appending key: String) -> String {
    var text = ""
    for component in path ?? [] {
      switch component {
      case .member(let name): text += text.isEmpty ? name : ".\(name)"
      case .element(let position): text += "[\(position)]"
      }
    }
    return text.isEmpty ? key : "\(text).\(key)"
  }

  func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
    JSONSyntaxError(offset: offset ?? index, message: message)
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard depth < JSONValue.maximumDepth else {
      throw fail("nesting deeper than \(JSONValue.maximumDepth)")
    }
    guard index < bytes.count else { throw fail("expected a value, found the end") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw fail("expected a value")
    }
  }

  mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONSyntaxError)
    -> JSONValue
  {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw fail("expected \(word)") }
    let matches = word.withUTF8Buffer { expected in
      (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
    }
    guard matches else { throw fail("expected \(word)") }
    index += count
    return value
  }

  mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw fail("expected a member name in quotes")
      }
      let keyOffset = index
      let key = try string()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw fail("expected ':' after a member name")
      }
      index += 1
      skipWhitespace()
      if path != nil {
        if members[key] != nil {
          repeatedKeys.append(JSONRepeatedKey(path: pathText(appending: key), offset: keyOffset))
        }
        path?.append(.member(key))
        members[key] = try value(depth: depth + 1)
        path?.removeLast()
      } else {
        members[key] = try value(depth: depth + 1)
      }
      skipWhitespace()
      guard index < bytes.count else { throw fail("expected ',' or '}', found the end") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
      index += 1
      return .object(members)
    }
  }

  mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      if path != nil {
        path?.append(.element(elements.count))
        elements.append(try value(depth: depth + 1))
        path?.removeLast()
      } else {
        elements.append(try value(depth: depth + 1))
      }
      skipWhitespace()
      guard index < bytes.count else { throw fail("expected ',' or ']', found the end") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
      index += 1
      return .array(elements)
    }
  }

  mutating func number() throws(JSONSyntaxError) -> JSONValue {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) {
        throw fail("a number may not start with 0")
      }
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw fail("expected a digit after '.'")
      }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw fail("expected a digit in the exponent")
      }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    return .number(
      String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
  }

  func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  mutating func string() throws(JSONSyntaxError) -> String {
    let open = index
    index += 1
    let start = index
    // Fast path: no escapes.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if let invalid = Self.firstInvalidUTF8(in: text) {
          throw fail("invalid UTF-8 in a string", at: start + invalid)
        }
        index += 1
        return String(decoding: text, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw fail("control character in a string") }
      index += 1
    }
    guard index < bytes.count else { throw fail("unterminated string", at: open) }
    var scalars: [UInt8] = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        if Self.firstInvalidUTF8(in: scalars) != nil {
          // The offset in the document: escapes decode to valid UTF-8, so the first invalid
          // byte is one written as is.
          let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
          throw fail("invalid UTF-8 in a string", at: start + (Self.firstInvalidRaw(in: text)))
        }
        index += 1
        return String(decoding: scalars, as: UTF8.self)
      case UInt8(ascii: "\\"):
        index += 1
        guard index < bytes.count else { throw fail("unterminated escape") }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "u"):
          let scalar = try unicodeEscape()
          scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
        default: throw fail("unknown escape", at: index - 1)
        }
      default:
        if byte < 0x20 { throw fail("control character in a string") }
        scalars.append(byte)
        index += 1
      }
    }
    throw fail("unterminated string", at: open)
  }

  /// Reads the `XXXX` of `\uXXXX` (and a following low surrogate when needed).
  mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
    let first = try hex4()
    if (0xD800...0xDBFF).contains(first) {
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { throw fail("unpaired surrogate in \\u escape") }
      index += 2
      let second = try hex4()
      guard (0xDC00...0xDFFF).contains(second) else {
        throw fail("unpaired surrogate in \\u escape")
      }
      let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
      guard let scalar = Unicode.Scalar(combined) else { throw fail("invalid \\u escape") }
      return scalar
    }
    guard let scalar = Unicode.Scalar(first) else {
      throw fail("unpaired surrogate in \\u escape")
    }
    return scalar
  }

  mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw fail("expected 4 hex digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case 0x30...0x39: digit = UInt32(byte - 0x30)
      case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
      default: throw fail("expected a hex digit")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  /// The offset of the first byte of `bytes` that breaks UTF-8 (RFC 3629: no overlong form,
  /// no surrogate, nothing past U+10FFFF), or `nil` when all of it is UTF-8. Checked with the
  /// standard library's decoder, which every Swift release since 4 has.
  static func firstInvalidUTF8(in bytes: some Collection<UInt8>) -> Int? {
    var iterator = bytes.makeIterator()
    var decoder = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
      switch decoder.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  /// ``firstInvalidUTF8(in:)`` of a string's raw bytes, escapes included (a backslash and the
  /// ASCII after it are valid UTF-8, so the offset is that of a byte written as is).
  static func firstInvalidRaw(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    firstInvalidUTF8(in: bytes) ?? 0
  }
}
