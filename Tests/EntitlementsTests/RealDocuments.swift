import Foundation
import Testing

/// The tests that read real documents of other projects (`shared/fixtures`, beside the
/// repository, or the folder `ENTITLEMENTS_FIXTURES` names). They are not part of this
/// repository: where the folder is absent, the whole group is skipped with one line saying so,
/// and every other test still runs.
@Suite(
  "Real documents from shared/fixtures",
  .enabled(if: fixturesAreAvailable, Comment(rawValue: fixturesMissingNote)))
struct RealDocuments {}

/// Whether `shared/fixtures` is where the tests look for it.
let fixturesAreAvailable = FileManager.default.fileExists(
  atPath: fixturesDirectory.appendingPathComponent("MANIFEST.txt").path)

/// The one line printed where the fixtures are absent.
let fixturesMissingNote = """
  no fixtures at \(fixturesDirectory.path): the tests of real documents from other projects \
  are skipped. To run them, put the shared folder beside the repository (../shared/fixtures) \
  or set ENTITLEMENTS_FIXTURES to a fixtures folder.
  """
