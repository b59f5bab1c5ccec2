/// Reads whatever Apple sent: it recognises the document by its fields (SPEC §10).
///
/// | document | recognised by |
/// |---|---|
/// | a compact JWS (`header.payload.signature`) | three base64url parts: its payload is read |
/// | `{"signedPayload": …}` (a v2 notification as POSTed) | `signedPayload` |
/// | ``ServerNotification`` (v2, decoded) | `notificationType` |
/// | ``StatusUpdateNotification`` (v1) | `notification_type` |
/// | ``TransactionHistoryResponse`` | `signedTransactions` |
/// | ``NotificationHistoryPage`` | `notificationHistory` |
/// | ``SubscriptionStatusesResponse`` | `data`, an array of subscription groups |
/// | ``VerifyReceiptResponse`` | `status`, `receipt` or `latest_receipt_info` |
/// | ``AppStoreTransaction`` | `transactionId` |
/// | ``AppStoreRenewalInfo`` | `originalTransactionId` without `transactionId` |
///
/// ``read(_:verifier:)`` takes a ``SignedPayloadVerifier`` (the `EntitlementsVerification`
/// library's `AppStoreSignatureVerifier`, or your own): every JWS of the document, nested ones
/// included, is verified before it is read; a refusal is
/// ``ReadError/signatureRejected(path:reason:)`` naming the JWS's JSON path. Reading without
/// verifying says so at the call site: ``readUnverified(_:)`` decodes signed payloads and
/// verifies **nothing** (anyone can forge one), for documents verified when they arrived.
///
/// Every document is read by one reader, from its bytes, field by field, each of Apple's
/// fields mapped in one place (its object's schema, which the reading guide names): Apple's
/// usual shapes fast, any other value tolerantly, what cannot be used a ``Diagnostic`` with
/// its JSON path.
///
/// ```swift
/// let document = try DocumentReader.read(body, verifier: verifier)  // [UInt8], Data, any bytes
/// var record = SubscriberRecord()
/// record.fold(document)
/// ```
public enum DocumentReader {
  /// Reads one document, every JWS of it verified before it is read.
  ///
  /// ```swift
  /// let document = try DocumentReader.read(body, verifier: verifier)
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The document as received: `[UInt8]`, `Data`, or any collection of bytes.
  ///   - verifier: Verifies every JWS before it is read, nested ones included.
  /// - Returns: The document, read.
  /// - Throws: ``ReadError`` naming what is wrong (byte offset for malformed JSON, the status
  ///   of a verifyReceipt response that carries no receipt, the path of a refused JWS).
  public static func read(
    _ bytes: some Collection<UInt8>, verifier: any SignedPayloadVerifier
  ) throws(ReadError) -> AppStoreDocument {
    try read(bytes, payloads: SignedPayloads(verifier: verifier))
  }

  /// Reads one document **without verifying** its signed payloads: anyone can forge one.
  /// For documents verified when they arrived and kept since, for tests and for tools; what
  /// comes from the network goes through ``read(_:verifier:)``.
  ///
  /// ```swift
  /// // Kept after read(_:verifier:) accepted it:
  /// record.fold(try DocumentReader.readUnverified(storedBody))
  /// ```
  ///
  /// - Parameter bytes: The document: `[UInt8]`, `Data`, or any collection of bytes.
  /// - Returns: The document, read.
  /// - Throws: ``ReadError`` naming what is wrong.
  public static func readUnverified(_ bytes: some Collection<UInt8>) throws(ReadError)
    -> AppStoreDocument
  {
    try read(bytes, payloads: SignedPayloads(verifier: nil))
  }

  /// Either: verified when `verifier` is given; for the tool, whose user chooses.
  package static func read(
    _ bytes: some Collection<UInt8>, optionalVerifier verifier: (any SignedPayloadVerifier)?
  ) throws(ReadError) -> AppStoreDocument {
    try read(bytes, payloads: SignedPayloads(verifier: verifier))
  }

