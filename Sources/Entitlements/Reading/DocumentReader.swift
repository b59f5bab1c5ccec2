/// Reads whatever Apple sent: it recognises the document by its fields (SPEC §10).
///
/// | document | recognised by |
/// |---|---|
/// | a compact JWS (`header.payload.signature`) | three base64url parts: its payload is read |
/// | `{"signedPayload": …}` (a v2 notification as POSTed) | `signedPayload` |
/// | ``ServerNotification`` (v2, decoded) | `notificationType` |
/// | ``StatusUpdateNotification`` (v1) | `notification_type` |
/// | ``TransactionHistoryResponse`` | `signedTransactions` |
/// | ``NotificationHistoryResponse`` | `notificationHistory` |
/// | ``SubscriptionStatusesResponse`` | `data`, an array of subscription groups |
/// | ``VerifyReceiptResponse`` | `status`, `receipt` or `latest_receipt_info` |
/// | ``AppStoreTransaction`` | `transactionId` |
/// | ``AppStoreRenewalInfo`` | `originalTransactionId` without `transactionId` |
///
/// Without a verifier, signed payloads are decoded and **not verified**: anyone can forge
/// one. Give a ``SignedPayloadVerifier`` (the `EntitlementsVerification` library's
/// `SignedDataVerifier`, or your own) and every JWS of the document, nested ones included, is
/// verified before it is read; a refusal is ``ReadError/signatureRejected(path:reason:)``
/// naming the JWS's JSON path.
///
/// Regular documents are read straight from their bytes, with no tree; anything irregular by
/// the general reader, which gives the same answer and says what was irregular. A verifying
/// reader reads every document with the general reader, whose every JWS goes through the
/// verifier.
///
/// ```swift
/// let document = try DocumentReader.read(bytes)  // [UInt8], Data, any bytes
/// var record = SubscriberRecord()
/// record.fold(document)
/// ```
public enum DocumentReader {
  /// Reads one document.
  ///
  /// - Parameters:
  ///   - bytes: The document as received: `[UInt8]`, `Data`, or any collection of bytes.
  ///   - verifier: Verifies every JWS before it is read; `nil` to decode without verifying.
  /// - Returns: The document, read.
  /// - Throws: ``ReadError`` naming what is wrong (byte offset for malformed JSON, the status
  ///   of a verifyReceipt response that carries no receipt, the path of a refused JWS).
  public static func read(
    _ bytes: some Collection<UInt8>, verifier: (any SignedPayloadVerifier)? = nil
  ) throws(ReadError) -> AppStoreDocument {
    let payloads = SignedPayloads(verifier: verifier)
    // A JSON object is read where it lies, with no copy, by the byte-level reader; what it
    // gives up on goes to the general reader, not to it again.
    var triedInPlace = false
    if !payloads.verifies,
      let document = bytes.withContiguousStorageIfAvailable({ buffer in
        guard buffer.first(where: { !isWhitespace($0) }) == UInt8(ascii: "{") else {
          return AppStoreDocument?.none
        }
        triedInPlace = true
        return FastDocumentReader.read(buffer)
      }) ?? nil
    {
      return try checked(document)
    }
    // An array is shared, not copied.
    let array = bytes as? [UInt8] ?? Array(bytes)
    return try checked(
      read(array, depth: 0, fast: !payloads.verifies && !triedInPlace, payloads: payloads))
  }

  /// Reads the JSON object that begins at `start` in `buffer` and is followed by other bytes
  /// (a document among others on a line of `entitlements evaluate`'s input) with the
  /// byte-level reader, unverified, and folds it into `record` where it was read (a document
  /// is a few hundred bytes: it is not copied from result to result). Returns the index just
  /// past the object, and the error when the document is refused (nothing is folded then);
  /// `nil` when the document is not regular: the caller reads its bytes with
  /// ``readGeneral(_:)``, which says what is irregular.
  ///
  /// `memo` carries what the reader learnt from one document to the next (the order of each
  /// kind of object's keys, the last ids read, whose `String`s the next documents share): one
  /// subscriber's documents, read with one memo, are read faster.
  package static func fold(
    _ buffer: UnsafeBufferPointer<UInt8>, objectAt start: Int, into record: inout SubscriberRecord,
    memo: inout Memo
  ) -> (end: Int, refusal: ReadError?)? {
    FastDocumentReader.fold(
      buffer, objectAt: start, reusing: &memo.reader, into: &record, refusal: statusError(of:))
  }

