import EntitlementsVerification
import Foundation
import Testing

/// `TrustedRoot(fingerprint:)`: the spellings of a SHA-256 fingerprint it reads, those it
/// refuses, and a root trusted by its fingerprint alone, as another SHA-256 computed it
/// (Python's hashlib, in `Generated/generate.py`).
@Suite("Trusted roots by fingerprint")
struct TrustedRootTests {
  /// Apple Root CA - G3 (SPEC §11).
  static let apple = "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179"

  /// The fingerprint's 32 bytes, as pairs of digits.
  static let pairs: [String] = stride(from: 0, to: apple.count, by: 2).map {
    let start = apple.index(apple.startIndex, offsetBy: $0)
    return String(apple[start..<apple.index(start, offsetBy: 2)])
  }

  struct Spelling: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var isRead: Bool
    var testDescription: String { name }
  }

  static let spellings = [
    Spelling(name: "uppercase", text: apple, isRead: true),
    Spelling(name: "lowercase", text: apple.lowercased(), isRead: true),
    Spelling(name: "pairs with colons", text: pairs.joined(separator: ":"), isRead: true),
    Spelling(name: "pairs with spaces", text: pairs.joined(separator: " "), isRead: true),
    Spelling(name: "62 digits", text: String(apple.dropLast(2)), isRead: false),
    Spelling(name: "63 digits", text: String(apple.dropLast()), isRead: false),
    Spelling(name: "65 digits", text: apple + "0", isRead: false),
    Spelling(name: "66 digits", text: apple + "00", isRead: false),
    Spelling(name: "empty", text: "", isRead: false),
    Spelling(name: "a letter past F", text: "G" + apple.dropFirst(), isRead: false),
    Spelling(name: "a sign", text: "+" + apple.dropFirst(), isRead: false),
    Spelling(name: "pairs with dashes", text: pairs.joined(separator: "-"), isRead: false),
    Spelling(name: "a fullwidth digit", text: "\u{FF16}" + apple.dropFirst(), isRead: false),
  ]

  @Test(arguments: spellings)
  func aFingerprintIsReadOrRefused(_ spelling: Spelling) {
    let root = TrustedRoot(fingerprint: spelling.text)
    if spelling.isRead {
      #expect(root == .appleRootCAG3)
      #expect(root?.fingerprint == Self.apple)
    } else {
      #expect(root == nil)
    }
  }

  /// A verifier given only the generated root's fingerprint verifies what that root signs;
  /// one digit changed, the same JWS is refused for its root.
  @Test func aRootTrustedByItsFingerprintAlone() throws {
    let fingerprints = try #require(GeneratedChainTests.file?["fingerprints"] as? [String: String])
    let hashlib = try #require(fingerprints["root"])
    let good = try #require(
      GeneratedChainTests.cases.first { $0.name == "a transaction under the Apple-shaped chain" })
    let root = try #require(TrustedRoot(fingerprint: hashlib))
    #expect(try GeneratedChainTests.root("root") == root)
    let verifier = AppStoreSignatureVerifier(
      trustedRoots: [root], bundleId: "com.example.app", environment: .sandbox)
    #expect(try verifier.verify(good.jws).bundleId == "com.example.app")
    let changed = String(hashlib.dropLast()) + (hashlib.hasSuffix("0") ? "1" : "0")
    let other = try #require(TrustedRoot(fingerprint: changed))
    let refusing = AppStoreSignatureVerifier(
      trustedRoots: [other], bundleId: "com.example.app", environment: .sandbox)
    #expect(throws: SignatureVerificationError.untrustedRoot) { try refusing.verify(good.jws) }
  }
}
