// Strings: plain ones made from their bytes, ids shared with the ones read before.

extension SchemaReader {
  /// The string at ``index`` when it is plain (ASCII, `\/` its only escape, as Apple escapes
  /// slashes), made from its bytes; `nil`, with ``index`` unchanged, for any other value.
  @inline(__always)
  mutating func plainText() throws(Stop) -> String? {
    skipWhitespace()
    guard peek == UInt8(ascii: "\"") else { return nil }
    guard let (start, end) = try plainString() else { return nil }
    return unescapedSlashes(start, end)
  }

  /// `bytes[start..<end]` as a string, each `\/` read as `/`.
  @inline(__always)
  func unescapedSlashes(_ start: Int, _ end: Int) -> String {
    let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
    guard slice.contains(UInt8(ascii: "\\")) else { return String(decoding: slice, as: UTF8.self) }
    var unescaped: [UInt8] = []
    unescaped.reserveCapacity(slice.count)
    var position = 0
    while position < slice.count {
      if slice[position] == UInt8(ascii: "\\") { position += 1 }
      unescaped.append(slice[position])
      position += 1
    }
    return String(decoding: unescaped, as: UTF8.self)
  }

  /// A product id or an original transaction id of an entry of this document: the `String` of
  /// one read before with the same bytes, among the last ``SharedIDs/perKind`` distinct ones of
  /// its kind, so that the entries of a document share one storage per product and per
  /// subscription (no allocation per entry for an id of more than 15 bytes, as Apple's are).
  /// `nil`, with ``index`` unchanged, for a value that is no plain string.
  @inline(__always)
  mutating func sharedString(_ kind: SharedIDs.Kind) throws(Stop) -> String? {
    skipWhitespace()
    guard peek == UInt8(ascii: "\"") else { return nil }
    guard let (start, end) = try plainString() else { return nil }
    if let known = shared.find(kind, bytes, start, end) { return known }
    let value = unescapedSlashes(start, end)
    shared.remember(kind, value, start, end)
    return value
  }

  /// A product id (`subscription` false) or an original transaction id of a decoded payload:
  /// the `String` of ``memo`` with the same bytes, else the string read, remembered first.
  /// `nil`, with ``index`` unchanged, for a value that is no plain string.
  @inline(__always)
  mutating func memoString(subscription: Bool) throws(Stop) -> String? {
    let first = subscription ? 2 : 0
    // The two ids of the kind read last, compared where the next one lies: its opening
    // quote, the bytes one was read from, and a closing quote right after them (which ends
    // the string: a string read holds no backslash before its closing quote), with no scan.
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let base = bytes.baseAddress
    else { return nil }
    for place in first..<first + 2 {
      let spelling = memo.spelling(place)
      let end = index + 1 + spelling.count
      guard spelling.count > 0, end < bytes.count, bytes[end] == UInt8(ascii: "\""),
        spelling.isSpelt(at: index + 1, in: UnsafeRawPointer(base), bytes.count)
      else { continue }
      index = end + 1
      memo.promote(place, to: first)
      return memo.string(first)
    }
    guard let (start, end) = try plainString() else { return nil }
    for place in first..<first + 2
    where memo.spelling(place).count < 0 && Self.spells(memo.string(place), bytes, start, end) {
      memo.promote(place, to: first)
      return memo.string(first)
    }
    let value = unescapedSlashes(start, end)
    memo.remember(
      value, spelt: Spelling(UnsafeRawPointer(base), bytes.count, start, end - start),
      first: first)
    return value
  }

  /// Whether `bytes[start..<end]` are the UTF-8 of `value`.
  private static func spells(
    _ value: String, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> Bool {
    guard value.utf8.count == end - start, let base = bytes.baseAddress else { return false }
    return value.utf8.withContiguousStorageIfAvailable { utf8 in
      equal(
        UnsafeRawBufferPointer(utf8), 0, UnsafeRawBufferPointer(start: base, count: end), start,
        end - start)
    } ?? false
  }
}

/// The ids read in one document's bytes (``SchemaReader/sharedString(_:)``): where the bytes
/// of each are, and its `String`, the last ``perKind`` distinct ones of each kind, held in the
/// reader itself (no allocation per document).
struct SharedIDs {
  enum Kind: Int {
    case product, subscription
  }

  /// How many distinct ids of each kind are remembered: a document whose entries alternate
  /// between a few products shares one string per product, not one per run.
  static let perKind = 4

  /// One id: where its bytes start and how many (-1: none), and its `String`.
  private struct Place {
    var start = 0
    var count = -1
    var value = ""
  }

  /// The places of each kind, taken in turn; the id read last of each kind is also kept
  /// apart, and compared first (entries usually repeat it).
  private var products = (Place(), Place(), Place(), Place())
  private var subscriptions = (Place(), Place(), Place(), Place())
  private var recentProduct = Place()
  private var recentSubscription = Place()
  /// Per kind, the place the next new id takes.
  private var next = (0, 0)
  /// Whether no id was remembered.
  private(set) var isEmpty = true

