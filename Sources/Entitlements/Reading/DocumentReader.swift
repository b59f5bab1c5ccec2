/// Reads whatever Apple sent: it recognises the document by its fields.
///
/// | document | recognised by |
/// |---|---|
/// | a compact JWS (`header.payload.signature`) | three base64url parts: its payload is read |
/// | `{"signedPayload": …}` (a v2 notification as POSTed) | `signedPayload` |
/// | ``ServerNotification`` (v2, decoded) | `notificationType` |
/// | ``StatusUpdateNotification`` (v1) | `notification_type` |
/// | ``VerifyReceiptResponse`` | `status`, `receipt` or `latest_receipt_info` |
/// | ``AppStoreTransaction`` | `transactionId` |
/// | ``AppStoreRenewalInfo`` | `originalTransactionId` without `transactionId` |
///
/// Signatures are not verified (see ``JWS``).
///
/// ```swift
/// let document = try DocumentReader.read(bytes)  // [UInt8], Data, any bytes
/// var record = SubscriberRecord()
/// record.fold(document)
/// ```
public enum DocumentReader {
  /// Reads one document.
  ///
  /// - Parameter bytes: The document as received: `[UInt8]`, `Data`, or any collection of
  ///   bytes.
  /// - Returns: The document, read.
  /// - Throws: ``ReadError`` naming what is wrong (byte offset for malformed JSON).
  public static func read(_ bytes: some Collection<UInt8>) throws(ReadError) -> AppStoreDocument {
    try wrap(read(Array(bytes), depth: 0, fast: true))
  }

  /// Reads with the general reader only (the reference the byte-level reader is tested
  /// against).
  static func readGeneral(_ bytes: [UInt8]) throws(ReadError) -> AppStoreDocument {
    try wrap(read(bytes, depth: 0, fast: false))
  }

  /// A document read by one of the readers, as the closed set of kinds.
  private static func wrap(_ document: any PurchaseDocument) throws(ReadError) -> AppStoreDocument {
    guard let wrapped = AppStoreDocument(document) else {
      preconditionFailure("every reader makes one of the kinds of AppStoreDocument")
    }
    return wrapped
  }

  private static func read(_ bytes: [UInt8], depth: Int, fast: Bool) throws(ReadError)
    -> any PurchaseDocument
  {
    let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    if let first = trimmed.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "["),
      depth == 0
    {
      let text = String(decoding: trimmed, as: UTF8.self).trimmingWhitespace
      if text.utf8.filter({ $0 == UInt8(ascii: ".") }).count == 2 {
        return try read(JWS.payload(of: text), depth: depth + 1, fast: fast)
      }
    }
    // A regular document is read straight from the bytes (FastDocumentReader); the general
    // reader reads the rest and says what is irregular.
    if fast, let document = FastDocumentReader.read(bytes) { return document }
    return try read(value: JSONValue.document(bytes), depth: depth, fast: fast)
  }

  /// Reads a document already parsed (the scenario format's pasted documents).
  package static func read(value: JSONValue) throws(ReadError) -> AppStoreDocument {
    try wrap(read(value: value, depth: 0, fast: true))
  }

  private static func read(value: JSONValue, depth: Int, fast: Bool) throws(ReadError)
    -> any PurchaseDocument
  {
    let members = try value.documentObject(at: "")
    if case .string(let compact) = members["signedPayload"], depth < 2 {
      return try read(JWS.payload(of: compact), depth: depth + 1, fast: fast)
    }
    if members["notificationType"] != nil { return try ServerNotification(value: value) }
    if members["notification_type"] != nil { return try StatusUpdateNotification(value: value) }
    if members["status"] != nil || members["receipt"] != nil
      || members["latest_receipt_info"] != nil
    {
      return try VerifyReceiptResponse(value: value)
    }
    if members["transactionId"] != nil { return try AppStoreTransaction(value: value) }
    if members["originalTransactionId"] != nil { return try AppStoreRenewalInfo(value: value) }
    if members["appAppleId"] != nil, members["originalApplicationVersion"] != nil {
      throw .unrecognizedDocument(
        "an app transaction: it records the app's purchase, not an in-app one")
    }
    throw .unrecognizedDocument(
      "none of notificationType, notification_type, status, receipt, latest_receipt_info, "
        + "transactionId, originalTransactionId")
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
