/// One of the member names Apple writes, as the reader knows it: its place in ``KeyTable``,
/// which holds every name of every schema; ``unknown`` for any other name.
struct KeyID: Hashable, Sendable {
  let rawValue: UInt8

  /// A name no schema has.
  static let unknown = KeyID(rawValue: 255)
  /// The most names the table holds.
  static let capacity = 255
}

/// Every member name of every schema, matched on bytes so that no key becomes a `String`: a
/// member name costs one probe (rarely more) and a comparison of at most four words with the
/// name it may be (``Spelling``), with no allocation, no reference counting and no bounds
/// checks. Built once from the schemas' names and never changed (nor freed); its members are
/// pointers, so that a copy of the table costs no reference counting.
struct KeyTable: @unchecked Sendable {
  private static let slotCount = 1024
  /// Slot → a key's raw value + 1, or 0 for an empty slot.
  private let slots: UnsafeMutablePointer<UInt8>
  /// Each key's name, by raw value.
  private let spellings: UnsafeMutablePointer<Spelling>
  /// Each key's member token, `"name":`, its quotes and colon included, by raw value; no
  /// spelling for a name too long for four words.
  private let tokens: UnsafeMutablePointer<Spelling>
  /// Each key's name as text, for messages and paths.
  private let texts: UnsafeMutablePointer<String>
  /// Each key's name as bytes (its start in ``characters`` and its length), for names longer
  /// than a spelling.
  private let characters: UnsafeMutablePointer<UInt8>
  private let starts: UnsafeMutablePointer<Int>
  private let lengths: UnsafeMutablePointer<Int>
  /// How many names the table has.
  let count: Int

  /// A table of `names`, each once (the first of equal names is kept).
  init(names: [String]) {
    var unique: [String] = []
    var seen: Set<String> = []
    for name in names where seen.insert(name).inserted { unique.append(name) }
    precondition(unique.count <= KeyID.capacity, "more names than a KeyID holds")
    precondition(unique.allSatisfy { !$0.isEmpty }, "an empty name")
    count = unique.count
    let bytes = unique.map { Array($0.utf8) }
    texts = .allocate(capacity: max(count, 1))
    texts.initialize(from: unique, count: count)
    characters = .allocate(capacity: max(bytes.reduce(0) { $0 + $1.count }, 1))
    starts = .allocate(capacity: max(count, 1))
    lengths = .allocate(capacity: max(count, 1))
    var start = 0
    for (raw, name) in bytes.enumerated() {
      (characters + start).initialize(from: name, count: name.count)
      (starts + raw).initialize(to: start)
      (lengths + raw).initialize(to: name.count)
      start += name.count
    }
    slots = .allocate(capacity: Self.slotCount)
    slots.initialize(repeating: 0, count: Self.slotCount)
    spellings = .allocate(capacity: max(unique.count, 1))
    tokens = .allocate(capacity: max(unique.count, 1))
    for (raw, name) in bytes.enumerated() {
      spellings.advanced(by: raw).initialize(to: Spelling(name))
      let token = [UInt8(ascii: "\"")] + name + [UInt8(ascii: "\""), UInt8(ascii: ":")]
      tokens.advanced(by: raw).initialize(to: Spelling(token))
      precondition(!name.isEmpty, "a schema's member name is not empty")
      let (first, last) = name.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { preconditionFailure("a name of no storage") }
        return Spelling.ends(base, raw.count, 0, min(raw.count, Spelling.longest))
      }
      var slot = Self.slot(name.count, first, last)
      while slots[slot] != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
      slots[slot] = UInt8(raw + 1)
    }
  }

  /// The key spelt by the `count` bytes at `start` of `raw` (`available` bytes long);
  /// ``KeyID/unknown`` for any other name.
  @inline(__always)
  func key(_ raw: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int) -> KeyID {
    guard count > 0 else { return .unknown }
    // The first and last words (of the first 32 bytes), as the table's names were placed by.
    let (first, last) = Spelling.ends(raw, available, start, min(count, Spelling.longest))
    var slot = Self.slot(count, first, last)
    while true {
      let stored = Int(slots[slot])
      guard stored != 0 else { return .unknown }
      if matches(stored - 1, raw, available, start, count) {
        return KeyID(rawValue: UInt8(stored - 1))
      }
      slot = (slot + 1) & (Self.slotCount - 1)
    }
  }

  /// The length of the member token `"name":` of `key` when the bytes at `start` of `bytes`
  /// (`available` bytes long) begin with it, else `nil`: the name of a predicted key, its
  /// quotes and the colon right after them, checked in one to four word comparisons.
  @_transparent
  func tokenLength(
    of key: KeyID, at start: Int, in bytes: UnsafeRawPointer, _ available: Int
  ) -> Int? {
    Self.tokenLength(tokens, of: key, at: start, in: bytes, available)
  }

  /// ``tokenLength(of:at:in:_:)`` with the table's tokens given: in the loop every member of
  /// every object runs, with nothing of the table copied.
  @_transparent
  static func tokenLength(
    _ tokens: UnsafeMutablePointer<Spelling>, of key: KeyID, at start: Int,
    in bytes: UnsafeRawPointer, _ available: Int
  ) -> Int? {
    let token = tokens + Int(key.rawValue)
    let count = token.pointee.count
    guard count > 0, start &+ count <= available,
      token.pointee.isSpelt(at: start, in: bytes, available)
    else { return nil }
    return count
  }

  /// The tokens, for ``tokenLength(_:of:at:in:_:)``.
  var tokenSpellings: UnsafeMutablePointer<Spelling> { tokens }

  /// The length of the name of `key`.
  @inline(__always)
  func length(of key: KeyID) -> Int { lengths[Int(key.rawValue)] }

  /// Whether the `count` bytes at `start` spell the key of raw value `raw`.
  @inline(__always)
  func matches(
    _ raw: Int, _ bytes: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int
  ) -> Bool {
    let name = spellings[raw]
    if name.count > 0 {
      return name.count == count && name.isSpelt(at: start, in: bytes, available)
    }
    guard lengths[raw] == count else { return false }
    let expected = characters + starts[raw]
    return (0..<count).allSatisfy {
      expected[$0] == bytes.load(fromByteOffset: start + $0, as: UInt8.self)
    }
  }

  /// The key of `name`, or ``KeyID/unknown``.
  func key(named name: String) -> KeyID {
    var name = name
    return name.withUTF8 { utf8 in
      guard let base = utf8.baseAddress else { return .unknown }
      return key(UnsafeRawPointer(base), utf8.count, 0, utf8.count)
    }
  }

  /// The name of `key`, as Apple spells it.
  func name(of key: KeyID) -> String {
    key == .unknown ? "" : texts[Int(key.rawValue)]
  }

  /// Every name, in the order of their keys.
  var names: [String] { (0..<count).map { texts[$0] } }

  /// A slot from the length and the first and last words.
  @inline(__always)
  private static func slot(_ count: Int, _ first: UInt64, _ last: UInt64) -> Int {
    var value = (UInt64(count) &* 0x9e37_79b9_7f4a_7c15) ^ first
    value = (value ^ (value >> 29)) &* 0xbf58_476d_1ce4_e5b9
    value ^= last
    value = (value ^ (value >> 31)) &* 0x94d0_49bb_1331_11eb
    return Int(truncatingIfNeeded: value >> 54)  // 10 bits: 1024 slots
  }
}
