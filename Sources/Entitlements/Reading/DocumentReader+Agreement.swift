extension DocumentReader {
  /// What the byte-level reader and the general reader disagree about on `bytes`; `nil` when
  /// they agree. For the tests and the fuzz target (issue: performance, "the same results and
  /// the same diagnostics as the existing reader").
  ///
  /// They agree when the byte-level reader gives up (the general reader then answers alone),
  /// or when it reads the very document the general reader reads, and the general reader has
  /// no diagnostic to add: the byte-level reader reads only regular documents.
  ///
  /// ```swift
  /// let bytes = Array(#"{"status": 0, "latest_receipt_info": []}"#.utf8)
  /// DocumentReader._readersDisagreement(bytes)  // nil
  /// ```
  ///
  /// - Parameter bytes: A document as received, or any bytes.
  /// - Returns: One sentence naming what differs, or `nil`.
  package static func _readersDisagreement(_ bytes: [UInt8]) -> String? {
    let whole = FastDocumentReader.read(bytes)
    if let disagreement = inPlaceDisagreement(bytes, whole: whole) { return disagreement }
    if let disagreement = foldDisagreement(bytes, whole: whole) { return disagreement }
    guard let read = whole else { return nil }
    // A verifyReceipt status that carries no receipt is refused after either reader: the
    // general reader must refuse it with the same error.
    if case .verifyReceipt(let response) = read, let statusError = response.statusError {
      do throws(ReadError) {
        _ = try readGeneral(bytes)
        return "the general reader read a document of status \(response.status ?? 0)"
      } catch {
        return error == .verifyReceiptStatus(statusError)
          ? nil : "the general reader refused status \(response.status ?? 0) otherwise: \(error)"
      }
    }
    let fast = read.document
    let general: any PurchaseDocument
    do {
      general = try readGeneral(bytes).document
    } catch {
      return "the byte-level reader read a \(type(of: fast)) that the general reader refuses: "
        + "\(error)"
    }
    guard isSame(fast, general) else {
      return "the byte-level reader read \(fast), the general reader \(general)"
    }
    guard general.diagnostics.isEmpty else {
      return "the byte-level reader read a document the general reader has diagnostics for: "
        + "\(general.diagnostics)"
    }
    return nil
  }

  /// What the byte-level reader reads differently when it reads `bytes` in place, as a
  /// document among others on a line (`FastDocumentReader.read(_:objectAt:reusing:_:)`):
  /// inside `[` and `, 0]`, with what it learnt from reading the same bytes just before (the
  /// fold of `entitlements evaluate` is checked by ``foldDisagreement(_:whole:)``). `nil` when
  /// it reads the document that the whole-document reader reads and ends just past it, or
  /// gives up where that reader gives up; an object followed by other bytes (which the line's
  /// scanner then refuses) is no disagreement. `whole` is what the whole-document reader read
  /// of `bytes`.
  private static func inPlaceDisagreement(_ bytes: [UInt8], whole: AppStoreDocument?) -> String? {
    guard let (line, start, objectEnd) = onALine(bytes) else { return nil }
    var reader = FastDocumentReader()
    let read = line.withUnsafeBufferPointer { buffer in
      var document: AppStoreDocument?
      for _ in 0..<2 {
        document = nil
        let end = FastDocumentReader.read(buffer, objectAt: start, reusing: &reader) {
          document = $0
        }
        guard let end, document != nil else { return (AppStoreDocument?.none, -1) }
        guard end == objectEnd else { return (AppStoreDocument?.none, end) }
      }
      return (document, objectEnd)
    }
    switch (read.0, whole) {
    case (nil, nil): return nil
    case (nil, _?):
      return read.1 < 0
        ? "the byte-level reader gives up in place on a document it reads whole"
        : "the byte-level reader in place ends at \(read.1 - 1), not where the document ends"
    case (_?, nil):
      return "the byte-level reader reads in place a document it gives up on whole"
    case (let inPlace?, let whole?):
      return isSame(inPlace.document, whole.document)
        ? nil : "the byte-level reader read in place \(inPlace), whole \(whole)"
    }
  }

  /// What folding `bytes` in place gives otherwise than folding the document the
  /// whole-document reader read (`whole`), as `entitlements evaluate` folds a document among
  /// others on a line (``fold(_:objectAt:into:memo:)``, which folds a transaction or a renewal
  /// info from its fields): the same record, or the same refusal with nothing folded, or both
  /// give up. Twice, with one memo and the record reset in between, as a thread of the command
  /// folds one subscriber after another. An object followed by other bytes is no disagreement
  /// (the line's scanner refuses them).
  private static func foldDisagreement(_ bytes: [UInt8], whole: AppStoreDocument?) -> String? {
    guard let (line, start, end) = onALine(bytes) else { return nil }
    var memo = Memo()
    var record = SubscriberRecord()
    for _ in 0..<2 {
      record.reset()
      let folded = line.withUnsafeBufferPointer { buffer in
        fold(buffer, objectAt: start, into: &record, memo: &memo)
      }
      guard let folded else {
        guard whole == nil else { return "folding in place gives up on a document read whole" }
        continue
      }
      guard folded.end == end else { return nil }
      guard let whole else { return "folding in place folds a document given up on whole" }
      var expected = SubscriberRecord()
      let refusal = statusError(of: whole)
      if refusal == nil { expected.fold(whole) }
      guard folded.refusal == refusal else {
        return "folding in place refuses with \(String(describing: folded.refusal)), reading "
          + "with \(String(describing: refusal))"
      }
      guard record == expected, record.environment == expected.environment else {
        return "folding in place gives \(record), folding the document read whole \(expected)"
      }
    }
    return nil
  }

  /// `bytes` placed on a line as a document among others, inside `[` and `, 0]`, with where
  /// its object starts and where it ends on that line (past its closing brace, whitespace
  /// after it left out); `nil` when `bytes` are no object.
  private static func onALine(_ bytes: [UInt8]) -> (line: [UInt8], start: Int, end: Int)? {
    let leading = bytes.prefix { isWhitespace($0) }.count
    guard leading < bytes.count, bytes[leading] == UInt8(ascii: "{") else { return nil }
    let trailing = bytes.reversed().prefix { isWhitespace($0) }.count
    return (
      [UInt8(ascii: "[")] + bytes + Array(", 0]".utf8), 1 + leading, 1 + bytes.count - trailing
    )
  }

  /// Whether two documents are the same value of the same type.
  static func isSame(_ a: any PurchaseDocument, _ b: any PurchaseDocument) -> Bool {
    guard let a = a as? any (PurchaseDocument & Equatable) else { return false }
    func isEqual<Document: PurchaseDocument & Equatable>(_ a: Document) -> Bool {
      (b as? Document) == a
    }
    return isEqual(a)
  }
}
