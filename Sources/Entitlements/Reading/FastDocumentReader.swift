/// A byte-level reader for regular documents of every kind of SPEC §10: verifyReceipt
/// responses, v1 notifications, v2 notifications (decoded, as a POST body or as a bare JWS),
/// the decoded transaction and renewal payloads of the App Store Server API, and its pages:
/// Get Transaction History, Get All Subscription Statuses, Get Notification History. Every JWS
/// inside is decoded (base64url, into one reused buffer: nothing is verified, as the reader is
/// used only without a verifier) and read by this reader, nested. No `JSONValue` tree, no
/// dictionaries, numbers parsed straight from the bytes.
///
/// It reads only what it can read exactly as the general readers (``DocumentReader``,
/// ``VerifyReceiptResponse/init(value:path:)``, ``StatusUpdateNotification/init(value:)``,
/// ``ServerNotification/init(value:)``, ``AppStoreTransaction/init(value:path:)``,
/// ``AppStoreRenewalInfo/init(value:path:)``, ``TransactionHistoryResponse``,
/// ``SubscriptionStatusesResponse``, ``NotificationHistoryResponse``) would, with no
/// diagnostics: any irregularity (an escape it does not handle, a field of an unusual type or
/// spelling, an iOS 6 shape, a missing id, a key given twice, a JWS that does not decode or
/// whose payload is irregular, invalid JSON) makes it give up and return `nil`, and the caller
/// reads the document with the general reader, which then produces the same answer and the
/// diagnostics. The tests compare both readers on every fixture and on the robustness corpus.
///
/// The kind of document is decided as ``DocumentReader`` decides it, by which top-level keys
/// are present (`signedPayload`, `notificationType`, `notification_type`,
/// `signedTransactions`, `notificationHistory`, `data` as an array, `status`/`receipt`/
/// `latest_receipt_info`, `transactionId`, `originalTransactionId`, in that order), so the
/// reader reads every top-level key it knows in one pass and chooses at the end.
///
/// One file per role: this one holds the reader's state and its entry points;
/// `+Documents` each kind of document, `+JWS` the payloads inside, `+Entries` the fields of
/// entries and payloads, `+Keys` the known keys and their matching, `+Values` tokens and
/// scalars. Members one file uses are private to it; those several use are internal only so that
/// the reader can span files: outside them, only the `read` functions and ``init()`` are for use
/// (and, in the tests, the two readings they compare and the state a reused reader keeps).
struct FastDocumentReader {
  /// The bytes read, and the index of the next one. The bytes change only when a reused
  /// reader is given its next document (``read(_:objectAt:reusing:_:)``).
  private(set) var bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  /// Whether the document must end where the bytes end (else other bytes may follow it: see
  /// ``read(_:objectAt:reusing:_:)``).
  var endsWithBytes = true
  /// Where the document is, which decides the kinds it may be (as ``DocumentReader`` reads
  /// each place).
  enum Context {
    /// A whole document as received: it may be a bare JWS or a POST body
    /// (`{"signedPayload": …}`), whose payload is then read as an ``unwrapped`` document.
    case document
    /// The payload of a bare JWS or of a POST body, or a document read by a typed entry point
    /// (`init(json:)`): any kind, but JSON only, and no `signedPayload` unwrapped again.
    case unwrapped
    /// The payload of `notificationHistory[].signedPayload`: a v2 notification only.
    case notification
    /// The payload of `signedTransactionInfo`, `signedRenewalInfo` or `signedTransactions[]`:
    /// a transaction or renewal info only.
    case signedField
  }
  /// The decoded payloads of this document's JWS, one after another (the buffer is reused).
  var scratch: [UInt8] = []
  /// The buffer lent to the reader of each nested payload, for the JWS inside it (a
  /// notification's transaction and renewal info): kept here so that it is reused too.
  var nestedScratch: [UInt8] = []
  /// Where the header of the last JWS string read is, and its length: the next one usually
  /// has the same bytes.
  var lastHeader: (start: Int, count: Int)?
  /// The product and subscription ids of the payloads read before, lent from reader to nested
  /// reader with ``followers`` (a page's transactions are separate payloads, one after another).
  var memo = PayloadMemo()

