import Foundation
import Testing

@testable import EntitlementsCLI

/// The tool's two ways of reading a file give the same bytes: mapped (Apple's documents) or
/// read into an array (everything else).
struct FileSystemTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    .init(name: "a regular file", bytes: Array(#"{"status": 0, "receipt": {"in_app": []}}"#.utf8)),
    .init(name: "an empty file, which cannot be mapped", bytes: []),
    .init(name: "a file larger than a page", bytes: (0..<20_000).map { UInt8($0 % 251) }),
  ]

  @Test(arguments: cases)
  func mappedGivesTheFileBytes(_ test: Case) throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("file-system-\(UUID().uuidString).json")
    try Data(test.bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(Array(try FileSystem.mapped(url.path)) == test.bytes)
    #expect(try FileSystem.read(url.path) == test.bytes)
  }

  /// A pipe is no regular file and has no size: it is read to its end, not mapped (mapping
  /// it fails).
  @Test func aPipeIsReadToItsEnd() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("file-system-\(UUID().uuidString).fifo").path
    try #require(mkfifo(path, 0o600) == 0)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let bytes = (0..<100_000).map { UInt8($0 % 253) }
    // A reader that gives up early must fail this test, not end the process with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    let writer = Thread {
      guard let handle = FileHandle(forWritingAtPath: path) else { return }
      try? handle.write(contentsOf: bytes)
      try? handle.close()
    }
    writer.start()
    #expect(Array(try FileSystem.mapped(path)) == bytes)
  }

  @Test(arguments: [
    ("/nonexistent/file.json", "No such file or directory"),
    (FileManager.default.temporaryDirectory.path, "Is a directory"),
  ])
  func refusalsNameTheSystemReason(_ path: String, _ reason: String) {
    #expect(throws: FileSystem.Failure.self) { try FileSystem.mapped(path) }
    do {
      _ = try FileSystem.mapped(path)
    } catch {
      #expect(error.localizedDescription == reason)
    }
  }
}
