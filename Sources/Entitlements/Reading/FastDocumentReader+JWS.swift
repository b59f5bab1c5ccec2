// JWS strings inside documents: each payload decoded and read by a reader of its own.

extension FastDocumentReader {
  /// The document of the JWS string at `index`, its payload decoded and read by a reader of
  /// its own at `context`. The string must be plain (no escape, ASCII) with exactly two dots,
  /// and the payload base64url, as `JWS.payload(of:)` decodes it; anything else gives up.
  mutating func signedDocument(_ context: Context) throws(GiveUp) -> AppStoreDocument {
    try expect(UInt8(ascii: "\""))
    // The header, the payload and the signature: each part ends at a dot, the last at the
    // closing quote. An app's JWS share one header (its certificate chain, about 4 KB): the
    // bytes of the last header read, followed by a dot, are a header checked already.
    let headerStart = index
    if let header = lastHeader, index + header.count < bytes.count,
      bytes[index + header.count] == UInt8(ascii: "."),
      Self.equal32(bytes, index, header.start, header.count)
    {
      index += header.count
    } else {
      guard skipJWSPart() == UInt8(ascii: ".") else { throw GiveUp() }
      lastHeader = (headerStart, index - headerStart)
    }
    index += 1
    let payloadStart = index
    guard skipJWSPart() == UInt8(ascii: ".") else { throw GiveUp() }
    let payloadEnd = index
    index += 1
    guard skipJWSPart() == UInt8(ascii: "\"") else { throw GiveUp() }
    index += 1
    return try nestedDocument(payloadStart, payloadEnd, context)
  }

  /// A whole document that is a compact JWS, as ``DocumentReader`` reads one: exactly two dots
  /// in it (its parts are otherwise not looked at), the payload base64url, read as an
  /// ``Context/unwrapped`` document.
  mutating func bareJWS() throws(GiveUp) -> AppStoreDocument {
    var end = bytes.count
    while end > index, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
    guard let first = nextDot(from: index, to: end),
      let second = nextDot(from: first + 1, to: end),
      nextDot(from: second + 1, to: end) == nil
    else { throw GiveUp() }
    return try nestedDocument(first + 1, second, .unwrapped)
  }

  /// The first dot in `bytes[start..<end]`, eight bytes at a time.
  private func nextDot(from start: Int, to end: Int) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    var position = start
    while position + 8 <= end {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      if Self.flags(word, 0x2E) != 0 { break }
      position += 8
    }
    while position < end {
      if bytes[position] == UInt8(ascii: ".") { return position }
      position += 1
    }
    return nil
  }

  /// The high bit of each byte of `word` equal to `byte`, and perhaps of bytes above one (a
  /// borrow): nonzero exactly when a byte is `byte`.
  @inline(__always)
  private static func flags(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let difference = word ^ (ones &* UInt64(byte))
    return (difference &- ones) & ~difference & (ones &* 0x80)
  }

  /// Nonzero exactly when `word` holds a dot, a quote, a backslash, a control character or a
  /// non-ASCII byte (as ``skipPlainWords()`` tests, with the dot).
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

  /// The payload `bytes[start..<end]` (base64url) decoded into ``scratch`` and read there by a
  /// reader of its own at `context`, which is lent ``nestedScratch`` for the JWS inside.
  private mutating func nestedDocument(_ start: Int, _ end: Int, _ context: Context)
    throws(GiveUp) -> AppStoreDocument
  {
    // The buffers are moved out and back (no copy, no reference left behind to force one).
    var buffer: [UInt8] = []
    swap(&buffer, &scratch)
    var lent: [UInt8] = []
    swap(&lent, &nestedScratch)
    var shared = Lent()
    shared.followers = followers
    swap(&shared.memo, &memo)
    let document = Self.nested(
      bytes, start, end, keys.base64URL, context, buffer: &buffer, lent: &lent, shared: &shared)
    swap(&buffer, &scratch)
    swap(&lent, &nestedScratch)
    swap(&shared.memo, &memo)
    followers = shared.followers
    guard let document else { throw GiveUp() }
    return document
  }

  /// ``nestedDocument(_:_:_:)`` apart from the reader that finds the payload.
  private static func nested(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
    _ table: UnsafeMutablePointer<UInt8>, _ context: Context, buffer: inout [UInt8],
    lent: inout [UInt8], shared: inout Lent
  ) -> AppStoreDocument? {
    guard let count = decodeBase64URL(bytes, start, end, table, into: &buffer) else {
      return nil
    }
    return buffer.withUnsafeBufferPointer { decoded -> AppStoreDocument? in
      var reader = FastDocumentReader(bytes: UnsafeBufferPointer(rebasing: decoded[..<count]))
      swap(&reader.scratch, &lent)
      let document = reader.withLent(&shared) { try? $0.whole(context) }
      swap(&reader.scratch, &lent)
      return document
    }
  }

  /// `text` decoded from base64url as a JWS payload is (the tests compare it with `JWS`'s).
  static func base64URLDecode(_ text: [UInt8]) -> [UInt8]? {
    var buffer: [UInt8] = []
    let count = text.withUnsafeBufferPointer { text in
      decodeBase64URL(text, 0, text.count, KeyTable.shared.base64URL, into: &buffer)
    }
    return count.map { Array(buffer.prefix($0)) }
  }

  /// Decodes base64url (RFC 4648 §5, padding allowed, `+` and `/` read as `-` and `_`) from
  /// `bytes[start..<end]` into the start of `buffer`, as `JWS.payload(of:)` does: four symbols
  /// to three bytes by `table`, the invalid symbols gathered in one mask. Returns the count;
  /// `nil` for any other byte.
  private static func decodeBase64URL(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
    _ table: UnsafeMutablePointer<UInt8>, into buffer: inout [UInt8]
  ) -> Int? {
    var end = end
    while end > start, bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
    let symbols = end - start
    if symbols == 0 { return 0 }
    guard symbols % 4 != 1, let base = bytes.baseAddress else { return nil }
    let count = symbols / 4 * 3 + max(symbols % 4 - 1, 0)
    if buffer.count < count {
      buffer = [UInt8](repeating: 0, count: max(count, 2 * buffer.count, 4_096))
    }
    let valid = buffer.withUnsafeMutableBufferPointer { output -> Bool in
      guard var out = output.baseAddress else { return false }
      var input = base + start
      var invalid: UInt8 = 0
      for _ in 0..<(symbols / 4) {
        let a = table[Int(input[0])]
        let b = table[Int(input[1])]
        let c = table[Int(input[2])]
        let d = table[Int(input[3])]
        invalid |= a | b | c | d
        let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
        out[0] = UInt8(truncatingIfNeeded: value >> 16)
        out[1] = UInt8(truncatingIfNeeded: value >> 8)
        out[2] = UInt8(truncatingIfNeeded: value)
        input += 4
        out += 3
      }
      // Two or three symbols left: one or two bytes, the bits below them dropped.
      if symbols % 4 >= 2 {
        let a = table[Int(input[0])]
        let b = table[Int(input[1])]
        let c = symbols % 4 == 3 ? table[Int(input[2])] : 0
        invalid |= a | b | c
        let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
        out[0] = UInt8(truncatingIfNeeded: value >> 16)
        if symbols % 4 == 3 { out[1] = UInt8(truncatingIfNeeded: value >> 8) }
      }
      return invalid & 0x80 == 0
    }
    return valid ? count : nil
  }
}
