import Entitlements
import EntitlementsScenarios
import Foundation
import Testing

/// `shared/fixtures` beside the repository, or where `ENTITLEMENTS_FIXTURES` says.
let fixturesDirectory: URL = {
  if let override = ProcessInfo.processInfo.environment["ENTITLEMENTS_FIXTURES"] {
    return URL(fileURLWithPath: override)
  }
  return URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/fixtures")
}()

/// Whether `shared/fixtures` is where the tests look for it.
let fixturesAreAvailable = FileManager.default.fileExists(
  atPath: fixturesDirectory.appendingPathComponent("MANIFEST.txt").path)

/// The one line printed where the fixtures are absent.
let fixturesMissingNote = """
  no fixtures at \(fixturesDirectory.path): the timelines of real documents from other \
  projects are not drawn (a committed 36-period sandbox history is). To draw them, put the \
  shared folder beside the repository (../shared/fixtures) or set ENTITLEMENTS_FIXTURES.
  """

/// Timelines of histories that broke the old picture: every text element's box, computed from
/// the SVG, overlaps no other and lies inside the picture.
@Suite("Timeline layout: no text overlaps, none is clipped")
struct TimelineLayoutTests {
  static let now = Instant(millisecondsSince1970: 1_795_000_000_000)  // 2026-11-18

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// A scenario file under Scenarios/, a fixture under shared/fixtures, or inline JSON.
    var source: Source
    var at: Instant
    var range: TimelineRange
    var width = 1000
    /// Texts the picture must show (names, statuses, the sandbox badge).
    var shows: [String] = []
    var testDescription: String { name }

