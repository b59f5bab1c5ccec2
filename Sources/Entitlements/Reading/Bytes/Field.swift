/// How the reader reads one of Apple's values, and so which Swift type holds it: each case is
/// made by one constructor of ``Field``, whose key path has that type.
///
/// Every reading takes Apple's usual shape straight from the bytes and any other JSON value
/// tolerantly (``SchemaReader`` and ``ValueMeaning``): a value it cannot use is a diagnostic
/// with its JSON path, and reads as absent.
enum FieldReading: UInt8, Sendable {
  /// A member no field is read from: skipped (known, so that the key after it is predicted).
  case ignored
  /// A member whose presence alone is read (`Bool`, true when present).
  case marker
  /// `String?`: a string, or a number's text.
  case string
  /// `Int?`: a number or a string of digits.
  case integer
  /// `Bool?`: `true`/`false`, `"true"`/`"false"`, `"1"`/`"0"`, `1`/`0`.
  case flag
  /// `Instant?`: milliseconds since 1970 (a number or a string), or a date's text.
  case date
  /// ``ReceiptDate``, its `X` half: a date's text, parsed only when `X_ms` is absent.
  case receiptDateText
  /// ``ReceiptDate``, its `X_ms` half.
  case receiptDateMilliseconds
  /// `CompactIdentifier?`: a transaction or order line id, a number made no `String`.
  case identifier
  /// `String?`: a product id, one `String` shared by the entries that repeat it.
  case productID
  /// `String?`: an original transaction id, shared as product ids are.
  case subscriptionID
  /// `String?`: a product id of a decoded payload, one `String` shared with the payloads read
  /// before (``Table/init(_:keys:idsAcrossDocuments:)`` makes ``productID`` this).
  case payloadProductID
  /// `String?`: an original transaction id of a decoded payload, shared as its product id.
  case payloadSubscriptionID
  /// `StoreEnvironment?`: an environment's name (`nil` for a name this version does not know).
  case environment
  /// `String?`: `in_app_ownership_type` / `inAppOwnershipType`, Apple's two spellings made no
  /// `String`.
  case ownershipType
  /// `String?`: a transaction's `type`, Apple's four spellings made no `String`.
  case productType
  /// `[ReceiptEntry]`: verifyReceipt's entries (an array, or one object as iOS 6 wrote them).
  case entries
  /// `[PendingRenewalInfo]`: verifyReceipt's renewal infos (an array, or one object).
  case renewalInfos
  /// `ReceiptFields?`: verifyReceipt's `receipt`.
  case receipt
  /// `UnifiedReceiptFields?`: a v1 notification's `unified_receipt`.
  case unifiedReceipt
  /// ``DataMember``: a v2 notification's `data` (an object), or Get All Subscription
  /// Statuses' `data` (an array of subscription groups).
  case data
  /// `SignedText?`: a POST body's `signedPayload`, a JWS of a whole document, opened once the
  /// body is known to hold nothing else.
  case signedDocument
  /// `[AppStoreTransaction]`: Get Transaction History's `signedTransactions`.
  case signedTransactions
  /// `[ServerNotification]`: Get Notification History's `notificationHistory`.
  case notificationHistory
  /// `[SubscriptionStatusesResponse.LastTransaction]?`: a subscription group's
  /// `lastTransactions` (`nil` when it is no array).
  case lastTransactions
  /// `AppStoreTransaction?`: a JWS of a transaction, or the transaction decoded in its place.
  case signedTransaction
  /// `AppStoreRenewalInfo?`: a JWS of renewal info, or the renewal info decoded in its place.
  case signedRenewalInfo
  /// `ServerNotification?`: a JWS of a v2 notification (Get Notification History's items).
  case signedNotification
  /// `CommitmentBox?`: a decoded payload's `commitmentInfo`.
  case commitment
}

/// The kinds of document a member of a shared table is read for: its diagnostics are kept
/// only when the document turns out to be one of them.
struct DocumentKinds: OptionSet, Hashable, Sendable {
  let rawValue: UInt16