  private static func read(
    _ bytes: some Collection<UInt8>, payloads: SignedPayloads
  ) throws(ReadError) -> AppStoreDocument {
    // Read where it lies when the bytes are contiguous: a mapped file is not copied.
    if let read = bytes.withContiguousStorageIfAvailable({ buffer in
      Result { () throws(ReadError) in try read(buffer, payloads: payloads) }
    }) {
      return try checked(read.get())
    }
    let array = Array(bytes)
    return try checked(
      array.withUnsafeBufferPointer { buffer throws(ReadError) in
        try read(buffer, payloads: payloads)
      })
  }

  /// The document of `buffer`, read whole.
  private static func read(
    _ buffer: UnsafeBufferPointer<UInt8>, payloads: SignedPayloads
  ) throws(ReadError) -> AppStoreDocument {
    var reader = SchemaReader(bytes: buffer, payloads: payloads)
    return try reader.ending { reader throws(SchemaReader.Stop) in try reader.document() }
  }

  /// Reads a document as `kind` whatever its keys: the typed entry points
  /// (``AppStoreTransaction/init(unverifiedJSON:)``, …), unverified. `path` is the JSON path of the
  /// document inside another (a scenario's `receipt`), which its diagnostics start with.
  static func read(_ json: [UInt8], as kind: SchemaReader.Kind, path: String = "")
    throws(ReadError) -> AppStoreDocument
  {
    try json.withUnsafeBufferPointer { buffer throws(ReadError) in
      var reader = SchemaReader(bytes: buffer)
      reader.pathPrefix = path
      return try reader.ending { reader throws(SchemaReader.Stop) in
        try reader.document(as: kind)
      }
    }
  }

  /// Reads the JSON object that begins at `start` in `buffer` and is followed by other bytes
  /// (a document among others on a line of `entitlements evaluate`'s input), unverified, and
  /// folds it into `record` where it was read (a document is a few hundred bytes: it is not
  /// copied from result to result). Returns the index just past the object, and the error
  /// when it is a verifyReceipt response whose status carries no receipt (nothing is folded
  /// then); `nil` when the document cannot be read (its bytes are not JSON, it is of no kind):
  /// nothing is folded, and the caller reads its bytes with ``readUnverified(_:)``, which
  /// says why.
  ///
  /// `memo` carries what the reader learnt from one document to the next (the order of each
  /// kind of object's keys, the last ids read, whose `String`s the next documents share): one
  /// subscriber's documents, read with one memo, are read faster.
  package static func fold(
    _ buffer: UnsafeBufferPointer<UInt8>, objectAt start: Int, into record: inout SubscriberRecord,
    memo: inout Memo
  ) -> (end: Int, refusal: ReadError?)? {
    precondition(start >= 0, "an object before the buffer")
    guard start < buffer.count, buffer[start] == UInt8(ascii: "{") else { return nil }
    memo.reader.restart(buffer, at: start)
    defer { memo.reader.release() }
    do throws(SchemaReader.Stop) {
      // A transaction or a renewal info, folded from its fields.
      try memo.reader.foldPayload(into: &record)
      return (memo.reader.index, nil)
    } catch {
      guard case .otherKind = error else { return nil }
    }
    memo.reader.release()
    memo.reader.restart(buffer, at: start)
    do throws(SchemaReader.Stop) {
      // Read as a payload already: by the table of every other kind.
      let document = try memo.reader.objectDocument(payloadFirst: false)
      let end = memo.reader.index
      if let refusal = statusError(of: document) { return (end, refusal) }
      record.fold(consume document)
      return (end, nil)
    } catch {
      return nil
    }
  }

