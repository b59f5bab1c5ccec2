import Foundation
import Testing

/// The repository's root, found from this file.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent()  // EntitlementsVerificationTests
  .deletingLastPathComponent()  // Tests
  .deletingLastPathComponent()

/// Other projects' data beside the repository, read in place and never copied into it, each
/// on its own: Apple's real JWS under `../shared/fixtures` (or the folder
/// `ENTITLEMENTS_FIXTURES` names), and Wycheproof's vectors under `../shared/vectors` (or
/// `ENTITLEMENTS_VECTORS`). Where one is absent, the suite that needs it is skipped with one
/// line saying what and how to run it (a suite trait: ``fixturesMissingNote``,
/// ``vectorsMissingNote``), and every other test still runs.
enum SharedData {
  static let fixtures = folder(environment: "ENTITLEMENTS_FIXTURES", beside: "shared/fixtures")
  static let vectors = folder(environment: "ENTITLEMENTS_VECTORS", beside: "shared/vectors")
  static let wycheproof = vectors.appendingPathComponent("wycheproof")

  /// Whether Apple's JWS are there (their MANIFEST, as the other test targets look for it).
  static let fixturesArePresent = FileManager.default.fileExists(
    atPath: fixtures.appendingPathComponent("MANIFEST.txt").path)

  /// Whether Wycheproof's vectors are there.
  static let vectorsArePresent = FileManager.default.fileExists(atPath: wycheproof.path)

  /// The one line printed where the fixtures are absent.
  static let fixturesMissingNote = """
    no fixtures at \(fixtures.path): the tests of Apple's signed JWS (real, test CA, Xcode) \
    are skipped. To run them, put the shared folder beside the repository \
    (../shared/fixtures) or set ENTITLEMENTS_FIXTURES to a fixtures folder.
    """

  /// The one line printed where the vectors are absent.
  static let vectorsMissingNote = """
    no Wycheproof vectors at \(wycheproof.path): the ECDSA vector tests are skipped. To run \
    them, put the shared folder beside the repository (../shared/vectors/wycheproof) or set \
    ENTITLEMENTS_VECTORS to a folder holding wycheproof/.
    """

  /// The folder an environment variable names, else `relative` beside the repository.
  private static func folder(environment name: String, beside relative: String) -> URL {
    if let override = ProcessInfo.processInfo.environment[name] {
      return URL(fileURLWithPath: override)
    }
    return repositoryRoot.deletingLastPathComponent().appendingPathComponent(relative)
  }

  static func fixture(_ relative: String) throws -> Data {
    try Data(contentsOf: fixtures.appendingPathComponent(relative))
  }

  static func json(_ url: URL) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(contentsOf: url))
  }
}

/// The committed outputs of `Generated/generate.py`.
enum GeneratedData {
  static let directory = repositoryRoot.appendingPathComponent(
    "Tests/EntitlementsVerificationTests/Generated")

  static func json(_ name: String) throws -> Any {
    try JSONSerialization.jsonObject(
      with: Data(contentsOf: directory.appendingPathComponent(name)))
  }
}

extension Array where Element == UInt8 {
  /// The bytes of a hexadecimal string (pairs of digits; nil for anything else).
  init?(hex: String) {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    self = bytes
  }

  /// Lowercase hexadecimal.
  var hex: String {
    map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
      .joined()
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

/// SplitMix64: a small seeded generator, so that a failing case names its seed.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
