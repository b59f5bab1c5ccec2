// The members whose values hold objects: lists of entries and renewal infos, a receipt, a
// notification's data, pages' items, signed payloads. What cannot be used is reported with its
// path, and the rest is read.

extension SchemaReader {
  /// Reads a member whose value holds objects (``FieldReading``, from ``entries`` on).
  @inline(never)
  mutating func readStructure(_ reading: FieldReading, into destination: UnsafeMutableRawPointer)
    throws(Stop)
  {
    switch reading {
    case .entries: Self.store(try entries(), destination)
    case .renewalInfos: Self.store(try renewalInfos(), destination)
    case .receipt: Self.store(try receipt(), destination)
    case .unifiedReceipt: Self.store(try unifiedReceipt(), destination)
    case .data: Self.store(try data(), destination)
    case .signedDocument: Self.store(try signedDocument(), destination)
    case .signedTransactions: Self.store(try signedTransactions(), destination)
    case .notificationHistory: Self.store(try notificationHistory(), destination)
    case .lastTransactions: Self.store(try lastTransactions(), destination)
    case .signedTransaction: Self.store(try signedTransaction(), destination)
    case .signedRenewalInfo: Self.store(try signedRenewalInfo(), destination)
    case .signedNotification: Self.store(try signedNotification(), destination)
    case .commitment: Self.store(try commitment(), destination)
    default: preconditionFailure("\(reading) is read as a scalar")
    }
  }

  /// The elements of the array at ``index``, each read by `element` at its path
  /// (`key[position]`).
  @inline(__always)
  private mutating func elements(
    of key: KeyID, _ element: (inout SchemaReader) throws(Stop) -> Void
  ) throws(Stop) {
    path.append(.key(key))
    defer { path.removeLast() }
    try array { reader, position throws(Stop) in
      reader.path.append(.element(position))
      defer { reader.path.removeLast() }
      try element(&reader)
    }
  }

  /// `body` run on the object that is the value of `key`, at its path.
  @inline(__always)
  private mutating func inside<Value>(
    _ key: KeyID, _ body: (inout SchemaReader) throws(Stop) -> Value
  ) throws(Stop) -> Value {
    path.append(.key(key))
    defer { path.removeLast() }
    return try body(&self)
  }

  // MARK: - verifyReceipt and v1 notifications

  /// Receipt entries: an array of objects, one object (iOS 6), or null.
  private mutating func entries() throws(Stop) -> [ReceiptEntry] {
    try objectsOrOne(
      element: "a receipt entry object", consequence: ": left out", list: "an array of entries"
    ) { reader, entries throws(Stop) in try reader.receiptEntry(appendingTo: &entries) }
  }

  /// Renewal infos: an array of objects, one object, or null.
  private mutating func renewalInfos() throws(Stop) -> [PendingRenewalInfo] {
    try objectsOrOne(
      element: "a renewal info object", consequence: "", list: "an array of renewal info"
    ) { reader, infos throws(Stop) in infos.append(try reader.pendingRenewalInfo()) }
  }

  /// An array of objects, one object in its place (as iOS 6 wrote them), or null: `read`
  /// reads each object and appends what it makes. Any other element is reported as not
  /// `element` (`consequence` says what becomes of it), any other value as not `list`.
  @inline(__always)
  private mutating func objectsOrOne<Value>(
    element: String, consequence: String, list: String,
    _ read: (inout SchemaReader, inout [Value]) throws(Stop) -> Void
  ) throws(Stop) -> [Value] {
    let key = member
    var values: [Value] = []
    skipWhitespace()
    switch peek {
    case UInt8(ascii: "["):
      try elements(of: key) { reader throws(Stop) in
        guard reader.peek == UInt8(ascii: "{") else {
          let found = try reader.skipDescribing()
          reader.reportHere("expected \(element), found \(found)\(consequence)")
          return
        }
        try read(&reader, &values)
      }
    case UInt8(ascii: "{"):
      try inside(key) { reader throws(Stop) in try read(&reader, &values) }
    default:
      if !null() { report("expected \(list), found \(try skipDescribing())") }
    }
    return values
  }

  /// verifyReceipt's `receipt`.
  private mutating func receipt() throws(Stop) -> ReceiptFields? {
    let key = member
    skipWhitespace()
    guard peek == UInt8(ascii: "{") else {
      report("expected an object, found \(try skipDescribing())")
      return nil
    }
    return try inside(key) { reader throws(Stop) in try reader.receiptObject() }
  }

