import Entitlements
import Foundation
import Testing

@testable import EntitlementsVerification

/// The verifier's parsers on damaged input, seeded: bit flips, truncations, insertions and
/// deletions of real (../shared, when present) and generated JWS, certificates and JSON. Nothing
/// may trap or hang, nothing damaged may verify, and whatever is refused is refused with a
/// ``SignatureVerificationError``. The fuzz target (`Sources/entitlements-fuzz-verify`) runs the
/// same exercise under libFuzzer.
@Suite("Mutated corpus", .timeLimit(.minutes(1)))
struct MutatedCorpusTests {
  static func generated() -> (jws: [String], roots: [TrustedRoot]) {
    let file = (try? GeneratedData.json("jws-cases.json")) as? [String: Any]
    let cases = file?["cases"] as? [[String: Any]] ?? []
    let jws = cases.filter { $0["expect"] as? String == "verified" }.compactMap {
      $0["jws"] as? String
    }
    let roots = ((file?["roots"] as? [String: String]) ?? [:]).values.sorted().compactMap {
      Data(base64Encoded: $0).flatMap { try? TrustedRoot(derRepresentation: Array($0)) }
    }
    return (jws, roots)
  }

  static func real() -> [String] {
    guard SharedData.fixturesArePresent,
      let data = try? SharedData.fixture("notifications_v2/session-pro-backend/documents.json"),
      let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let list = root["notifications"] as? [[String: Any]]
    else { return [] }
    return list.prefix(3).compactMap { $0["jws"] as? String }
  }

  /// One random change to `bytes`.
  static func mutate(_ bytes: [UInt8], _ generator: inout SplitMix64) -> [UInt8] {
    var bytes = bytes
    guard !bytes.isEmpty else { return [UInt8(truncatingIfNeeded: generator.next())] }
    let position = Int(generator.next() % UInt64(bytes.count))
    switch generator.next() % 5 {
    case 0: bytes[position] ^= 1 << (generator.next() % 8)
    case 1: bytes.removeSubrange(position...)
    case 2: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
    case 3: bytes.remove(at: position)
    default:
      let source = Int(generator.next() % UInt64(bytes.count))
      bytes[position] = bytes[source]
    }
    return bytes
  }

  @Test(arguments: [1 as UInt64, 2, 3, 4])
  func damagedJWSAreRefusedWithoutATrap(seed: UInt64) {
    print("MutatedCorpusTests: seed \(seed)")
    var generator = SplitMix64(seed: seed)
    let (generated, roots) = Self.generated()
    let real = Self.real()
    let appleVerifier = AppStoreSignatureVerifier(bundleId: nil, environment: nil)
    let ourVerifier = AppStoreSignatureVerifier(
      trustedRoots: roots, bundleId: nil, environment: nil)
    let inputs = generated.map { ($0, ourVerifier) } + real.map { ($0, appleVerifier) }
    #expect(!inputs.isEmpty)
    var refused = 0
    for (jws, verifier) in inputs {
      // Damage in the signature part must fail; elsewhere most changes must too.
      for _ in 0..<40 {
        let damaged = String(decoding: Self.mutate(Array(jws.utf8), &generator), as: UTF8.self)
        guard damaged != jws else { continue }
        do {
          _ = try verifier.verifyNotificationOrPayload(damaged)
          // A change may leave the meaning intact only where JWS ignores bytes: none here.
          Issue.record("a damaged JWS verified: \(damaged.prefix(60))…")
        } catch {
          refused += 1
        }
      }
    }
    #expect(refused > 0)
  }

  @Test(arguments: [5 as UInt64, 6])
  func damagedCertificatesAndJSONDoNotTrap(seed: UInt64) throws {
    var generator = SplitMix64(seed: seed)
    let file = try GeneratedData.json("jws-cases.json") as? [String: Any]
    let certificates = ((file?["roots"] as? [String: String]) ?? [:]).values.sorted().compactMap {
      Data(base64Encoded: $0).map(Array.init)
    }
    #expect(!certificates.isEmpty)
    var parsed = 0
    for certificate in certificates {
      for _ in 0..<150 {
        let damaged = Self.mutate(certificate, &generator)
        if let read = try? Certificate(der: damaged) {
          parsed += 1
          if let key = read.publicKey { _ = read.isSigned(by: key) }
        }
        _ = ECDSASignature.der(damaged[...], byteCount: 48)
      }
    }
    let payload =
      Array(
        #"{"notificationType":"DID_RENEW","data":{"bundleId":"a\u00e9","appAppleId":1,"#.utf8)
      + Array(
        #""environment":"Sandbox","signedTransactionInfo":"x.y.z"},"signedDate":1.5e12}"#.utf8)
    let header = Array(#"{"alg":"ES256","typ":"JWT","x5c":["AQI=","Aw=="]}"#.utf8)
    for _ in 0..<400 {
      _ = try? PayloadClaims(json: Self.mutate(payload, &generator))
      _ = try? JWSHeader(json: Self.mutate(header, &generator))
      _ = Base64.decode(Self.mutate(Array("aGVsbG8gd29ybGQ".utf8), &generator), alphabet: .url)
    }
    print("MutatedCorpusTests: seed \(seed), \(parsed) damaged certificates still parsed")
  }
}

extension AppStoreSignatureVerifier {
  /// A notification with its nested JWS, or any other payload.
  func verifyNotificationOrPayload(_ jws: String) throws(SignatureVerificationError) {
    let payload = try verify(jws)
    if payload.isNotification { _ = try verifyNotification(jws) }
  }
}
