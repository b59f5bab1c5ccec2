import Entitlements

/// A scenario file that cannot be read: which file, where in it (a JSON path), and why.
///
/// Scenario files are written by people, so they are read strictly: an unknown key (a typo
/// like `"expectd"`), a value of the wrong type or an unreadable date is an error, never a
/// silent default.
///
/// ```swift
/// error.description  // "Scenarios/upgrade.json: expect[1].expectd: unknown key"
/// ```
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file, as given.
  public var file: String
  /// The JSON path of the problem; empty for the whole file.
  public var path: String
  /// What is wrong.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - path: The JSON path of the problem.
  ///   - message: What is wrong.
  public init(file: String, path: String, message: String) {
    self.file = file
    self.path = path
    self.message = message
  }

  /// "file: path: message".
  public var description: String {
    path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
  }
}
