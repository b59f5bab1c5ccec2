/// The one reader of Apple's documents: it reads the bytes of every document of SPEC §10
/// field by field, by each object's schema (``Table``, made from the lists of fields in
/// `Reading/Schemas`), with no tree of JSON values.
///
/// Apple's usual shapes are read straight from the bytes: ids and dates in words, keys
/// predicted from the order of the entry before, ids shared as one `String` per product and
/// subscription, a JWS decoded into a buffer reused for every payload. Any other JSON value
/// is read tolerantly (SPEC §3): what cannot be used is a ``Diagnostic`` with its JSON path,
/// and the rest of the document is kept. Only bytes that are not JSON, a document of no kind
/// or of two kinds at once, and a refused signature are errors (``ReadError``); the words and
/// byte offset of a syntax error are those of the JSON parser (``JSONValue``), asked once the
/// reader has met one.
///
/// One file per role: this one holds the reader's state and how it moves into a payload;
/// `+Objects` the members of an object, by table; `+Values` scalars; `+Numbers` and
/// `+Strings` their bytes; `+Keys` member names; `+JWS` signed payloads; `+Structures` the
/// values that hold objects; `+Documents` the kinds of document. The schemas and what each
/// kind of document is made of are in `Reading/Schemas`.
struct SchemaReader {
  /// The bytes read, and the index of the next one.
  private(set) var bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  /// Whether the document must end where the bytes end (else other bytes may follow it: see
  /// ``DocumentReader/fold(_:objectAt:into:memo:)``).
  var endsWithBytes = true
  /// How many containers hold the value read next (for the nesting limit,
  /// ``JSONValue/maximumDepth``, counted as the JSON parser counts it).
  var depth = 0
  /// Every schema's table.
  let schemas = Schemas.shared
  /// The member tokens of every key (``KeyTable``), as the loop of every object compares them.
  let tokens = Schemas.shared.keys.tokenSpellings
  /// How each JWS is opened: decoded, or verified first.
  let payloads: SignedPayloads

  // What carries from one document to the next.

  /// For each key, the key that followed it last time.
  var followers = Schemas.shared.followers
  /// The product and subscription ids of the payloads read before.
  var memo = PayloadMemo()
  /// The buffers payloads are decoded into, one per level of JWS inside JWS (a page of
  /// notifications holds notifications that hold transactions): reused from payload to
  /// payload.
  var payloadBuffers = PayloadBuffers()

  // What belongs to the document being read.

  /// The ids read in this document's bytes, shared by the entries that repeat them.
  var shared = SharedIDs()
  /// Where the header of the last JWS string read is, and its length: the next one usually
  /// has the same bytes.
  var lastHeader: (start: Int, count: Int)?
  /// How many JWS levels hold the bytes read (0: the document as given).
  var payloadLevel = 0
  /// How many JWS payloads were decoded for the document (for the tests: a payload is opened
  /// once, and only where its document's kind reads it).
  private(set) var payloadsOpened = 0
  /// How many times a whole document was unwrapped to reach these bytes (a bare JWS, a POST
  /// body's `signedPayload`): a third is not.
  var unwrapped = 0
  /// What could not be read, in the order met.
  var diagnostics: [Diagnostic] = []
  /// The JSON path of the object being read, from the document's top (or from ``pathPrefix``).
  var path = JSONPath()
  /// The path of the document itself inside the caller's (a scenario's `transactions[0]`).
  var pathPrefix = ""
  /// The key of the member being read.
  var member = KeyID.unknown
  /// The places of the diagnostics of one object's dates reported after it was read
  /// (``instant(_:)``).
  var placesReported: [Int] = []
  /// What was read of the unusual halves of receipt dates (``ReceiptDate``), kept to be
  /// reported later if they are used.
  var irregularDates: [IrregularDate] = []

  /// Thrown inside the reader; never escapes its entry points.
  enum Stop: Error {
    /// The bytes are not JSON: the entry point asks the JSON parser for the exact error.
    case syntax
    /// A key of another kind of document, met while reading a payload alone: the document is
    /// read again by the table of every document.
    case otherKind
    /// A member of the object was given twice: the object is read again, keeping the last.
    case repeated
    /// An error that ends the reading: a refused signature, a document of no kind.
    case refused(ReadError)
  }

  /// A reader of `bytes`, its JWS opened by `payloads`.
  init(bytes: UnsafeBufferPointer<UInt8>, payloads: SignedPayloads = .unverified) {
    self.bytes = bytes
    self.payloads = payloads
  }