  /// The last two distinct product ids and subscription ids read from decoded payloads, most
  /// recent first: the payloads of one page share one `String` per id, as the entries of a
  /// receipt do (``sharedString(_:)``, which finds its ids by their place in one document).
  struct PayloadMemo {
    var strings = InlineArray<4, String>(repeating: "")
    /// The bytes each string was read from, quotes excluded, escapes included (``Spelling``;
    /// none for a string of more than 32 bytes): the next id is first compared with them where
    /// it lies, before it is scanned.
    var spellings = InlineArray<4, Spelling>(repeating: Spelling())

    /// Makes the id at `place` the most recent of its kind, whose first place is `first`.
    mutating func promote(_ place: Int, to first: Int) {
      guard place != first else { return }
      strings.swapAt(first, place)
      spellings.swapAt(first, place)
    }

    /// Keeps `value`, spelt as `spelling`, as the most recent id of its kind, whose first
    /// place is `first`: the one most recent before becomes the second, and the second is
    /// forgotten.
    mutating func remember(_ value: String, spelt spelling: Spelling, first: Int) {
      strings[first + 1] = strings[first]
      spellings[first + 1] = spellings[first]
      strings[first] = value
      spellings[first] = spelling
    }
  }
  let keys = KeyTable.shared
  /// The ids an entry usually shares with the one before (``sharedString(_:)``).
  enum SharedID: Int {
    case product, originalTransaction
  }
  /// How many distinct ids of each ``SharedID`` are remembered: a document whose entries
  /// alternate between a few products shares one string per product, not one per run.
  static let sharedPerKind = 4
  /// The ids remembered, ``sharedPerKind`` per ``SharedID``: where the bytes of each are, and
  /// its `String`; a count of -1 is a free place.
  var shared = InlineArray<8, (start: Int, count: Int, value: String)>(
    repeating: (0, -1, ""))
  /// Per ``SharedID``, the place of the id read last (tried first: entries usually repeat
  /// the one before), and the place the next new id takes (the places are taken in turn).
  var sharedLast = InlineArray<2, Int>(repeating: 0)
  var sharedNext = InlineArray<2, Int>(repeating: 0)
  /// The key that followed each key last time.
  var followers = Followers()

  /// Thrown internally to give up; never escapes the `read` functions.
  struct GiveUp: Error {
    /// Thrown by ``transactionOrRenewal(alone:)`` at a key of another kind of document: a
    /// whole document is then read by ``anyDocument(_:)`` instead.
    var otherKind = false
  }

  /// Reads a regular document of any kind, as ``DocumentReader/read(_:verifier:)`` receives
  /// it (a bare JWS, a POST body, any JSON document), or `nil` to leave it to the general
  /// reader.
  static func read(_ document: [UInt8]) -> AppStoreDocument? {
    read(document, .document)
  }

  /// Reads a regular JSON document of any kind found inside another (the payload of a bare
  /// JWS or of a POST body), or `nil`: no JWS or `signedPayload` is unwrapped again.
  static func read(payload: [UInt8]) -> AppStoreDocument? {
    read(payload, .unwrapped)
  }

  /// Reads a regular document in place, or `nil` to leave it to the general reader.
  static func read(_ document: UnsafeBufferPointer<UInt8>) -> AppStoreDocument? {
    var reader = FastDocumentReader(bytes: document)
    return try? reader.whole(.document)
  }

  /// Reads the regular JSON object that begins at `start` in `buffer` and is followed by other
  /// bytes (a document inside a JSON Lines line) with `reader`, hands it to `body` where it was
  /// read, and returns the index just past its closing brace; `nil` to leave it to the general
  /// reader. The same reader, passed from one document to the next, carries the key order and
  /// ids learnt, and its buffers: it is made once, not once per document. In between, it holds
  /// no bytes (none of `buffer`, which is the caller's), and is used only by this function and
  /// ``fold(_:objectAt:reusing:into:refusal:)``.
  static func read(
    _ buffer: UnsafeBufferPointer<UInt8>, objectAt start: Int,
    reusing reader: inout FastDocumentReader, _ body: (consuming AppStoreDocument) -> Void
  ) -> Int? {
    lend(buffer, objectAt: start, to: &reader) { reader in
      guard let document = try? reader.document(.document) else { return nil }
      body(document)
      return reader.index
    }
  }

