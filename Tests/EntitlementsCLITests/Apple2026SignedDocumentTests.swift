import Entitlements
import EntitlementsScenarios
import EntitlementsTesting
import EntitlementsVerification
import Foundation
import Testing

/// The documents of every scenario of Apple's 2026 model, signed by the test chain
/// (`Generated/sign-apple-2026.py`), as a backend receives them: each verifies, and folded in
/// any order, any number of times, they answer as the scenario's decoded documents do, every
/// check of the scenario passing.
@Suite("Apple's 2026 model, signed")
struct Apple2026SignedDocumentTests {
  /// Each scenario file's signed documents, as the bytes a backend receives.
  static let signed: [String: [[UInt8]]] = {
    let url = repositoryRoot.appendingPathComponent(
      "Tests/EntitlementsCLITests/Generated/apple-2026-signed.json")
    guard let data = try? Data(contentsOf: url),
      let files = try? JSONSerialization.jsonObject(with: data) as? [String: [Any]]
    else { return [:] }
    return files.mapValues { documents in
      documents.map { document in
        if let body = document as? [String: String], let payload = body["signedPayload"] {
          return Array(#"{"signedPayload": "\#(payload)"}"#.utf8)
        }
        return Array((document as? String ?? "").utf8)
      }
    }
  }()

  static let verifier: AppStoreSignatureVerifier? = {
    let url = repositoryRoot.appendingPathComponent(
      "Tests/EntitlementsVerificationTests/Generated/root.der")
    guard let der = try? Data(contentsOf: url),
      let root = try? TrustedRoot(derRepresentation: Array(der))
    else { return nil }
    return AppStoreSignatureVerifier(
      trustedRoots: [root], bundleId: "com.example.app", environment: nil, appAppleId: nil)
  }()

  static let files = [
    "prorated-refund-ends-access-at-revocation", "full-refund-voids-by-default",
    "family-revoke-ends-access-at-revocation", "refund-reversed-restores-every-revocation-type",
    "commitment-twelve-payments-renewal-off", "sandbox-commitment-billing-retry-by-the-month",
    "apple-2026-model-together",
  ].map { "Scenarios/\($0).json" }

  @Test(arguments: files)
  func signedDocumentsFoldInAnyOrderToTheScenariosAnswer(file: String) throws {
    let scenario = try Scenario(
      json: Array(try Data(contentsOf: URL(fileURLWithPath: path(file)))), file: file)
    let verifier = try #require(Self.verifier, "the test chain's root is missing")
    let bodies = try #require(Self.signed[file], "no signed documents for \(file)")
    let documents = try bodies.map { body in try DocumentReader.read(body, verifier: verifier) }
    let expected = scenario.evaluate()
    for seed in 1...5 as ClosedRange<UInt64> {
      var random = SeededRandom(seed: seed)
      // Every document once, some twice, in a shuffled order.
      var order = Array(documents.indices)
      order += order.filter { _ in Bool.random(using: &random) }
      order.shuffle(using: &random)
      var record = SubscriberRecord()
      for index in order { record.fold(documents[index]) }
      var signed = scenario
      signed.record = record
      #expect(signed.evaluate() == expected, "\(file), seed \(seed)")
      let result = ScenarioRunner.run(signed)
      #expect(result.passed, "\(file), seed \(seed): \(result.failures)")
    }
  }

  /// A forged document is refused, not folded: one changed byte of a signed transaction.
  @Test func aForgedSignedDocumentIsRefused() throws {
    let verifier = try #require(Self.verifier)
    let file = "Scenarios/prorated-refund-ends-access-at-revocation.json"
    let refund = try #require(Self.signed[file]?[2])
    var forged = refund
    // The notification's payload: its middle part, a byte of base64 changed.
    let dot = try #require(forged.firstIndex(of: UInt8(ascii: ".")))
    let (a, b) = (UInt8(ascii: "A"), UInt8(ascii: "B"))
    forged[dot + 40] = forged[dot + 40] == a ? b : a
    do throws(ReadError) {
      let document = try DocumentReader.read(forged, verifier: verifier)
      Issue.record("a forged document was read: \(document)")
    } catch {
      guard case .signatureRejected = error else {
        Issue.record("refused, but not for its signature: \(error)")
        return
      }
    }
    #expect((try? DocumentReader.read(refund, verifier: verifier)) != nil)
  }
}
