import Entitlements
import EntitlementsCLI
import Foundation
import Testing

/// `entitlements verify`, on the generated chain's JWS (Tests/EntitlementsVerificationTests/
/// Generated): parsed, run in process, and run as the built tool.
@Suite("entitlements verify")
struct VerifyCommandTests {
  /// Generated JWS by case name, and the root certificates by name.
  static let generated: (cases: [String: String], roots: [String: Data]) = {
    let url = URL(
      fileURLWithPath: path("Tests/EntitlementsVerificationTests/Generated/jws-cases.json"))
    let file = (try? JSONSerialization.jsonObject(with: Data(contentsOf: url))) as? [String: Any]
    var cases: [String: String] = [:]
    for entry in file?["cases"] as? [[String: Any]] ?? [] {
      if let name = entry["name"] as? String, let jws = entry["jws"] as? String {
        cases[name] = jws
      }
    }
    let roots = ((file?["roots"] as? [String: String]) ?? [:]).compactMapValues {
      Data(base64Encoded: $0)
    }
    return (cases, roots)
  }()

  /// A folder with: one JWS, JWS lines (one refused), a JSON document nesting a notification,
  /// and the generated root.
  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("verify-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let cases = generated.cases
    let good = try #require(cases["a transaction under the Apple-shaped chain"])
    let changed = try #require(cases["payload byte changed"])
    let notification = try #require(cases["a production notification with its nested JWS"])
    try good.write(to: folder.appendingPathComponent("one.jws"), atomically: true, encoding: .utf8)
    try "\(good)\n\(changed)\n".write(
      to: folder.appendingPathComponent("lines.txt"), atomically: true, encoding: .utf8)
    let document = #"{"body": {"signedPayload": "\#(notification)"}, "note": "not a JWS"}"#
    try document.write(
      to: folder.appendingPathComponent("notification.json"), atomically: true, encoding: .utf8)
    try #require(generated.roots["root"]).write(to: folder.appendingPathComponent("root.der"))
    return folder
  }

