extension ReceiptEntry {
  /// Reads one receipt entry written with Apple's snake_case field names (SPEC §3), as in
  /// `in_app` or a scenario's `transactions`, by the schema of verifyReceipt's entries
  /// (``ReceiptEntryFields``).
  ///
  /// ```swift
  /// let (entry, problems) = ReceiptEntry.read(appleFields: value, path: "transactions[0]")
  /// ```
  ///
  /// - Parameters:
  ///   - value: The entry object.
  ///   - path: Its JSON path, for diagnostics.
  /// - Returns: The entry (`nil` without `transaction_id`, or when it is no object) and the
  ///   fields that could not be read.
  package static func read(appleFields value: JSONValue, path: String) -> (
    entry: ReceiptEntry?, diagnostics: [Diagnostic]
  ) {
    guard case .object = value else {
      return (nil, [Self.notAnObject(value, path, "a receipt entry object", ": left out")])
    }
    return SchemaReader.readAuthored(value, path: path) { reader throws(SchemaReader.Stop) in
      try reader.receiptEntry()
    }
  }

  /// The diagnostic of an authored value that is no object.
  static func notAnObject(
    _ value: JSONValue, _ path: String, _ expected: String, _ consequence: String = ""
  ) -> Diagnostic {
    Diagnostic(
      .unreadableField, field: path,
      message: "expected \(expected), found \(value.kindDescription)\(consequence)")
  }
}

extension RenewalInfo {
  /// Reads one renewal info written with Apple's snake_case field names
  /// (`pending_renewal_info`, or a scenario's `pendingRenewalInfo`), by the schema of
  /// verifyReceipt's renewal infos (``PendingRenewalFields``).
  ///
  /// ```swift
  /// let (info, problems) = RenewalInfo.read(appleFields: value, path: "pendingRenewalInfo[0]")
  /// ```
  ///
  /// - Parameters:
  ///   - value: The renewal info object.
  ///   - path: Its JSON path, for diagnostics.
  /// - Returns: The renewal info (`nil` without `original_transaction_id`) and the fields that
  ///   could not be read.
  package static func read(appleFields value: JSONValue, path: String) -> (
    info: RenewalInfo?, diagnostics: [Diagnostic]
  ) {
    guard case .object = value else {
      return (nil, [ReceiptEntry.notAnObject(value, path, "a renewal info object")])
    }
    return SchemaReader.readAuthored(value, path: path) { reader throws(SchemaReader.Stop) in
      try reader.pendingRenewalInfo().info(defaultSubscription: nil, reader: &reader)
    }
  }
}

extension SchemaReader {
  /// `read` run on `value` written back as JSON, inside `path`: what it gives, and its
  /// diagnostics. A value parsed is JSON, so the reader meets no syntax error.
  static func readAuthored<Value>(
    _ value: JSONValue, path: String, _ read: (inout SchemaReader) throws(Stop) -> Value?
  ) -> (Value?, [Diagnostic]) {
    value.bytes.withUnsafeBufferPointer { buffer in
      var reader = SchemaReader(bytes: buffer)
      reader.pathPrefix = path
      do {
        let read = try read(&reader)
        return (read, reader.diagnostics)
      } catch {
        preconditionFailure("a value parsed is read: \(error)")
      }
    }
  }
}
