import EntitlementsScenarios
import Foundation
import Testing

/// The repository's Scenarios/ folder, found from this file.
let scenariosDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Scenarios")

/// Every scenario file's name: the test arguments. Decoding happens inside the test, so one
/// bad file fails only its own case.
let scenarioFileNames: [String] =
  ((try? FileManager.default.contentsOfDirectory(atPath: scenariosDirectory.path)) ?? [])
  .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }
  .sorted()

@Suite("Every file under Scenarios/ passes")
struct ScenarioFilesTests {
  @Test func thereAreScenarios() {
    // The guide's timelines and at least 12 more (issue: scenario files).
    #expect(scenarioFileNames.count >= 17)
  }

  @Test(arguments: scenarioFileNames)
  func scenarioPasses(_ name: String) throws {
    let bytes = Array(try Data(contentsOf: scenariosDirectory.appendingPathComponent(name)))
    let scenario = try Scenario(json: bytes, file: "Scenarios/\(name)")
    #expect(!scenario.checks.isEmpty)
    let result = ScenarioRunner.run(scenario)
    #expect(result.passed, "\(result.failures.map(\.line))")
  }
}

/// Every at-check of the shipped scenarios, written by hand, agrees with the scenario's status
/// as a function of time: the change in force at the check's instant has the state, access and
/// reason the check gives (issue: the whole status function).
@Suite("Scenario at-checks agree with the changes")
struct ScenarioChangesTests {
  @Test(arguments: scenarioFileNames)
  func atChecksAgreeWithTheChanges(_ name: String) throws {
    let bytes = Array(try Data(contentsOf: scenariosDirectory.appendingPathComponent(name)))
    let scenario = try Scenario(json: bytes, file: "Scenarios/\(name)")
    let hindsight = scenario.evaluate()
    for check in scenario.checks {
      guard let at = check.at, check.state != nil || check.entitled != nil || check.reason != nil
      else { continue }
      // A check as known at an instant reads what was known then.
      let evaluation = check.knownAt.map { scenario.evaluate(knownAt: $0) } ?? hindsight
      let entitlement = try #require(
        check.entitlement.map { evaluation[$0] } ?? evaluation.entitlements.first,
        "\(name): no entitlement for the check at \(at)")
      let inForce = entitlement.changes.last { $0.at <= at }
      let state = inForce?.state ?? .notSubscribed
      if let expected = check.state { #expect(state == expected, "\(name) at \(at)") }
      if let expected = check.entitled {
        #expect((inForce?.isEntitled ?? false) == expected, "\(name) at \(at)")
      }
      if let expected = check.reason { #expect(inForce?.reason == expected, "\(name) at \(at)") }
    }
  }
}
