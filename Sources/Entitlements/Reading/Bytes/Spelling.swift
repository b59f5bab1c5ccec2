/// The bytes of a short text as at most four words, compared with bytes where they lie in one
/// to four word comparisons, with no scan and no allocation: how the reader recognises a key's
/// name, a predicted member token (`"name":`) and an id it has read before.
///
/// The words are the text's bytes at 0, 8 and 16 before its last eight bytes, then its last
/// eight bytes (which may overlap the word before); a text shorter than eight bytes is one
/// word, zero past its end. A count of -1 (no text, or one of more than ``longest`` bytes)
/// matches nothing.
struct Spelling: Sendable {
  /// The most bytes a spelling holds: four words.
  static let longest = 32

  /// How many bytes the text has, or -1.
  private(set) var count = -1
  /// The words at 0, 8 (for more than 16 bytes) and 16 (for more than 24), and the last
  /// eight bytes; zero where unused, so that equal texts have equal words.
  private var word0: UInt64 = 0
  private var word1: UInt64 = 0
  private var word2: UInt64 = 0
  private var word3: UInt64 = 0

  /// No text: matches nothing.
  init() {}

  /// The spelling of the `count` bytes at `start` of `raw`, which holds `available` bytes
  /// (the `count` bytes among them); no text when `count` is not 1 to ``longest``.
  @inline(__always)
  init(_ raw: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int) {
    guard count > 0, count <= Self.longest else { return }
    self.count = count
    let (first, last) = Self.ends(raw, available, start, count)
    word0 = first
    guard count >= 8 else { return }
    word1 = count > 16 ? Self.load(raw, start + 8) : 0
    word2 = count > 24 ? Self.load(raw, start + 16) : 0
    word3 = last
  }

  /// The spelling of `bytes`.
  init(_ bytes: [UInt8]) {
    self = bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return Spelling() }
      return Spelling(base, raw.count, 0, raw.count)
    }
  }

  /// The first word: the first eight bytes, or a shorter text whole.
  var first: UInt64 { word0 }
  /// The last eight bytes, or a shorter text whole.
  var last: UInt64 { count < 8 ? word0 : word3 }

  /// ``first`` and ``last`` of the spelling of the `count` bytes (1 to ``longest``) at `start`
  /// of `raw`, which holds `available` bytes, without the words between: what a hash of the
  /// text needs.
  @inline(__always)
  static func ends(
    _ raw: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int
  ) -> (first: UInt64, last: UInt64) {
    guard count >= 8 else {
      let word = short(raw, available, start, count)
      return (word, word)
    }
    return (load(raw, start), load(raw, start + count - 8))
  }

  /// Whether the ``count`` bytes at `start` of `bytes`, which holds `available` bytes (the
  /// ``count`` bytes among them), are this text.
  @_transparent
  func isSpelt(at start: Int, in bytes: UnsafeRawPointer, _ available: Int) -> Bool {
    guard count >= 8 else {
      return count > 0 && word0 == Self.short(bytes, available, start, count)
    }
    return word0 == Self.load(bytes, start)
      && word3 == Self.load(bytes, start &+ count &- 8)
      && (count <= 16 || word1 == Self.load(bytes, start &+ 8))
      && (count <= 24 || word2 == Self.load(bytes, start &+ 16))
  }

  /// The eight bytes at `offset`, the first lowest.
  @_transparent
  static func load(_ raw: UnsafeRawPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// The 1 to 7 bytes at `start` as a word, zero past their end; loaded whole when eight
  /// bytes are available, else byte by byte.
  @inline(__always)
  static func short(
    _ raw: UnsafeRawPointer, _ available: Int, _ start: Int, _ count: Int
  ) -> UInt64 {
    if start &+ 8 <= available {
      return load(raw, start) & ((1 << UInt64(count &* 8)) &- 1)
    }
    var word: UInt64 = 0
    for position in 0..<count {
      word |=
        UInt64(raw.load(fromByteOffset: start + position, as: UInt8.self))
        << UInt64(position * 8)
    }
    return word
  }
}