  /// `read` run with `reader` given the object that begins at `start` of `buffer`, or `nil`
  /// when no object begins there; the reader holds no bytes after (``release()``).
  @inline(__always)
  private static func lend<Result>(
    _ buffer: UnsafeBufferPointer<UInt8>, objectAt start: Int,
    to reader: inout FastDocumentReader, _ read: (inout FastDocumentReader) -> Result?
  ) -> Result? {
    precondition(start >= 0, "an object before the buffer")
    guard start < buffer.count, buffer[start] == UInt8(ascii: "{") else { return nil }
    reader.restart(buffer, at: start)
    defer { reader.release() }
    return read(&reader)
  }

  /// ``read(_:objectAt:reusing:_:)``, folding the document into `record`: a transaction or a
  /// renewal info (the documents of most lines of `entitlements evaluate`) straight from its
  /// fields, with no document value made and moved; any other kind as read, unless `refusal`
  /// refuses it. Returns the index just past the object and the refusal, if any (nothing is
  /// folded then); `nil` to leave the document to the general reader (nothing is folded
  /// either).
  static func fold(
    _ buffer: UnsafeBufferPointer<UInt8>, objectAt start: Int,
    reusing reader: inout FastDocumentReader, into record: inout SubscriberRecord,
    refusal: (AppStoreDocument) -> ReadError?
  ) -> (end: Int, refusal: ReadError?)? {
    lend(buffer, objectAt: start, to: &reader) { reader in
      // As ``document(_:)`` reads a document at `.document`.
      do throws(GiveUp) {
        try reader.foldTransactionOrRenewal(into: &record)
        return (reader.index, nil)
      } catch {
        guard error.otherKind else { return nil }
      }
      reader.index = start
      guard let document = try? reader.anyDocument(.document) else { return nil }
      if let refused = refusal(document) { return (reader.index, refused) }
      record.fold(consume document)
      return (reader.index, nil)
    }
  }

  /// A reader of no bytes, to be given a document by ``read(_:objectAt:reusing:_:)``.
  init() {
    self.init(bytes: UnsafeBufferPointer(start: nil, count: 0))
  }

  /// Makes this reader read the object at `start` of `buffer`, followed by other bytes, with
  /// what it learnt before (``followers``, ``memo``) and its buffers; it holds nothing that
  /// refers to other bytes (``release()``).
  private mutating func restart(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) {
    bytes = buffer
    index = start
    endsWithBytes = false
  }

  /// Lets go of the bytes read, and forgets every place in them (the ids shared within a
  /// document, the last JWS header): the next document may be in other bytes, and these are
  /// the caller's.
  private mutating func release() {
    bytes = UnsafeBufferPointer(start: nil, count: 0)
    index = 0
    lastHeader = nil
    for place in shared.indices { shared[place].count = -1 }
    sharedLast = InlineArray(repeating: 0)
    sharedNext = InlineArray(repeating: 0)
  }

  /// A document of one kind, as the typed entry points (`init(json:)`) read it: the fast
  /// reading when it is of that kind, else `general` on the parsed document, which gives the
  /// same answer plus the diagnostics.
  static func read<Document: PurchaseDocument>(
    _ json: [UInt8], general: (JSONValue) throws(ReadError) -> Document
  ) throws(ReadError) -> Document {
    if let fast = read(json, .unwrapped)?.document as? Document { return fast }
    return try general(JSONValue.document(json))
  }

  private static func read(_ document: [UInt8], _ context: Context) -> AppStoreDocument? {
    document.withUnsafeBufferPointer { buffer in
      var reader = FastDocumentReader(bytes: buffer)
      return try? reader.whole(context)
    }
  }

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// `body` run with what `lent` carries (key predictions, memo of ids) as this reader's own;
  /// `lent` holds them again after, with what `body` learnt.
  mutating func withLent<Result>(
    _ lent: inout Lent, _ body: (inout FastDocumentReader) -> Result
  ) -> Result {
    swap(&memo, &lent.memo)
    followers = lent.followers
    defer {
      swap(&memo, &lent.memo)
      lent.followers = followers
    }
    return body(&self)
  }

  /// What a reader lends the reader of a nested payload besides a buffer: its key predictions
  /// (payloads of one kind list their keys in one order) and its memo of ids.
  struct Lent {
    var followers = Followers()
    var memo = PayloadMemo()
  }
}
