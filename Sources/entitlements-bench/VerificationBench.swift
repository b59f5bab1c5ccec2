// Verification rows (issue 25): P-256 and P-384 verifications per second, beside OpenSSL's
// rates measured in the same run.

import EntitlementsVerification
import Foundation

enum VerificationBench {
  static func run(runs: Int) -> Int {
    var sink = 0
    print("")
    print("(v) verification of Apple's signed data (pure Swift), against OpenSSL in this run")
    let p256 = Self.key(
      "04f9ebe464147cc102d92324d099d927c1a50e42d57a08a116ffec0a29819d8c6570baf7d12888902a6a0c1d67add103123c859ab69bf8e9431c9384930d4b7eee"
    )
    let p256Signature = Self.bytes(
      "2c269b33da526fe5c30afcb8bef3d0786f69e5036db018568e6d81bc8429d1b982c69e69b8d3172a215f365da9888551c2b894f921e8f24fd6f894fd992611c0"
    )
    let p384 = Self.key(
      "046b174a49585945d3c6ea64e0d6f0d1c49f193198dea2b91ea688199d6391b886c3a6e7d75a390d5d09e1c1c0cae4f1320bed43a444dbef35e14443654ec62ba28b90d1e6a2d08ae47762948dd189e0f31dfc0ec75957ac530fa13529e4f7757e"
    )
    let p384Signature = Self.bytes(
      "52e624348f4cd0eac399b69a36702b76678fb34bcb923302416cc8883a9ce35b44e5623a8cd548f8b55a3ddebb9aeef33d411409672c96eb97ba4645098c216ead44f0e145169962a9d9cce086b57be9d474314eba1f117aa3c182e47f7d46de"
    )
    let message = Array("entitlements-bench: one message, signed once".utf8)
    for (name, key, signature, count) in [
      ("P-256", p256, p256Signature, 2000), ("P-384", p384, p384Signature, 500),
    ] {
      guard key.isValidSignature(rawRepresentation: signature, for: message) else {
        fatalError("entitlements-bench: the \(name) signature does not verify")
      }
      let time = median(runs: runs) {
        for _ in 0..<count {
          if key.isValidSignature(rawRepresentation: signature, for: message) { sink &+= 1 }
        }
      }
      print("    \(name) verify: \(format(Double(count) / time))/s")
    }
    return sink
  }

  static func bytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return bytes
  }

  static func key(_ hex: String) -> ECDSAPublicKey {
    do {
      return try ECDSAPublicKey(x963Representation: bytes(hex))
    } catch {
      fatalError("entitlements-bench: \(error)")
    }
  }
}
