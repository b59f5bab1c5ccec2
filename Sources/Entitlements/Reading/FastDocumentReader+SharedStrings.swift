// Strings read before, matched on their bytes: shared ids, and the ids of decoded payloads.

extension FastDocumentReader {
  /// A product id or an original transaction id: the `String` of one read before with the
  /// same bytes, among the last ``sharedPerKind`` distinct ones of its kind, so that the
  /// entries of a document share one storage per product and per subscription (no allocation
  /// per entry for an id of more than 15 bytes, as Apple's are).
  mutating func sharedString(_ id: SharedID) throws(GiveUp) -> String {
    let (start, end) = try rawString(allowSlashEscape: true)
    let raw = UnsafeRawBufferPointer(bytes)
    let first = id.rawValue * Self.sharedPerKind
    func isSame(_ place: Int) -> Bool {
      let known = shared[first + place]
      return end - start == known.count
        && Self.equal(raw, start, raw, known.start, known.count)
    }
    let last = sharedLast[id.rawValue]
    if isSame(last) { return shared[first + last].value }
    for place in 0..<Self.sharedPerKind where place != last && isSame(place) {
      sharedLast[id.rawValue] = place
      return shared[first + place].value
    }
    index = start - 1
    let value = try string()
    let place = sharedNext[id.rawValue]
    shared[first + place] = (start, end - start, value)
    (sharedLast[id.rawValue], sharedNext[id.rawValue]) = (place, (place + 1) % Self.sharedPerKind)
    return value
  }

  /// A product id (`subscription` false) or an original transaction id of a decoded payload:
  /// the `String` of ``memo`` with the same bytes, else the string read, remembered first.
  mutating func memoString(subscription: Bool) throws(GiveUp) -> String {
    let first = subscription ? 2 : 0
    // The two ids of the kind read last, compared where the next one lies: its opening
    // quote, the bytes one was read from, and a closing quote right after them (which ends
    // the string: a string read holds no backslash before its closing quote), with no scan.
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "\""), let base = bytes.baseAddress {
      for place in first..<first + 2 {
        let spelling = memo.spellings[place]
        let end = index + 1 + spelling.count
        guard spelling.count > 0, end < bytes.count, bytes[end] == UInt8(ascii: "\""),
          spelling.isSpelt(at: index + 1, in: UnsafeRawPointer(base), bytes.count)
        else { continue }
        index = end + 1
        memo.promote(place, to: first)
        return memo.strings[first]
      }
    }
    let (start, end) = try rawString(allowSlashEscape: true)
    for place in first..<first + 2
    where memo.spellings[place].count < 0 && Self.spells(memo.strings[place], bytes, start, end) {
      memo.promote(place, to: first)
      return memo.strings[first]
    }
    index = start - 1
    let value = try string()
    let spelling =
      bytes.baseAddress.map { Spelling(UnsafeRawPointer($0), bytes.count, start, end - start) }
      ?? Spelling()
    memo.remember(value, spelt: spelling, first: first)
    return value
  }

  /// Whether `bytes[start..<end]` are the UTF-8 of `value`.
  private static func spells(
    _ value: String, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> Bool {
    guard value.utf8.count == end - start, let base = bytes.baseAddress else { return false }
    return value.utf8.withContiguousStorageIfAvailable { utf8 in
      equal(
        UnsafeRawBufferPointer(utf8), 0, UnsafeRawBufferPointer(start: base, count: end), start,
        end - start)
    } ?? false
  }
}