  /// The `String` of the id of `kind` spelt by `bytes[start..<end]`, if remembered.
  @inline(__always)
  mutating func find(
    _ kind: Kind, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> String? {
    let raw = UnsafeRawBufferPointer(bytes)
    let count = end - start
    // Compared in place: a copy of a place would retain and release its string.
    switch kind {
    case .product:
      if recentProduct.count == count,
        SchemaReader.equal(raw, start, raw, recentProduct.start, count)
      {
        return recentProduct.value
      }
    case .subscription:
      if recentSubscription.count == count,
        SchemaReader.equal(raw, start, raw, recentSubscription.start, count)
      {
        return recentSubscription.value
      }
    }
    return findAmongPlaces(kind, raw, start, count)
  }

  /// ``find(_:_:_:_:)`` among every place of `kind`; the one found becomes the recent one.
  @inline(never)
  private mutating func findAmongPlaces(
    _ kind: Kind, _ raw: UnsafeRawBufferPointer, _ start: Int, _ count: Int
  ) -> String? {
    for position in 0..<Self.perKind {
      let (placeStart, placeCount) = bytesOfPlace(kind, position)
      guard placeCount == count, SchemaReader.equal(raw, start, raw, placeStart, count)
      else { continue }
      let place = self.place(kind, position)
      if kind == .product { recentProduct = place } else { recentSubscription = place }
      return place.value
    }
    return nil
  }

  /// Remembers `value`, read from `bytes[start..<end]`, as the most recent id of `kind`.
  @inline(__always)
  mutating func remember(_ kind: Kind, _ value: String, _ start: Int, _ end: Int) {
    isEmpty = false
    let place = Place(start: start, count: end - start, value: value)
    let position = kind == .product ? next.0 : next.1
    switch (kind, position) {
    case (.product, 0): products.0 = place
    case (.product, 1): products.1 = place
    case (.product, 2): products.2 = place
    case (.product, _): products.3 = place
    case (.subscription, 0): subscriptions.0 = place
    case (.subscription, 1): subscriptions.1 = place
    case (.subscription, 2): subscriptions.2 = place
    case (.subscription, _): subscriptions.3 = place
    }
    if kind == .product {
      recentProduct = place
      next.0 = (position + 1) % Self.perKind
    } else {
      recentSubscription = place
      next.1 = (position + 1) % Self.perKind
    }
  }

  private func place(_ kind: Kind, _ position: Int) -> Place {
    switch (kind, position) {
    case (.product, 0): products.0
    case (.product, 1): products.1
    case (.product, 2): products.2
    case (.product, _): products.3
    case (.subscription, 0): subscriptions.0
    case (.subscription, 1): subscriptions.1
    case (.subscription, 2): subscriptions.2
    case (.subscription, _): subscriptions.3
    }
  }

  /// Where the bytes of the id at a place are, with no copy of its string.
  private func bytesOfPlace(_ kind: Kind, _ position: Int) -> (start: Int, count: Int) {
    switch (kind, position) {
    case (.product, 0): (products.0.start, products.0.count)
    case (.product, 1): (products.1.start, products.1.count)
    case (.product, 2): (products.2.start, products.2.count)
    case (.product, _): (products.3.start, products.3.count)
    case (.subscription, 0): (subscriptions.0.start, subscriptions.0.count)
    case (.subscription, 1): (subscriptions.1.start, subscriptions.1.count)
    case (.subscription, 2): (subscriptions.2.start, subscriptions.2.count)
    case (.subscription, _): (subscriptions.3.start, subscriptions.3.count)
    }
  }
}

/// The last two distinct product ids and subscription ids read from decoded payloads, most
/// recent first: the payloads of one page, or of one subscriber's documents, share one
/// `String` per id, as the entries of a receipt do (``SharedIDs``, which finds its ids by
/// their place in one document).
struct PayloadMemo {
  // Places 0 and 1: products; 2 and 3: subscriptions. Four properties, not a tuple: a
  // tuple's element read through a switch copies the whole tuple, every string retained.
  private var string0 = ""
  private var string1 = ""
  private var string2 = ""
  private var string3 = ""
  /// The bytes each string was read from, quotes excluded, escapes included (none for a
  /// string of more than 32 bytes): the next id is first compared with them where it lies,
  /// before it is scanned.
  private var spellings = (Spelling(), Spelling(), Spelling(), Spelling())

  @inline(__always)
  func string(_ place: Int) -> String {
    switch place {
    case 0: string0
    case 1: string1
    case 2: string2
    default: string3
    }
  }

  @inline(__always)
  func spelling(_ place: Int) -> Spelling {
    switch place {
    case 0: spellings.0
    case 1: spellings.1
    case 2: spellings.2
    default: spellings.3
    }
  }

  /// Makes the id at `place` the most recent of its kind, whose first place is `first`.
  @inline(__always)
  mutating func promote(_ place: Int, to first: Int) {
    guard place != first else { return }
    // The two places of a kind are `first` and `first + 1`: swap them.
    if first == 0 {
      swap(&string0, &string1)
      swap(&spellings.0, &spellings.1)
    } else {
      swap(&string2, &string3)
      swap(&spellings.2, &spellings.3)
    }
  }

  /// Keeps `value`, spelt as `spelling`, as the most recent id of its kind, whose first
  /// place is `first`: the one most recent before becomes the second, and the second is
  /// forgotten.
  @inline(__always)
  mutating func remember(_ value: String, spelt spelling: Spelling, first: Int) {
    if first == 0 {
      string1 = string0
      spellings.1 = spellings.0
      string0 = value
      spellings.0 = spelling
    } else {
      string3 = string2
      spellings.3 = spellings.2
      string2 = value
      spellings.2 = spelling
    }
  }
}
