import Entitlements
import EntitlementsScenarios
import EntitlementsVerification
// The command line tool may use full Foundation (files, base64 of PEM); the verifier itself
// does not.
import Foundation

/// What `entitlements verify` was asked: the files, the trusted roots, the expected claims and
/// the validity instant.
///
/// ```swift
/// try CommandLineArguments.parse(["verify", "n.json", "--bundle-id", "com.example"])
/// // .verify(VerifyOptions(files: ["n.json"], bundleId: "com.example"))
/// ```
public struct VerifyOptions: Hashable, Sendable {
  /// The files to check.
  public var files: [String]
  /// Root certificates (DER or PEM files) replacing Apple Root CA - G3; empty for Apple's.
  public var roots: [String]
  /// The expected `bundleId`, if any.
  public var bundleId: String?
  /// The expected environment, if any.
  public var environment: StoreEnvironment?
  /// The validity instant; nil for each payload's `signedDate`.
  public var at: Instant?
  /// Threads; nil for the cores the process may use (as `evaluate`).
  public var jobs: Int?

  /// Creates options.
  ///
  /// - Parameters:
  ///   - files: The files to check.
  ///   - roots: Root certificate files replacing Apple's root.
  ///   - bundleId: The expected bundle id.
  ///   - environment: The expected environment.
  ///   - at: The validity instant.
  ///   - jobs: Threads; nil for the cores the process may use.
  public init(
    files: [String], roots: [String] = [], bundleId: String? = nil,
    environment: StoreEnvironment? = nil, at: Instant? = nil, jobs: Int? = nil
  ) {
    self.files = files
    self.roots = roots
    self.bundleId = bundleId
    self.environment = environment
    self.at = at
    self.jobs = jobs
  }
}

/// `entitlements verify`: checks every JWS in the files (SPEC §11) and prints one line per JWS,
/// `verified` or the failed step, with where the JWS is.
///
/// A file holds one JWS, JWS lines, or a JSON document whose JWS strings are found wherever
/// they nest, including inside the payloads of JWS (a notification's transaction and renewal
/// info): each is verified on its own. In JSON, every string at a key where Apple puts a JWS
/// (``signedKeys``) is checked whatever its characters, so a damaged one is reported
/// (`malformed`) and fails the run instead of being skipped; elsewhere, every string that
/// looks like one (``looksLikeJWS(_:)``). Every line of JWS lines is checked the same way.
///
/// ```
/// $ entitlements verify documents.json --bundle-id GeniusParentingAI --environment Sandbox
/// verified  documents.json .apple_notifications[0].jws
/// verified  documents.json .apple_notifications[0].jws > .data.signedTransactionInfo
/// …
/// malformed  documents.json .apple_notifications[98].jws: the JWS signature is 58 bytes, …
/// 494 verified, 2 failed
/// ```
enum VerifyCommand {
  /// The verifier the options describe, or `nil` (exit status 2) when a root cannot be read.
  static func verifier(_ options: VerifyOptions, _ run: inout EntitlementsTool.Run)
    -> AppStoreSignatureVerifier?
  {
    var roots: [TrustedRoot] = []
    for file in options.roots {
      do {
        roots.append(try TrustedRoot(derRepresentation: rootCertificate(FileSystem.read(file))))
      } catch {
        run.errors += "\(file): not a root certificate: \(error)\n"
        run.status = 2
        return nil
      }
    }
    return AppStoreSignatureVerifier(
      trustedRoots: roots.isEmpty ? [.appleRootCAG3] : roots, bundleId: options.bundleId,
      environment: options.environment, validAt: options.at)
  }