  @Test func parsesItsOptions() throws {
    let command = try CommandLineArguments.parse([
      "verify", "a.json", "b.jws", "--root", "r1.der", "--root", "r2.pem", "--bundle-id", "com.a",
      "--environment", "sandbox", "--at", "2025-10-01",
    ])
    #expect(
      command
        == .verify(
          VerifyOptions(
            files: ["a.json", "b.jws"], roots: ["r1.der", "r2.pem"], bundleId: "com.a",
            environment: .sandbox, at: Instant(millisecondsSince1970: 1_759_276_800_000))))
    #expect(throws: UsageError.self) { try CommandLineArguments.parse(["verify"]) }
    #expect(throws: UsageError.self) {
      try CommandLineArguments.parse(["verify", "a", "--environment", "Prod"])
    }
    #expect(throws: UsageError.self) { try CommandLineArguments.parse(["verify", "a", "--root"]) }
    #expect(throws: UsageError.self) {
      try CommandLineArguments.parse(["explain", "a", "--bundle-id", "x"])
    }
  }

  @Test func verifiesEveryJWSAndNamesWhereEachIs() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
    let run = EntitlementsTool.run([
      "verify", file("one.jws"), file("notification.json"), "--root", file("root.der"),
      "--environment", "Production",
    ])
    // one.jws says Sandbox: refused for its environment; the notification and its two nested
    // JWS verify.
    #expect(run.status == 1, "\(run.output)\(run.errors)")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 5, "\(run.output)")
    #expect(
      lines[0].hasPrefix("environmentMismatch  \(file("one.jws")): environment is \"Sandbox\""))
    #expect(lines[1] == "verified  \(file("notification.json")) .body.signedPayload")
    #expect(
      lines[2]
        == "verified  \(file("notification.json")) .body.signedPayload > .data.signedRenewalInfo")
    #expect(
      lines[3]
        == "verified  \(file("notification.json")) .body.signedPayload > .data.signedTransactionInfo"
    )
    #expect(lines[4] == "3 verified, 1 failed")

    let sandbox = EntitlementsTool.run([
      "verify", file("one.jws"), "--root", file("root.der"), "--bundle-id", "com.example.app",
    ])
    #expect(sandbox.status == 0, "\(sandbox.output)")
    #expect(sandbox.output == "verified  \(file("one.jws"))\n1 verified, 0 failed\n")
  }

  @Test func failuresAndApplesDefaultRoot() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
    let lines = EntitlementsTool.run(["verify", file("lines.txt"), "--root", file("root.der")])
    #expect(lines.status == 1)
    #expect(lines.output.contains("verified  \(file("lines.txt")):1\n"))
    #expect(lines.output.contains("invalidSignature  \(file("lines.txt")):2: "))
    // Without --root, Apple's root is the only one trusted.
    let apple = EntitlementsTool.run(["verify", file("one.jws")])
    #expect(apple.status == 1)
    #expect(apple.output.hasPrefix("untrustedRoot  \(file("one.jws")): "))
    // At an instant after the leaf expires.
    let late = EntitlementsTool.run([
      "verify", file("one.jws"), "--root", file("root.der"), "--at", "2030-01-01",
    ])
    #expect(late.output.hasPrefix("certificateExpired  \(file("one.jws")): the leaf certificate"))
    // Unreadable input: status 2.
    let missing = EntitlementsTool.run(["verify", file("absent.json")])
    #expect(missing.status == 2)
    #expect(missing.errors.contains("absent.json: cannot read"))
    let badRoot = EntitlementsTool.run(["verify", file("one.jws"), "--root", file("one.jws")])
    #expect(badRoot.status == 2)
    #expect(badRoot.errors.contains("not a root certificate"))
    try "hello".write(
      to: folder.appendingPathComponent("text.txt"), atomically: true, encoding: .utf8)
    #expect(EntitlementsTool.run(["verify", file("text.txt")]).status == 2)
    try "{}".write(
      to: folder.appendingPathComponent("empty.json"), atomically: true, encoding: .utf8)
    let empty = EntitlementsTool.run(["verify", file("empty.json")])
    #expect(empty.status == 1)
    #expect(empty.output.hasSuffix("0 verified, 0 failed\n"))
  }

  /// A JSON document, JWS lines or one JWS holding a damaged JWS beside a good one, and what
  /// `verify` must say of the damaged one (`malformed`, at its path, and why).
  struct Damage: CustomTestStringConvertible, Sendable {
    var name: String
    var file: String
    /// The file's text, given the good JWS.
    var text: @Sendable (String) -> String
    /// The damaged JWS's location after the file's name (`.b`, `:2`), and the reason.
    var reported: String
    var verified = 1
    var testDescription: String { name }
  }

  /// The good JWS with one change.
  static func damaged(_ good: String, _ change: (inout [String]) -> Void) -> String {
    var parts = good.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    change(&parts)
    return parts.joined(separator: ".")
  }

  static let payloadWithPlus: @Sendable (String) -> String = { good in
    damaged(good) { $0[1] = String($0[1].prefix(10)) + "+" + $0[1].dropFirst(11) }
  }

  static let damages: [Damage] = [
    Damage(
      name: "a '+' in the payload, at a key of our own", file: "plus.json",
      text: { #"{"a": "\#($0)", "b": "\#(payloadWithPlus($0))"}"# },
      reported: " .b: the JWS payload is not base64url"),
    Damage(
      name: "a '==' padded signature, at a key of our own", file: "padded.json",
      text: { #"{"a": "\#($0)", "b": "\#($0)=="}"# },
      reported: " .b: the JWS signature is not base64url"),
    Damage(
      name: "a part too many, at a key of our own", file: "four.json",
      text: { #"{"a": "\#($0)", "b": "\#($0).\#($0.split(separator: ".")[2])"}"# },
      reported: " .b: not a compact JWS: more than three parts, expected header.payload.signature"),
    Damage(
      name: "signedPayload not even starting like a JWS", file: "signed-payload.json",
      text: { #"{"a": "\#($0)", "signedPayload": "a notification"}"# },
      reported: " .signedPayload: not a compact JWS: 1 part, expected header.payload.signature"),
    Damage(
      name: "an element of signedTransactions without its dots", file: "history.json",
      text: {
        #"{"signedTransactions": ["\#($0)", "\#($0.replacingOccurrences(of: ".", with: ""))"], "#
          + #""hasMore": false}"#
      },
      reported: " .signedTransactions[1]: not a compact JWS: 1 part, "
        + "expected header.payload.signature"),
    Damage(
      name: "notificationHistory[].signedPayload cut short", file: "notifications.json",
      text: {
        #"{"a": "\#($0)", "notificationHistory": [{"signedPayload": "\#($0.prefix(40))"}]}"#
      },
      reported: " .notificationHistory[0].signedPayload: not a compact JWS: 1 part, "
        + "expected header.payload.signature"),
    Damage(
      name: "data[].lastTransactions[].signedRenewalInfo empty", file: "statuses.json",
      text: {
        #"{"data": [{"lastTransactions": [{"signedTransactionInfo": "\#($0)", "#
          + #""signedRenewalInfo": ""}]}]}"#
      },
      reported: " .data[0].lastTransactions[0].signedRenewalInfo: not a compact JWS: 1 part, "
        + "expected header.payload.signature"),
    Damage(
      name: "JWS lines, the second with a '+'", file: "damaged-lines.txt",
      text: { "\($0)\n\(payloadWithPlus($0))\n" },
      reported: ":2: the JWS payload is not base64url"),
    Damage(
      name: "one JWS, its signature padded", file: "damaged.jws", text: { "\($0)==\n" },
      reported: ": the JWS signature is not base64url", verified: 0),
  ]

  /// Each damaged JWS is reported `malformed` and fails the run (exit status 1), beside the
  /// good one, which verifies.
  @Test(arguments: damages)
  func aDamagedJWSIsReportedAndFailsTheRun(_ damage: Damage) throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = try #require(Self.generated.cases["a transaction under the Apple-shaped chain"])
    let url = folder.appendingPathComponent(damage.file)
    try damage.text(good).write(to: url, atomically: true, encoding: .utf8)
    let run = EntitlementsTool.run([
      "verify", url.path, "--root", folder.appendingPathComponent("root.der").path,
    ])
    #expect(run.status == 1, "\(run.output)\(run.errors)")
    #expect(run.errors.isEmpty, "\(run.errors)")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.contains("malformed  \(url.path)\(damage.reported)"), "\(run.output)")
    #expect(lines.last == "\(damage.verified) verified, 1 failed", "\(run.output)")
  }

  /// What is not taken for a JWS: a string elsewhere than Apple's keys that does not start
  /// with `eyJ` or has fewer than two dots, and a decoded payload stored under an Apple key
  /// (searched like any other object).
  @Test func stringsThatAreNotJWSAreLeftAlone() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = try #require(Self.generated.cases["a transaction under the Apple-shaped chain"])
    let url = folder.appendingPathComponent("other.json")
    let text = #"""
      {"a": "\#(good)", "version": "1.2.3", "host": "api.storekit.itunes.apple.com",
       "token": "eyJhbGciOiJIUzI1NiJ9.e30", "signedTransactionInfo": {"bundleId": "x.y.z"},
       "signedDate": 1759320000000}
      """#
    try text.write(to: url, atomically: true, encoding: .utf8)
    let run = EntitlementsTool.run([
      "verify", url.path, "--root", folder.appendingPathComponent("root.der").path,
    ])
    #expect(run.status == 0, "\(run.output)\(run.errors)")
    #expect(run.output == "verified  \(url.path) .a\n1 verified, 0 failed\n")
  }

  /// `explain --verify`: what verifies is explained; a changed payload, an untrusted root or a
  /// refused claim stops it (exit status 2) naming the JWS; without `--verify` the same forged
  /// bytes would be read.
  @Test func explainVerifiesWhatItReads() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
    let verified = EntitlementsTool.run([
      "explain", file("one.jws"), "--verify", "--root", file("root.der"), "--json",
    ])
    #expect(verified.status == 0, "\(verified.errors)")
    let value = try JSONValue(parsing: Array(verified.output.utf8))
    guard case .array(let entitlements)? = value["entitlements"] else {
      Issue.record("no entitlements: \(verified.output)")
      return
    }
    #expect(entitlements.count == 1)

    // The attack: a genuine JWS whose payload says it expires in 2099, signature kept.
    let good = try #require(Self.generated.cases["a transaction under the Apple-shaped chain"])
    let parts = good.split(separator: ".").map(String.init)
    let payload = try JWS.unverifiedPayload(of: good)
    var object = try #require(JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
    object["expiresDate"] = 4_070_908_800_000
    let forgedPayload = try JSONSerialization.data(withJSONObject: object)
      .base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    let forged = [parts[0], forgedPayload, parts[2]].joined(separator: ".")
    try forged.write(
      to: folder.appendingPathComponent("forged.jws"), atomically: true, encoding: .utf8)
    let refused = EntitlementsTool.run([
      "explain", file("forged.jws"), "--verify", "--root", file("root.der"),
    ])
    #expect(refused.status == 2)
    #expect(refused.output.isEmpty)
    #expect(refused.errors.hasPrefix("\(file("forged.jws")): "), "\(refused.errors)")
    #expect(refused.errors.contains("signature"), "\(refused.errors)")
    // Apple's root only: the generated chain is not trusted.
    let untrusted = EntitlementsTool.run(["explain", file("one.jws"), "--verify"])
    #expect(untrusted.status == 2)
    #expect(untrusted.errors.contains("root"), "\(untrusted.errors)")
    let wrongEnvironment = EntitlementsTool.run([
      "explain", file("one.jws"), "--verify", "--root", file("root.der"), "--environment",
      "Production",
    ])
    #expect(wrongEnvironment.status == 2)
    #expect(wrongEnvironment.errors.contains("environment"), "\(wrongEnvironment.errors)")
    // Unverified, the forged payload is read like any other, and grants access until 2099:
    // what --verify is for.
    let unverified = EntitlementsTool.run([
      "explain", file("forged.jws"), "--json", "--at", "2090-01-01",
    ])
    #expect(unverified.status == 0, "\(unverified.errors)")
    let forgedValue = try JSONValue(parsing: Array(unverified.output.utf8))
    #expect(forgedValue["entitlements"]?[0]?["status"]?["entitled"] == .bool(true))
    let scenario = EntitlementsTool.run([
      "explain", path("Scenarios/free-trial-then-lapse.json"), "--verify",
    ])
    #expect(scenario.status == 2)
    #expect(scenario.errors.contains("not scenario files"))
  }

  /// The built tool, as a process: output and exit status.
  @Test func endToEnd() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
    let (output, errors, status) = try EndToEndTests.run([
      "verify", file("notification.json"), "--root", file("root.der"), "--bundle-id",
      "com.example.app", "--environment", "Production",
    ])
    #expect(status == 0, "\(output)\(errors)")
    #expect(output.hasSuffix("3 verified, 0 failed\n"))
    let (failing, _, failingStatus) = try EndToEndTests.run(["verify", file("lines.txt")])
    #expect(failingStatus == 1)
    #expect(failing.hasSuffix("0 verified, 2 failed\n"))
  }
}

/// `verify` on files of JWS lines as people make them: a byte order mark, blank lines, a line
/// that is no JWS; and keys that try to forge a line of output (issue: the tool as trustworthy
/// as the library).
@Suite("entitlements verify: lines and hostile input")
struct VerifyLinesTests {
  @Test func everyLineIsReportedCountedAsTheFileHasIt() throws {
    let folder = try VerifyCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = try #require(
      VerifyCommandTests.generated.cases["a transaction under the Apple-shaped chain"])
    let file = folder.appendingPathComponent("bom.txt").path
    // A byte order mark, the JWS on line 1, a blank line, a line that is no JWS on line 3,
    // the JWS again on line 5 after another blank line.
    try ("\u{FEFF}\(good)\n\nnot a token\n\n\(good)\n").write(
      toFile: file, atomically: true, encoding: .utf8)
    let run = EntitlementsTool.run([
      "verify", file, "--root", folder.appendingPathComponent("root.der").path,
    ])
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "verified  \(file):1",
        "malformed  \(file):3: not a compact JWS: 1 part, expected header.payload.signature",
        "verified  \(file):5",
        "2 verified, 1 failed",
      ], "\(run.output)\(run.errors)")
    #expect(run.status == 1)
  }

  /// On several threads, the lines come out in input order, each JWS verified once: the
  /// output of one thread, byte for byte.
  @Test func threadsKeepTheInputOrder() throws {
    let folder = try VerifyCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = VerifyCommandTests.generated.cases
    let good = try #require(cases["a transaction under the Apple-shaped chain"])
    let changed = try #require(cases["payload byte changed"])
    let notification = try #require(cases["a production notification with its nested JWS"])
    let file = folder.appendingPathComponent("many.txt").path
    let lines = (0..<60).map { [good, changed, notification][$0 % 3] }
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: file, atomically: true, encoding: .utf8)
    let root = folder.appendingPathComponent("root.der").path
    let one = EntitlementsTool.run(["verify", file, "--root", root, "--jobs", "1"])
    let three = EntitlementsTool.run(["verify", file, "--root", root, "--jobs=3"])
    #expect(three.output == one.output)
    #expect(three.status == one.status)
    // 20 transactions, 20 changed ones refused, 20 notifications of three JWS each.
    #expect(one.output.hasSuffix("80 verified, 20 failed\n"), "\(one.output.suffix(200))")
    let outputLines = one.output.split(separator: "\n")
    #expect(outputLines[0] == "verified  \(file):1")
    #expect(outputLines[1].hasPrefix("invalidSignature  \(file):2"))
    #expect(outputLines[2] == "verified  \(file):3")
  }

  @Test func aFileWithNoJWSLineIsRefused() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("no-jws-\(UUID().uuidString).txt").path
    try "hello\nworld\n".write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["verify", file])
    #expect(run.status == 2)
    #expect(run.errors == "\(file): neither JSON nor lines of compact JWS\n")
  }

  /// A key holding a newline cannot print a fake "verified" line: it is written `\u000a`.
  @Test func aKeyCannotForgeALine() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("forge-\(UUID().uuidString).json").path
    try #"{"signedPayload\nverified  fake\u001b[2K": "eyJx.y.z"}"#.write(
      toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["verify", file])
    let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3, "\(run.output)")  // the failure, the summary, the end
    #expect(!run.output.contains("\nverified  fake"))
    #expect(!run.output.contains("\u{1B}"))
    #expect(
      run.output.hasPrefix("malformed  \(file) .signedPayload\\u000averified  fake\\u001b[2K:"))
  }
}