  static let verifyReceipt = DocumentKinds(rawValue: 1 << 0)
  static let notificationV1 = DocumentKinds(rawValue: 1 << 1)
  static let notificationV2 = DocumentKinds(rawValue: 1 << 2)
  static let transaction = DocumentKinds(rawValue: 1 << 3)
  static let renewal = DocumentKinds(rawValue: 1 << 4)
  static let transactionHistory = DocumentKinds(rawValue: 1 << 5)
  static let subscriptionStatuses = DocumentKinds(rawValue: 1 << 6)
  static let notificationHistory = DocumentKinds(rawValue: 1 << 7)
  static let all = DocumentKinds(rawValue: 0xFFFF)
}

/// One of Apple's fields in a schema: its JSON name, how its value is read
/// (``FieldReading``), and the property of `Fields` it is stored in.
///
/// A schema is a list of fields, read as Apple documents it:
///
/// ```swift
/// static let fields: [Field<PendingRenewalFields>] = [
///   .subscriptionID("original_transaction_id", \.originalTransactionID),
///   .flag("auto_renew_status", \.autoRenewStatus),
///   .receiptDate("grace_period_expires_date", \.gracePeriodExpiresDate),  // and `_ms`
/// ]
/// ```
///
/// The constructors tie each reading to its property's type, so that the reader can store a
/// value where the property lies (``Table``) without a key path at run time.
struct Field<Fields>: Sendable {
  /// One member name, what it is read as, and where in `Fields` (the byte offset of the
  /// property; 0 for a member no field is read from).
  struct Member: Sendable {
    let name: String
    let reading: FieldReading
    let offset: Int
    let documents: DocumentKinds
  }

  /// The member names of the field: one, or two for a receipt date (`X` and `X_ms`).
  let members: [Member]

  private init<Value>(
    _ name: String, _ reading: FieldReading, _ property: WritableKeyPath<Fields, Value>,
    _ documents: DocumentKinds
  ) {
    members = [
      Member(name: name, reading: reading, offset: Self.offset(property), documents: documents)
    ]
  }

  private init(members: [Member]) {
    self.members = members
  }

  /// The field with only its members read for `kinds` of document; `nil` when none is.
  func only(_ kinds: DocumentKinds) -> Field? {
    let kept = members.filter { $0.documents.contains(kinds) }
    return kept.isEmpty ? nil : Field(members: kept)
  }

  /// Where `property` lies in `Fields`: it must be a stored property.
  private static func offset<Value>(_ property: WritableKeyPath<Fields, Value>) -> Int {
    guard let offset = MemoryLayout<Fields>.offset(of: property) else {
      preconditionFailure("\(property): a field is stored in a stored property")
    }
    return offset
  }

  /// Members Apple writes that no field is read from: skipped, and known so that the key after
  /// them is predicted.
  static func ignored(_ names: String...) -> Field {
    Field(members: names.map { Member(name: $0, reading: .ignored, offset: 0, documents: .all) })
  }

