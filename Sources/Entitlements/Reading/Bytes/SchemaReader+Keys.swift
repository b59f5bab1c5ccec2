// Member names: matched against every schema's names on their bytes, the next one predicted
// from the key that followed the previous one last time.

extension SchemaReader {
  /// A member name and the colon after it, at ``index`` (whitespace skipped before), as a
  /// ``KeyID``: first the predicted key, checked in place as its whole token `"name":` (one to
  /// four word comparisons, no scan); else ``lookedUpKeyAndColon(after:predicted:)``.
  @_transparent
  mutating func readKeyAndColon(after previous: KeyID) throws(Stop) -> KeyID {
    let predicted = followers[previous]
    if predicted != .unknown, let base = bytes.baseAddress,
      let count = KeyTable.tokenLength(
        tokens, of: predicted, at: index, in: UnsafeRawPointer(base), bytes.count)
    {
      index &+= count
      return predicted
    }
    return try lookedUpKeyAndColon(after: previous, predicted: predicted)
  }

  /// A member name that is not the predicted key's whole token: the predicted name with
  /// whitespace before its colon, else the name's bytes looked up in the key table (a name
  /// with an escape or a byte past ASCII decoded first, as the JSON parser decodes it), which
  /// the next object predicts after `previous`.
  @inline(never)
  private mutating func lookedUpKeyAndColon(after previous: KeyID, predicted: KeyID)
    throws(Stop) -> KeyID
  {
    guard let base = bytes.baseAddress else { throw .syntax }
    let raw = UnsafeRawPointer(base)
    let keys = schemas.keys
    if predicted != .unknown, index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      // A known name is plain ASCII, so a scan would find the same range.
      let start = index + 1
      let count = keys.length(of: predicted)
      if start + count + 1 < bytes.count, bytes[start + count] == UInt8(ascii: "\""),
        keys.matches(Int(predicted.rawValue), raw, bytes.count, start, count)
      {
        index = start + count + 1
        try expect(UInt8(ascii: ":"))
        return predicted
      }
    }
    let key: KeyID
    if let (start, end) = try plainString(allowSlash: false) {
      key = keys.key(raw, bytes.count, start, end - start)
    } else {
      key = keys.key(named: try decodedString())
    }
    followers[previous] = key
    try expect(UInt8(ascii: ":"))
    return key
  }
}
