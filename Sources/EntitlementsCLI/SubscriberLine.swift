import Entitlements

/// One line of `entitlements evaluate`'s input: `{"subscriber": "ID", "documents": [DOCUMENT,
/// …]}`, each document any shape the reader accepts, as a JSON value or a JWS string.
///
/// The line is scanned, not parsed into a tree: each document's bytes are handed to the
/// document reader as they are, so regular documents take the byte-level reader.
///
/// ```swift
/// let line = try SubscriberLine(Array(#"{"subscriber": "42", "documents": ["eyJ…"]}"#.utf8))
/// line.subscriber        // "42"
/// line.documents.count   // 1
/// ```
struct SubscriberLine {
  /// One document of the line.
  enum Document {
    /// A JSON value: its bytes.
    case json(ArraySlice<UInt8>)
    /// A JWS string, unescaped.
    case jws(String)
  }

  /// What is wrong with a line, and the subscriber when it could be read.
  struct Problem: Error {
    var subscriber: String?
    var message: String
  }

  /// `subscriber`.
  let subscriber: String
  /// `documents`, in order.
  let documents: [Document]

  /// Scans a line.
  ///
  /// - Throws: ``Problem`` naming the key or the byte where the line is not what it must be.
  init(_ bytes: ArraySlice<UInt8>) throws(Problem) {
    var scanner = Scanner(bytes: bytes)
    var subscriber: String?
    var documents: [Document]?
    do throws(Scanner.Failure) {
      try scanner.expect(UInt8(ascii: "{"))
      var first = true
      while true {
        scanner.skipWhitespace()
        if scanner.peek == UInt8(ascii: "}") {
          scanner.advance()
          break
        }
        if !first { try scanner.expect(UInt8(ascii: ",")) }
        first = false
        scanner.skipWhitespace()
        let key = try scanner.string()
        scanner.skipWhitespace()
        try scanner.expect(UInt8(ascii: ":"))
        scanner.skipWhitespace()
        switch key {
        case "subscriber":
          guard subscriber == nil else { throw Scanner.Failure("\"subscriber\" is given twice") }
          guard scanner.peek == UInt8(ascii: "\"") else {
            throw Scanner.Failure("\"subscriber\" must be a string")
          }
          subscriber = try scanner.string()
        case "documents":
          guard documents == nil else { throw Scanner.Failure("\"documents\" is given twice") }
          documents = try scanner.documents()
        default:
          throw Scanner.Failure(
            "unknown key \"\(key)\": a line holds \"subscriber\" and \"documents\"")
        }
      }
      scanner.skipWhitespace()
      guard scanner.isAtEnd else { throw Scanner.Failure("text after the object") }
    } catch {
      throw Problem(subscriber: subscriber, message: "\(error.message) (at byte \(scanner.offset))")
    }
    guard let subscriber else {
      throw Problem(subscriber: nil, message: "missing \"subscriber\"")
    }
    guard let documents else {
      throw Problem(subscriber: subscriber, message: "missing \"documents\"")
    }
    self.subscriber = subscriber
    self.documents = documents
  }
}

/// A JSON scanner over one line's bytes: strings read, other values skipped.
private struct Scanner {
  struct Failure: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }

  let bytes: ArraySlice<UInt8>
  var index: Int

  init(bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    index = bytes.startIndex
  }

  var offset: Int { index - bytes.startIndex }
  var isAtEnd: Bool { index >= bytes.endIndex }
  var peek: UInt8? { index < bytes.endIndex ? bytes[index] : nil }

  mutating func advance() { index += 1 }

  mutating func skipWhitespace() {
    while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A {
      index += 1
    }
  }

  mutating func expect(_ byte: UInt8) throws(Failure) {
    skipWhitespace()
    guard peek == byte else {
      throw Failure("expected '\(Character(Unicode.Scalar(byte)))'")
    }
    index += 1
  }

  /// A string, unescaped.
  mutating func string() throws(Failure) -> String {
    try expect(UInt8(ascii: "\""))
    let start = index
    var escaped = false
    while let byte = peek, byte != UInt8(ascii: "\"") {
      if byte == UInt8(ascii: "\\") {
        escaped = true
        index += 1
      }
      index += 1
    }
    guard !isAtEnd else { throw Failure("a string is not closed") }
    let raw = bytes[start..<index]
    index += 1
    guard escaped else { return String(decoding: raw, as: UTF8.self) }
    // Rare: let the package's JSON parser unescape it.
    guard case .string(let text)? = try? JSONValue(parsing: [0x22] + Array(raw) + [0x22]) else {
      throw Failure("a string has an invalid escape")
    }
    return text
  }

  /// The documents array: each element's bytes, or its JWS string.
  mutating func documents() throws(Failure) -> [SubscriberLine.Document] {
    try expect(UInt8(ascii: "["))
    var documents: [SubscriberLine.Document] = []
    skipWhitespace()
    if peek == UInt8(ascii: "]") {
      index += 1
      return documents
    }
    while true {
      skipWhitespace()
      if peek == UInt8(ascii: "\"") {
        documents.append(.jws(try string()))
      } else {
        let start = index
        try skipValue(depth: 0)
        documents.append(.json(bytes[start..<index]))
      }
      skipWhitespace()
      if peek == UInt8(ascii: "]") {
        index += 1
        return documents
      }
      try expect(UInt8(ascii: ","))
    }
  }

  /// Skips one JSON value (the document reader reads it, and says what is wrong inside).
  mutating func skipValue(depth: Int) throws(Failure) {
    guard depth < JSONValue.maximumDepth else { throw Failure("nested too deeply") }
    skipWhitespace()
    guard let byte = peek else { throw Failure("a value is missing") }
    switch byte {
    case UInt8(ascii: "\""):
      _ = try string()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
      index += 1
      skipWhitespace()
      if peek == close {
        index += 1
        return
      }
      while true {
        if byte == UInt8(ascii: "{") {
          _ = try string()
          try expect(UInt8(ascii: ":"))
        }
        try skipValue(depth: depth + 1)
        skipWhitespace()
        if peek == close {
          index += 1
          return
        }
        try expect(UInt8(ascii: ","))
        skipWhitespace()
      }
    default:
      // A number or a literal: up to the next delimiter.
      let start = index
      while let next = peek, next != UInt8(ascii: ","), next != UInt8(ascii: "]"),
        next != UInt8(ascii: "}"), next != 0x20, next != 0x09, next != 0x0D, next != 0x0A
      {
        index += 1
      }
      guard index > start else { throw Failure("a value is missing") }
    }
  }
}