  /// A v1 notification's `unified_receipt`.
  private mutating func unifiedReceipt() throws(Stop) -> UnifiedReceiptFields? {
    let key = member
    skipWhitespace()
    guard peek == UInt8(ascii: "{") else {
      report("expected an object, found \(try skipDescribing())")
      return nil
    }
    return try inside(key) { reader throws(Stop) in
      var fields = UnifiedReceiptFields()
      _ = try reader.read(reader.schemas.unifiedReceipt, into: &fields)
      return fields
    }
  }

  // MARK: - v2 notifications and the App Store Server API

  /// A decoded payload's `commitmentInfo`.
  private mutating func commitment() throws(Stop) -> CommitmentBox? {
    let key = member
    skipWhitespace()
    guard peek == UInt8(ascii: "{") else {
      if !null() { report("expected an object, found \(try skipDescribing())") }
      return nil
    }
    return try inside(key) { reader throws(Stop) in
      var fields = CommitmentFields()
      _ = try reader.read(reader.schemas.commitment, into: &fields)
      return CommitmentBox(fields)
    }
  }

  /// `data`: a v2 notification's object, or Get All Subscription Statuses' array of groups.
  private mutating func data() throws(Stop) -> DataMember {
    let key = member
    skipWhitespace()
    switch peek {
    case UInt8(ascii: "{"):
      return .notification(
        try inside(key) { reader throws(Stop) in
          var fields = NotificationDataFields()
          _ = try reader.read(reader.schemas.notificationData, into: &fields)
          return fields
        })
    case UInt8(ascii: "["):
      var transactions: [SubscriptionStatusesResponse.LastTransaction] = []
      try elements(of: key) { reader throws(Stop) in
        guard reader.peek == UInt8(ascii: "{") else {
          let found = try reader.skipDescribing()
          reader.reportHere("expected an object, found \(found): left out")
          return
        }
        transactions += try reader.subscriptionGroup()
      }
      return .groups(transactions)
    default:
      // Null is absent, as everywhere else.
      if null() { return .absent }
      report("expected an object or an array, found \(try skipDescribing())")
      return .other
    }
  }

  /// A group's `lastTransactions`; `nil` when it is no array (the group reports it).
  private mutating func lastTransactions() throws(Stop)
    -> [SubscriptionStatusesResponse.LastTransaction]?
  {
    skipWhitespace()
    guard peek == UInt8(ascii: "[") else {
      try skipValue()
      return nil
    }
    var transactions: [SubscriptionStatusesResponse.LastTransaction] = []
    try elements(of: member) { reader throws(Stop) in
      guard reader.peek == UInt8(ascii: "{") else {
        let found = try reader.skipDescribing()
        reader.reportHere("expected an object, found \(found): left out")
        return
      }
      var fields = LastTransactionFields()
      _ = try reader.read(reader.schemas.lastTransaction, into: &fields)
      transactions.append(fields.lastTransaction)
    }
    return transactions
  }

  /// Get Transaction History's `signedTransactions`: JWS strings, each a transaction.
  private mutating func signedTransactions() throws(Stop) -> [AppStoreTransaction] {
    let key = member
    skipWhitespace()
    guard peek == UInt8(ascii: "[") else {
      report("expected an array, found \(try skipDescribing())")
      return []
    }
    var transactions: [AppStoreTransaction] = []
    try elements(of: key) { reader throws(Stop) in
      guard reader.peek == UInt8(ascii: "\"") else {
        let found = try reader.skipDescribing()
        reader.reportHere("expected a JWS string, found \(found): left out")
        return
      }
      switch try reader.openJWS({ reader throws(Stop) in
        try reader.payloadObject { reader throws(Stop) in try reader.transactionPayload() }
      }) {
      case .success(let transaction): transactions.append(transaction)
      case .failure(let error): reader.reportHere("cannot read the signed transaction: \(error)")
      }
    }
    return transactions
  }

  /// Get Notification History's `notificationHistory`: items, each with a `signedPayload`.
  private mutating func notificationHistory() throws(Stop) -> [ServerNotification] {
    let key = member
    skipWhitespace()
    guard peek == UInt8(ascii: "[") else {
      try skipValue()
      report("expected an array of notifications")
      return []
    }
    var notifications: [ServerNotification] = []
    try elements(of: key) { reader throws(Stop) in
      var fields = NotificationHistoryItemFields()
      let schemas = reader.schemas
      var hasPayload = false
      if reader.peek == UInt8(ascii: "{") {
        let presence = try reader.read(schemas.notificationHistoryItem, into: &fields)
        hasPayload = presence.contains(schemas.markers.itemPayload)
      } else {
        try reader.skipValue()
      }
      if let notification = fields.notification {
        notifications.append(notification)
      } else if !hasPayload {
        reader.report("missing: the notification is left out", at: schemas.markers.itemPayloadKey)
      }
    }
    return notifications
  }

