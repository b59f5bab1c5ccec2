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
