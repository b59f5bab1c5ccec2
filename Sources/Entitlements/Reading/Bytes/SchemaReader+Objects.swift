// An object read by its schema's table: each member the table has, read as its reading says
// and stored where its property lies; every other member skipped.

extension SchemaReader {
  /// Diagnostics made while reading a member of a shared table that only some kinds of
  /// document read: kept only when the document is one of them.
  struct DiagnosticSpan {
    var range: Range<Int>
    var documents: DocumentKinds
  }

  /// The keys met at the top of a document, whatever table has them: which kinds of document
  /// it may be.
  struct KeySet {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    @inline(__always)
    func contains(_ key: KeyID) -> Bool {
      let bit: UInt64 = 1 << UInt64(key.rawValue & 63)
      switch key.rawValue >> 6 {
      case 0: return words.0 & bit != 0
      case 1: return words.1 & bit != 0
      case 2: return words.2 & bit != 0
      default: return words.3 & bit != 0
      }
    }

    @inline(__always)
    mutating func insert(_ key: KeyID) {
      let bit: UInt64 = 1 << UInt64(key.rawValue & 63)
      switch key.rawValue >> 6 {
      case 0: words.0 |= bit
      case 1: words.1 |= bit
      case 2: words.2 |= bit
      default: words.3 |= bit
      }
    }
  }

  /// Reads the object at ``index`` into `fields` by `table`. A member given twice makes the
  /// object be read again, the last of each kept (as JSON readers keep the last value).
  ///
  /// - Parameters:
  ///   - table: The schema of the object.
  ///   - fields: Receives each member read, as `table` says; starts empty.
  ///   - escape: The table of the other kinds of document: meeting one of its members that
  ///     `table` lacks throws ``Stop/otherKind`` (a payload read alone meets a key of another
  ///     kind of document).
  ///   - spans: Receives the spans of diagnostics made by members some kinds of document read
  ///     (``Table/isShared``).
  ///   - keys: Receives every key met, known to `table` or not, when `table` is shared (the
  ///     top of a document).
  /// - Returns: The members present.
  /// - Throws: ``Stop`` when the bytes are not JSON, at a key of another kind with `escape`,
  ///   or when a value read is refused.
  @inline(__always)
  mutating func read<Fields: AppleFields>(
    _ table: Table, into fields: inout Fields, escape: Table? = nil,
    spans: inout [DiagnosticSpan], keys: inout KeySet
  ) throws(Stop) -> Presence {
    let start = index
    let saved = (depth, diagnostics.count, spans.count, path.count)
    do throws(Stop) {
      return try withUnsafeMutableBytes(of: &fields) { raw throws(Stop) in
        let base = Self.address(of: raw)
        guard escape != nil || table.isShared else {
          return try plainMembers(table, into: base)
        }
        return try members(
          table, into: base, last: nil, escape: escape, spans: &spans, keys: &keys)
      }
    } catch {
      guard case .repeated = error else { throw error }
    }
    // A member given twice: each member's last place found, then the object read again.
    (index, depth) = (start, saved.0)
    diagnostics.removeSubrange(saved.1...)
    spans.removeSubrange(saved.2...)
    path.truncate(to: saved.3)
    fields = Fields()
    let last = try lastPlaces(table)
    index = start
    return try withUnsafeMutableBytes(of: &fields) { raw throws(Stop) in
      try members(
        table, into: Self.address(of: raw), last: last, escape: escape, spans: &spans,
        keys: &keys)
    }
  }

