// Verification rows (issue 25): P-256 and P-384 verifications per second and whole v2
// notifications verified and read per second, beside OpenSSL's rates measured in the same run
// (`openssl speed -seconds 1 ecdsap256 ecdsap384`, when the command exists).
//
// These rows count CPU time, as `openssl speed` does (its rates are per second of user CPU
// time unless it is given -elapsed): on a shared machine wall-clock rates fall with the load
// while OpenSSL's do not, and the ratio would measure the neighbours.
//
//   swift build -c release --product entitlements-bench
//   taskset -c 1 .build/release/entitlements-bench --only verify

import Entitlements
import EntitlementsVerification
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum VerificationBench {
  /// Seconds of this thread's CPU time spent in `block`.
  static func cpuSeconds(_ block: () -> Void) -> Double {
    func now() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    let start = now()
    block()
    return now() - start
  }

  /// Median CPU seconds of `runs` runs after one warm-up.
  static func medianCPU(runs: Int, _ block: () -> Void) -> Double {
    block()
    return median((0..<runs).map { _ in cpuSeconds(block) })
  }

  static func run(runs: Int) -> Int {
    var sink = 0
    print("")
    print(
      "(v) verification of Apple's signed data, pure Swift, beside OpenSSL in the same run "
        + "(per second of CPU time, as openssl speed counts)")
    // BENCH_VERIFY=notifications times that row alone (for profiling: `perf stat` then counts
    // only this code).
    if ProcessInfo.processInfo.environment["BENCH_VERIFY"] == "notifications" {
      let (rate, count, source) = notificationRate(runs: runs, sink: &sink)
      row("v2 notifications verified + read (\(count) JWS each)", rate, nil, 3000, "≥ 3 000/s")
      print("    notifications: \(source)")
      return sink
    }
    let openSSL = openSSLRates()
    let message = Array("entitlements-bench: one message, signed once".utf8)
    var rates: [String: Double] = [:]
    for (name, key, signature, count) in [
      ("P-256", key(p256Key), bytes(p256Signature), 2000),
      ("P-384", key(p384Key), bytes(p384Signature), 1000),
    ] {
      guard key.isValidSignature(rawRepresentation: signature, for: message) else {
        fatalError("entitlements-bench: the \(name) signature does not verify")
      }
      let time = medianCPU(runs: runs) {
        for _ in 0..<count {
          if key.isValidSignature(rawRepresentation: signature, for: message) { sink &+= 1 }
        }
      }
      rates[name] = Double(count) / time
    }
    let p256Target = (openSSL?.p256).map { $0 / 3 }
    let p384Target = openSSL?.p384
    row(
      "P-256 verify (SHA-256 + ECDSA)", rates["P-256"], openSSL?.p256, p256Target,
      "≥ 1/3 of OpenSSL")
    row("P-384 verify (SHA-384 + ECDSA)", rates["P-384"], openSSL?.p384, p384Target, "≥ OpenSSL")
    let (notifications, jwsCount, source) = notificationRate(runs: runs, sink: &sink)
    row(
      "v2 notifications verified + read (\(jwsCount) JWS each)", notifications, nil, 3000,
      "≥ 3 000/s")
    print("    notifications: \(source)")
    if openSSL == nil { print("    (openssl not found: no OpenSSL column)") }
    return sink
  }

  static func row(
    _ name: String, _ rate: Double?, _ openSSL: Double?, _ target: Double?, _ rule: String
  ) {
    let ours = rate.map { format($0) + "/s" } ?? "-"
    let theirs = openSSL.map { "OpenSSL " + format($0) + "/s" } ?? ""
    let ratio = rate.flatMap { rate in openSSL.map { String(format: " = %.2f×", rate / $0) } } ?? ""
    let verdict =
      rate.flatMap { rate in target.map { rate >= $0 ? "meets \(rule)" : "MISSES \(rule)" } } ?? ""
    print(
      "    \(name.padding(toLength: 48, withPad: " ", startingAt: 0)) "
        + "\(ours.padding(toLength: 10, withPad: " ", startingAt: 0)) \(theirs)\(ratio)  \(verdict)"
    )
  }

  // MARK: - Notifications

  /// Verifies and reads real notifications (../shared, Apple-signed, sandbox) in turn, or the
  /// generated one when ../shared is absent.
  static func notificationRate(runs: Int, sink: inout Int) -> (Double?, Int, String) {
    guard let (verifier, notifications, source) = notifications() else {
      return (nil, 0, "none found")
    }
    var jwsCount = 0
    for jws in notifications {
      do {
        let verified = try verifier.verifyNotification(jws)
        jwsCount = 1 + (verified.transaction == nil ? 0 : 1) + (verified.renewalInfo == nil ? 0 : 1)
        _ = try DocumentReader.readUnverified(verified.notification.payload)
      } catch {
        fatalError("entitlements-bench: a notification does not verify and read: \(error)")
      }
    }
    let rounds = max(1, 3000 / notifications.count)
    let time = medianCPU(runs: runs) {
      for _ in 0..<rounds {
        for jws in notifications {
          guard let verified = try? verifier.verifyNotification(jws),
            let document = try? DocumentReader.readUnverified(verified.notification.payload)
          else { continue }
          sink &+= document.history.entries.count
        }
      }
    }
    return (Double(rounds * notifications.count) / time, jwsCount, source)
  }

  static func notifications() -> (AppStoreSignatureVerifier, [String], String)? {
    let fixtures =
      ProcessInfo.processInfo.environment["ENTITLEMENTS_FIXTURES"] ?? "../shared/fixtures"
    let file = "\(fixtures)/notifications_v2/session-pro-backend/documents.json"
    if let data = FileManager.default.contents(atPath: file),
      let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let list = root["notifications"] as? [[String: Any]]
    {
      let jws = list.compactMap { $0["jws"] as? String }
      let verifier = AppStoreSignatureVerifier(
        bundleId: "com.loki-project.loki-messenger", environment: .sandbox)
      return (
        verifier, jws,
        "\(jws.count) real sandbox notifications (\(file)), Apple Root CA - G3 pinned, at signedDate"
      )
    }
    let generated = "Tests/EntitlementsVerificationTests/Generated/jws-cases.json"
    guard let data = FileManager.default.contents(atPath: generated),
      let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let roots = root["roots"] as? [String: String],
      let rootDER = roots["root"].flatMap({ Data(base64Encoded: $0) }),
      let trusted = try? TrustedRoot(derRepresentation: Array(rootDER)),
      let cases = root["cases"] as? [[String: Any]],
      let notification = cases.first(where: {
        $0["method"] as? String == "notification" && $0["expect"] as? String == "verified"
      })?["jws"] as? String
    else { return nil }
    let verifier = AppStoreSignatureVerifier(
      trustedRoots: [trusted], bundleId: "com.example.app", environment: .production,
      appAppleId: 1234)
    return (verifier, [notification], "the generated notification (\(generated))")
  }

  // MARK: - OpenSSL

  /// OpenSSL's verifications per second for P-256 and P-384, from `openssl speed`.
  static func openSSLRates() -> (p256: Double, p384: Double)? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl", "speed", "-seconds", "1", "ecdsap256", "ecdsap384"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    do {
      try process.run()
    } catch {
      return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    // " 256 bits ecdsa (nistp256)   0.0000s   0.0001s  36521.0  12708.0": verify/s is last.
    var rates: [String: Double] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      for curve in ["nistp256", "nistp384"] where line.contains("(\(curve))") {
        rates[curve] = line.split(separator: " ").last.flatMap { Double($0) }
      }
    }
    guard let p256 = rates["nistp256"], let p384 = rates["nistp384"] else { return nil }
    return (p256, p384)
  }

  // MARK: - Keys

  static let p256Key =
    "04f9ebe464147cc102d92324d099d927c1a50e42d57a08a116ffec0a29819d8c6570baf7d12888902a6a0c1d67add103123c859ab69bf8e9431c9384930d4b7eee"
  static let p256Signature =
    "2c269b33da526fe5c30afcb8bef3d0786f69e5036db018568e6d81bc8429d1b982c69e69b8d3172a215f365da9888551c2b894f921e8f24fd6f894fd992611c0"
  static let p384Key =
    "046b174a49585945d3c6ea64e0d6f0d1c49f193198dea2b91ea688199d6391b886c3a6e7d75a390d5d09e1c1c0cae4f1320bed43a444dbef35e14443654ec62ba28b90d1e6a2d08ae47762948dd189e0f31dfc0ec75957ac530fa13529e4f7757e"
  static let p384Signature =
    "52e624348f4cd0eac399b69a36702b76678fb34bcb923302416cc8883a9ce35b44e5623a8cd548f8b55a3ddebb9aeef33d411409672c96eb97ba4645098c216ead44f0e145169962a9d9cce086b57be9d474314eba1f117aa3c182e47f7d46de"

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
