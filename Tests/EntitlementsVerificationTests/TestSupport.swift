import Foundation
import Testing

/// The repository's root, found from this file.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent()  // EntitlementsVerificationTests
  .deletingLastPathComponent()  // Tests
  .deletingLastPathComponent()

/// Other projects' data beside the repository (`../shared`): Apple's real JWS under
/// `fixtures/` (or where `ENTITLEMENTS_FIXTURES` says) and Wycheproof's vectors under
/// `vectors/wycheproof/`. Read in place, never copied into the repository; tests that need it
/// are skipped without it, with one printed line for the whole suite.
enum SharedData {
  static let fixtures: URL = {
    if let override = ProcessInfo.processInfo.environment["ENTITLEMENTS_FIXTURES"] {
      return URL(fileURLWithPath: override)
    }
    return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
  }()

  static let wycheproof = repositoryRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/vectors/wycheproof")

  /// Whether both are present; the first time it is false, one line says what is skipped.
  static let isPresent: Bool = {
    let missing = [fixtures, wycheproof].filter {
      !FileManager.default.fileExists(atPath: $0.path)
    }
    if !missing.isEmpty {
      print(
        "EntitlementsVerificationTests: skipping the tests of Apple's JWS and Wycheproof's "
          + "vectors: \(missing.map(\.path).joined(separator: ", ")) not found")
    }
    return missing.isEmpty
  }()

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
