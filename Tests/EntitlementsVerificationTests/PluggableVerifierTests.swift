import Entitlements
import EntitlementsVerification
import Foundation
import Testing

/// A caller can put its own verifier behind `SignedPayloadVerifier` (CryptoKit, swift-crypto,
/// an extra OCSP check): whatever takes the protocol takes either.
@Suite("Pluggable verifiers")
struct PluggableVerifierTests {
  /// A stand-in for a CryptoKit-based verifier: refuses everything but one payload.
  struct FixedVerifier: SignedPayloadVerifier {
    var accepted: String
    struct Refused: Error {}

    func verifiedPayload(of compactJWS: String) throws -> [UInt8] {
      guard compactJWS == accepted else { throw Refused() }
      return Array(#"{"ok":true}"#.utf8)
    }
  }

  /// Ours, with a revocation check of the caller's added on top (what "let the caller add
  /// OCSP" looks like).
  struct RevocationChecking: SignedPayloadVerifier {
    var inner: AppStoreSignatureVerifier
    var revokedLeaves: Set<[UInt8]>
    struct Revoked: Error {}

    func verifiedPayload(of compactJWS: String) throws -> [UInt8] {
      let verified = try inner.verify(compactJWS)
      if let leaf = verified.certificateChain.first, revokedLeaves.contains(leaf) {
        throw Revoked()
      }
      return verified.payload
    }
  }

  /// What a reader given a verifier does: asks it, and trusts only what it returns.
  static func read(_ jws: String, with verifier: some SignedPayloadVerifier) -> String? {
    guard let bytes = try? verifier.verifiedPayload(of: jws) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func anyConformingTypeCanBeUsed() throws {
    let file = try GeneratedData.json("jws-cases.json") as? [String: Any]
    let cases = file?["cases"] as? [[String: Any]] ?? []
    let jws = try #require(cases.first { $0["expect"] as? String == "verified" }?["jws"] as? String)
    let rootText = try #require((file?["roots"] as? [String: String])?["root"])
    let root = try TrustedRoot(
      derRepresentation: Array(try #require(Data(base64Encoded: rootText))))
    let ours = AppStoreSignatureVerifier(
      trustedRoots: [root], bundleId: "com.example.app", environment: .sandbox)

    #expect(Self.read(jws, with: FixedVerifier(accepted: jws)) == #"{"ok":true}"#)
    #expect(Self.read(jws + "x", with: FixedVerifier(accepted: jws)) == nil)
    #expect(Self.read(jws, with: ours)?.contains("com.example.monthly") == true)

    let leaf = try ours.verify(jws).certificateChain[0]
    #expect(Self.read(jws, with: RevocationChecking(inner: ours, revokedLeaves: [])) != nil)
    #expect(Self.read(jws, with: RevocationChecking(inner: ours, revokedLeaves: [leaf])) == nil)

    let verifiers: [any SignedPayloadVerifier] = [ours, FixedVerifier(accepted: jws)]
    #expect(verifiers.allSatisfy { (try? $0.verifiedPayload(of: jws)) != nil })
  }
}