  /// A member whose presence alone is read: `property` is true when it is present.
  static func marker(
    _ name: String, _ property: WritableKeyPath<Fields, Bool>, for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .marker, property, documents)
  }

  /// A string, or a number's text.
  static func string(
    _ name: String, _ property: WritableKeyPath<Fields, String?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .string, property, documents)
  }

  /// An integer, as a number or a string of digits.
  static func integer(
    _ name: String, _ property: WritableKeyPath<Fields, Int?>, for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .integer, property, documents)
  }

  /// A flag: `true`/`false`, `"true"`/`"false"`, `"1"`/`"0"`, `1`/`0`.
  static func flag(
    _ name: String, _ property: WritableKeyPath<Fields, Bool?>, for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .flag, property, documents)
  }

  /// A date as the App Store Server API writes it: milliseconds since 1970, a number (any
  /// other spelling of SPEC §1 read too).
  static func date(
    _ name: String, _ property: WritableKeyPath<Fields, Instant?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .date, property, documents)
  }

  /// A date as verifyReceipt writes it: `name` (a date's text), `name_ms` (milliseconds,
  /// which win) and `name_pst` (the date again in Pacific time, skipped), in Apple's order;
  /// `milliseconds: false` for a date written alone.
  static func receiptDate(
    _ name: String, _ property: WritableKeyPath<Fields, ReceiptDate>, milliseconds: Bool = true
  ) -> Field {
    let offset = offset(property)
    var members = [Member(name: name, reading: .receiptDateText, offset: offset, documents: .all)]
    if milliseconds {
      members.append(
        Member(
          name: name + "_ms", reading: .receiptDateMilliseconds, offset: offset, documents: .all))
      members.append(Member(name: name + "_pst", reading: .ignored, offset: 0, documents: .all))
    }
    return Field(members: members)
  }

  /// A transaction or order line id.
  static func identifier(
    _ name: String, _ property: WritableKeyPath<Fields, CompactIdentifier?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .identifier, property, documents)
  }

  /// A product id, one `String` for every entry that repeats it.
  static func productID(
    _ name: String, _ property: WritableKeyPath<Fields, String?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .productID, property, documents)
  }

  /// An original transaction id, one `String` for every entry that repeats it.
  static func subscriptionID(
    _ name: String, _ property: WritableKeyPath<Fields, String?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .subscriptionID, property, documents)
  }

  /// An environment's name (``StoreEnvironment/init(appleName:)``).
  static func environment(
    _ name: String, _ property: WritableKeyPath<Fields, StoreEnvironment?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .environment, property, documents)
  }

  /// `in_app_ownership_type` / `inAppOwnershipType`.
  static func ownershipType(
    _ name: String, _ property: WritableKeyPath<Fields, String?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .ownershipType, property, documents)
  }

  /// A transaction's `type`.
  static func productType(
    _ name: String, _ property: WritableKeyPath<Fields, String?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .productType, property, documents)
  }

  /// verifyReceipt's entries.
  static func entries(
    _ name: String, _ property: WritableKeyPath<Fields, [ReceiptEntry]>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .entries, property, documents)
  }

  /// verifyReceipt's renewal infos.
  static func renewalInfos(
    _ name: String, _ property: WritableKeyPath<Fields, [PendingRenewalInfo]>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .renewalInfos, property, documents)
  }

  /// verifyReceipt's `receipt`.
  static func receipt(
    _ name: String, _ property: WritableKeyPath<Fields, ReceiptFields?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .receipt, property, documents)
  }

  /// A v1 notification's `unified_receipt`.
  static func unifiedReceipt(
    _ name: String, _ property: WritableKeyPath<Fields, UnifiedReceiptFields?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .unifiedReceipt, property, documents)
  }

  /// `data`: a v2 notification's object, or the subscription groups of Get All Subscription
  /// Statuses.
  static func data(
    _ name: String, _ property: WritableKeyPath<Fields, DataMember>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .data, property, documents)
  }

  /// A JWS of a whole document (a POST body's `signedPayload`).
  static func signedDocument(
    _ name: String, _ property: WritableKeyPath<Fields, SignedText?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .signedDocument, property, documents)
  }

  /// An array of JWS transactions.
  static func signedTransactions(
    _ name: String, _ property: WritableKeyPath<Fields, [AppStoreTransaction]>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .signedTransactions, property, documents)
  }

  /// Get Notification History's items.
  static func notificationHistory(
    _ name: String, _ property: WritableKeyPath<Fields, [ServerNotification]>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .notificationHistory, property, documents)
  }

  /// A subscription group's `lastTransactions`.
  static func lastTransactions(
    _ name: String,
    _ property: WritableKeyPath<Fields, [SubscriptionStatusesResponse.LastTransaction]?>
  ) -> Field {
    Field(name, .lastTransactions, property, .all)
  }

  /// A JWS of a transaction, or the decoded transaction in its place.
  static func signedTransaction(
    _ name: String, _ property: WritableKeyPath<Fields, AppStoreTransaction?>
  ) -> Field {
    Field(name, .signedTransaction, property, .all)
  }

  /// A JWS of renewal info, or the decoded renewal info in its place.
  static func signedRenewalInfo(
    _ name: String, _ property: WritableKeyPath<Fields, AppStoreRenewalInfo?>
  ) -> Field {
    Field(name, .signedRenewalInfo, property, .all)
  }

  /// A payload's `commitmentInfo` object.
  static func commitment(
    _ name: String, _ property: WritableKeyPath<Fields, CommitmentBox?>,
    for documents: DocumentKinds = .all
  ) -> Field {
    Field(name, .commitment, property, documents)
  }

  /// A JWS of a v2 notification.
  static func signedNotification(
    _ name: String, _ property: WritableKeyPath<Fields, ServerNotification?>
  ) -> Field {
    Field(name, .signedNotification, property, .all)
  }
}

