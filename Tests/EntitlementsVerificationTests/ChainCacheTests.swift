import Foundation
import Testing

@testable import EntitlementsVerification

/// The chain cache keeps only what a verified signature was made under: a refused JWS leaves
/// no header behind, so headers nobody signed, paired with a trusted `x5c`, cannot empty it.
@Suite("Chain cache")
struct ChainCacheTests {
  static func generated(_ name: String) throws -> String {
    try #require(GeneratedChainTests.cases.first { $0.name == name }).jws
  }

  static func verifier() throws -> AppStoreSignatureVerifier {
    AppStoreSignatureVerifier(
      trustedRoots: [try GeneratedChainTests.root("root")], bundleId: nil, environment: nil)
  }

  /// base64url without padding.
  static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }

  @Test func aRefusedSignatureLeavesNoHeader() throws {
    let verifier = try Self.verifier()
    // Its header (typ JOSE) is new and its chain verifies; its signature does not.
    let changedHeader = try Self.generated("header byte changed")
    #expect(throws: SignatureVerificationError.invalidSignature) {
      try verifier.verify(changedHeader)
    }
    #expect(verifier.cache.count.headers == 0)
    // The chain verified (to a trusted root): kept by its certificates.
    #expect(verifier.cache.count.chains == 1)
    _ = try verifier.verify(Self.generated("a transaction under the Apple-shaped chain"))
    #expect(verifier.cache.count.headers == 1)
    #expect(verifier.cache.count.chains == 1)
  }

  /// A signature that verifies keeps its header, even when a later step refuses the payload:
  /// the header is the signer's.
  @Test func aVerifiedSignatureKeepsItsHeaderWhateverTheClaims() throws {
    let verifier = AppStoreSignatureVerifier(
      trustedRoots: [try GeneratedChainTests.root("root")], bundleId: "com.example.app",
      environment: .production)
    #expect(throws: SignatureVerificationError.self) {
      try verifier.verify(Self.generated("a transaction under the Apple-shaped chain"))
    }
    #expect(verifier.cache.count.headers == 1)
  }

  /// Twice the cache's capacity of headers, each with the trusted `x5c` and a `kid` of its
  /// own, none signed: the signed header stays cached.
  @Test func headersNobodySignedCannotEmptyTheCache() throws {
    let verifier = try Self.verifier()
    let good = try Self.generated("a transaction under the Apple-shaped chain")
    _ = try verifier.verify(good)
    #expect(verifier.cache.count.headers == 1)
    let parts = good.split(separator: ".").map(String.init)
    var header = parts[0].replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    while header.count % 4 != 0 { header += "=" }
    let json = String(decoding: try #require(Data(base64Encoded: header)), as: UTF8.self)
    #expect(json.hasPrefix(#"{"alg":"ES256","#))
    for index in 0..<(2 * ChainCache.capacity) {
      let forged = json.replacingOccurrences(
        of: #"{"alg":"ES256","#, with: #"{"alg":"ES256","kid":"k\#(index)","#)
      let jws = [Self.base64URL(forged.utf8), parts[1], parts[2]].joined(separator: ".")
      #expect(throws: SignatureVerificationError.invalidSignature) { try verifier.verify(jws) }
    }
    #expect(verifier.cache.count.headers == 1)
    #expect(verifier.cache.count.chains == 1)
  }
}