  /// Where the fields of an object lie: every ``AppleFields`` has stored properties.
  @inline(__always)
  private static func address(of fields: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawPointer {
    guard let base = fields.baseAddress else { preconditionFailure("fields of no storage") }
    return base
  }

  /// ``read(_:into:escape:spans:keys:)`` of a table no kind of document shares, with no
  /// escape.
  @inline(__always)
  mutating func read<Fields: AppleFields>(_ table: Table, into fields: inout Fields)
    throws(Stop) -> Presence
  {
    var spans: [DiagnosticSpan] = []
    var keys = KeySet()
    return try read(table, into: &fields, spans: &spans, keys: &keys)
  }

  /// The members of the object at ``index``, each read into `base` (the fields' memory) at its
  /// property's offset. With `last`, a member is read only at its last place (the offset of
  /// its name), and skipped elsewhere. One function for every table: the loop every object of
  /// every document runs, kept whole (its key matching in line) and in one place in the cache.
  @inline(never)
  private mutating func members(
    _ table: Table, into base: UnsafeMutableRawPointer, last: [Int]?, escape: Table?,
    spans: inout [DiagnosticSpan], keys: inout KeySet
  ) throws(Stop) -> Presence {
    try members(
      table, into: base, last: last, escape: escape, shared: table.isShared, spans: &spans,
      keys: &keys)
  }

  /// ``members(_:into:last:escape:spans:keys:)`` of a table no kind of document shares, read
  /// once, with no escape: the loop of nearly every object, with nothing else to check.
  @inline(never)
  private mutating func plainMembers(_ table: Table, into base: UnsafeMutableRawPointer)
    throws(Stop) -> Presence
  {
    var spans: [DiagnosticSpan] = []
    var keys = KeySet()
    return try members(
      table, into: base, last: nil, escape: nil, shared: false, spans: &spans, keys: &keys)
  }

  /// The loop of ``members(_:into:last:escape:spans:keys:)``; `shared` is
  /// ``Table/isShared``, given so that the loop of a table no document shares has no check
  /// of it.
  @inline(__always)
  private mutating func members(
    _ table: Table, into base: UnsafeMutableRawPointer, last: [Int]?, escape: Table?,
    shared: Bool, spans: inout [DiagnosticSpan], keys: inout KeySet
  ) throws(Stop) -> Presence {
    var presence = Presence()
    // Only the tables some kinds of document share read the top of a document, whose keys
    // and spans of diagnostics are kept.
    try object { reader, key, start throws(Stop) in
      if shared { keys.insert(key) }
      // A member the schema lacks or reads nothing from is skipped, given twice or not.
      let reading = table.reading(of: key)
      let member = table.member(key)
      guard reading != .ignored else {
        guard escape == nil || member != Table.none else {
          return try reader.skipUnknown(key, escape: escape)
        }
        return try reader.skipMember()
      }
      if let last {
        guard last[Int(member)] == start else { return try reader.skipValue() }
        _ = presence.insert(member)
      } else if !presence.insert(member) {
        throw .repeated
      }
      reader.member = key
      guard shared else {
        return try reader.read(reading, into: base + table.offsets[Int(member)])
      }
      let before = reader.diagnostics.count
      try reader.read(reading, into: base + table.offsets[Int(member)])
      if reader.diagnostics.count > before, table.documents[Int(member)] != .all {
        spans.append(
          DiagnosticSpan(
            range: before..<reader.diagnostics.count, documents: table.documents[Int(member)]))
      }
    }
    return presence
  }

  /// Skips the value of a member its table lacks; a key of another kind of document, with an
  /// `escape` table, throws ``Stop/otherKind``.
  @inline(never)
  private mutating func skipUnknown(_ key: KeyID, escape: Table?) throws(Stop) {
    if let escape {
      let other = escape.member(key)
      if other != Table.none, escape.readings[Int(other)] != .ignored { throw .otherKind }
    }
    try skipValue()
  }

  /// For each member of `table`, the offset of the name of its last place in the object at
  /// ``index`` (-1 for a member absent), ``index`` then past the object.
  private mutating func lastPlaces(_ table: Table) throws(Stop) -> [Int] {
    var last = [Int](repeating: -1, count: table.count)
    try object { reader, key, start throws(Stop) in
      let member = table.member(key)
      if member != Table.none { last[Int(member)] = start }
      try reader.skipValue()
    }
    return last
  }

  /// Reads one member's value as `reading` says, into `destination`, which has the type of
  /// that reading (``FieldReading``): one call, from the loop of every object, to the function
  /// of that reading, which has its fast path in line.
  @inline(__always)
  mutating func read(_ reading: FieldReading, into destination: UnsafeMutableRawPointer)
    throws(Stop)
  {
    switch reading {
    case .ignored: try skipValue()
    case .marker:
      try skipValue()
      Self.store(true, destination)
    case .string: Self.store(try string(), destination)
    case .integer: Self.store(try integer(), destination)
    case .flag: Self.store(try flag(), destination)
    case .date: Self.store(try date(), destination)
    case .receiptDateText:
      try receiptDateText(destination.assumingMemoryBound(to: ReceiptDate.self))
    case .receiptDateMilliseconds:
      try receiptDateMilliseconds(destination.assumingMemoryBound(to: ReceiptDate.self))
    case .identifier: Self.store(try identifier(), destination)
    case .productID: Self.store(try sharedID(.product), destination)
    case .subscriptionID: Self.store(try sharedID(.subscription), destination)
    case .payloadProductID: Self.store(try payloadID(subscription: false), destination)
    case .payloadSubscriptionID: Self.store(try payloadID(subscription: true), destination)
    case .environment: Self.store(try environment(), destination)
    case .ownershipType: Self.store(try ownershipType(), destination)
    case .productType: Self.store(try productType(), destination)
    default: try readStructure(reading, into: destination)
    }
  }

  /// Stores `value` where a property of its type lies, which still holds its default: a member
  /// is read once per reading of its object, into fields made anew, whose properties start
  /// empty (``AppleFields``), so there is nothing to release.
  @inline(__always)
  static func store<Value>(_ value: consuming Value, _ destination: UnsafeMutableRawPointer) {
    destination.assumingMemoryBound(to: Value.self).initialize(to: value)
  }
}
