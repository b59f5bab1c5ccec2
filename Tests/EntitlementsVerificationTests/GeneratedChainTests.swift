import Entitlements
import EntitlementsVerification
import Foundation
import Testing

/// A chain the project generates itself (`Generated/generate.py`, outputs committed): a P-384
/// root and intermediate with Apple's intermediate OID, a P-256 leaf with Apple's leaf OID, as
/// Apple's chain is made. The well-formed JWS are accepted, and every way a JWS must be refused
/// is refused for the right reason: the step, and the certificate when there is one.
@Suite("Generated chain")
struct GeneratedChainTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var jws: String
    var expect: String
    var position: String?
    var nested: String?
    var roots: [String]
    var bundleId: String?
    var environment: String?
    var appAppleId: Int64?
    var validAt: Int64?
    var isNotification: Bool
    var testDescription: String { name }
  }

  nonisolated(unsafe) static let file =
    (try? GeneratedData.json("jws-cases.json")) as? [String: Any]

  /// Root certificates by name, base64 DER.
  static let roots = file?["roots"] as? [String: String] ?? [:]

  static let cases: [Case] = ((file?["cases"] as? [[String: Any]]) ?? []).map { entry in
    Case(
      name: entry["name"] as? String ?? "?", jws: entry["jws"] as? String ?? "",
      expect: entry["expect"] as? String ?? "?", position: entry["position"] as? String,
      nested: entry["nested"] as? String, roots: entry["roots"] as? [String] ?? [],
      bundleId: entry["bundleId"] as? String, environment: entry["environment"] as? String,
      appAppleId: (entry["appAppleId"] as? NSNumber)?.int64Value,
      validAt: (entry["validAt"] as? NSNumber)?.int64Value,
      isNotification: entry["method"] as? String == "notification")
  }

  static func root(_ name: String) throws -> TrustedRoot {
    if name == "apple" { return .appleRootCAG3 }
    let text = try #require(roots[name])
    let der = try #require(Data(base64Encoded: text))
    return try TrustedRoot(derRepresentation: Array(der))
  }

  static func verifier(for test: Case) throws -> AppStoreSignatureVerifier {
    AppStoreSignatureVerifier(
      trustedRoots: try test.roots.map(root), bundleId: test.bundleId,
      environment: test.environment.flatMap { StoreEnvironment(rawValue: $0) },
      appAppleId: test.appAppleId,
      validAt: test.validAt.map(Instant.init(millisecondsSince1970:)))
  }

  @Test func theGeneratedCasesAreThere() {
    #expect(Self.cases.count >= 90)
    #expect(Self.cases.contains { $0.expect == "verified" })
  }

  @Test(arguments: cases)
  func decidedForTheRightReason(_ test: Case) throws {
    let verifier = try Self.verifier(for: test)
    // Twice: the second time the chain comes from the cache (and a table of the leaf's key),
    // which must decide the same.
    for attempt in ["first", "cached"] {
      do {
        if test.isNotification {
          _ = try verifier.verifyNotification(test.jws)
        } else {
          _ = try verifier.verify(test.jws)
        }
        #expect(test.expect == "verified", "\(attempt): verified, expected \(test.expect)")
      } catch {
        #expect(error.step == test.expect, "\(attempt): \(error)")
        #expect(error.position?.rawValue == test.position, "\(attempt): \(error)")
        #expect(error.nestedPath == test.nested, "\(attempt): \(error)")
      }
    }
  }

  /// Verified payloads say what was checked, and keep the chain for a caller's own OCSP check.
  @Test func aVerifiedPayloadCarriesItsClaimsAndChain() throws {
    let test = try #require(Self.cases.first { $0.expect == "verified" })
    let payload = try Self.verifier(for: test).verify(test.jws)
    #expect(payload.bundleId == "com.example.app")
    #expect(payload.environment == .sandbox)
    #expect(payload.signedDate == Instant(millisecondsSince1970: 1_759_320_000_000))
    #expect(payload.validAt == payload.signedDate)
    #expect(payload.certificateChain.count == 3)
    let json = try JSONSerialization.jsonObject(with: Data(payload.payload)) as? [String: Any]
    #expect(json?["productId"] as? String == "com.example.monthly")
  }

  @Test func aNotificationReturnsItsNestedPayloads() throws {
    let test = try #require(
      Self.cases.first { $0.isNotification && $0.expect == "verified" })
    let verified = try Self.verifier(for: test).verifyNotification(test.jws)
    #expect(verified.notification.isNotification)
    #expect(verified.notification.appAppleId == 1234)
    #expect(verified.transaction?.bundleId == "com.example.app")
    #expect(verified.renewalInfo?.bundleId == nil)
    #expect(verified.renewalInfo?.environment == .production)
  }

  /// The protocol the reader uses gives the payload's bytes.
  @Test func theProtocolGivesThePayload() throws {
    let test = try #require(Self.cases.first { $0.expect == "verified" })
    let verifier: any SignedPayloadVerifier = try Self.verifier(for: test)
    let bytes = try verifier.verifiedPayload(of: test.jws)
    #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("{\"transactionId\""))
  }

  /// Many threads verifying through one verifier (one cache) agree with one thread.
  @Test func theCacheIsSafeFromManyThreads() async throws {
    let verifying = Self.cases.filter { !$0.isNotification && $0.roots == ["root"] }
      .filter { $0.bundleId == "com.example.app" && $0.environment == "Sandbox" }
      .filter { $0.validAt == nil }
    let verifier = AppStoreSignatureVerifier(
      trustedRoots: [try Self.root("root")], bundleId: "com.example.app", environment: .sandbox)
    let outcomes = await withTaskGroup(of: [String].self) { group in
      for _ in 0..<4 {
        group.addTask {
          verifying.map { test in
            do {
              _ = try verifier.verify(test.jws)
              return "verified"
            } catch {
              return (error as? SignatureVerificationError)?.step ?? "\(error)"
            }
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(outcomes.count == 4)
    for outcome in outcomes {
      let differences = zip(verifying, outcome).filter { $0.expect != $1 }.map {
        "\($0.name): \($1)"
      }
      #expect(differences.isEmpty, "\(differences)")
    }
  }
}

extension SignatureVerificationError {
  /// The certificate a failure names, if any.
  var position: ChainPosition? {
    switch self {
    case .issuerMismatch(let position), .invalidChainSignature(let position),
      .notCertificateAuthority(let position), .missingAppleOID(let position),
      .unsupportedCriticalExtension(let position, _), .certificateExpired(let position, _, _, _):
      position
    case .nested(_, let error): error.position
    default: nil
    }
  }

  /// The JSON path of the nested JWS a failure is in, if any.
  var nestedPath: String? {
    if case .nested(let path, _) = self { return path }
    return nil
  }
}
