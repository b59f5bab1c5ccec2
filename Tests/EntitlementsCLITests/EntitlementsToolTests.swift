import Entitlements
import EntitlementsCLI
import EntitlementsScenarios
import Foundation
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func path(_ relative: String) -> String {
  repositoryRoot.appendingPathComponent(relative).path
}

@Suite("The entitlements command")
struct EntitlementsToolTests {
  static let table51 = path("Scenarios/guide-table-5-1-magazine-voluntary-lapse.json")
  static let may10 = Instant(millisecondsSince1970: 1_494_374_400_000)

  @Test func checkRunsTheShippedScenarios() {
    let run = EntitlementsTool.run(["check", path("Scenarios")])
    #expect(run.status == 0, "\(run.output)\(run.errors)")
    let lines = run.output.split(separator: "\n")
    #expect(lines.last?.hasSuffix("passed, 0 failed") == true)
    #expect(lines.dropLast().allSatisfy { $0.hasPrefix("PASS  ") })
  }

  @Test func explainJSONHasTheDocumentedShape() throws {
    let run = EntitlementsTool.run(["explain", Self.table51, "--json", "--at", "2017-05-10"])
    #expect(run.status == 0, "\(run.errors)")
    let value = try JSONValue(parsing: Array(run.output.utf8))
    guard case .object(let top) = value else {
      Issue.record("not an object")
      return
    }
    #expect(top.keys.sorted() == ["at", "diagnostics", "entitlements", "purchaseEvents"])
    #expect(value["at"] == .string("2017-05-10T00:00:00Z"))
    guard case .array(let entitlements) = value["entitlements"], let magazine = entitlements.first,
      case .object(let fields) = magazine
    else {
      Issue.record("no entitlement")
      return
    }
    // The contract: keys are added, never renamed or dropped.
    let contract: Set<String> = [
      "continuousSubscriptionStart", "id", "lapses", "periods", "readable", "status", "windows",
    ]
    #expect(contract.isSubset(of: Set(fields.keys)))
    #expect(
      fields.keys.sorted() == [
        "appleAgreement", "billingIssueDetectedAt", "changes", "continuousSubscriptionStart",
        "gracePeriod", "id", "lapses", "periods", "readable", "status", "unsubscribeDetectedAt",
        "windows",
      ])
    #expect(magazine["id"] == .string("magazine"))
    #expect(magazine["status"]?["state"] == .string("expired"))
    #expect(magazine["status"]?["entitled"] == .bool(false))
    #expect(magazine["status"]?["expiredAt"] == .string("2017-04-20T08:00:00Z"))
    guard case .object(let status) = magazine["status"] else { return }
    #expect(
      status.keys.sorted() == [
        "commitment", "entitled", "environment", "expiredAt", "expiresAt", "firstPurchaseAt",
        "gracePeriodEndsAt", "latestPurchaseAt", "latestTransactionId", "nextChangeAt",
        "nextProductId", "offer", "ownershipType", "productId", "reason", "retryEndsAt",
        "revocationPercentage", "revocationType", "revokedAt", "revokedTransactionId", "state",
        "transactionId", "willRenew",
      ])
    #expect(status["commitment"] == .null)
    // In the lapse of May 10, the next change is the resubscription of June 17.
    #expect(status["nextChangeAt"] == .string("2017-06-17T08:00:00Z"))
    // The status as a function of time: the magazine's four changes.
    guard case .array(let changes) = magazine["changes"] else { return }
    #expect(
      changes.map { $0["at"] }
        == [
          "2017-02-20T08:00:00Z", "2017-04-20T08:00:00Z", "2017-06-17T08:00:00Z",
          "2017-07-17T08:00:00Z",
        ].map { .string($0) })
    #expect(
      changes.map { $0["state"] }
        == ["active", "expired", "active", "expired"].map { .string($0) })
    #expect(changes.map { $0["entitled"] } == [true, false, true, false].map { .bool($0) })
    #expect(
      changes.map { $0["reason"] } == [.null, .string("unknown"), .null, .string("voluntary")])
    for change in changes {
      guard case .object(let members) = change else { continue }
      #expect(members.keys.sorted() == ["at", "entitled", "reason", "state"])
    }
    guard case .array(let readable) = magazine["readable"] else { return }
    #expect(readable.map { $0["id"] } == ["2017-02", "2017-03", "2017-04"].map { .string($0) })
    #expect(readable.first?["reason"] == .string("unlockedAtStart"))
    guard case .array(let lapses) = magazine["lapses"] else { return }
    #expect(lapses.first?["start"] == .string("2017-04-20T08:00:00Z"))
    #expect(lapses.first?["cause"] == .string("unknown"))
    // Same input, same bytes.
    #expect(
      EntitlementsTool.run(["explain", Self.table51, "--json", "--at", "2017-05-10"]).output
        == run.output)
  }

  /// A status in a commitment's last payment, whose renewal is off: the commitment's five
  /// keys, in JSON and in words.
  @Test func explainShowsTheCommitment() throws {
    let file = path("Scenarios/commitment-twelve-payments-renewal-off.json")
    let run = EntitlementsTool.run(["explain", file, "--json", "--at", "2026-12-15"])
    #expect(run.status == 0, "\(run.errors)")
    let value = try JSONValue(parsing: Array(run.output.utf8))
    let status = value["entitlements"]?[0]?["status"]
    #expect(status?["willRenew"] == .bool(false))
    #expect(
      status?["commitment"]
        == .object([
          "billingPeriod": .number("12"), "totalBillingPeriods": .number("12"),
          "endsAt": .string("2027-01-01T00:00:00Z"), "willRenew": .bool(false),
          "renewsInto": .string("com.example.yearly"),
        ]))
    let text = EntitlementsTool.run(["explain", file, "--at", "2026-03-15"]).output
    #expect(text.contains("payment 3 of 12; the commitment ends 2027-01-01 and will not renew"))
  }

  @Test func timelineWritesAnSVG() throws {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("entitlements-\(UInt64.random(in: 0...UInt64.max)).svg").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let run = EntitlementsTool.run([
      "timeline", Self.table51, "--at", "2017-05-10", "--svg", output,
    ])
    #expect(run.status == 0, "\(run.errors)")
    let svg = try String(contentsOfFile: output, encoding: .utf8)
    #expect(svg.hasPrefix("<svg"))
    #expect(svg.contains(">lapse 58 days · cause unknown</text>"))
    #expect(svg.contains(">Expired since Apr 20 (cause unknown)</text>"))
    // Releases Feb–Jul at May 10: Feb, Mar, Apr readable, May missed, Jun and Jul to come.
    #expect(svg.components(separatedBy: ": readable, ").count - 1 == 3)
    #expect(svg.components(separatedBy: ": missed, ").count - 1 == 1)
    #expect(svg.components(separatedBy: ": not yet released at ").count - 1 == 2)
    #expect(svg.contains(">2017-05</text>"))
  }

  /// The timeline marks a commitment's span and says how a revocation was made.
  @Test func timelineMarksCommitmentsAndRevocationTypes() throws {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("entitlements-\(UInt64.random(in: 0...UInt64.max)).svg").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let run = EntitlementsTool.run([
      "timeline", path("Scenarios/apple-2026-model-together.json"), "--at", "2026-12-15",
      "--svg", output,
    ])
    #expect(run.status == 0, "\(run.errors)")
    let svg = try String(contentsOfFile: output, encoding: .utf8)
    #expect(
      svg.contains(
        "<title>Commitment Jan 1, 2026 – Jan 1, 2027 (365 days): 12 monthly payments, 12 of them made"
      ))
    #expect(svg.contains(">commitment: 12 payments, until Jan 1, 2027</text>"))
    #expect(svg.contains(">a commitment's monthly payments</text>"))
    #expect(svg.contains(">refunded pro rata (67.742 %) Jan 11, 2026</text>"))
    #expect(svg.contains(">revoked: family sharing stopped Jan 11, 2026</text>"))
    #expect(svg.contains(">Active until Jan 1, 2027, payment 12 of 12, will not renew</text>"))
  }

  /// `explain` says how a revoked purchase was revoked: its type, and a prorated refund's
  /// percentage.
  @Test(arguments: [
    (
      "prorated-refund-ends-access-at-revocation",
      "revoked (transaction 2000000100000002 refunded pro rata (67.742 %) at 2026-01-11"
    ),
    (
      "full-refund-voids-by-default",
      "revoked (transaction 2000000100000002 refunded in full at 2026-01-11"
    ),
    (
      "family-revoke-ends-access-at-revocation",
      "revoked (transaction 2000000100000002 family sharing stopped at 2026-01-11"
    ),
  ])
  func explainSaysHowAPurchaseWasRevoked(scenario: String, status: String) {
    let run = EntitlementsTool.run([
      "explain", path("Scenarios/\(scenario).json"), "--at", "2026-01-20",
    ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output.contains("  status: \(status)"), "\(run.output)")
  }

  /// `explain --json` and `evaluate` name what a revoked status revoked: the transaction, the
  /// instant, Apple's revocationType and revocationPercentage (keys added to `status`).
  @Test(
    arguments: [
      ("prorated-refund-ends-access-at-revocation", "REFUND_PRORATED", 67742),
      ("full-refund-voids-by-default", "REFUND_FULL", 100000),
      ("family-revoke-ends-access-at-revocation", "FAMILY_REVOKE", nil),
    ] as [(String, String, Int?)])
  func revokedStatusNamesTheRevocation(scenario: String, type: String, percentage: Int?) throws {
    let run = EntitlementsTool.run([
      "explain", path("Scenarios/\(scenario).json"), "--json", "--at", "2026-01-20",
    ])
    #expect(run.status == 0, "\(run.errors)")
    let status = try JSONValue(parsing: Array(run.output.utf8))["entitlements"]?[0]?["status"]
    #expect(status?["state"] == .string("revoked"))
    #expect(status?["revokedTransactionId"] == .string("2000000100000002"))
    #expect(status?["transactionId"] == .null)
    // Each scenario's renewal is revoked on January 11.
    #expect(status?["revokedAt"] == .string("2026-01-11T00:00:00Z"))
    #expect(status?["revocationType"] == .string(type))
    #expect(status?["revocationPercentage"] == (percentage.map { .number(String($0)) } ?? .null))
  }

  /// `evaluate` gives the same revocation keys, from the scenario's documents on one line.
  @Test func evaluateNamesTheRevocationToo() throws {
    let scenario = try Data(
      contentsOf: repositoryRoot.appendingPathComponent(
        "Scenarios/prorated-refund-ends-access-at-revocation.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: scenario) as? [String: Any])
    let documents = try JSONSerialization.data(withJSONObject: object["documents"] ?? [])
    let line = #"{"subscriber": "s", "documents": \#(String(decoding: documents, as: UTF8.self))}"#
    let file = try EvaluateCommandTests.temporary("revoked.jsonl", line)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["evaluate", file, "--at", "2026-01-20"])
    #expect(run.status == 0, "\(run.errors)\(run.output)")
    let status = try JSONValue(parsing: Array(run.output.utf8))["entitlements"]?[0]
    #expect(status?["state"] == .string("revoked"))
    #expect(status?["revokedTransactionId"] == .string("2000000100000002"))
    #expect(status?["revokedAt"] == .string("2026-01-11T00:00:00Z"))
    #expect(status?["revocationType"] == .string("REFUND_PRORATED"))
    #expect(status?["revocationPercentage"] == .number("67742"))
    #expect(status?["transactionId"] == .null)
  }

  struct TimelineRangeCase: CustomTestStringConvertible, Sendable {
    var name: String
    var options: [String]
    /// Axis labels that must be there, and ones that must not.
    var shows: [String]
    var hides: [String]
    var testDescription: String { name }
  }

  static let timelineRanges: [TimelineRangeCase] = [
    .init(
      name: "without --at, the history's own range", options: [],
      shows: [">Feb</text>", ">Jul</text>", "→</text>"], hides: [">2020</text>", ">2026</text>"]),
    .init(
      name: "--at after the history stretches the range", options: ["--at", "2019-06-01"],
      shows: [">2018</text>", ">2019</text>"], hides: ["→</text>"]),
    .init(
      name: "--from and --to choose it", options: ["--from", "2017-03-01", "--to", "2017-05-01"],
      shows: [">Mar 6</text>", ">Apr 17</text>", ">Feb 20</text>"],
      hides: [">Feb</text>", ">Jun</text>", ">Jun 17</text>", ">Jul 17</text>", ">2017-02</text>"]),
  ]

  @Test(arguments: timelineRanges)
  func timelineRange(_ test: TimelineRangeCase) throws {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("entitlements-\(UInt64.random(in: 0...UInt64.max)).svg").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let run = EntitlementsTool.run(
      ["timeline", Self.table51, "--svg", output] + test.options, now: Self.may10 + .days(3000))
    #expect(run.status == 0, "\(run.errors)")
    let svg = try String(contentsOfFile: output, encoding: .utf8)
    for text in test.shows { #expect(svg.contains(text), "\(text)") }
    for text in test.hides { #expect(!svg.contains(text), "\(text)") }
  }

  @Test(arguments: [
    (["check", path("Scenarios")], "data-outcome=\"passed\"", 0),
    (["explain", table51, "--at", "2017-05-10"], "data-outcome=\"explained\"", 0),
  ])
  func htmlReportsAreWritten(arguments: [String], outcome: String, status: Int32) throws {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("entitlements-\(UInt64.random(in: 0...UInt64.max)).html").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let run = EntitlementsTool.run(arguments + ["--html", output])
    #expect(run.status == status, "\(run.errors)")
    #expect(run.errors == "wrote \(output)\n")
    let page = try String(contentsOfFile: output, encoding: .utf8)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(page.contains(outcome))
    #expect(page.contains("<figure class=\"timeline\"><svg"))
    #expect(page.contains("entitlements \(EntitlementsTool.version)"))
  }

  @Test func versionIsPrinted() {
    let run = EntitlementsTool.run(["--version"])
    #expect(run.status == 0)
    #expect(run.output == "entitlements \(EntitlementsTool.version)\n")
    #expect(EntitlementsTool.version.split(separator: ".").count == 3)
  }

  struct ExplainCase: CustomTestStringConvertible, Sendable {
    var name: String
    /// A file under Scenarios/, or a scenario's JSON.
    var file: String
    var at: String
    var includes: [String]
    var excludes: [String] = []
    var testDescription: String { name }
  }

  static let explainCases: [ExplainCase] = [
    .init(
      name: "sandbox is named", file: "sandbox-six-renewals-then-stop.json",
      at: "2020-07-16T15:00:00Z",
      includes: ["(Sandbox)\n", "products: com.example.monthly"], excludes: ["(Production)"]),
    .init(
      name: "products are named with kind and duration",
      file: "guide-table-5-1-magazine-voluntary-lapse.json", at: "2017-05-10",
      includes: [
        "(Production)\n", "products: com.example.magazine.monthly (auto-renewable, 1 month)",
      ]),
    .init(
      name: "no billing retry after a voluntary expiry",
      file: "guide-table-5-1-magazine-voluntary-lapse.json", at: "2017-08-01",
      includes: ["expired (voluntary", "renewal attempts"], excludes: ["billing retry"]),
    .init(
      name: "billing retry where the App Store retries",
      file: "grace-period-then-billing-retry.json", at: "2017-05-10",
      includes: ["billing retry     2017-04-20T08:00:00Z – 2017-06-19T08:00:00Z", "grace period"]),
    .init(
      name: "billing retry after it was exhausted: it explains the expiry",
      file: "billing-retry-exhausted-exactly-at-day-60.json", at: "2017-08-01",
      includes: [
        "expired (", "billing retry     2017-04-20T08:00:00Z – 2017-06-19T08:00:00Z",
      ]),
    .init(
      name: "billing retry after a billing-error expiry whose window has passed",
      file: billingError(renewalInfo: #", "auto_renew_status": "0", "expiration_intent": "2""#),
      at: "2017-08-01",
      includes: ["expired (", "billing retry     2017-04-20T08:00:00Z – 2017-06-19T08:00:00Z"],
      excludes: ["unknown"]),
    .init(
      name: "billing retry unknown without renewal info",
      file: billingError(renewalInfo: nil), at: "2017-08-01",
      includes: ["billing retry     unknown: no renewal info says how the period ends"],
      excludes: ["2017-06-19"]),
    .init(
      name: "no billing retry after a price increase",
      file: billingError(renewalInfo: #", "auto_renew_status": "0", "expiration_intent": "3""#),
      at: "2017-08-01", includes: ["renewal attempts"], excludes: ["billing retry"]),
    .init(
      name: "a lifetime purchase is owned",
      file: "lifetime-and-subscription-unlock-one-entitlement.json", at: "2018-01-01",
      includes: [
        "status: owned since 2017-03-01T00:00:00Z (com.example.lifetime)",
        "owned since 2017-03-01T00:00:00Z  (restart; 1 entry)",
        "com.example.lifetime (non-consumable)",
      ],
      excludes: ["never", "will not renew", "windows around", "next change"]),
    .init(
      name: "the changes are listed, and the next one said",
      file: "guide-table-5-1-magazine-voluntary-lapse.json", at: "2017-05-10",
      includes: [
        "  next change: 2017-06-17T08:00:00Z, active\n  changes:\n"
          + "    2017-02-20T08:00:00Z  active\n"
          + "    2017-04-20T08:00:00Z  expired (unknown)\n"
          + "    2017-06-17T08:00:00Z  active\n"
          + "    2017-07-17T08:00:00Z  expired (voluntary)\n  periods:"
      ],
      excludes: []),
  ]

  /// A scenario (inline JSON) of one month ending on 2017-04-20, with the fields of its
  /// renewal info after `original_transaction_id`, or none.
  static func billingError(renewalInfo: String?) -> String {
    """
    {"name": "one month", "products": [{"id": "m", "type": "autoRenewable", "duration": "P1M"}],
     "transactions": [{"product_id": "m", "transaction_id": "1",
       "purchase_date": "2017-03-20T08:00:00Z", "expires_date": "2017-04-20T08:00:00Z"}],
    """
      + (renewalInfo.map { #""pendingRenewalInfo": [{"original_transaction_id": "1"\#($0)}],"# }
        ?? "")
      + #""expect": [{"diagnostics": 0}]}"#
  }

  @Test(arguments: explainCases)
  func explainTextSaysWhatAPersonNeeds(_ test: ExplainCase) throws {
    var file = path("Scenarios/\(test.file)")
    if test.file.hasPrefix("{") {
      file =
        FileManager.default.temporaryDirectory
        .appendingPathComponent("explain-\(UUID().uuidString).json").path
      try test.file.write(toFile: file, atomically: true, encoding: .utf8)
    }
    defer { if test.file.hasPrefix("{") { try? FileManager.default.removeItem(atPath: file) } }
    let run = EntitlementsTool.run(["explain", file, "--at", test.at])
    #expect(run.status == 0, "\(run.errors)")
    for text in test.includes { #expect(run.output.contains(text), "\(text)\n\(run.output)") }
    for text in test.excludes { #expect(!run.output.contains(text), "\(text)\n\(run.output)") }
  }

  @Test func aFailureShowsTheDiagnosticsThatExplainIt() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("scenarios-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let misspelt = #"""
      {"name": "a misspelt product id",
       "products": [{"id": "com.example.monthly", "type": "autoRenewable", "duration": "P1M"}],
       "transactions": [{"product_id": "com.example.monthyl", "transaction_id": "1",
         "purchase_date": "2017-01-01", "expires_date": "2017-02-01"}],
       "expect": [{"at": "2017-01-15", "state": "active"}, {"diagnostics": 0}]}
      """#
    try misspelt.write(
      to: folder.appendingPathComponent("misspelt.json"), atomically: true, encoding: .utf8)
    let run = EntitlementsTool.run(["check", folder.path])
    #expect(run.status == 1)
    let lines = run.output.split(separator: "\n").map(String.init)
    let failure = try #require(lines.firstIndex { $0.contains("expect[1].diagnostics") })
    #expect(lines[failure + 1] == "        the input has 1 problem:")
    #expect(lines[failure + 2].hasPrefix("          transaction 1: product_id: "))
    #expect(lines[failure + 2].contains("com.example.monthyl"))
    // A passing scenario with diagnostics prints none.
    let passing = EntitlementsTool.run([
      "check", path("Scenarios/pasted-verifyreceipt-response.json"),
    ])
    #expect(!passing.output.contains("problem"))
  }

  @Test func unreadableInputExitsWithTwoAndBadUsageWith64() {
    let missing = EntitlementsTool.run(["explain", "/nonexistent/file.json"])
    #expect(missing.status == 2)
    #expect(missing.errors.hasPrefix("/nonexistent/file.json: cannot read"))
    let usage = EntitlementsTool.run(["explain"])
    #expect(usage.status == 64)
    #expect(usage.errors.contains("usage: entitlements explain FILE"))
  }
}

/// The built tool, run as a process: output and exit codes end to end.
@Suite("entitlements, end to end")
struct EndToEndTests {
  static var executable: URL? {
    // Tests run from .build/<triple>/debug/…xctest; the tool sits beside it.
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("entitlements")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }

  static func run(_ arguments: [String], in folder: URL = repositoryRoot) throws -> (
    String, String, Int32
  ) {
    let executable = try #require(Self.executable, "build the entitlements product first")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self),
      process.terminationStatus
    )
  }

  @Test func checkWithNoArgumentRunsScenariosAndExitsZero() throws {
    let (output, _, status) = try Self.run(["check"])
    #expect(status == 0)
    #expect(output.split(separator: "\n").last?.hasSuffix(" passed, 0 failed") == true)
  }

  @Test func aChangedExpectationFailsWithADiffAndExitsOne() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("scenarios-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let original = try String(
      contentsOfFile: path("Scenarios/billing-retry-exhausted-exactly-at-day-60.json"),
      encoding: .utf8)
    let changed = original.replacingOccurrences(
      of: "\"billingRetryExhausted\"", with: "\"voluntary\"")
    #expect(changed != original)
    try changed.write(
      to: folder.appendingPathComponent("changed.json"), atomically: true, encoding: .utf8)
    let (output, _, status) = try Self.run(["check", folder.path])
    #expect(status == 1)
    #expect(output.contains("expect[1].reason: expected voluntary, got billingRetryExhausted"))
    #expect(output.hasSuffix("0 passed, 1 failed\n"))
  }

  @Test func aMalformedFileNamesTheFileAndTheProblemAndExitsTwo() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("scenarios-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try #"{"name": "typo", "expectd": []}"#.write(
      to: folder.appendingPathComponent("typo.json"), atomically: true, encoding: .utf8)
    let (output, _, status) = try Self.run(["check", folder.path])
    #expect(status == 2)
    #expect(output.contains("typo.json: expectd: unknown key"))
  }

  @Test func badUsageGoesToStandardErrorWith64() throws {
    let (output, errors, status) = try Self.run(["frobnicate"])
    #expect(status == 64)
    #expect(output.isEmpty)
    #expect(errors.hasPrefix("error: unknown subcommand 'frobnicate'"))
  }
}

/// `explain` on Apple's documents: several files folded as one subscriber, a catalog, and a
/// verifyReceipt status that carries no receipt (SPEC §10).
@Suite("entitlements explain on documents")
struct ExplainDocumentsTests {
  static func temporary(_ name: String, _ text: String) throws -> String {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("explain-\(UUID().uuidString)-\(name)")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  @Test func aVerifyReceiptErrorStatusExitsNonZeroAndNamesTheCode() throws {
    let file = try Self.temporary("r.json", #"{"status": 21007, "receipt": {"in_app": []}}"#)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["explain", file])
    #expect(run.status == 2)
    #expect(run.errors.contains("21007"), "\(run.errors)")
    #expect(run.errors.contains("verify it against the sandbox"), "\(run.errors)")
    #expect(run.output.isEmpty)
  }

  struct DocumentFile: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    /// The whole of standard error, or `nil` when the file is read.
    var error: String?
    var testDescription: String { name }
  }

  static let transaction = Array(
    #"{"transactionId": "2000000000000001", "originalTransactionId": "2000000000000001", "productId": "m", "purchaseDate": 1750000000000, "expiresDate": 1752592000000}"#
      .utf8)

  /// Files saved by editors: a byte order mark is skipped, and a file that is not JSON is
  /// located by line and column in the file, as in scenario files.
  static let documentFiles: [DocumentFile] = [
    .init(name: "a document with a byte order mark", bytes: [0xEF, 0xBB, 0xBF] + transaction),
    .init(
      name: "an array of documents with a byte order mark",
      bytes: [0xEF, 0xBB, 0xBF] + Array("[\n".utf8) + transaction + Array("\n]".utf8)),
    .init(
      name: "not JSON on line 3",
      bytes: Array("{\"status\": 0,\n \"receipt\": {\"in_app\": [\n   {\"product_id\": m}]}}".utf8),
      error: "FILE: not JSON: line 3, column 19: expected a value\n"),
    .init(
      name: "not JSON after a byte order mark",
      bytes: [0xEF, 0xBB, 0xBF] + Array("[\n  {\"status\": 0,}\n]".utf8),
      error: "FILE: not JSON: line 2, column 16: expected a member name in quotes\n"),
    .init(
      name: "an empty file", bytes: [],
      error: "FILE: not JSON: line 1, column 1: expected a value, found the end\n"
    ),
    .init(
      name: "a JWS whose payload is not JSON keeps the reader's words",
      bytes: Array("eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.c2ln\n".utf8),
      error: "FILE: not JSON: at byte 0: expected null (in line 1)\n"),
  ]

  @Test(arguments: documentFiles)
  func documentFilesAsEditorsSaveThem(_ test: DocumentFile) throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("explain-\(UUID().uuidString).json")
    try Data(test.bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let run = EntitlementsTool.run(["explain", url.path, "--at", "1751000000000"])
    if let error = test.error {
      #expect(run.status == 2)
      #expect(run.errors == error.replacingOccurrences(of: "FILE", with: url.path))
    } else {
      #expect(run.status == 0, "\(run.errors)")
      #expect(run.output.contains("entitlement 2000000000000001"), "\(run.output)")
    }
  }

  /// A catalog given to `explain` is read strictly: a repeated key is an error with its line.
  @Test func aCatalogWithARepeatedKeyIsRefused() throws {
    let document = try Self.temporary("t.json", String(decoding: Self.transaction, as: UTF8.self))
    defer { try? FileManager.default.removeItem(atPath: document) }
    let catalog = try Self.temporary(
      "products.json", "[{\"id\": \"m\", \"type\": \"autoRenewable\",\n  \"id\": \"n\"}]")
    defer { try? FileManager.default.removeItem(atPath: catalog) }
    let run = EntitlementsTool.run(["explain", document, "--catalog", catalog])
    #expect(run.status == 2)
    #expect(
      run.errors
        == "\(catalog): products[0].id: repeated key (again at line 2, column 3): write each key once\n"
    )
  }

  /// Two files, one a JSON array of documents: one subscriber; the catalog names the
  /// entitlement.
  @Test func severalFilesAndACatalog() throws {
    func transaction(_ id: Int, _ start: Int64) -> String {
      """
      {"transactionId": "\(id)", "originalTransactionId": "2000000000000001",
       "productId": "com.example.monthly", "purchaseDate": \(start),
       "expiresDate": \(start + 2_592_000_000), "signedDate": \(start), "environment": "Sandbox"}
      """
    }
    let first = try Self.temporary("a.json", transaction(2_000_000_000_000_001, 1_750_000_000_000))
    defer { try? FileManager.default.removeItem(atPath: first) }
    let second = try Self.temporary(
      "b.json",
      "[\(transaction(2_000_000_000_000_002, 1_752_592_000_000)), \(transaction(2_000_000_000_000_002, 1_752_592_000_000))]"
    )
    defer { try? FileManager.default.removeItem(atPath: second) }
    let catalog = try Self.temporary(
      "products.json",
      #"{"products": [{"id": "com.example.monthly", "type": "autoRenewable", "duration": "P1M", "entitlement": "pro"}]}"#
    )
    defer { try? FileManager.default.removeItem(atPath: catalog) }
    let run = EntitlementsTool.run(
      ["explain", first, second, "--catalog", catalog, "--at", "1751000000000", "--json"])
    #expect(run.status == 0, "\(run.errors)")
    let value = try JSONValue(parsing: Array(run.output.utf8))
    #expect(value["entitlements"]?[0]?["id"] == .string("pro"))
    #expect(value["entitlements"]?[0]?["status"]?["state"] == .string("active"))
    guard case .array(let periods)? = value["entitlements"]?[0]?["periods"] else {
      Issue.record("no periods")
      return
    }
    #expect(periods.count == 1, "two touching months from two files")
    let text = EntitlementsTool.run(["explain", first, second, "--at", "1751000000000"])
    #expect(text.output.hasPrefix("as of 2025-06-27T04:53:20Z (Sandbox)"), "\(text.output)")
  }
}

/// Text output escapes control characters from input, so that no scenario or document can
/// forge or hide a line (issue: the tool as trustworthy as the library).
@Suite("Text output escapes the input's control characters")
struct ControlCharacterOutputTests {
  @Test func checkEscapesAScenarioName() throws {
    // A name that would clear the line and print a fake PASS.
    let file = try ExplainDocumentsTests.temporary(
      "control.json",
      #"""
      {"name": "broken\r\u001b[2KPASS  all good\nPASS  fine", "transactions": [
         {"product_id": "m", "transaction_id": "1", "purchase_date": "2017-01-01",
          "expires_date": "2017-02-01"}],
       "expect": [{"at": "2017-01-15", "state": "expired"}]}
      """#)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["check", file])
    #expect(run.status == 1)
    #expect(!run.output.contains("\u{1B}") && !run.output.contains("\r"))
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(
      lines.first == "FAIL  broken\\u000d\\u001b[2KPASS  all good\\u000aPASS  fine  (\(file))")
    #expect(lines.filter { $0.hasPrefix("PASS") }.isEmpty)
  }

  /// An error about a scenario's key, on standard error, is escaped too.
  @Test func explainEscapesAScenarioError() throws {
    let file = try ExplainDocumentsTests.temporary(
      "control.json", #"{"name": "n", "expect": [], "k\u001b[2K": 1}"#)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["explain", file])
    #expect(run.status == 2)
    #expect(!run.errors.contains("\u{1B}"))
    #expect(run.errors.contains("k\\u001b[2K: unknown key"), "\(run.errors)")
  }

  @Test func explainEscapesAProductID() throws {
    let file = try ExplainDocumentsTests.temporary(
      "control.json",
      #"""
      {"name": "n", "transactions": [{"product_id": "m\u001b[31m\nentitlement fake",
         "transaction_id": "1", "purchase_date": "2017-01-01", "expires_date": "2017-02-01"}],
       "expect": [{"diagnostics": 0}]}
      """#)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["explain", file, "--at", "2017-01-15"])
    #expect(run.status == 0, "\(run.errors)")
    #expect(!run.output.contains("\u{1B}"))
    #expect(!run.output.contains("\nentitlement fake"))
    #expect(run.output.contains("m\\u001b[31m\\u000aentitlement fake"))
  }

  @Test(arguments: [
    ("plain", "plain"), ("a\nb", "a\\u000ab"), ("\u{1B}[2K", "\\u001b[2K"), ("\u{7F}", "\\u007f"),
    ("\u{85}", "\\u0085"), ("\u{202E}txt", "\\u202etxt"), ("é ✓", "é ✓"),
  ])
  func escapedAsUnicodeEscapes(text: String, escaped: String) {
    #expect(ControlCharacters.escaped(text) == escaped)
  }
}

/// An output that names an input is refused before anything is written, and a folder given
/// where a file is expected says so in words (issue: the tool as trustworthy as the library).
@Suite("Outputs and inputs")
struct OutputInputTests {
  @Test(arguments: [
    ["check", "IN", "--html", "IN"],
    ["explain", "IN", "--html", "./IN"],
    ["timeline", "IN", "--svg", "IN"],
    ["explain", "IN", "--catalog", "CATALOG", "--html", "CATALOG"],
  ])
  func anOutputThatIsAnInputIsRefused(arguments: [String]) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("overwrite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let scenario = try String(
      contentsOf: repositoryRoot.appendingPathComponent("Scenarios/free-trial-then-lapse.json"),
      encoding: .utf8)
    let input = folder.appendingPathComponent("in.json").path
    let catalog = folder.appendingPathComponent("products.json").path
    try scenario.write(toFile: input, atomically: true, encoding: .utf8)
    try "[]".write(toFile: catalog, atomically: true, encoding: .utf8)
    let resolved = arguments.map { argument in
      switch argument {
      case "IN": input
      case "./IN": folder.appendingPathComponent(".").appendingPathComponent("in.json").path
      case "CATALOG": catalog
      default: argument
      }
    }
    let run = EntitlementsTool.run(resolved)
    #expect(run.status == 64)
    #expect(run.errors.contains("would overwrite an input of the command"), "\(run.errors)")
    #expect(try String(contentsOfFile: input, encoding: .utf8) == scenario)
    #expect(try String(contentsOfFile: catalog, encoding: .utf8) == "[]")
  }

  /// `check` writing its report over a scenario of the folder it runs.
  @Test func aReportOverAScenarioOfAFolderIsRefused() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("overwrite-folder-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let scenario = folder.appendingPathComponent("s.json").path
    let text = try String(
      contentsOf: repositoryRoot.appendingPathComponent("Scenarios/free-trial-then-lapse.json"),
      encoding: .utf8)
    try text.write(toFile: scenario, atomically: true, encoding: .utf8)
    let run = EntitlementsTool.run(["check", folder.path, "--html", scenario])
    #expect(run.status == 64)
    #expect(try String(contentsOfFile: scenario, encoding: .utf8) == text)
  }

  @Test func aFolderGivenAsACatalogSaysSo() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("catalog-folder-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try EvaluateCommandTests.temporary("one.jsonl", EvaluateCommandTests.line(1))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["evaluate", file, "--catalog", folder.path])
    #expect(run.status == 2)
    #expect(run.errors == "\(folder.path): cannot read: is a folder, not a file\n")
  }
}

/// `--policy FILE` for `explain` and `evaluate`: the scenario format's `policy` object, so that
/// Apple's documents are evaluated under the policies a scenario could set.
@Suite("explain and evaluate --policy")
struct PolicyOptionTests {
  /// A month bought on Jan 1 and refunded on Jan 15: voided by default, ended at the refund
  /// under endAtCancellation.
  static let receipt = #"""
    {"status": 0, "receipt": {"in_app": [{"product_id": "m", "transaction_id": "1",
      "original_transaction_id": "1", "purchase_date_ms": "1483228800000",
      "expires_date_ms": "1485907200000", "cancellation_date_ms": "1484438400000"}]}}
    """#

  @Test func explainEvaluatesUnderThePolicy() throws {
    let receipt = try ExplainDocumentsTests.temporary("receipt.json", Self.receipt)
    let policy = try ExplainDocumentsTests.temporary(
      "policy.json", #"{"cancellation": "endAtCancellation"}"#)
    defer {
      try? FileManager.default.removeItem(atPath: receipt)
      try? FileManager.default.removeItem(atPath: policy)
    }
    func state(_ extra: [String]) throws -> JSONValue? {
      let run = EntitlementsTool.run(["explain", receipt, "--json", "--at", "2017-01-10"] + extra)
      #expect(run.status == 0, "\(run.errors)")
      return try JSONValue(parsing: Array(run.output.utf8))["entitlements"]?[0]?["status"]?[
        "state"]
    }
    #expect(try state([]) == .string("revoked"))
    #expect(try state(["--policy", policy]) == .string("active"))
  }

  @Test func evaluateEvaluatesUnderThePolicy() throws {
    let line =
      #"{"subscriber": "s", "documents": [\#(Self.receipt.replacingOccurrences(of: "\n", with: " "))]}"#
    let input = try ExplainDocumentsTests.temporary("lines.jsonl", line)
    let policy = try ExplainDocumentsTests.temporary(
      "policy.json", #"{"cancellation": "endAtCancellation"}"#)
    defer {
      try? FileManager.default.removeItem(atPath: input)
      try? FileManager.default.removeItem(atPath: policy)
    }
    let plain = EntitlementsTool.run(["evaluate", input, "--at", "2017-01-10"])
    let policed = EntitlementsTool.run([
      "evaluate", input, "--at", "2017-01-10", "--policy", policy,
    ])
    #expect(
      try JSONValue(parsing: Array(plain.output.utf8))["entitlements"]?[0]?["state"]
        == .string("revoked"))
    #expect(
      try JSONValue(parsing: Array(policed.output.utf8))["entitlements"]?[0]?["state"]
        == .string("active"))
  }

  @Test func aBadPolicyNamesTheFileAndTheKey() throws {
    let receipt = try ExplainDocumentsTests.temporary("receipt.json", Self.receipt)
    let policy = try ExplainDocumentsTests.temporary(
      "policy.json", #"{"cancelation": "endAtCancellation"}"#)
    defer {
      try? FileManager.default.removeItem(atPath: receipt)
      try? FileManager.default.removeItem(atPath: policy)
    }
    let run = EntitlementsTool.run(["explain", receipt, "--policy", policy])
    #expect(run.status == 2)
    #expect(
      run.errors.hasPrefix(#"\#(policy): cancelation: unknown key (did you mean "cancellation"?)"#),
      "\(run.errors)")
    let evaluate = EntitlementsTool.run(["evaluate", receipt, "--policy", policy])
    #expect(evaluate.status == 2)
    #expect(evaluate.errors.hasPrefix("\(policy): cancelation: unknown key"), "\(evaluate.errors)")
  }

  @Test func aScenarioKeepsItsOwnPolicy() throws {
    let policy = try ExplainDocumentsTests.temporary("policy.json", "{}")
    defer { try? FileManager.default.removeItem(atPath: policy) }
    let run = EntitlementsTool.run([
      "explain", repositoryRoot.appendingPathComponent("Scenarios/free-trial-then-lapse.json").path,
      "--policy", policy,
    ])
    #expect(run.status == 2)
    #expect(run.errors.contains("--policy is for Apple's documents: a scenario has its own"))
  }
}

/// `--known-at INSTANT` for `explain` and `evaluate`: only the documents signed by then count,
/// and the status is asked then: what a backend would have answered at that instant.
@Suite("explain and evaluate --known-at")
struct KnownAtOptionTests {
  /// basic bought on January 1 (to February 1), upgraded to premium on January 15 at noon:
  /// in hindsight basic ends at the upgrade; as known on January 10, it runs to February 1.
  static let scenario = repositoryRoot.appendingPathComponent(
    "Scenarios/upgrade-ends-the-old-plan-from-the-notification-alone.json"
  ).path

  static func basic(_ output: String, _ key: String) throws -> JSONValue? {
    let entitlements = try JSONValue(parsing: Array(output.utf8))["entitlements"]
    for index in 0..<2 where entitlements?[index]?["id"] == .string("basic") {
      return entitlements?[index]?["status"]?[key]
    }
    return nil
  }

  @Test func explainAnswersAsThen() throws {
    let hindsight = EntitlementsTool.run(["explain", Self.scenario, "--json", "--at", "2026-01-10"])
    let then = EntitlementsTool.run([
      "explain", Self.scenario, "--json", "--known-at", "2026-01-10",
    ])
    #expect(hindsight.status == 0 && then.status == 0, "\(hindsight.errors)\(then.errors)")
    #expect(try Self.basic(hindsight.output, "expiresAt") == .string("2026-01-15T12:00:00Z"))
    #expect(try Self.basic(then.output, "expiresAt") == .string("2026-02-01T00:00:00Z"))
    #expect(try Self.basic(then.output, "willRenew") == .bool(true))
    // Known then, asked later: the status at --at, from what was known at --known-at.
    let later = EntitlementsTool.run([
      "explain", Self.scenario, "--json", "--known-at", "2026-01-10", "--at", "2026-01-20",
    ])
    #expect(try Self.basic(later.output, "state") == .string("active"))
  }

  @Test func evaluateAnswersAsThen() throws {
    let file = try Data(contentsOf: URL(fileURLWithPath: Self.scenario))
    let object = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
    let documents = try JSONSerialization.data(withJSONObject: object["documents"] ?? [])
    let catalog = try JSONSerialization.data(withJSONObject: object["products"] ?? [])
    let line =
      #"{"subscriber": "s", "documents": "# + String(decoding: documents, as: UTF8.self) + "}"
    let input = try ExplainDocumentsTests.temporary("known-at.jsonl", line)
    let products = try ExplainDocumentsTests.temporary(
      "known-at-products.json", String(decoding: catalog, as: UTF8.self))
    defer {
      try? FileManager.default.removeItem(atPath: input)
      try? FileManager.default.removeItem(atPath: products)
    }
    func basic(_ extra: [String]) throws -> JSONValue? {
      let run = EntitlementsTool.run(["evaluate", input, "--catalog", products] + extra)
      #expect(run.status == 0, "\(run.errors)")
      let entitlements = try JSONValue(parsing: Array(run.output.utf8))["entitlements"]
      return entitlements?[0]?["entitlement"] == .string("basic")
        ? entitlements?[0] : entitlements?[1]
    }
    #expect(try basic(["--at", "2026-01-10"])?["expiresAt"] == .string("2026-01-15T12:00:00Z"))
    #expect(
      try basic(["--known-at", "2026-01-10"])?["expiresAt"] == .string("2026-02-01T00:00:00Z"))
    #expect(
      try basic(["--known-at", "2026-01-10", "--jobs", "2"])?["expiresAt"]
        == .string("2026-02-01T00:00:00Z"))
  }

  @Test func aBadInstantNamesTheOption() {
    let run = EntitlementsTool.run(["explain", Self.scenario, "--known-at", "soon"])
    #expect(run.status == 64)
    #expect(run.errors.contains("--known-at"), "\(run.errors)")
  }
}

/// The status keys a backend acts on (issue 47, item 4), in `explain --json` and `evaluate`,
/// from decoded transactions and renewal info as Apple sends them.
@Suite("explain and evaluate: the status a backend acts on")
struct ActionableStatusTests {
  /// A family-shared monthly plan in billing retry since February 1 (renewal info signed
  /// then), a lifetime purchase no catalog lists (Apple's type says Non-Consumable), and three
  /// coins refunded on January 20.
  static let documents = #"""
    [{"transactionId": "2000000700000001", "originalTransactionId": "2000000700000001",
      "productId": "com.example.monthly", "purchaseDate": 1767225600000,
      "expiresDate": 1769904000000, "type": "Auto-Renewable Subscription",
      "inAppOwnershipType": "FAMILY_SHARED", "offerType": 3, "offerIdentifier": "SPRING",
      "signedDate": 1767225600000, "environment": "Production"},
     {"originalTransactionId": "2000000700000001", "productId": "com.example.monthly",
      "autoRenewProductId": "com.example.yearly", "autoRenewStatus": 1,
      "isInBillingRetryPeriod": true, "expirationIntent": 2, "signedDate": 1769904005000,
      "environment": "Production"},
     {"transactionId": "2000000800000001", "originalTransactionId": "2000000800000001",
      "productId": "com.example.lifetime", "purchaseDate": 1767312000000,
      "type": "Non-Consumable", "inAppOwnershipType": "PURCHASED",
      "signedDate": 1767312000000, "environment": "Production"},
     {"transactionId": "2000000900000001", "originalTransactionId": "2000000900000001",
      "productId": "com.example.coins", "purchaseDate": 1767398400000, "quantity": 3,
      "type": "Consumable", "revocationDate": 1768867200000, "revocationReason": 0,
      "signedDate": 1768867200000, "environment": "Production"}]
    """#

  static func entitlement(_ id: String, in output: String) throws -> JSONValue? {
    let entitlements = try JSONValue(parsing: Array(output.utf8))["entitlements"]
    for index in 0..<3 where entitlements?[index]?["id"] == .string(id) {
      return entitlements?[index]?["status"]
    }
    return nil
  }

  @Test func explainGivesWhatABackendActsOn() throws {
    let file = try ExplainDocumentsTests.temporary("actionable.json", Self.documents)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let during = EntitlementsTool.run(["explain", file, "--json", "--at", "2026-01-15"])
    #expect(during.status == 0, "\(during.errors)")
    let active = try Self.entitlement("2000000700000001", in: during.output)
    #expect(active?["offer"] == .string("offerCode"))
    #expect(active?["ownershipType"] == .string("FAMILY_SHARED"))
    #expect(active?["environment"] == .string("Production"))
    #expect(active?["firstPurchaseAt"] == .string("2026-01-01T00:00:00Z"))
    #expect(active?["latestTransactionId"] == .string("2000000700000001"))
    let run = EntitlementsTool.run(["explain", file, "--json", "--at", "2026-02-10"])
    let retry = try Self.entitlement("2000000700000001", in: run.output)
    #expect(retry?["state"] == .string("billingRetry"))
    #expect(retry?["productId"] == .string("com.example.monthly"))
    #expect(retry?["willRenew"] == .bool(true))
    #expect(retry?["nextProductId"] == .string("com.example.yearly"))
    #expect(retry?["offer"] == .null)
    // Apple's type: the lifetime purchase is owned, with a diagnostic saying why.
    let lifetime = try Self.entitlement("2000000800000001", in: run.output)
    #expect(lifetime?["state"] == .string("active"))
    let json = try JSONValue(parsing: Array(run.output.utf8))
    #expect(json["diagnostics"]?[0]?["kind"] == .string("productTypeFromApple"))
    // The refunded coins, with their quantity and refund.
    let coins = json["purchaseEvents"]?[0]
    #expect(coins?["productId"] == .string("com.example.coins"))
    #expect(coins?["productType"] == .string("consumable"))
    #expect(coins?["quantity"] == .number("3"))
    #expect(coins?["refundedAt"] == .string("2026-01-20T00:00:00Z"))
    #expect(coins?["refundReason"] == .string("0"))
  }

  @Test func evaluateGivesTheSame() throws {
    let line = #"{"subscriber": "s", "documents": "# + Self.documents + "}"
    let input = try ExplainDocumentsTests.temporary(
      "actionable.jsonl", line.replacingOccurrences(of: "\n", with: " "))
    defer { try? FileManager.default.removeItem(atPath: input) }
    let run = EntitlementsTool.run(["evaluate", input, "--at", "2026-02-10"])
    #expect(run.status == 0, "\(run.errors)")
    let json = try JSONValue(parsing: Array(run.output.utf8))
    var retry: JSONValue?
    for index in 0..<2
    where json["entitlements"]?[index]?["entitlement"] == .string("2000000700000001") {
      retry = json["entitlements"]?[index]
    }
    #expect(retry?["state"] == .string("billingRetry"))
    #expect(retry?["productId"] == .string("com.example.monthly"))
    #expect(retry?["ownershipType"] == .string("FAMILY_SHARED"))
    #expect(json["purchaseEvents"]?[0]?["refundedAt"] == .string("2026-01-20T00:00:00Z"))
  }
}
