// The command line tool may use full Foundation (directory walking, error descriptions);
// the libraries below it use FoundationEssentials only (DESIGN.md).
import Foundation

/// The command's file access: the only I/O of the tool, kept out of the libraries.
enum FileSystem {
  static func read(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  static func isDirectory(_ path: String) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory)
      && directory.boolValue
  }

  static func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
  }

  /// Scenario files under a folder: `*.json` except `*.schema.json`, sorted.
  static func scenarioFiles(under folder: String) -> [String] {
    let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    let paths = (FileManager.default.subpaths(atPath: base) ?? [])
      .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }
      .sorted()
    return paths.map { "\(base)/\($0)" }
  }
}
