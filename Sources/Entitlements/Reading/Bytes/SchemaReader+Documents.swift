// Whole documents: which kind a document is (SPEC §10), from the keys at its top, and each
// kind made from what was read.

extension SchemaReader {
  /// A kind of document a caller asks for by type (``AppStoreTransaction/init(unverifiedJSON:)``, …):
  /// the document is read as that kind whatever its keys.
  enum Kind {
    case verifyReceipt, notificationV1, notificationV2, transaction, renewal
  }

  /// The document at ``index``, as received: a JSON object of any kind, or (in the bytes as
  /// given) a bare JWS, whose payload is read as a document.
  mutating func document() throws(Stop) -> AppStoreDocument {
    skipWhitespace()
    guard peek == UInt8(ascii: "{") else { return try notAnObjectDocument() }
    let document = try objectDocument()
    try expectEnd()
    return document
  }

  /// The JSON object at ``index``, of any kind. A transaction or a renewal info, the documents
  /// of most lines of `entitlements evaluate`, is read by ``payload(alone:)``, with none of the
  /// other kinds' state; at the first key of another kind, the object is read again from its
  /// start by the table of every other kind (``anyDocument()``). Without `payloadFirst` (for
  /// the tests, which compare the two, and once a payload's reading found another kind),
  /// every document is read by that table.
  mutating func objectDocument(payloadFirst: Bool = true) throws(Stop) -> AppStoreDocument {
    if payloadFirst, !payloads.verifies {
      let (start, nesting, reported, steps) = (index, depth, diagnostics.count, path.count)
      do throws(Stop) {
        return try payload(alone: true)
      } catch {
        guard case .otherKind = error else { throw error }
      }
      (index, depth) = (start, nesting)
      diagnostics.removeSubrange(reported...)
      path.truncate(to: steps)
    }
    return try anyDocument()
  }

  /// A transaction or renewal info: a transaction when it has `transactionId`. Alone (a
  /// whole document), a key of another kind throws ``Stop/otherKind``.
  private mutating func payload(alone: Bool) throws(Stop) -> AppStoreDocument {
    let start = diagnostics.count
    var fields = DecodedPayloadFields()
    var spans: [DiagnosticSpan] = []
    var keys = KeySet()
    _ = try read(
      schemas.payload, into: &fields, escape: alone ? schemas.document : nil, spans: &spans,
      keys: &keys)
    if keys.contains(schemas.markers.transactionID) {
      keepDiagnostics(of: .transaction, spans)
      return .transaction(transaction(&fields, diagnosticsFrom: start))
    }
    if keys.contains(schemas.markers.originalTransactionID) {
      keepDiagnostics(of: .renewal, spans)
      return .renewal(renewal(&fields, diagnosticsFrom: start))
    }
    // Neither: a document of no kind, which the table of every kind says.
    throw .otherKind
  }

  /// ``payload(alone:)`` of a whole document, folded into `record` as folding its answer
  /// would fold it, but from the fields read: a transaction's entry is moved into the record,
  /// with no `AppStoreTransaction` and no `AppStoreDocument` made, copied and destroyed on the
  /// way. Nothing is folded when it throws.
  mutating func foldPayload(into record: inout SubscriberRecord) throws(Stop) {
    let start = diagnostics.count
    var fields = DecodedPayloadFields()
    var spans: [DiagnosticSpan] = []
    var keys = KeySet()
    _ = try read(
      schemas.payload, into: &fields, escape: schemas.document, spans: &spans, keys: &keys)
    try expectEnd()
    if keys.contains(schemas.markers.transactionID) {
      keepDiagnostics(of: .transaction, spans)
      let entry = transactionEntry(&fields)
      // The entry's id, without a copy of the entry (there is one exactly when there is an id).
      if let transaction = fields.transactionID { name(transaction, inDiagnosticsFrom: start) }
      record.fold(
        transactionEntry: entry, environment: fields.environment, timestamp: fields.signedDate,
        diagnostics: diagnostics(from: start))
      return
    }
    guard keys.contains(schemas.markers.originalTransactionID) else { throw .otherKind }
    keepDiagnostics(of: .renewal, spans)
    record.fold(renewal(&fields, diagnosticsFrom: start))
  }