  /// What the byte-level reader carries from one document to the next
  /// (``fold(_:objectAt:into:memo:)``): the reader itself, with what it learnt and its buffers.
  package struct Memo {
    var reader = FastDocumentReader()

    /// Nothing learnt yet: the state of a reader that has read no document.
    package init() {}

    /// Frees the buffers of decoded JWS payloads past ``bytesKept`` bytes, keeping what was
    /// learnt: one very large payload does not hold its memory for the rest of a batch run.
    package mutating func trim() {
      if reader.scratch.capacity > Self.bytesKept { reader.scratch = [] }
      if reader.nestedScratch.capacity > Self.bytesKept { reader.nestedScratch = [] }
    }

    /// The most capacity ``trim()`` keeps in each buffer of decoded payloads: more than
    /// Apple's payloads and a page of them need (a page's payloads are decoded one at a time).
    package static let bytesKept = 1 << 20

    /// The capacity of the buffers of decoded payloads (for the tests).
    package var bufferCapacities: (payloads: Int, nested: Int) {
      (reader.scratch.capacity, reader.nestedScratch.capacity)
    }
  }

  /// Reads every document a file holds: one document, a JSON array of documents (each a JSON
  /// value or a JWS string), or one JWS per line.
  ///
  /// ```swift
  /// try DocumentReader.readAll(Array(#"["eyJ…", {"status": 0, "receipt": {}}]"#.utf8)).count  // 2
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - verifier: Verifies every JWS before it is read; `nil` to decode without verifying.
  /// - Returns: The documents, in the file's order.
  /// - Throws: ``ReadError`` for the first document that cannot be read, its place named.
  public static func readAll(
    _ bytes: some Collection<UInt8>, verifier: (any SignedPayloadVerifier)? = nil
  ) throws(ReadError) -> [AppStoreDocument] {
    switch bytes.first(where: { !isWhitespace($0) }) {
    case UInt8(ascii: "{")?, nil:
      // Read where it lies: a file the caller mapped into memory is not copied.
      return [try read(bytes, verifier: verifier)]
    case UInt8(ascii: "[")?:
      let bytes = Array(bytes)
      let payloads = SignedPayloads(verifier: verifier)
      guard case .array(let elements) = try JSONValue.document(bytes) else {
        preconditionFailure("a document that starts with [ is an array")
      }
      var documents: [AppStoreDocument] = []
      for (index, element) in elements.enumerated() {
        do throws(ReadError) {
          if case .string(let compact) = element {
            documents.append(
              try checked(
                read(
                  payloads.payload(of: compact, at: "[\(index)]"), depth: 1,
                  fast: !payloads.verifies, payloads: payloads)))
          } else {
            documents.append(
              try checked(read(value: element, depth: 0, fast: false, payloads: payloads)))
          }
        } catch {
          throw error.within("[\(index)]")
        }
      }
      return documents
    default:
      // One JWS per line; blank lines are skipped, and a line is named by its number in the file.
      let lines = Array(bytes).split(
        separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      var documents: [AppStoreDocument] = []
      for (index, line) in lines.enumerated() {
        let compact = line.filter { !isWhitespace($0) }
        if compact.isEmpty { continue }
        do throws(ReadError) {
          documents.append(try read(compact, verifier: verifier))
        } catch {
          throw error.within("line \(index + 1)")
        }
      }
      return documents
    }
  }

  /// Reads with the general reader only: the reference the byte-level reader is tested
  /// against, and the reader of a document the byte-level reader did not read in place
  /// (``fold(_:objectAt:into:memo:)``), which says what is irregular.
  package static func readGeneral(_ bytes: [UInt8]) throws(ReadError) -> AppStoreDocument {
    try checked(read(bytes, depth: 0, fast: false, payloads: .unverified))
  }

  /// A document read by one of the readers, checked: a verifyReceipt response whose status
  /// carries no receipt is an error, never an empty history.
  private static func checked(_ document: AppStoreDocument) throws(ReadError) -> AppStoreDocument {
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

  private static func read(
    _ bytes: [UInt8], depth: Int, fast: Bool, payloads: SignedPayloads
  ) throws(ReadError) -> AppStoreDocument {
    // A regular document is read straight from the bytes (FastDocumentReader), a JWS or a
    // POST body around it included; the general reader reads the rest and says what is
    // irregular.
    if fast,
      let document = depth == 0
        ? FastDocumentReader.read(bytes) : FastDocumentReader.read(payload: bytes)
    {
      return document
    }
    let trimmed = bytes.drop { isWhitespace($0) }
    if let first = trimmed.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "["),
      depth == 0
    {
      let text = String(decoding: trimmed, as: UTF8.self).trimmingWhitespace
      if text.utf8.filter({ $0 == UInt8(ascii: ".") }).count == 2 {
        return try read(
          payloads.payload(of: text, at: ""), depth: depth + 1, fast: fast, payloads: payloads)
      }
    }
    return try read(value: JSONValue.document(bytes), depth: depth, fast: fast, payloads: payloads)
  }

  /// Reads a document already parsed (the scenario format's pasted documents).
  package static func read(value: JSONValue) throws(ReadError) -> AppStoreDocument {
    try checked(read(value: value, depth: 0, fast: true, payloads: .unverified))
  }

  private static func read(
    value: JSONValue, depth: Int, fast: Bool, payloads: SignedPayloads
  ) throws(ReadError) -> AppStoreDocument {
    let members = try value.documentObject(at: "")
    // A document of two kinds at once is no document Apple sends: read as either, it would
    // let the keys of one pass for the other (with a verifier, unsigned keys beside signed
    // ones). Both readers refuse it.
    let kinds = Self.kinds(of: members)
    guard kinds.count <= 1 else {
      throw .unrecognizedDocument(
        "keys of \(kinds.count) kinds of document at once (\(kinds.joined(separator: ", "))): "
          + "no document Apple sends has them together")
    }
    if case .string(let compact) = members["signedPayload"], depth < 2 {
      let payload = try payloads.payload(of: compact, at: "signedPayload")
      do throws(ReadError) {
        return try read(payload, depth: depth + 1, fast: fast, payloads: payloads)
      } catch {
        // What is wrong inside the payload is named from the document: "signedPayload >
        // data.signedTransactionInfo".
        throw error.within("signedPayload >")
      }
    }
    if payloads.verifies, depth == 0 {
      // A document read with a verifier must be one of Apple's signed ones, or hold them.
      guard
        members["signedTransactions"] != nil || members["notificationHistory"] != nil
          || members["data"]?.isArray == true
      else {
        throw .signatureRejected(
          path: "(document)", reason: "not signed: a verifying reader reads only signed documents")
      }
    }
    if members["notificationType"] != nil {
      return .notificationV2(try ServerNotification(value: value, payloads: payloads))
    }
    if members["notification_type"] != nil {
      return .notificationV1(try StatusUpdateNotification(value: value))
    }
    if members["signedTransactions"] != nil {
      return .transactionHistory(try TransactionHistoryResponse(value: value, payloads: payloads))
    }
    if members["notificationHistory"] != nil {
      return .notificationHistory(
        try NotificationHistoryResponse(value: value, payloads: payloads))
    }
    if members["data"]?.isArray == true {
      return .subscriptionStatuses(
        try SubscriptionStatusesResponse(value: value, payloads: payloads))
    }
    if members["status"] != nil || members["receipt"] != nil
      || members["latest_receipt_info"] != nil
    {
      return .verifyReceipt(try VerifyReceiptResponse(value: value))
    }
    if members["transactionId"] != nil {
      return .transaction(try AppStoreTransaction(value: value))
    }
    if members["originalTransactionId"] != nil {
      return .renewal(try AppStoreRenewalInfo(value: value))
    }
    if members["appAppleId"] != nil, members["originalApplicationVersion"] != nil {
      throw .unrecognizedDocument(
        "an app transaction: it records the app's purchase, not an in-app one")
    }
    throw .unrecognizedDocument(
      "none of notificationType, notification_type, signedTransactions, notificationHistory, "
        + "data, status, receipt, latest_receipt_info, transactionId, originalTransactionId")
  }
}

extension DocumentReader {
  /// The kinds of document whose keys `members` has, each named by its first key found: a
  /// notification body (`signedPayload`), a v2 notification (`notificationType`), a v1
  /// notification (`notification_type`, whose old shapes also carry verifyReceipt's keys), a
  /// page of an API response (`signedTransactions`, `notificationHistory`, `data` as an
  /// array), a verifyReceipt response (`status`, `receipt`, `latest_receipt_info`), a decoded
  /// transaction or renewal info (`transactionId`, `originalTransactionId`).
  static func kinds(of members: [String: JSONValue]) -> [String] {
    var kinds: [String] = []
    for key in [
      "signedPayload", "notificationType", "notification_type", "signedTransactions",
      "notificationHistory",
    ] where members[key] != nil {
      kinds.append(key)
    }
    if members["data"]?.isArray == true { kinds.append("data") }
    if members["notification_type"] == nil,
      let key = ["status", "receipt", "latest_receipt_info"].first(where: { members[$0] != nil })
    {
      kinds.append(key)
    }
    if let key = ["transactionId", "originalTransactionId"].first(where: { members[$0] != nil }) {
      kinds.append(key)
    }
    return kinds
  }
}

extension JSONValue {
  fileprivate var isArray: Bool {
    if case .array = self { return true }
    return false
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

extension String {
  fileprivate var trimmingWhitespace: String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}