  /// Runs the command: exit status 0 when every JWS found verifies, 1 when one fails or none
  /// is found, 2 for an unreadable file or root.
  static func run(_ options: VerifyOptions, _ run: inout EntitlementsTool.Run) {
    guard let verifier = verifier(options, &run) else { return }
    // Every JWS of every file first, in order; then verified on every core, each once.
    // A file with no JWS is one line saying so: `jws` nil.
    var found: [(location: String, jws: String?)] = []
    for file in options.files {
      let bytes: [UInt8]
      do {
        bytes = try FileSystem.read(file)
      } catch {
        run.errors += "\(file): cannot read: \(error.localizedDescription)\n"
        run.status = 2
        continue
      }
      guard let strings = signedStrings(in: bytes) else {
        run.errors += "\(file): neither JSON nor lines of compact JWS\n"
        run.status = 2
        continue
      }
      if strings.isEmpty { found.append(("\(file): no JWS found", nil)) }
      for (path, jws) in strings {
        found.append((path.isEmpty || path.hasPrefix(":") ? file + path : "\(file) \(path)", jws))
      }
    }
    let all = found
    let reports = Reports(count: all.count)
    let jobs = max(1, min(options.jobs ?? UsableCores.here(), all.count))
    DispatchQueue.concurrentPerform(iterations: jobs) { job in
      // Interleaved, so that each thread has its share of a file of similar JWS.
      for index in stride(from: job, to: all.count, by: jobs) {
        let (location, jws) = all[index]
        var report = Report()
        if let jws {
          check(jws, at: location, verifier, &report)
        } else {
          report.text = "none  \(ControlCharacters.escaped(location))\n"
        }
        reports.set(index, report)
      }
    }
    var verified = 0
    var failed = 0
    for report in reports.all {
      run.output += report.text
      verified += report.verified
      failed += report.failed
    }
    run.output += "\(verified) verified, \(failed) failed\n"
    if run.status == 0, failed > 0 || verified == 0 { run.status = 1 }
  }

  /// What checking one JWS found: its lines (its own, then its nested JWS'), and the counts.
  struct Report: Sendable {
    var text = ""
    var verified = 0
    var failed = 0
  }

  /// The reports of the JWS found, each written once by the thread that checked it.
  final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [Report]

    init(count: Int) { reports = Array(repeating: Report(), count: count) }

    func set(_ index: Int, _ report: Report) { lock.withLock { reports[index] = report } }