  /// The JSON object at ``index`` read by the table of every kind of document but a decoded
  /// payload; the kind chosen at the end by the keys met (``kind(_:data:)``).
  private mutating func anyDocument() throws(Stop) -> AppStoreDocument {
    let (start, nesting, reported) = (index, depth, diagnostics.count)
    var keys = KeySet()
    if payloads.verifies {
      // Which kind, and whether it is signed, is known before any JWS is verified.
      let top = try topKeys()
      keys = top.keys
      index = start
      let kind = try kind(keys, dataIsArray: top.dataIsArray)
      if !(kind == .signedPayload && top.signedPayloadIsString && unwrapped < 2), unwrapped == 0,
        kind != .transactionHistory, kind != .notificationHistory,
        kind != .subscriptionStatuses
      {
        throw .refused(
          .signatureRejected(
            path: "(document)", reason: "not signed: a verifying reader reads only signed documents"
          ))
      }
    }
    var fields = DocumentFields()
    var spans: [DiagnosticSpan] = []
    _ = try read(schemas.document, into: &fields, spans: &spans, keys: &keys)
    let kind = try kind(keys, dataIsArray: fields.data.isArray)
    switch kind {
    case .signedPayload:
      if unwrapped < 2, let signed = fields.signedPayload {
        diagnostics.removeSubrange(reported...)
        return try unwrap(signed)
      }
      throw .refused(unrecognized(keys))
    case .notificationV2:
      keepDiagnostics(of: .notificationV2, spans)
      return .notificationV2(notificationV2(&fields, diagnosticsFrom: reported))
    case .notificationV1:
      keepDiagnostics(of: .notificationV1, spans)
      return .notificationV1(
        try notificationV1(&fields, at: start, diagnosticsFrom: reported, keys: keys))
    case .transactionHistory:
      keepDiagnostics(of: .transactionHistory, spans)
      return .transactionHistory(transactionHistory(&fields, diagnosticsFrom: reported))
    case .notificationHistory:
      keepDiagnostics(of: .notificationHistory, spans)
      return .notificationHistory(notificationHistory(&fields, diagnosticsFrom: reported))
    case .subscriptionStatuses:
      keepDiagnostics(of: .subscriptionStatuses, spans)
      return .subscriptionStatuses(subscriptionStatuses(&fields, diagnosticsFrom: reported))
    case .verifyReceipt:
      keepDiagnostics(of: .verifyReceipt, spans)
      return .verifyReceipt(
        try verifyReceipt(&fields, at: start, diagnosticsFrom: reported, keys: keys))
    case .transaction, .renewal:
      // A payload with a key of another kind that marks no kind: read again as the payload.
      let end = index
      (index, depth) = (start, nesting)
      diagnostics.removeSubrange(reported...)
      let document = try payload(alone: false)
      index = end
      return document
    case .none:
      throw .refused(unrecognized(keys))
    }
  }

  /// What a document's keys make it.
  private enum TopKind {
    case signedPayload, notificationV2, notificationV1, transactionHistory, notificationHistory
    case subscriptionStatuses, verifyReceipt, transaction, renewal, none
  }

