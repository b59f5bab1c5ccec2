// JWS strings: each payload decoded (or verified) and read where it was decoded, by this
// reader, as the bytes read until it ends.

extension SchemaReader {
  /// Opens the JWS string at ``index`` and runs `read` on its payload: decoded from base64url
  /// into a reused buffer, or, with a verifier, verified first. Returns what `read` gives, or
  /// why the payload cannot be read (not a JWS, not JSON), for the caller to report; a
  /// refused signature ends the reading (``Stop/refused(_:)``), naming the JWS by its path
  /// (the current one, with `key` after it).
  ///
  /// A plain string with exactly two dots is opened where it lies: an app's JWS share one
  /// header (its certificate chain, about 4 KB), so the bytes of the last header read,
  /// followed by a dot, are a header seen already, compared, not scanned. Any other string is
  /// decoded and opened as ``JWS/unverifiedPayload(of:)`` opens one, which says what is wrong.
  mutating func openJWS<Value>(
    at key: KeyID? = nil,
    _ read: (inout SchemaReader) throws(Stop) -> Result<Value, ReadError>
  ) throws(Stop) -> Result<Value, ReadError> {
    skipWhitespace()
    let open = index
    if !payloads.verifies, let (start, end) = try plainJWSPayload() {
      if let result = try withPayload(
        decodedFrom: start, to: end, verified: nil,
        { reader throws(Stop) in try reader.readPayload(read) })
      {
        return result
      }
      index = open
    }
    // Irregular, or verified: the string decoded, then its payload.
    let compact: String
    if let (start, end) = try plainString() {
      compact = unescapedSlashes(start, end)
    } else {
      compact = try decodedString()
    }
    let payload: [UInt8]
    do throws(ReadError) {
      payload = try payloads.payload(of: compact, at: pathText(appending: key))
    } catch {
      if case .signatureRejected = error { throw .refused(error) }
      return .failure(error)
    }
    return try withPayload(decodedFrom: 0, to: 0, verified: payload) { reader throws(Stop) in
      try reader.readPayload(read)
    } ?? .failure(.malformedJWS("the payload is not base64url"))
  }

  /// `read` run on the payload being read; a syntax error in it is its failure, and what it
  /// reported before is dropped (a payload that is not JSON is one problem, not several).
  private mutating func readPayload<Value>(
    _ read: (inout SchemaReader) throws(Stop) -> Result<Value, ReadError>
  ) throws(Stop) -> Result<Value, ReadError> {
    let (start, steps) = (diagnostics.count, path.count)
    do throws(Stop) {
      return try read(&self)
    } catch {
      guard case .syntax = error else { throw error }
      diagnostics.removeSubrange(start...)
      path.truncate(to: steps)
      return .failure(.malformedJSON(syntaxError()))
    }
  }

  /// The payload of the plain JWS string at ``index`` (printable ASCII, no escape) with
  /// exactly two dots: its range, ``index`` then past the closing quote; `nil`, with
  /// ``index`` unchanged, for any other string.
  private mutating func plainJWSPayload() throws(Stop) -> (start: Int, end: Int)? {
    let open = index
    try expect(UInt8(ascii: "\""))
    let headerStart = index
    if let header = lastHeader, index + header.count < bytes.count,
      bytes[index + header.count] == UInt8(ascii: "."),
      Self.equal32(bytes, index, header.start, header.count)
    {
      index += header.count
    } else {
      guard skipJWSPart() == UInt8(ascii: ".") else {
        index = open
        return nil
      }
      lastHeader = (headerStart, index - headerStart)
    }
    index += 1
    let payloadStart = index
    guard skipJWSPart() == UInt8(ascii: ".") else {
      index = open
      return nil
    }
    let payloadEnd = index
    index += 1
    guard skipJWSPart() == UInt8(ascii: "\"") else {
      index = open
      return nil
    }
    index += 1
    return (payloadStart, payloadEnd)
  }

  /// The high bit of each byte of `word` equal to `byte`, and perhaps of bytes above one (a
  /// borrow): nonzero exactly when a byte is `byte`.
  @inline(__always)
  private static func flags(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let difference = word ^ (ones &* UInt64(byte))
    return (difference &- ones) & ~difference & (ones &* 0x80)
  }

  /// The position of the first dot at or after `start`, eight bytes at a time; `nil` when
  /// none is left.
  func nextDot(from start: Int) -> Int? {
    var position = start
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while position + 8 <= bytes.count {
        let word = UInt64(
          littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        let found = Self.flags(word, UInt8(ascii: "."))
        // The lowest flag is exact (a borrow only runs upwards, past it).
        if found != 0 { return position + found.trailingZeroBitCount / 8 }
        position += 8
      }
    }
    while position < bytes.count {
      if bytes[position] == UInt8(ascii: ".") { return position }
      position += 1
    }
    return nil
  }

  /// Nonzero exactly when `word` holds a dot, a quote, a backslash, a control character or a
  /// non-ASCII byte.
  @inline(__always)
  private static func jwsSpecial(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    return flags(word, 0x2E) | flags(word, 0x22) | flags(word, 0x5C)
      | ((word &- ones &* 0x20) | word) & (ones &* 0x80)
  }

  /// Advances over the bytes of one part of a JWS string, sixteen at a time, to the first
  /// byte that ends it or is not plain: a dot, a quote, a backslash, a control character or a
  /// non-ASCII byte, which it returns (`nil` at the end of the bytes).
  private mutating func skipJWSPart() -> UInt8? {
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      // Two words at a time; the byte loop below finds the byte in the pair that stops.
      while index + 16 <= bytes.count {
        let first = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let second = UInt64(
          littleEndian: raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
        if Self.jwsSpecial(first) | Self.jwsSpecial(second) != 0 { break }
        index += 16
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        || byte < 0x20 || byte >= 0x80
      {
        return byte
      }
      index += 1
    }
    return nil
  }

  /// The object of a payload, read by `body` (the payload must be one JSON object, nothing
  /// after it); a payload that is JSON but no object is
  /// ``ReadError/unexpectedShape(path:expected:found:)``.
  mutating func payloadObject<Value>(
    _ body: (inout SchemaReader) throws(Stop) -> Value
  ) throws(Stop) -> Result<Value, ReadError> {
    skipWhitespace()
    guard peek == UInt8(ascii: "{") else { return .failure(try notAnObject()) }
    let value = try body(&self)
    try expectEnd()
    return .success(value)
  }

  /// The error of a document that is not an object: its syntax error when it is not JSON,
  /// else what it is.
  mutating func notAnObject() throws(Stop) -> ReadError {
    skipWhitespace()
    if JSONValue.syntaxError(in: bytes) != nil { throw .syntax }
    let found = try skipDescribing()
    return .unexpectedShape(path: "(document)", expected: "an object", found: found)
  }

  /// Nothing but whitespace after the document, when it must end where the bytes end.
  @inline(__always)
  mutating func expectEnd() throws(Stop) {
    guard endsWithBytes else { return }
    skipWhitespace()
    guard index == bytes.count else { throw .syntax }
  }
}
