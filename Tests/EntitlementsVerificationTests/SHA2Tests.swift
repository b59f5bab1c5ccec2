import Testing

@testable import EntitlementsVerification

/// SHA-256 and SHA-384 against known answers: FIPS 180-4's examples, the empty message, one
/// million "a", and "a" repeated to lengths around the block boundaries (55/56 is where the
/// padding spills into a second block for SHA-256, 111/112 for SHA-384). Expected values from
/// Python's hashlib.
@Suite("SHA-256 and SHA-384")
struct SHA2Tests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var message: [UInt8]
    var sha256: String
    var sha384: String
    var testDescription: String { name }
  }

  static let fips = [
    Case(
      name: "abc", message: Array("abc".utf8),
      sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      sha384:
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
    ),
    Case(
      name: "448 bits",
      message: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
      sha256: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
      sha384:
        "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b"
    ),
    Case(
      name: "896 bits",
      message: Array(
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
          + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8),
      sha256: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
      sha384:
        "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039"
    ),
    Case(
      name: "one million a", message: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
      sha256: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
      sha384:
        "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985"
    ),
  ]

  /// (length of "aaa…", SHA-256, SHA-384).
  static let boundaries: [(Int, String, String)] = [
    (
      0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"
    ),
    (
      55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
      "5d91ac7e74e62b5c728904b40f10784d66b7af9cb6302123e48c92f0432ceb8d2a92c02de77dcb29ed75c4b42bde46f4"
    ),
    (
      56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
      "8a8d9649ea04e993a6ca7135af7e3392cc5fca84f8531cac7aa3feed4eb98f55dcbe0f3284b61c6f35f98b02cc644b4c"
    ),
    (
      63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
      "7e7f097e95b52bb8f53383450ecaf9868187c130981730c03b6d573adfc0b991e365244e5b4bfa082bfb43c517d37120"
    ),
    (
      64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
      "2e404b9339da795776e510d96930b3be2904c500395b8cb7413334b82d4dec413b4b8113045a05bbbcff846f027423f6"
    ),
    (
      65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0",
      "a2b797de45aa1d20594e2ea0cb1801d6dd7ffa3a58281c37dde04029f1c98157bb6eb005e90dd76b79a1d6ddd52dd58d"
    ),
    (
      111, "6374f73208854473827f6f6a3f43b1f53eaa3b82c21c1a6d69a2110b2a79baad",
      "3c37955051cb5c3026f94d551d5b5e2ac38d572ae4e07172085fed81f8466b8f90dc23a8ffcdea0b8d8e58e8fdacc80a"
    ),
    (
      112, "f54353008a2553262ecdc4a34749563ba0950e8b0fc8652780b0a614b99683c1",
      "187d4e07cb306103c69967bf544d0dfbe9042577599c73c330abc0cb64c61236d5ed565ee19119d8c31779a38f791fcd"
    ),
    (
      127, "c57e9278af78fa3cab38667bef4ce29d783787a2f731d4e12200270f0c32320a",
      "9bd06b1763c2cf7aef40e795dc65bc96d59c41b537f3ad72ebdefd485476b5717c1aeb37c327fe9c1831b12b9efd08ae"
    ),
    (
      128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e",
      "edb12730a366098b3b2beac75a3bef1b0969b15c48e2163c23d96994f8d1bef760c7e27f3c464d3829f56c0d53808b0b"
    ),
    (
      129, "c12cb024a2e5551cca0e08fce8f1c5e314555cc3fef6329ee994a3db752166ae",
      "39b6f5a7b0e781dbc419f72e49b30eaac10f2c98c4403bc610da31067fd1b48f324138c8615d2b496d08d73d5e865326"
    ),
  ]

  static let cases =
    fips
    + boundaries.map { length, sha256, sha384 in
      Case(
        name: "\(length) × a", message: [UInt8](repeating: UInt8(ascii: "a"), count: length),
        sha256: sha256, sha384: sha384)
    }

  @Test(arguments: cases)
  func knownAnswer(_ known: Case) {
    #expect(SHA256.hash(known.message).hex == known.sha256)
    #expect(SHA384.hash(known.message).hex == known.sha384)
  }

  /// Compressing a prefix once and finishing from a copy (the JWS header's midstate) gives the
  /// one-shot digest, for every split at a block boundary.
  @Test func resumedFromAPrefixEqualsOneShot() {
    let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    for blocks in 0...4 {
      var prefix = SHA256()
      message.withUnsafeBytes { bytes in
        prefix.compress(UnsafeRawBufferPointer(rebasing: bytes[0..<(64 * blocks)]))
        let digest = prefix.finalized(
          with: UnsafeRawBufferPointer(rebasing: bytes[(64 * blocks)...]))
        #expect(digest == SHA256.hash(message), "split after \(blocks) blocks")
      }
    }
  }
}
