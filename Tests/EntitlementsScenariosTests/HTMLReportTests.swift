import Entitlements
import EntitlementsScenarios
import Foundation
import Testing

@Suite("The HTML report")
struct HTMLReportTests {
  static func scenario(_ name: String) throws -> Scenario {
    let bytes = Array(try Data(contentsOf: scenariosDirectory.appendingPathComponent(name)))
    return try Scenario(json: bytes, file: "Scenarios/\(name)")
  }

  static let failing = #"""
    {"name": "Fails <on purpose> & says why",
     "notes": "A \"misspelt\" product id.",
     "products": [{"id": "com.example.monthly", "type": "autoRenewable", "duration": "P1M"}],
     "transactions": [{"product_id": "com.example.monthyl", "transaction_id": "1",
       "purchase_date": "2017-01-01", "expires_date": "2017-02-01"}],
     "expect": [{"at": "2017-01-15", "state": "active"}, {"diagnostics": 0}]}
    """#

  static func report() throws -> HTMLReport {
    let passing = try scenario("guide-table-5-1-magazine-voluntary-lapse.json")
    let failing = try Scenario(json: Array(Self.failing.utf8), file: "failing.json")
    return HTMLReport(
      title: "Scenarios", subtitle: "entitlements test",
      sections: [
        HTMLReportSection(scenario: passing, result: ScenarioRunner.run(passing)),
        HTMLReportSection(scenario: failing, result: ScenarioRunner.run(failing)),
        HTMLReportSection(file: "broken.json", error: "broken.json: name: required"),
      ])
  }

  static func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  @Test func summaryAndSections() throws {
    let report = try Self.report()
    #expect(report.passed == 1 && report.failed == 2)
    let page = report.render()
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(page.contains("data-passed=\"1\" data-failed=\"2\""))
    #expect(Self.count("<section class=\"report-section", in: page) == 3)
    #expect(Self.count("<figure class=\"timeline\"><svg", in: page) == 2)
    #expect(page.contains("data-outcome=\"unreadable\""))
    #expect(page.contains("broken.json: name: required"))
    // The failures are linked from the top.
    #expect(page.contains("Failed: <a href=\"#section-2\">"))
    #expect(page.contains("<a href=\"#section-3\">broken.json</a></p>"))
  }

  /// Each change of the status is marked on the timeline, with its instant and state in its
  /// tooltip, and the section says when the status will next change.
  @Test func changesAreMarkedAndTheNextOneSaid() throws {
    let page = try Self.report().render()
    // The magazine's four changes, and the failing scenario's two.
    #expect(Self.count(": active, access</title>", in: page) == 3)
    #expect(page.contains(": expired (unknown), no access</title>"))
    #expect(page.contains(": expired (voluntary), no access</title>"))
    #expect(page.contains(">status change (its state's colour)</text>"))
    // At Jan 15 the failing scenario's entitlement is active until Feb 1; the magazine, expired
    // on Jul 17, will not change again.
    #expect(page.contains("; next change Feb 1, 2017: expired (unknown)"))
    #expect(Self.count("; next change", in: page) == 1)
  }

  @Test func checksShowExpectedAndActual() throws {
    let page = try Self.report().render()
    // Guide table 5-1: 9 checks comparing 21 keys, all passing. The failing scenario: its
    // state passes (the one entitlement is active), its diagnostics count fails.
    #expect(Self.count("<tr class=\"passed\">", in: page) == 22)
    #expect(page.contains("<td class=\"key\">changes</td>"))
    #expect(Self.count("<tr class=\"failed\">", in: page) == 1)
    #expect(page.contains("<td class=\"key\">diagnostics</td><td>0</td><td>1</td>"))
    #expect(page.contains("Problems in the input (1)"))
    #expect(page.contains("com.example.monthyl is not in the catalog"))
  }

  @Test func textIsEscapedAndNothingIsFetched() throws {
    let page = try Self.report().render()
    #expect(page.contains("Fails &lt;on purpose&gt; &amp; says why"))
    #expect(page.contains("A &quot;misspelt&quot; product id."))
    #expect(!page.contains("<on purpose>"))
    for reference in ["<script", "<link", "src=", "url(", "https://"] {
      #expect(!page.contains(reference), "\(reference)")
    }
  }

  @Test func anExplanationHasItsTextAndTimeline() throws {
    let scenario = try Self.scenario("sandbox-six-renewals-then-stop.json")
    let explanation = Explanation(
      evaluation: scenario.evaluate(), releases: [],
      at: Instant(millisecondsSince1970: 1_594_909_000_000), readingDiagnostics: [],
      environment: scenario.environment, catalog: scenario.catalog)
    let page = HTMLReport(
      title: "Explanation",
      sections: [HTMLReportSection(title: "s.json", file: "s.json", explanation: explanation)]
    ).render()
    #expect(page.contains("data-outcome=\"explained\""))
    #expect(page.contains("1 explained</span>"))
    #expect(page.contains("as of 2020-07-16T14:16:40Z (Sandbox)"))
    #expect(page.contains("SANDBOX · accelerated time"))
    #expect(Self.count("<svg", in: page) == 1)
  }
}
