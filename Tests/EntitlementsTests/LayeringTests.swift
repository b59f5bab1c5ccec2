import Foundation
import Testing

/// The library's folders are layers with one direction of flow (DESIGN.md, "Layers"):
/// `Internal` ← `Model` ← `Rules` ← `Evaluation`, and `Reading` makes `Model` values from
/// Apple's documents. A file may name the types of its own layer and of the layers below it,
/// never those above: this reads every source file and checks the names its code uses.
@Suite("Layers: each folder names only the types of the folders below it")
struct LayeringTests {
  /// Each folder and the folders whose types it may name.
  static let allowed: [String: Set<String>] = [
    "Internal": ["Internal"],
    "Model": ["Internal", "Model"],
    "Rules": ["Internal", "Model", "Rules"],
    "Evaluation": ["Internal", "Model", "Rules", "Evaluation"],
    "Reading": ["Internal", "Model", "Reading"],
  ]

  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/Entitlements")

  /// The code of a file, without its comments (line and block) and string literals.
  static func code(of file: URL) throws -> String {
    let text = try String(contentsOf: file, encoding: .utf8)
      .replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: " ", options: .regularExpression)
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var line = Substring(line)
      if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
      // String literals may name anything: drop them.
      return line.replacingOccurrences(
        of: #""[^"]*""#, with: "\"\"", options: .regularExpression)
    }.joined(separator: "\n")
  }

  /// The Swift files of each folder, its subfolders included (`Rules` has one per section of
  /// the rules).
  static func files() throws -> [String: [URL]] {
    var result: [String: [URL]] = [:]
    for folder in allowed.keys {
      let url = sources.appendingPathComponent(folder)
      guard let walker = FileManager.default.enumerator(atPath: url.path) else { continue }
      result[folder] = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        .map { url.appendingPathComponent($0) }
    }
    return result
  }

  /// The types a folder declares in its files, nested ones included unless `topLevelOnly`.
  static func declaredTypes(in files: [URL], topLevelOnly: Bool = false) throws -> Set<String> {
    let pattern = try Regex(
      (topLevelOnly ? "^" : #"^\s*"#)
        + #"(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:struct|enum|class|protocol|typealias|actor)\s+(\w+)"#
    ).anchorsMatchLineEndings()
    var names = Set<String>()
    for file in files {
      for match in try code(of: file).matches(of: pattern) {
        if let name = match.output[1].substring { names.insert(String(name)) }
      }
    }
    return names
  }

  /// The names a file's code uses that are declared in a folder it may not name.
  static func violations(
    _ file: URL, folder: String, declared: [String: Set<String>],
    topLevel: [String: Set<String>]
  ) throws -> [String] {
    let code = try code(of: file)
    // A nested type's name may be declared in a layer below as well (`Kind`, `Storage`): the
    // file may mean that one. A top-level type of a layer above is never excused.
    let mine = declared.filter { allowed[folder]?.contains($0.key) ?? false }.values
      .reduce(into: Set<String>()) { $0.formUnion($1) }
    var found: [String] = []
    for (other, names) in declared where !(allowed[folder]?.contains(other) ?? false) {
      let excused = mine.subtracting(topLevel[other] ?? [])
      for name in names.subtracting(excused) where code.contains(try Regex("\\b\(name)\\b")) {
        found.append("\(folder)/\(file.lastPathComponent) names \(other)'s \(name)")
      }
    }
    return found
  }

  @Test func noFolderNamesTheTypesOfALayerAboveIt() throws {
    let files = try Self.files()
    let declared = try files.mapValues { try Self.declaredTypes(in: $0) }
    let topLevel = try files.mapValues { try Self.declaredTypes(in: $0, topLevelOnly: true) }
    #expect(declared["Rules"]?.contains("CoverageRules") == true, "the scan finds declarations")
    #expect(declared["Rules"]?.contains("ReleaseRules") == true, "the scan reads subfolders")
    #expect(declared["Evaluation"]?.contains("Evaluator") == true)
    var violations: [String] = []
    for (folder, urls) in files {
      for url in urls {
        violations += try Self.violations(
          url, folder: folder, declared: declared, topLevel: topLevel)
      }
    }
    #expect(violations.sorted() == [])
  }

  /// The check can fail: a file of the reading layer that names an evaluation type is caught.
  @Test func aReadingFileThatNamesTheEvaluatorIsCaught() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("LayeringProbe-\(UUID().uuidString).swift")
    try "func probe(_ e: Evaluator) -> Int { 0 } // Evaluation is named in a comment only\n"
      .write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let files = try Self.files()
    var declared = try files.mapValues { try Self.declaredTypes(in: $0) }
    let topLevel = try files.mapValues { try Self.declaredTypes(in: $0, topLevelOnly: true) }
    // A nested type of the reader's own named `Evaluator` does not excuse the top-level one.
    declared["Reading", default: []].insert("Evaluator")
    let found = try Self.violations(
      file, folder: "Reading", declared: declared, topLevel: topLevel)
    #expect(found.contains { $0.hasSuffix("names Evaluation's Evaluator") }, "\(found)")
    #expect(!found.contains { $0.hasSuffix("names Evaluation's Evaluation") }, "\(found)")
  }
}