/// The fields one of Apple's objects is read into: a value of plain stored properties,
/// absent until read, and its schema. Every property starts empty (`nil`, an empty array,
/// `false`, a case with no payload, a value holding no reference): the reader stores a value
/// read over it without releasing anything (``SchemaReader/store(_:_:)``).
protocol AppleFields {
  /// Nothing read.
  init()
  /// The schema: each of Apple's fields once.
  static var fields: [Field<Self>] { get }
}

/// A schema made ready for the reader: for each key of ``KeyTable`` the member it is (or
/// none) and its reading, and for each member its reading, the offset of its property, its
/// key and the documents it is read for. Built once per schema; never changed (nor freed).
/// All of it lies in one block of memory at fixed places, and the table is the block's
/// address: a copy of a table (an argument of the loop of every object) is one word, with no
/// reference counting, and each array is at a constant distance from it.
struct Table: @unchecked Sendable {
  /// A member's place in the table; ``none`` for a key the schema does not have.
  typealias Slot = UInt8
  static let none: Slot = 255

  /// The most members a table has (``Presence`` holds one bit per member).
  static let capacity = 128

  /// The block: a header (the member count, whether shared), then by key the member and its
  /// reading, then by member the reading, the key, the documents and the offset.
  private let block: UnsafeMutableRawPointer

  private static let lookupStart = 16
  private static let readingOfKeyStart = lookupStart + 256
  private static let readingsStart = readingOfKeyStart + 256
  private static let keysStart = readingsStart + capacity
  private static let documentsStart = keysStart + capacity
  private static let offsetsStart = documentsStart + capacity * MemoryLayout<DocumentKinds>.stride
  private static let size = offsetsStart + capacity * MemoryLayout<Int>.stride

  /// Key → member, by the key's raw value.
  private var lookup: UnsafeMutablePointer<Slot> {
    (block + Self.lookupStart).assumingMemoryBound(to: Slot.self)
  }
  /// Key → its member's reading (``FieldReading/ignored`` for a key the schema lacks), so
  /// that the loop of an object knows a member to skip with one load.
  private var readingOfKey: UnsafeMutablePointer<FieldReading> {
    (block + Self.readingOfKeyStart).assumingMemoryBound(to: FieldReading.self)
  }
  /// By member.
  var readings: UnsafePointer<FieldReading> { UnsafePointer(mutableReadings) }
  private var mutableReadings: UnsafeMutablePointer<FieldReading> {
    (block + Self.readingsStart).assumingMemoryBound(to: FieldReading.self)
  }
  var keys: UnsafePointer<KeyID> { UnsafePointer(mutableKeys) }
  private var mutableKeys: UnsafeMutablePointer<KeyID> {
    (block + Self.keysStart).assumingMemoryBound(to: KeyID.self)
  }
  var documents: UnsafePointer<DocumentKinds> { UnsafePointer(mutableDocuments) }
  private var mutableDocuments: UnsafeMutablePointer<DocumentKinds> {
    (block + Self.documentsStart).assumingMemoryBound(to: DocumentKinds.self)
  }
  var offsets: UnsafePointer<Int> { UnsafePointer(mutableOffsets) }
  private var mutableOffsets: UnsafeMutablePointer<Int> {
    (block + Self.offsetsStart).assumingMemoryBound(to: Int.self)
  }
  /// How many members the table has.
  var count: Int { block.load(as: Int.self) }
  /// Whether some member is read for only some kinds of document.
  var isShared: Bool { block.load(fromByteOffset: 8, as: Bool.self) }

