import EntitlementsVerification
import Foundation
import Testing

/// Project Wycheproof's ECDSA vectors (`../shared/vectors/wycheproof` or
/// `$ENTITLEMENTS_VECTORS/wycheproof`, read in place; skipped without them): every
/// `valid` signature accepted and every `invalid` one rejected, for P-256/SHA-256 and
/// P-384/SHA-384, raw `r ‖ s` (IEEE P1363, the JWS form) and DER (the X.509 form).
///
/// `acceptable` vectors: these files (testvectors_v1) have none. Should a later version add
/// some, the verifier's policy is to accept only a signature that verifies *and* is encoded
/// canonically (exact-length raw, strict DER); the test then prints each acceptable vector with
/// the verdict given, and does not fail on it (DESIGN.md, "How strict is the verifier").
@Suite(
  "Wycheproof ECDSA vectors",
  .enabled(if: SharedData.vectorsArePresent, Comment(rawValue: SharedData.vectorsMissingNote)))
struct WycheproofTests {
  enum Encoding: String, Sendable {
    case raw
    case der
  }

  struct File: CustomTestStringConvertible, Sendable {
    var name: String
    var encoding: Encoding
    var testDescription: String { name }
  }

  static let files = [
    File(name: "ecdsa_secp256r1_sha256_p1363_test.json", encoding: .raw),
    File(name: "ecdsa_secp256r1_sha256_test.json", encoding: .der),
    File(name: "ecdsa_secp384r1_sha384_p1363_test.json", encoding: .raw),
    File(name: "ecdsa_secp384r1_sha384_test.json", encoding: .der),
  ]

  @Test(arguments: files)
  func everyVectorIsDecidedAsWycheproofSays(_ file: File) throws {
    let root = try #require(
      SharedData.json(SharedData.wycheproof.appendingPathComponent(file.name)) as? [String: Any])
    let groups = try #require(root["testGroups"] as? [[String: Any]])
    var counts: [String: Int] = [:]
    var wrong: [String] = []
    for group in groups {
      let publicKey = try #require(group["publicKey"] as? [String: Any])
      let encoded = try #require([UInt8](hex: publicKey["uncompressed"] as? String ?? ""))
      let key = try ECDSAPublicKey(x963Representation: encoded)
      for test in try #require(group["tests"] as? [[String: Any]]) {
        let id = test["tcId"] as? Int ?? -1
        let result = test["result"] as? String ?? ""
        let message = try #require([UInt8](hex: test["msg"] as? String ?? ""))
        let signature = try #require([UInt8](hex: test["sig"] as? String ?? ""))
        let accepted =
          switch file.encoding {
          case .raw: key.isValidSignature(rawRepresentation: signature, for: message)
          case .der: key.isValidSignature(derRepresentation: signature, for: message)
          }
        counts[result, default: 0] += 1
        switch result {
        case "valid" where !accepted, "invalid" where accepted:
          wrong.append("tcId \(id) (\(result), \(test["comment"] ?? ""))")
        case "acceptable":
          print(
            "Wycheproof \(file.name) tcId \(id) acceptable: \(accepted ? "accepted" : "rejected")")
        default:
          break
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.prefix(20).joined(separator: "; "))")
    #expect((counts["valid"] ?? 0) > 100 && (counts["invalid"] ?? 0) > 50, "\(counts)")
  }
}