  /// The kind of document whose top has `keys` and `data`; a document with the keys of two
  /// kinds at once is no document Apple sends: read as either, it would let the keys of one
  /// pass for the other (with a verifier, unsigned keys beside signed ones), so it is refused.
  private func kind(_ keys: KeySet, dataIsArray: Bool) throws(Stop) -> TopKind {
    let markers = schemas.markers
    var kinds: [(TopKind, KeyID)] = []
    for (kind, key) in [
      (TopKind.signedPayload, markers.signedPayload), (.notificationV2, markers.notificationType),
      (.notificationV1, markers.notificationTypeV1),
      (.transactionHistory, markers.signedTransactions),
      (.notificationHistory, markers.notificationHistory),
    ] where keys.contains(key) {
      kinds.append((kind, key))
    }
    if dataIsArray {
      kinds.append((.subscriptionStatuses, markers.data))
    }
    if !keys.contains(markers.notificationTypeV1),
      let key = [markers.status, markers.receipt, markers.latestReceiptInfo].first(where: {
        keys.contains($0)
      })
    {
      kinds.append((.verifyReceipt, key))
    }
    if keys.contains(markers.transactionID) {
      kinds.append((.transaction, markers.transactionID))
    } else if keys.contains(markers.originalTransactionID) {
      kinds.append((.renewal, markers.originalTransactionID))
    }
    guard kinds.count <= 1 else {
      let names = kinds.map { schemas.keys.name(of: $0.1) }
      throw .refused(
        .unrecognizedDocument(
          "keys of \(kinds.count) kinds of document at once (\(names.joined(separator: ", "))): "
            + "no document Apple sends has them together"))
    }
    return kinds.first?.0 ?? .none
  }

  /// Why a document of no kind is refused.
  private func unrecognized(_ keys: KeySet) -> ReadError {
    let markers = schemas.markers
    if keys.contains(markers.appAppleID), keys.contains(markers.originalApplicationVersion) {
      return .unrecognizedDocument(
        "an app transaction: it records the app's purchase, not an in-app one")
    }
    return .unrecognizedDocument(
      "none of notificationType, notification_type, signedTransactions, notificationHistory, "
        + "data, status, receipt, latest_receipt_info, transactionId, originalTransactionId")
  }

  /// The keys at the top of the object at ``index``, its values skipped, and whether its
  /// `data` is an array and its `signedPayload` a string (the last of each, as it is read);
  /// ``index`` then past it.
  private mutating func topKeys() throws(Stop)
    -> (keys: KeySet, dataIsArray: Bool, signedPayloadIsString: Bool)
  {
    var keys = KeySet()
    var (dataIsArray, signedPayloadIsString) = (false, false)
    let markers = schemas.markers
    try object { reader, key, _ throws(Stop) in
      keys.insert(key)
      reader.skipWhitespace()
      if key == markers.data { dataIsArray = reader.peek == UInt8(ascii: "[") }
      if key == markers.signedPayload { signedPayloadIsString = reader.peek == UInt8(ascii: "\"") }
      try reader.skipValue()
    }
    return (keys, dataIsArray, signedPayloadIsString)
  }

  /// A POST body's payload, read as a whole document (one level more unwrapped); what is
  /// wrong inside it is named from the body (`signedPayload > data.signedTransactionInfo`).
  private mutating func unwrap(_ signed: SignedText) throws(Stop) -> AppStoreDocument {
    let end = index
    index = signed.start
    let key = schemas.markers.signedPayload
    let outcome: Result<AppStoreDocument, ReadError>
    do throws(Stop) {
      outcome = try openJWS(at: key) { reader throws(Stop) in
        reader.unwrapped += 1
        defer { reader.unwrapped -= 1 }
        let saved = reader.path
        reader.path = JSONPath()
        defer { reader.path = saved }
        do throws(Stop) {
          return .success(try reader.wholePayload())
        } catch {
          guard case .refused(let error) = error else { throw error }
          return .failure(error.within("signedPayload >"))
        }
      }
    } catch {
      guard case .refused(let error) = error else { throw error }
      throw .refused(error)
    }
    index = end
    switch outcome {
    case .success(let document): return document
    case .failure(let error):
      // A JWS that does not open is the body's error as is; what is wrong inside, named.
      if case .malformedJWS = error { throw .refused(error) }
      if case .malformedJSON = error { throw .refused(error.within("signedPayload >")) }
      throw .refused(error)
    }
  }

