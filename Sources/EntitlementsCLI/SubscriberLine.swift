import Entitlements

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One line of `entitlements evaluate`'s input: `{"subscriber": "ID", "documents": [DOCUMENT,
/// …]}`, each document any shape the reader accepts, as a JSON value or a JWS string.
///
/// The line is scanned, not parsed into a tree: each JSON document is read where it lies by
/// the document reader (``DocumentReader/fold(_:objectAt:into:memo:)``), which folds it into
/// the subscriber's record and says where it ends; a document it cannot fold (bytes that are
/// not JSON, a document of no kind) is skipped and its bytes kept, to be read again for the
/// error that says why.
///
/// ```swift
/// var record = SubscriberRecord()
/// var memo = DocumentReader.Memo()
/// let line = try SubscriberLine(
///   Array(#"{"subscriber": "42", "documents": ["eyJ…"]}"#.utf8)[...], into: &record, memo: &memo)
/// line.subscriber        // "42"
/// line.documents.count   // 1
/// ```
struct SubscriberLine {
  /// One document of the line.
  enum Document {
    /// A JSON object read in place, and folded.
    case folded
    /// A JSON object read in place and refused (a verifyReceipt status that carries no
    /// receipt): why.
    case refused(ReadError)
    /// A JSON value that could not be folded in place: its bytes.
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

  /// Scans a line, and folds the documents read in place into `record` (the others are
  /// ``Document/json(_:)`` and ``Document/jws(_:)``, for the caller to read and fold). `memo`
  /// carries what the document reader learnt from the documents before (of this line and of
  /// the lines before it).
  ///
  /// - Throws: ``Problem`` naming the key or the byte where the line is not what it must be;
  ///   `record` then holds part of the line, and is to be dropped.
  init(
    _ bytes: ArraySlice<UInt8>, into record: inout SubscriberRecord,
    memo: inout DocumentReader.Memo
  ) throws(Problem) {
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
          documents = try scanner.documents(into: &record, memo: &memo)
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
    guard let end = closingQuote(from: index) else { throw Failure("a string is not closed") }
    index = end + 1
    let raw = bytes[start..<end]
    guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
    // Rare: let the package's JSON parser unescape it.
    guard case .string(let text)? = try? JSONValue(parsing: [0x22] + Array(raw) + [0x22]) else {
      throw Failure("a string has an invalid escape")
    }
    return text
  }

  /// The index of the quote that closes a string whose text starts at `start`; `nil` when
  /// it is not closed.
  func closingQuote(from start: Int) -> Int? {
    bytes.withUnsafeBufferPointer { buffer in
      Self.closingQuote(in: buffer, from: start - bytes.startIndex).map { $0 + bytes.startIndex }
    }
  }

  /// The offset of the quote that closes a string whose text starts at `start` in `buffer`:
  /// the next quote (found with `memchr`) not escaped by an odd run of backslashes.
  static func closingQuote(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = buffer.baseAddress else { return nil }
    var position = start
    while position < buffer.count {
      guard let found = memchr(base + position, 0x22, buffer.count - position) else {
        return nil
      }
      let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      var backslashes = 0
      while quote - backslashes - 1 >= position, base[quote - backslashes - 1] == 0x5C {
        backslashes += 1
      }
      if backslashes % 2 == 0 { return quote }
      position = quote + 1
    }
    return nil
  }

  /// Skips a string, escapes and all, without making it.
  mutating func skipString() throws(Failure) {
    try expect(UInt8(ascii: "\""))
    guard let end = closingQuote(from: index) else {
      throw Failure("a string is not closed")
    }
    index = end + 1
  }

  /// The documents array: each JSON object read in place is folded into `record` (or
  /// refused), any other element kept as its bytes or its JWS string.
  mutating func documents(
    into record: inout SubscriberRecord, memo: inout DocumentReader.Memo
  ) throws(Failure) -> [SubscriberLine.Document] {
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
      } else if let (end, refusal) = foldObject(into: &record, memo: &memo) {
        documents.append(refusal.map(SubscriberLine.Document.refused) ?? .folded)
        index = end
      } else {
        let start = index
        try skipValue()
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

  /// The JSON object at ``index``, read in place and folded into `record`: the index just
  /// past it, and the error when it is refused; `nil` when it cannot be read (its bytes are
  /// not JSON, it is of no kind).
  func foldObject(into record: inout SubscriberRecord, memo: inout DocumentReader.Memo)
    -> (end: Int, refusal: ReadError?)?
  {
    bytes.withUnsafeBufferPointer { buffer in
      DocumentReader.fold(
        buffer, objectAt: index - bytes.startIndex, into: &record, memo: &memo
      ).map { ($0.end + bytes.startIndex, $0.refusal) }
    }
  }

  /// Quotes and brackets, by byte.
  static let isStructural: [Bool] = (0...255).map { byte in
    [0x22, 0x5B, 0x5D, 0x7B, 0x7D].contains(byte)
  }

  /// Skips one JSON value: finds where it ends by its brackets and strings (the document
  /// reader reads it, and says what is wrong inside).
  mutating func skipValue() throws(Failure) {
    skipWhitespace()
    guard let first = peek else { throw Failure("a value is missing") }
    switch first {
    case UInt8(ascii: "\""):
      try skipString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let end: Int? = bytes.withUnsafeBufferPointer { buffer in
        var position = index - bytes.startIndex
        var depth = 0
        while position < buffer.count {
          let byte = buffer[position]
          position += 1
          // Most bytes are neither brackets nor quotes.
          guard Self.isStructural[Int(byte)] else { continue }
          switch byte {
          case UInt8(ascii: "\""):
            guard let end = Self.closingQuote(in: buffer, from: position) else { return nil }
            position = end + 1
          case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            if depth > JSONValue.maximumDepth { return -1 }
          default:
            depth -= 1
            if depth == 0 { return position + bytes.startIndex }
          }
        }
        return nil
      }
      guard let end else { throw Failure("a document is not closed") }
      guard end >= 0 else { throw Failure("nested too deeply") }
      index = end
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
