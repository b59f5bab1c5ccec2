import Testing

@testable import EntitlementsVerification

/// Strict base64: one accepted spelling per byte string, in each alphabet.
@Suite("Base64")
struct Base64Tests {
  static func decode(_ text: String, _ alphabet: Base64.Alphabet) -> [UInt8]? {
    Base64.decode(Array(text.utf8), alphabet: alphabet)
  }

  @Test func decodesBothAlphabets() {
    #expect(Self.decode("", .url) == [])
    #expect(Self.decode("aGk", .url) == Array("hi".utf8))
    #expect(Self.decode("aGk=", .standard) == Array("hi".utf8))
    #expect(Self.decode("aGVsbG8", .url) == Array("hello".utf8))
    #expect(Self.decode("aGVsbG8=", .standard) == Array("hello".utf8))
    #expect(Self.decode("-_-_", .url) == [0xFB, 0xFF, 0xBF])
    #expect(Self.decode("+/+/", .standard) == [0xFB, 0xFF, 0xBF])
    #expect(Self.decode("YQ==", .standard) == [0x61])
  }

  @Test(arguments: [
    ("aGk=", Base64.Alphabet.url), ("aGl", .url), ("a", .url), ("aGk*", .url), ("+/+/", .url),
    ("aGk", .standard), ("-_-_", .standard), ("YR==", .standard), ("Y===", .standard),
    ("=aGk", .standard), ("aG=k", .standard), ("aGk ", .url), ("aG\nk", .url),
  ])
  func refusesWhatIsNotCanonical(_ text: String, _ alphabet: Base64.Alphabet) {
    #expect(Self.decode(text, alphabet) == nil, "\(text)")
  }

  /// Every length from 0 to 70 round-trips through an encoding written here.
  @Test func roundTrips() {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var generator = SplitMix64(seed: 3)
    for length in 0...70 {
      let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      var text: [UInt8] = []
      var index = 0
      while index < bytes.count {
        let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
        let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
        for position in 0...chunk.count {
          text.append(alphabet[(value >> (18 - 6 * position)) & 63])
        }
        index += 3
      }
      #expect(Base64.decode(text, alphabet: .url) == bytes, "length \(length)")
    }
  }
}