  /// What the reader carries from one document to the next
  /// (``fold(_:objectAt:into:memo:)``): the reader itself, with what it learnt and its buffers.
  package struct Memo {
    var reader = SchemaReader()

    /// Nothing learnt yet: the state of a reader that has read no document.
    package init() {}

    /// Frees the buffers of decoded JWS payloads past ``bytesKept`` bytes, keeping what was
    /// learnt: one very large payload does not hold its memory for the rest of a batch run.
    package mutating func trim() {
      reader.payloadBuffers.trim(to: Self.bytesKept)
    }

    /// The most capacity ``trim()`` keeps in each buffer of decoded payloads: more than
    /// Apple's payloads and a page of them need (a page's payloads are decoded one at a time).
    package static let bytesKept = 1 << 20

    /// The capacity of the buffers of decoded payloads (for the tests).
    package var bufferCapacities: (payloads: Int, nested: Int) {
      (reader.payloadBuffers.first.capacity, reader.payloadBuffers.second.capacity)
    }
  }

  /// Reads every document a file holds: one document, a JSON array of documents (each a JSON
  /// value or a JWS string), or one JWS per line.
  ///
  /// ```swift
  /// try DocumentReader.readAll(Array("eyJ…\neyJ…\n".utf8), verifier: verifier).count  // 2
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - verifier: Verifies every JWS before it is read.
  /// - Returns: The documents, in the file's order.
  /// - Throws: ``ReadError`` for the first document that cannot be read, its place named.
  public static func readAll(
    _ bytes: some Collection<UInt8>, verifier: any SignedPayloadVerifier
  ) throws(ReadError) -> [AppStoreDocument] {
    try readAll(bytes, optionalVerifier: verifier)
  }

  /// ``readAll(_:verifier:)`` **without verifying** the signed payloads: anyone can forge one
  /// (``readUnverified(_:)``).
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Returns: The documents, in the file's order.
  /// - Throws: ``ReadError`` for the first document that cannot be read, its place named.
  public static func readAllUnverified(_ bytes: some Collection<UInt8>) throws(ReadError)
    -> [AppStoreDocument]
  {
    try readAll(bytes, optionalVerifier: nil)
  }

  /// Either: verified when `verifier` is given; for the tool, whose user chooses.
  package static func readAll(
    _ bytes: some Collection<UInt8>, optionalVerifier verifier: (any SignedPayloadVerifier)?
  ) throws(ReadError) -> [AppStoreDocument] {
    switch bytes.first(where: { !isWhitespace($0) }) {
    case UInt8(ascii: "{")?, nil:
      // Read where it lies: a file the caller mapped into memory is not copied.
      return [try read(bytes, optionalVerifier: verifier)]
    case UInt8(ascii: "[")?:
      let array = Array(bytes)
      let payloads = SignedPayloads(verifier: verifier)
      return try array.withUnsafeBufferPointer { buffer throws(ReadError) in
        var reader = SchemaReader(bytes: buffer, payloads: payloads)
        var documents: [AppStoreDocument] = []
        var failure: ReadError?
        do throws(SchemaReader.Stop) {
          try reader.array { reader, position throws(SchemaReader.Stop) in
            guard failure == nil else { return try reader.skipValue() }
            switch try reader.fileElement() {
            case .success(let document):
              if let error = statusError(of: document) {
                failure = error.within("[\(position)]")
              } else {
                documents.append(document)
              }
            case .failure(let error): failure = error.within("[\(position)]")
            }
          }
          try reader.expectEnd()
        } catch {
          // Not JSON: the file's error, as the JSON parser words it.
          switch error {
          case .syntax: throw .malformedJSON(reader.syntaxError())
          case .refused(let refused): throw refused
          case .otherKind, .repeated: preconditionFailure("\(error) does not escape a document")
          }
        }
        if let failure { throw failure }
        return documents
      }
    default:
      // One JWS per line; blank lines are skipped, and a line is named by its number in the file.
      let lines = Array(bytes).split(
        separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      var documents: [AppStoreDocument] = []
      for (index, line) in lines.enumerated() {
        let compact = line.filter { !isWhitespace($0) }
        if compact.isEmpty { continue }
        do throws(ReadError) {
          documents.append(try read(compact, optionalVerifier: verifier))
        } catch {
          throw error.within("line \(index + 1)")
        }
      }
      return documents
    }
  }

  /// Reads a document already parsed (the scenario format's pasted documents), written back
  /// as JSON for the reader.
  package static func read(value: JSONValue) throws(ReadError) -> AppStoreDocument {
    try readUnverified(value.bytes)
  }

  /// A document read, checked: a verifyReceipt response whose status carries no receipt is an
  /// error, never an empty history.
  static func checked(_ document: AppStoreDocument) throws(ReadError) -> AppStoreDocument {
    if let error = statusError(of: document) { throw error }
    return document
  }

  /// The error of a verifyReceipt response whose status carries no receipt; `nil` for any
  /// other document.
  static func statusError(of document: AppStoreDocument) -> ReadError? {
    guard case .verifyReceipt(let response) = document, let error = response.statusError else {
      return nil
    }
    return .verifyReceiptStatus(error)
  }

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}

extension SchemaReader {
  /// `body` run on this reader, its stops made errors: a syntax error as the JSON parser
  /// words it. A JSON document that is not JSON to its end is that error whatever else is
  /// wrong: one refused before the bytes after it were read (one of no kind, a status with no
  /// receipt) is checked to the end first. (A bare JWS is no JSON: its refusals stand.)
  mutating func ending<Value>(
    _ body: (inout SchemaReader) throws(Stop) -> Value
  ) throws(ReadError) -> Value {
    do throws(Stop) {
      return try body(&self)
    } catch {
      switch error {
      case .syntax: throw .malformedJSON(syntaxError())
      case .refused(let refused):
        if bytes.first(where: { !DocumentReader.isWhitespace($0) }) == UInt8(ascii: "{"),
          let syntax = JSONValue.syntaxError(in: bytes)
        {
          throw .malformedJSON(syntax)
        }
        throw refused
      case .otherKind, .repeated: preconditionFailure("\(error) does not escape a document")
      }
    }
  }

