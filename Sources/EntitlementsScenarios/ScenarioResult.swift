import Entitlements

/// The outcome of one scenario: every check key that differs, with expected and actual.
///
/// ```swift
/// result.passed                 // false
/// result.failures.first?.line   // "expect[1].state: expected expired, got active"
/// ```
public struct ScenarioResult: Hashable, Sendable {
  /// One key of one check that differs.
  public struct Failure: Hashable, Sendable {
    /// The check's position in `expect`.
    public var check: Int
    /// The key compared (`state`, `periods`, …), or `entitlement` when the check cannot find
    /// its entitlement.
    public var key: String
    /// The expected value, as written in reports.
    public var expected: String
    /// The actual value.
    public var actual: String

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - check: The check's position.
    ///   - key: The key compared.
    ///   - expected: The expected value.
    ///   - actual: The actual value.
    public init(check: Int, key: String, expected: String, actual: String) {
      self.check = check
      self.key = key
      self.expected = expected
      self.actual = actual
    }

    /// "expect[1].state: expected expired, got active".
    public var line: String { "expect[\(check)].\(key): expected \(expected), got \(actual)" }
  }

  /// The scenario's file.
  public var file: String
  /// The scenario's name.
  public var name: String
  /// The checks compared.
  public var checkCount: Int
  /// What differs; empty when the scenario passed.
  public var failures: [Failure]
  /// Every key of every check, compared: passing ones too, for reports that show expected and
  /// actual side by side (``HTMLReport``). `failures` are the ones that differ.
  public var comparisons: [Comparison] = []
  /// The problems the engine found in the scenario's input, sorted: reading problems of the
  /// pasted documents and the evaluation's own (a product missing from the catalog). Shown
  /// under a failure, since they are often its cause.
  public var diagnostics: [Diagnostic]

  /// Creates a result.
  ///
  /// - Parameters:
  ///   - file: The scenario's file.
  ///   - name: The scenario's name.
  ///   - checkCount: The checks compared.
  ///   - failures: What differs.
  ///   - diagnostics: The problems found in the input.
  public init(
    file: String, name: String, checkCount: Int, failures: [Failure],
    diagnostics: [Diagnostic] = []
  ) {
    self.file = file
    self.name = name
    self.checkCount = checkCount
    self.failures = failures
    self.diagnostics = diagnostics
  }

  /// Whether every check matched.
  public var passed: Bool { failures.isEmpty }
}
