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
    guard let read = FastDocumentReader.read(bytes) else { return nil }
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

  /// Whether two documents are the same value of the same type.
  static func isSame(_ a: any PurchaseDocument, _ b: any PurchaseDocument) -> Bool {
    guard let a = a as? any (PurchaseDocument & Equatable) else { return false }
    func isEqual<Document: PurchaseDocument & Equatable>(_ a: Document) -> Bool {
      (b as? Document) == a
    }
    return isEqual(a)
  }
}