    enum Source: Sendable {
      case scenario(String)
      case fixture(String)
      case json(String)
    }
  }

  static let refundedOnly = #"""
    {"name": "refunded only",
     "products": [{"id": "com.example.yearly", "type": "autoRenewable", "duration": "P1Y",
                   "entitlement": "premium"}],
     "transactions": [{"product_id": "com.example.yearly", "transaction_id": "1",
       "original_transaction_id": "1", "purchase_date": "2017-03-01T10:00:00Z",
       "expires_date": "2018-03-01T10:00:00Z", "cancellation_date": "2017-03-09T16:30:00Z",
       "cancellation_reason": "1"}],
     "expect": [{"at": "2017-04-01", "state": "revoked"}]}
    """#

  static let twoEntitlements = #"""
    {"name": "two entitlements",
     "products": [
       {"id": "com.example.magazine.monthly", "type": "autoRenewable", "duration": "P1M",
        "entitlement": "magazine"},
       {"id": "com.example.video.monthly", "type": "autoRenewable", "duration": "P1M",
        "entitlement": "video"},
       {"id": "com.example.video.yearly", "type": "autoRenewable", "duration": "P1Y",
        "entitlement": "video"}],
     "releases": [
       {"id": "2017-02", "date": "2017-02-01", "entitlement": "magazine"},
       {"id": "2017-03", "date": "2017-03-01", "entitlement": "magazine"},
       {"id": "2017-04", "date": "2017-04-01", "entitlement": "magazine"},
       {"id": "2017-05", "date": "2017-05-01", "entitlement": "magazine"},
       {"id": "2017-06", "date": "2017-06-01", "entitlement": "magazine"}],
     "transactions": [
       {"product_id": "com.example.magazine.monthly", "transaction_id": "1",
        "original_transaction_id": "1", "purchase_date": "2017-02-20T08:00:00Z",
        "expires_date": "2017-03-20T08:00:00Z"},
       {"product_id": "com.example.magazine.monthly", "transaction_id": "2",
        "original_transaction_id": "1", "purchase_date": "2017-04-02T08:00:00Z",
        "expires_date": "2017-05-02T08:00:00Z"},
       {"product_id": "com.example.video.monthly", "transaction_id": "10",
        "original_transaction_id": "10", "purchase_date": "2017-01-05T12:00:00Z",
        "expires_date": "2017-02-05T12:00:00Z", "cancellation_date": "2017-01-20T12:00:00Z",
        "is_upgraded": "true"},
       {"product_id": "com.example.video.yearly", "transaction_id": "11",
        "original_transaction_id": "10", "purchase_date": "2017-01-20T12:00:00Z",
        "expires_date": "2017-05-20T12:00:00Z"}],
     "pendingRenewalInfo": [
       {"original_transaction_id": "1", "auto_renew_status": "0", "expiration_intent": "1"},
       {"original_transaction_id": "10", "auto_renew_status": "1", "expiration_intent": "2",
        "is_in_billing_retry_period": "1",
        "grace_period_expires_date": "2017-06-05T12:00:00Z"}],
     "expect": [{"diagnostics": 0}]}
    """#

  static let cases: [Case] = [
    .init(
      name: "guide table 5-1 without --at",
      source: .scenario("guide-table-5-1-magazine-voluntary-lapse.json"), at: now,
      range: .history, shows: ["magazine", "Expired since Jul 17, 2017 (customer cancelled)"]),
    .init(
      name: "guide table 5-1 at May 10",
      source: .scenario("guide-table-5-1-magazine-voluntary-lapse.json"),
      at: Instant(millisecondsSince1970: 1_494_374_400_000), range: .historyAndInstant,
      shows: ["Expired since Apr 20 (cause unknown)", "2017-05"]),
    .init(
      name: "a sandbox history of 36 periods without --at",
      source: .scenario(ManyPeriodSandboxHistory.fileName), at: now, range: .history,
      shows: ["SANDBOX · accelerated time", "36 periods"]),
    .init(
      name: "a sandbox history of 36 periods at an instant in a 17-second gap",
      source: .scenario(ManyPeriodSandboxHistory.fileName),
      at: Instant(millisecondsSince1970: 1_583_159_708_500), range: .historyAndInstant,
      shows: ["SANDBOX · accelerated time"]),
    .init(
      name: "a sandbox history of 36 periods, 480 pixels wide",
      source: .scenario(ManyPeriodSandboxHistory.fileName), at: now, range: .history,
      width: 480, shows: ["SANDBOX · accelerated time"]),
    .init(
      name: "a refunded-only history", source: .json(refundedOnly),
      at: Instant(millisecondsSince1970: 1_491_004_800_000), range: .historyAndInstant,
      shows: ["premium", "Revoked: refunded Mar 9"]),
    .init(
      name: "a sandbox history without --at",
      source: .scenario("sandbox-six-renewals-then-stop.json"), at: now, range: .history,
      shows: ["SANDBOX · accelerated time"]),
    .init(
      name: "two entitlements", source: .json(twoEntitlements),
      at: Instant(millisecondsSince1970: 1_495_800_000_000), range: .historyAndInstant,
      shows: ["magazine", "video"]),
    .init(
      name: "two entitlements, 480 pixels wide", source: .json(twoEntitlements),
      at: Instant(millisecondsSince1970: 1_495_800_000_000), range: .historyAndInstant,
      width: 480, shows: ["magazine", "video"]),
    .init(
      name: "a lifetime purchase, from --from",
      source: .scenario("lifetime-and-subscription-unlock-one-entitlement.json"),
      at: now,
      range: .between(from: Instant(millisecondsSince1970: 1_480_000_000_000), to: nil),
      shows: ["premium"]),
  ]

  /// Real documents of other projects, from shared/fixtures: skipped, with one line, where
  /// the folder is absent (the committed 36-period history above always runs).
  static let fixtureCases: [Case] = [
    .init(
      name: "a real sandbox receipt with 48 periods",
      source: .fixture(
        "local_receipts/TPInAppReceipt__receipt-sandbox-legacy.DECODED_by_apple-purchase-receipt-verifier.json"
      ), at: now, range: .history, shows: ["SANDBOX · accelerated time", "48 periods"]),
    .init(
      name: "a real v1 notification with 17 periods",
      source: .fixture(
        "notifications_v1/imdhemy-appstore-iap__server-notification_DID_CHANGE_RENEWAL_STATUS.json"
      ), at: now, range: .history),
  ]

  static func explanation(_ test: Case) throws -> Explanation {
    switch test.source {
    case .scenario(let name):
      let bytes = Array(try Data(contentsOf: scenariosDirectory.appendingPathComponent(name)))
      return explanation(try Scenario(json: bytes, file: name), at: test.at)
    case .json(let text):
      return explanation(try Scenario(json: Array(text.utf8), file: test.name), at: test.at)
    case .fixture(let path):
      let url = fixturesDirectory.appendingPathComponent(path)
      let document = try DocumentReader.readUnverified(Array(try Data(contentsOf: url)))
      return Explanation(
        evaluation: Evaluator().evaluate(document.history), releases: [], at: test.at,
        readingDiagnostics: document.diagnostics, environment: document.history.environment)
    }
  }

  static func explanation(_ scenario: Scenario, at: Instant) -> Explanation {
    Explanation(
      evaluation: scenario.evaluate(), releases: scenario.releases, at: at,
      readingDiagnostics: scenario.readingDiagnostics, environment: scenario.environment,
      catalog: scenario.catalog)
  }

  @Test(arguments: cases)
  func noTextOverlapsAndNoneLeavesThePicture(_ test: Case) throws {
    try Self.checkLayout(test)
  }

  @Test(
    .enabled(if: fixturesAreAvailable, Comment(rawValue: fixturesMissingNote)),
    arguments: fixtureCases)
  func noTextOverlapsOnRealDocuments(_ test: Case) throws {
    try Self.checkLayout(test)
  }

  static func checkLayout(_ test: Case) throws {
    let explanation = try explanation(test)
    var timeline = TimelineSVG(explanation: explanation, range: test.range)
    timeline.width = test.width
    let svg = timeline.render()
    // TIMELINE_PICTURES=folder keeps the pictures, to look at them (rsvg-convert to PNG).
    if let folder = ProcessInfo.processInfo.environment["TIMELINE_PICTURES"] {
      let name = test.name.map { $0.isLetter || $0.isNumber ? $0 : "-" }
      try svg.write(
        toFile: "\(folder)/\(String(name)).svg", atomically: true, encoding: .utf8)
    }
    let layout = try SVGTextLayout(svg)
    #expect(layout.texts.count >= 8, "\(layout.texts.map(\.content))")
    #expect(layout.problems.isEmpty, "\(layout.problems.joined(separator: "\n"))")
    let contents = layout.texts.map(\.content)
    for text in test.shows {
      #expect(contents.contains(where: { $0.contains(text) }), "\(text) not in \(contents)")
    }
  }

  /// Every shipped scenario, at every instant its checks ask about and without one.
  @Test(arguments: scenarioFileNames)
  func everyScenarioAtEveryCheckedInstant(_ name: String) throws {
    let bytes = Array(try Data(contentsOf: scenariosDirectory.appendingPathComponent(name)))
    let scenario = try Scenario(json: bytes, file: name)
    var pictures = [
      TimelineSVG(explanation: Self.explanation(scenario, at: Self.now), range: .history)
    ]
    for at in Set(scenario.checks.compactMap(\.at)) {
      pictures.append(TimelineSVG(explanation: Self.explanation(scenario, at: at)))
    }
    for picture in pictures {
      let problems = try SVGTextLayout(picture.render()).problems
      #expect(problems.isEmpty, "at \(picture.explanation.at): \(problems)")
    }
  }

  /// The checker finds what it looks for: a picture drawn wrong on purpose fails it.
  @Test func theCheckerCatchesOverlapsAndClipping() throws {
    let wrong = """
      <svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" font-size="12">
      <text x="10" y="30" font-size="12">Feb 20, 2017</text>
      <text x="60" y="32" font-size="12" text-anchor="start">Apr 20</text>
      <text x="295" y="60" font-size="10" text-anchor="middle">clipped on the right</text>
      <text x="150" y="99" font-size="10" text-anchor="middle" font-weight="bold">cut at the bottom</text>
      <text x="150" y="70" font-size="10" text-anchor="end">alone &amp; fine</text>
      </svg>
      """
    let layout = try SVGTextLayout(wrong)
    #expect(layout.texts.count == 5)
    let problems = layout.problems
    #expect(problems.count == 3, "\(problems)")
    #expect(problems.contains { $0.hasPrefix("overlap: \"Feb 20, 2017\"") })
    #expect(problems.contains { $0.contains("outside") && $0.contains("clipped on the right") })
    #expect(problems.contains { $0.contains("outside") && $0.contains("cut at the bottom") })
    #expect(layout.texts.contains { $0.content == "alone & fine" })
  }

  /// The width table is an upper bound of what a browser draws: DejaVu Sans, measured by
  /// Chromium's getBBox at 12 px, is 82.06 wide for this text (the browser test measures every
  /// label of a report).
  @Test func theMetricsAreAtLeastTheFontsWidths() {
    let metrics = TextMetrics()
    #expect(metrics.width(of: "May 10, 2017", size: 12) >= 82.06)
    #expect(metrics.width(of: "May 10, 2017", size: 12) <= 82.06 * 1.15)
    #expect(metrics.width(of: "W", size: 10, bold: true) > metrics.width(of: "W", size: 10))
    // Characters outside the table count as a full em.
    #expect(metrics.width(of: "日本", size: 10) >= 20)
  }
}