  /// The table of `fields`, their names looked up in `keys`. With `idsAcrossDocuments`
  /// (decoded payloads, each its own document), product and subscription ids are shared with
  /// the ids of the payloads read before, not with the entries of one document.
  init<Fields>(_ fields: [Field<Fields>], keys: KeyTable, idsAcrossDocuments: Bool = false) {
    let members = fields.flatMap(\.members)
    precondition(members.count <= Self.capacity, "a schema of more members than a table holds")
    block = .allocate(byteCount: Self.size, alignment: MemoryLayout<Int>.alignment)
    // Each part bound to its type as it is initialized.
    block.initializeMemory(as: Int.self, repeating: members.count, count: 1)
    (block + 8).initializeMemory(
      as: Bool.self, repeating: members.contains { $0.documents != .all }, count: 1)
    (block + Self.lookupStart).initializeMemory(as: Slot.self, repeating: Self.none, count: 256)
    (block + Self.readingOfKeyStart).initializeMemory(
      as: FieldReading.self, repeating: .ignored, count: 256)
    (block + Self.readingsStart).initializeMemory(
      as: FieldReading.self, repeating: .ignored, count: Self.capacity)
    (block + Self.keysStart).initializeMemory(
      as: KeyID.self, repeating: .unknown, count: Self.capacity)
    (block + Self.documentsStart).initializeMemory(
      as: DocumentKinds.self, repeating: .all, count: Self.capacity)
    (block + Self.offsetsStart).initializeMemory(as: Int.self, repeating: 0, count: Self.capacity)
    for (index, member) in members.enumerated() {
      let key = keys.key(named: member.name)
      precondition(key != .unknown, "\(member.name): a name missing from the key table")
      precondition(lookup[Int(key.rawValue)] == Self.none, "\(member.name): given twice")
      lookup[Int(key.rawValue)] = Slot(index)
      var reading = member.reading
      if idsAcrossDocuments, reading == .productID { reading = .payloadProductID }
      if idsAcrossDocuments, reading == .subscriptionID { reading = .payloadSubscriptionID }
      mutableReadings[index] = reading
      readingOfKey[Int(key.rawValue)] = reading
      mutableOffsets[index] = member.offset
      mutableDocuments[index] = member.documents
      mutableKeys[index] = key
    }
    // The reader stores each member's value where its property lies: two members share a
    // property only as the two halves of a receipt date.
    let stored = members.filter { $0.reading != .ignored }
    for offset in Set(stored.map(\.offset)) {
      let sharing = stored.filter { $0.offset == offset }.map(\.reading)
      precondition(
        sharing.count == 1
          || sharing.sorted(by: { $0.rawValue < $1.rawValue })
            == [.receiptDateText, .receiptDateMilliseconds],
        "members \(sharing) stored in one property")
    }
  }

  /// The member `key` is, or ``none``.
  @inline(__always)
  func member(_ key: KeyID) -> Slot { lookup[Int(key.rawValue)] }

  /// The reading of the member `key` is; ``FieldReading/ignored`` for a key the schema lacks.
  @inline(__always)
  func reading(of key: KeyID) -> FieldReading { readingOfKey[Int(key.rawValue)] }

  /// The member whose name is `name`, or ``none``: for the few members a builder asks about
  /// by name of another schema (resolved once, when the schemas are built).
  func member(named name: String, in keys: KeyTable) -> Slot {
    member(keys.key(named: name))
  }

  /// The member stored at `offset` of its fields (the first of its names), or ``none``.
  func member<Fields>(_ property: PartialKeyPath<Fields>) -> Slot {
    guard let offset = MemoryLayout<Fields>.offset(of: property) else { return Self.none }
    for index in 0..<count where offsets[index] == offset && readings[index] != .ignored {
      return Slot(index)
    }
    return Self.none
  }
}

/// The members of one object that were present (null and unreadable values included), one
/// bit per member of its ``Table``.
struct Presence: Sendable {
  private var low: UInt64 = 0
  private var high: UInt64 = 0

  @inline(__always)
  func contains(_ member: Table.Slot) -> Bool {
    member < 64
      ? low & (1 << UInt64(member)) != 0
      : member < 128 && high & (1 << UInt64(member - 64)) != 0
  }

  /// Adds a member; `false` when it was present already.
  @inline(__always)
  mutating func insert(_ member: Table.Slot) -> Bool {
    if member < 64 {
      let bit: UInt64 = 1 << UInt64(member)
      defer { low |= bit }
      return low & bit == 0
    }
    let bit: UInt64 = 1 << UInt64(member - 64)
    defer { high |= bit }
    return high & bit == 0
  }
}
