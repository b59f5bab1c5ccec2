import EntitlementsCLI
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

/// The command on real documents of other projects: skipped, with one line, where
/// `shared/fixtures` is absent.
@Suite(
  "The entitlements command on real documents from shared/fixtures",
  .enabled(
    if: FileManager.default.fileExists(
      atPath: fixturesDirectory.appendingPathComponent("MANIFEST.txt").path),
    """
    no fixtures at \(fixturesDirectory.path): the command's tests on real documents are \
    skipped. To run them, put the shared folder beside the repository or set \
    ENTITLEMENTS_FIXTURES.
    """))
struct RealDocumentCommandTests {
  static func fixture(_ name: String) -> String {
    fixturesDirectory.appendingPathComponent(name).path
  }

  @Test func explainTextForAPastedReceipt() {
    let run = EntitlementsTool.run(
      [
        "explain",
        Self.fixture("verifyreceipt_v1/dollabill-apple__bought_non_consumable.json"),
        "--at", "2020-11-13T01:46:37Z",
      ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output.contains("status: expired (voluntary, since 2020-11-13T01:34:30Z)"))
    #expect(run.output.contains("nonconsumable_test"))
  }
}