    var all: [Report] { lock.withLock { reports } }
  }

  /// Verifies one JWS and the JWS nested in its payload.
  private static func check(
    _ jws: String, at location: String, _ verifier: AppStoreSignatureVerifier,
    _ report: inout Report, depth: Int = 0
  ) {
    var payload: [UInt8]?
    do {
      payload = try verifier.verify(jws).payload
      report.verified += 1
      report.text += "verified  \(ControlCharacters.escaped(location))\n"
    } catch {
      report.failed += 1
      // The location and the reason may hold the input's characters: escaped.
      let reason = String(error.description.dropFirst(error.step.count + 2))
      report.text +=
        "\(error.step)  \(ControlCharacters.escaped(location)): "
        + "\(ControlCharacters.escaped(reason))\n"
      // Its nested JWS are still checked, each on its own.
      payload = try? JWS.unverifiedPayload(of: jws)
    }
    guard depth < 2, let payload, let value = try? JSONValue(parsing: payload) else { return }
    for (path, nested) in signedStrings(in: value) {
      check(nested, at: "\(location) > \(path)", verifier, &report, depth: depth + 1)
    }
  }

  /// The keys at which Apple's documents hold a JWS: a notification's `signedPayload` (as
  /// posted, and in each item of Get Notification History), `signedTransactionInfo` and
  /// `signedRenewalInfo` (a notification's `data`, Get Transaction Info, each
  /// `lastTransactions` item of Get All Subscription Statuses), every element of
  /// `signedTransactions` (Get Transaction History, Get Refund History) and
  /// `signedAppTransactionInfo` (Get App Transaction Info, a notification's `appData`).
  static let signedKeys: Set<String> = [
    "signedPayload", "signedTransactionInfo", "signedRenewalInfo", "signedTransactions",
    "signedAppTransactionInfo",
  ]

  /// Every JWS to check in a file, with its JSON path (empty for a file that is one JWS, `:N`
  /// for line N of JWS lines, counted as the file has them, blank ones included); nil when the
  /// file is neither JSON nor lines of which one at least looks like a JWS (`eyJ`, the
  /// base64url of `{"`). Every other non-blank line is given too, to be reported as what it
  /// is: not a JWS. A UTF-8 byte order mark is skipped.
  static func signedStrings(in bytes: [UInt8]) -> [(path: String, jws: String)]? {
    let start = JSONFile.withoutByteOrderMark(bytes).startIndex
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }
    let first = bytes[start...].first { !isSpace($0) }
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
      guard let value = try? JSONValue(parsing: Array(bytes[start...])) else { return nil }
      return signedStrings(in: value)
    }
    // Lines as the file has them, on bytes: "\n", "\r\n" and "\r" each end one.
    var lines: [(number: Int, text: ArraySlice<UInt8>)] = []
    var number = 1
    var lineStart = start
    var index = start
    while index <= bytes.count {
      let atEnd = index == bytes.count
      let byte = atEnd ? 0 : bytes[index]
      if atEnd || byte == 0x0A || byte == 0x0D {
        var line = bytes[lineStart..<index]
        while let last = line.last, isSpace(last) { line = line.dropLast() }
        while let head = line.first, isSpace(head) { line = line.dropFirst() }
        if !line.isEmpty { lines.append((number, line)) }
        if atEnd { break }
        // "\r\n" ends one line.
        if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
        number += 1
        lineStart = index + 1
      }
      index += 1
    }
    let jwsStart = Array("eyJ".utf8)
    guard lines.contains(where: { $0.text.starts(with: jwsStart) }) else { return nil }
    // Each line is checked whatever it holds: a damaged line, or one that is no JWS at all,
    // is reported on its own, the others verified.
    return lines.map {
      (lines.count == 1 ? "" : ":\($0.number)", String(decoding: $0.text, as: UTF8.self))
    }
  }

  /// Every JWS to check in a JSON value, with its path (`.a[0].b`), in key order: each string
  /// at one of ``signedKeys`` (or in an array there), whatever its characters; any other
  /// string that ``looksLikeJWS(_:)``. Objects under those keys (a decoded payload stored in
  /// place of its JWS) are searched like any other.
  static func signedStrings(
    in value: JSONValue, path: String = "", atSignedKey: Bool = false
  ) -> [(path: String, jws: String)] {
    switch value {
    case .object(let members):
      return members.keys.sorted().flatMap { key in
        members[key].map {
          signedStrings(in: $0, path: "\(path).\(key)", atSignedKey: signedKeys.contains(key))
        } ?? []
      }
    case .array(let elements):
      return elements.enumerated().flatMap {
        signedStrings(in: $1, path: "\(path)[\($0)]", atSignedKey: atSignedKey)
      }
    case .string(let text) where atSignedKey || looksLikeJWS(text):
      return [(path, text)]
    default:
      return []
    }
  }

  /// Whether a string found at another key is taken for a JWS: it starts with `eyJ` (the
  /// base64url of `{"`, a JSON header) and has at least two dots. Nothing else is asked of its
  /// characters, so a JWS damaged anywhere past its first three characters (a `+`, `=`
  /// padding, a part too many) is checked and reported, never passed over.
  static func looksLikeJWS(_ text: String) -> Bool {
    text.hasPrefix("eyJ") && text.utf8.lazy.filter { $0 == UInt8(ascii: ".") }.count >= 2
  }

  /// The DER of a root certificate file: DER as is, or the first PEM certificate.
  static func rootCertificate(_ bytes: [UInt8]) -> [UInt8] {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let begin = text.range(of: "-----BEGIN CERTIFICATE-----"),
      let end = text.range(
        of: "-----END CERTIFICATE-----", range: begin.upperBound..<text.endIndex),
      let der = Data(
        base64Encoded: String(text[begin.upperBound..<end.lowerBound]),
        options: .ignoreUnknownCharacters)
    else { return bytes }
    return Array(der)
  }
}