  /// An element of a file's array of documents: a JWS string, whose payload is read as a
  /// document, or a JSON value read where it lies as one. What is wrong with it is its
  /// failure; bytes that are not JSON, the file's.
  fileprivate mutating func fileElement() throws(Stop) -> Result<AppStoreDocument, ReadError> {
    skipWhitespace()
    diagnostics = []
    if peek == UInt8(ascii: "\"") {
      return try openJWS { reader throws(Stop) in
        reader.unwrapped = 1
        defer { reader.unwrapped = 0 }
        do throws(Stop) {
          reader.skipWhitespace()
          guard reader.peek == UInt8(ascii: "{") else { return .failure(try reader.notAnObject()) }
          let document = try reader.objectDocument()
          try reader.expectEnd()
          return .success(document)
        } catch {
          guard case .refused(let error) = error else { throw error }
          return .failure(error)
        }
      }
    }
    guard peek == UInt8(ascii: "{") else {
      let found = try skipDescribing()
      return .failure(.unexpectedShape(path: "(document)", expected: "an object", found: found))
    }
    endsWithBytes = false
    defer { endsWithBytes = true }
    do throws(Stop) {
      return .success(try objectDocument())
    } catch {
      guard case .refused(let error) = error else { throw error }
      return .failure(error)
    }
  }
}

extension ReadError {
  /// The same error, placed inside a file of several documents (a syntax error's byte offset
  /// counts from the start of that place).
  func within(_ place: String) -> ReadError {
    switch self {
    case .unexpectedShape(let path, let expected, let found):
      .unexpectedShape(path: "\(place) \(path)", expected: expected, found: found)
    case .signatureRejected(let path, let reason):
      .signatureRejected(path: "\(place) \(path)", reason: reason)
    case .unrecognizedDocument(let reason): .unrecognizedDocument("\(place): \(reason)")
    case .malformedJWS(let reason): .malformedJWS("\(place): \(reason)")
    case .malformedJSON(let syntax):
      .malformedJSON(
        JSONSyntaxError(offset: syntax.offset, message: "\(syntax.message) (in \(place))"))
    case .verifyReceiptStatus: self
    }
  }
}