  /// A history item's `signedPayload`: a JWS of a v2 notification.
  private mutating func signedNotification() throws(Stop) -> ServerNotification? {
    let key = member
    skipWhitespace()
    guard peek == UInt8(ascii: "\"") else {
      report("expected a JWS string, found \(try skipDescribing()): the notification is left out")
      return nil
    }
    return try inside(key) { reader throws(Stop) in
      switch try reader.openJWS({ reader throws(Stop) in
        try reader.payloadObject { reader throws(Stop) in try reader.notificationPayload() }
      }) {
      case .success(let notification): return notification
      case .failure(let error):
        reader.reportHere("cannot read the notification: \(error)")
        return nil
      }
    }
  }

  /// `signedTransactionInfo`: a JWS of a transaction, the decoded transaction in its place
  /// (refused by a verifying reader: it carries no signature), or null.
  private mutating func signedTransaction() throws(Stop) -> AppStoreTransaction? {
    try signedField(what: "the signed transaction", type: "AppStoreTransaction") {
      reader throws(Stop) in try reader.transactionPayload()
    }
  }

  /// `signedRenewalInfo`: as ``signedTransaction()``, of renewal info.
  private mutating func signedRenewalInfo() throws(Stop) -> AppStoreRenewalInfo? {
    try signedField(what: "the signed renewal info", type: "AppStoreRenewalInfo") {
      reader throws(Stop) in try reader.renewalPayload()
    }
  }

  /// A signed field: a JWS whose payload `read` reads, the decoded object in its place, or
  /// null; anything else, or a payload that cannot be read, reported (in a notification's
  /// `data`, in the words of ``notificationFieldProblem(_:type:)``).
  private mutating func signedField<Value>(
    what: String, type: String, _ read: (inout SchemaReader) throws(Stop) -> Value
  ) throws(Stop) -> Value? {
    let key = member
    let inNotification = path.last.map { $0.key == schemas.markers.data } ?? false
    skipWhitespace()
    switch peek {
    case UInt8(ascii: "{"):
      if payloads.verifies {
        throw .refused(
          .signatureRejected(
            path: pathText(appending: key), reason: "a decoded object, not a signed payload"))
      }
      return try inside(key, read)
    case UInt8(ascii: "\""):
      return try inside(key) { reader throws(Stop) in
        switch try reader.openJWS({ reader throws(Stop) in
          try reader.payloadObject(read)
        }) {
        case .success(let value): return value
        case .failure(let error):
          reader.reportHere(
            inNotification
              ? reader.notificationFieldProblem(error, type: type) : "cannot read \(what): \(error)"
          )
          return nil
        }
      }
    default:
      if null() { return nil }
      report("expected a JWS string or an object, found \(try skipDescribing())")
      return nil
    }
  }

  /// Why a JWS of a v2 notification's `data` cannot be read, in the words backends have
  /// matched since the first release (the API responses' say `cannot read the signed
  /// transaction: …`): `cannot decode the JWS payload: …`, or, for a payload that is no object,
  /// `the signed payload holds no AppStoreTransaction: PATH: expected an object, found …`.
  private func notificationFieldProblem(_ error: ReadError, type: String) -> String {
    switch error {
    case .malformedJSON(let syntax): "cannot decode the JWS payload: \(syntax)"
    case .unexpectedShape(_, let expected, let found):
      "the signed payload holds no \(type): \(pathText()): expected \(expected), found \(found)"
    default: "cannot decode the JWS payload: \(error)"
    }
  }

  /// A POST body's `signedPayload`: where its JWS lies, read once the document is known to
  /// be a POST body and nothing else (``SignedText``); `nil` for any other value.
  private mutating func signedDocument() throws(Stop) -> SignedText? {
    skipWhitespace()
    guard peek == UInt8(ascii: "\"") else {
      try skipValue()
      return nil
    }
    let start = index
    try skipString()
    return SignedText(start: start, end: index)
  }
}

/// Where a JWS string lies in the bytes read, quotes included: a POST body's `signedPayload`,
/// opened only once the body is known to hold nothing else.
struct SignedText: Sendable {
  var start: Int
  var end: Int
}
