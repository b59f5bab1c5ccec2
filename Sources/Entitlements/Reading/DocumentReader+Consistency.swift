extension DocumentReader {
  /// What the reader does inconsistently on `bytes`; `nil` when nothing. For the tests and
  /// the fuzz target: whatever the bytes,
  /// - the reader refuses as not JSON exactly what the JSON parser refuses, in the parser's
  ///   words (it reads JSON itself, and asks the parser only for the words of an error);
  /// - a document read in place, among other bytes on a line (as `entitlements evaluate`
  ///   reads it), is the document read whole, and ends where the document ends; folded in
  ///   place, it gives the record folding the document read whole gives, or the same refusal;
  ///   twice over with one memo, as a thread of the command reads one subscriber after another.
  ///
  /// ```swift
  /// DocumentReader._consistencyProblem(Array(#"{"status": 0}"#.utf8))  // nil
  /// ```
  package static func _consistencyProblem(_ bytes: [UInt8]) -> String? {
    let whole = Result { () throws(ReadError) in try readUnverified(bytes) }
    if let problem = grammarProblem(bytes, whole) { return problem }
    return foldProblem(bytes, whole)
  }

  /// Whether the reader refuses as not JSON what the parser refuses, and only that.
  private static func grammarProblem(
    _ bytes: [UInt8], _ whole: Result<AppStoreDocument, ReadError>
  ) -> String? {
    let first = bytes.first { !isWhitespace($0) }
    // A document that is no object may be a bare JWS, which is no JSON.
    guard first == UInt8(ascii: "{") else { return nil }
    let parser = bytes.withUnsafeBufferPointer { JSONValue.syntaxError(in: $0) }
    // A POST body's payload is a document of its own, whose syntax error is named from the
    // body: not the body's.
    if case .failure(.malformedJSON(let error)) = whole, parser == nil,
      error.message.hasSuffix("(in signedPayload >)")
    {
      return nil
    }
    switch (whole, parser) {
    case (.failure(.malformedJSON(let error)), let expected?):
      return error == expected ? nil : "the reader says \(error), the parser \(expected)"
    case (.failure(.malformedJSON(let error)), nil):
      return "the reader refuses JSON the parser reads: \(error)"
    case (_, let expected?):
      return "the reader reads bytes the parser refuses: \(expected)"
    default:
      return nil
    }
  }

  /// Whether the document, folded in place on a line, is folded as read whole.
  private static func foldProblem(
    _ bytes: [UInt8], _ whole: Result<AppStoreDocument, ReadError>
  ) -> String? {
    let leading = bytes.prefix { isWhitespace($0) }.count
    guard leading < bytes.count, bytes[leading] == UInt8(ascii: "{") else { return nil }
    let trailing = bytes.reversed().prefix { isWhitespace($0) }.count
    let line = [UInt8(ascii: "[")] + bytes + Array(", 0]".utf8)
    let (start, end) = (1 + leading, 1 + bytes.count - trailing)
    var memo = Memo()
    var record = SubscriberRecord()
    for round in 0..<2 {
      record.reset()
      let folded = line.withUnsafeBufferPointer { buffer in
        fold(buffer, objectAt: start, into: &record, memo: &memo)
      }
      switch (folded, whole) {
      case (nil, .failure(let error)):
        // Left to the reading of the whole bytes, which refuses them: unless only the status
        // refuses the document, which folding in place says itself.
        if case .verifyReceiptStatus = error {
          return "round \(round): folding in place leaves a status refusal to the whole read"
        }
        continue
      case (nil, .success):
        return "round \(round): folding in place gives up on a document read whole"
      case (_?, .failure(.malformedJSON)):
        // An object followed by other bytes, which the line's scanner then refuses.
        continue
      case (let folded?, let whole):
        guard folded.end == end else {
          return "round \(round): folding in place ends at \(folded.end), not \(end)"
        }
        var expected = SubscriberRecord()
        let refusal: ReadError?
        switch whole {
        case .success(let document):
          refusal = nil
          expected.fold(document)
        case .failure(let error): refusal = error
        }
        guard folded.refusal == refusal else {
          return "round \(round): folding in place refuses with "
            + "\(String(describing: folded.refusal)), reading whole with "
            + "\(String(describing: refusal))"
        }
        guard record == expected, record.environment == expected.environment else {
          return "round \(round): folding in place gives \(record), reading whole \(expected)"
        }
      }
    }
    return nil
  }
}