  /// A reader of no bytes, to be given documents one after another (``restart(_:at:)``).
  init() {
    self.init(bytes: UnsafeBufferPointer(start: nil, count: 0))
  }

  /// Makes this reader read the object at `start` of `buffer`, followed by other bytes, with
  /// what it learnt before (``followers``, ``memo``) and its buffers.
  mutating func restart(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) {
    bytes = buffer
    index = start
    endsWithBytes = false
  }

  /// Lets go of the bytes read and of everything about the document (its places in them, its
  /// diagnostics), keeping what carries to the next document.
  mutating func release() {
    bytes = UnsafeBufferPointer(start: nil, count: 0)
    index = 0
    depth = 0
    lastHeader = nil
    // Each part made anew only when the document used it: most lines of `entitlements
    // evaluate` are decoded payloads, which use none of them.
    if !shared.isEmpty { shared = SharedIDs() }
    payloadLevel = 0
    payloadsOpened = 0
    unwrapped = 0
    if !diagnostics.isEmpty { diagnostics = [] }
    if !irregularDates.isEmpty { irregularDates = [] }
    if path.count != 0 { path = JSONPath() }
    member = .unknown
  }

  /// `body` run on the payload bytes decoded into the buffer of the next JWS level (or on
  /// `verified`, a verifier's payload), as the bytes read: index, places and nesting are the
  /// payload's while it runs, and the document's again after.
  mutating func withPayload<Result>(
    decodedFrom start: Int, to end: Int, verified: [UInt8]?,
    _ body: (inout SchemaReader) throws(Stop) -> Result
  ) throws(Stop) -> Result? {
    let level = payloadLevel
    payloadsOpened &+= 1
    var buffer: [UInt8] = []
    let count: Int
    if let verified {
      buffer = verified
      count = verified.count
    } else {
      payloadBuffers.swap(&buffer, level)
      guard let decoded = Base64URL.decode(bytes, start, end, into: &buffer) else {
        payloadBuffers.swap(&buffer, level)
        return nil
      }
      count = decoded
    }
    defer {
      if verified == nil { payloadBuffers.swap(&buffer, level) }
    }
    let saved = (bytes, index, endsWithBytes, depth, lastHeader)
    // The document's shared ids (places in its bytes) are moved aside, not copied, and back
    // after; none to move, as usual, the payload's are dropped after, if it has any.
    var documentIDs: SharedIDs?
    if !shared.isEmpty {
      var moved = SharedIDs()
      swap(&moved, &shared)
      documentIDs = consume moved
    }
    defer {
      (bytes, index, endsWithBytes, depth, lastHeader) = saved
      if let ids = documentIDs.take() {
        shared = ids
      } else if !shared.isEmpty {
        shared = SharedIDs()
      }
      payloadLevel = level
    }
    return try buffer.withUnsafeBufferPointer { whole throws(Stop) in
      bytes = UnsafeBufferPointer(rebasing: whole[..<count])
      index = 0
      endsWithBytes = true
      depth = 0
      lastHeader = nil
      payloadLevel = level + 1
      return try body(&self)
    }
  }

  /// The bytes of the value at `start..<end`, for a message or a syntax error.
  func text(_ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  /// The syntax error of the bytes read, as the JSON parser words it; one at ``index`` when
  /// the parser finds none (the reader and the parser disagree: never expected, and fuzzed).
  func syntaxError() -> JSONSyntaxError {
    JSONValue.syntaxError(in: bytes)
      ?? JSONSyntaxError(offset: index, message: "unexpected byte")
  }
}

/// The buffers a reader decodes payloads into, one per level of JWS inside JWS: two held
/// here (a page's notification, then its transaction), more made as needed. Moved in and out
/// with `swap`, never copied.
struct PayloadBuffers {
  var first: [UInt8] = []
  var second: [UInt8] = []
  var deeper: [[UInt8]] = []

  /// Swaps `buffer` with the buffer of `level`.
  mutating func swap(_ buffer: inout [UInt8], _ level: Int) {
    switch level {
    case 0: Swift.swap(&buffer, &first)
    case 1: Swift.swap(&buffer, &second)
    default:
      while deeper.count < level - 1 { deeper.append([]) }
      Swift.swap(&buffer, &deeper[level - 2])
    }
  }

  /// Frees every buffer grown past `bytes` bytes.
  mutating func trim(to bytes: Int) {
    if first.capacity > bytes { first = [] }
    if second.capacity > bytes { second = [] }
    for level in deeper.indices where deeper[level].capacity > bytes { deeper[level] = [] }
  }
}
