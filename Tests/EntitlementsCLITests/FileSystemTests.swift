import Foundation
import Testing

@testable import EntitlementsCLI

/// The tool's two ways of reading a file give the same bytes: mapped (Apple's documents) or
/// read into an array (everything else); a file that cannot be mapped is read.
struct FileSystemTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    .init(name: "a regular file", bytes: Array(#"{"status": 0, "receipt": {"in_app": []}}"#.utf8)),
    .init(name: "an empty file", bytes: []),
    .init(name: "a file larger than a page", bytes: (0..<20_000).map { UInt8($0 % 251) }),
  ]

  static func temporaryFile(_ bytes: [UInt8]) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("file-system-\(UUID().uuidString).json")
    try Data(bytes).write(to: url)
    return url
  }

  @Test(arguments: cases)
  func mappedGivesTheFileBytes(_ test: Case) throws {
    let url = try Self.temporaryFile(test.bytes)
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(Array(try FileSystem.mapped(url.path)) == test.bytes)
    #expect(try FileSystem.read(url.path) == test.bytes)
  }

  /// A regular file is mapped, not copied: while its bytes are held, the process's maps name
  /// it (Linux).
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps")))
  func aRegularFileIsMapped() throws {
    let url = try Self.temporaryFile(Array(repeating: UInt8(ascii: " "), count: 10_000))
    defer { try? FileManager.default.removeItem(at: url) }
    let bytes = try FileSystem.mapped(url.path)
    let maps = String(decoding: try FileSystem.read("/proc/self/maps"), as: UTF8.self)
    withExtendedLifetime(bytes) {
      #expect(maps.contains(url.lastPathComponent), "not mapped")
    }
  }

  /// A file that cannot be mapped (a sysfs file has a size but no mapping) is read.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: unmappable)))
  func aFileThatCannotBeMappedIsRead() throws {
    let bytes = Array(try FileSystem.mapped(Self.unmappable))
    #expect(!bytes.isEmpty)
    #expect(bytes == (try FileSystem.read(Self.unmappable)))
  }

  static let unmappable = "/sys/kernel/mm/transparent_hugepage/enabled"

  /// A pipe is no regular file and has no size: it is read to its end, not mapped (mapping it
  /// fails). Less than a pipe's buffer is written, and the writing end closed, before it is
  /// read: no thread, and nothing waits on a reader that gives up.
  @Test func aPipeIsReadToItsEnd() throws {
    let pipe = Pipe()
    let bytes = (0..<60_000).map { UInt8($0 % 253) }
    try pipe.fileHandleForWriting.write(contentsOf: bytes)
    try pipe.fileHandleForWriting.close()
    let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
    let read = try FileSystem.mapped(path)
    withExtendedLifetime(pipe) {}
    #expect(Array(read) == bytes)
  }

  struct Refusal: CustomTestStringConvertible, Sendable {
    let path: String
    let reason: String
    var testDescription: String { "\(reason): \(path)" }
  }

  @Test(arguments: [
    Refusal(path: "/nonexistent/file.json", reason: "No such file or directory"),
    Refusal(path: FileManager.default.temporaryDirectory.path, reason: "is a folder, not a file"),
  ])
  func refusalsNameTheSystemReason(_ refusal: Refusal) {
    let error = #expect(throws: FileSystem.Failure.self) { try FileSystem.mapped(refusal.path) }
    #expect(error?.localizedDescription == refusal.reason)
  }
}