  /// The payload being read, as a whole document: JSON only (no bare JWS inside a JWS).
  private mutating func wholePayload() throws(Stop) -> AppStoreDocument {
    skipWhitespace()
    guard peek == UInt8(ascii: "{") else { throw .refused(try notAnObject()) }
    let document = try objectDocument()
    try expectEnd()
    return document
  }

  /// A whole document that is no JSON object: a bare JWS (exactly two dots, in the bytes as
  /// given), whose payload is read as a document; else its syntax error, or what it is.
  private mutating func notAnObjectDocument() throws(Stop) -> AppStoreDocument {
    let start = index
    guard unwrapped == 0, peek != UInt8(ascii: "["), let (first, second) = bareJWSDots(from: start)
    else { throw .refused(try notAnObject()) }
    var end = bytes.count
    while end > start, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
    var verified: [UInt8]?
    if payloads.verifies {
      do throws(ReadError) {
        verified = try payloads.payload(of: text(start, end), at: "")
      } catch {
        throw .refused(error)
      }
    }
    // Decoded where it lies, unless verified: its payload is the part between the dots.
    let document = try withPayload(decodedFrom: first + 1, to: second, verified: verified) {
      reader throws(Stop) in
      reader.unwrapped += 1
      defer { reader.unwrapped -= 1 }
      do throws(Stop) {
        return try reader.wholePayload()
      } catch {
        guard case .syntax = error else { throw error }
        throw .refused(.malformedJSON(reader.syntaxError()))
      }
    }
    guard let document else { throw .refused(.malformedJWS("the payload is not base64url")) }
    index = end
    return document
  }

  /// The two dots of the bytes from `start`, when they hold exactly two (a compact JWS, as a
  /// whole document is read as one); `nil` otherwise.
  private func bareJWSDots(from start: Int) -> (Int, Int)? {
    guard let first = nextDot(from: start), let second = nextDot(from: first + 1),
      nextDot(from: second + 1) == nil
    else { return nil }
    return (first, second)
  }

  /// The document at ``index`` read as `kind`, whatever its keys (the typed entry points).
  mutating func document(as kind: Kind) throws(Stop) -> AppStoreDocument {
    skipWhitespace()
    guard peek == UInt8(ascii: "{") else { throw .refused(try notAnObject()) }
    let start = index
    let reported = diagnostics.count
    let document: AppStoreDocument
    switch kind {
    case .transaction: document = .transaction(try transactionPayload())
    case .renewal: document = .renewal(try renewalPayload())
    default:
      var fields = DocumentFields()
      var spans: [DiagnosticSpan] = []
      var keys = KeySet()
      _ = try read(schemas.document, into: &fields, spans: &spans, keys: &keys)
      switch kind {
      case .notificationV2:
        keepDiagnostics(of: .notificationV2, spans)
        document = .notificationV2(notificationV2(&fields, diagnosticsFrom: reported))
      case .notificationV1:
        keepDiagnostics(of: .notificationV1, spans)
        document = .notificationV1(
          try notificationV1(&fields, at: start, diagnosticsFrom: reported, keys: keys))
      default:
        keepDiagnostics(of: .verifyReceipt, spans)
        document = .verifyReceipt(
          try verifyReceipt(&fields, at: start, diagnosticsFrom: reported, keys: keys))
      }
    }
    try expectEnd()
    return document
  }

  /// The v2 notification of the payload being read, whatever its keys (a history page's
  /// item).
  mutating func notificationPayload() throws(Stop) -> ServerNotification {
    let reported = diagnostics.count
    var fields = DocumentFields()
    var spans: [DiagnosticSpan] = []
    var keys = KeySet()
    // Read by a notification's members alone: another kind's (a history of its own, a page's
    // transactions) are skipped, not decoded.
    _ = try read(schemas.notification, into: &fields, spans: &spans, keys: &keys)
    keepDiagnostics(of: .notificationV2, spans)
    return notificationV2(&fields, diagnosticsFrom: reported)
  }
}
