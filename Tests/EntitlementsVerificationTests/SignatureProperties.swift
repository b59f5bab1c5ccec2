import Foundation
import Testing

@testable import EntitlementsVerification

/// Seeded property: random messages signed by random keys (made by `Generated/generate.py`
/// from the seed it records, committed in `signatures.json`) verify, and every single-bit
/// change to the message or to the signature is rejected.
///
/// Each signature is verified both ways the verifier has: the public API (variable-base
/// multiplication of the key) and with a table of the key's multiples (how a cached leaf's
/// payloads are verified). The hundreds of changed signatures per key go through the table,
/// three times cheaper, so that the suite stays quick in a debug build; Wycheproof's vectors
/// exercise the other path.
@Suite("Signature properties")
struct SignatureProperties {
  struct Signed: Sendable {
    var message: [UInt8]
    var signature: [UInt8]
  }

  struct Key: CustomTestStringConvertible, Sendable {
    var index: Int
    var curve: String
    var publicKey: [UInt8]
    var signed: [Signed]
    var testDescription: String { "key \(index) (\(curve)), seed \(SignatureProperties.seed)" }
  }

  nonisolated(unsafe) static let file =
    (try? GeneratedData.json("signatures.json")) as? [String: Any]

  static let seed = (file?["seed"] as? NSNumber)?.uint64Value ?? 0

  static let keys: [Key] = ((file?["keys"] as? [[String: Any]]) ?? []).enumerated().map {
    index, entry in
    let signed = ((entry["messages"] as? [[String: String]]) ?? []).map {
      Signed(
        message: [UInt8](hex: $0["message"] ?? "") ?? [],
        signature: [UInt8](hex: $0["signature"] ?? "") ?? [])
    }
    return Key(
      index: index, curve: entry["curve"] as? String ?? "?",
      publicKey: [UInt8](hex: entry["publicKey"] as? String ?? "") ?? [], signed: signed)
  }

  @Test func theGeneratedKeysAreThere() {
    print("SignatureProperties: keys and messages of generate.py's seed \(Self.seed)")
    #expect(Self.keys.count == 50)
    #expect(Self.keys.allSatisfy { $0.signed.count == 1 })
  }

  @Test(arguments: keys)
  func signaturesVerifyAndNoSingleBitChangeDoes(_ key: Key) throws {
    let publicKey = try ECDSAPublicKey(x963Representation: key.publicKey)
    let table = publicKey.makeTable()
    let size = publicKey.byteCount
    func digest(_ message: [UInt8]) -> [UInt8] {
      size == 32 ? SHA256.hash(message) : SHA384.hash(message)
    }
    func verifies(_ signature: [UInt8], _ message: [UInt8]) -> Bool {
      guard let (r, s) = ECDSASignature.raw(signature, byteCount: size) else { return false }
      return publicKey.isValid(r: r, s: s, digest: digest(message), table: table)
    }
    for signed in key.signed {
      #expect(publicKey.isValidSignature(rawRepresentation: signed.signature, for: signed.message))
      #expect(verifies(signed.signature, signed.message))
      for bit in 0..<(signed.message.count * 8) {
        var message = signed.message
        message[bit / 8] ^= 1 << (bit % 8)
        #expect(!verifies(signed.signature, message), "message bit \(bit) flipped")
      }
      for bit in 0..<(signed.signature.count * 8) {
        var signature = signed.signature
        signature[bit / 8] ^= 1 << (bit % 8)
        #expect(!verifies(signature, signed.message), "signature bit \(bit) flipped")
      }
    }
  }
}
