extension ScenarioResult {
  /// One key of one check, compared: what the scenario expects and what the engine answered,
  /// as written in reports.
  ///
  /// ```swift
  /// result.comparisons.first
  /// // Comparison(check: 0, key: "state", expected: "active", actual: "active")
  /// result.comparisons.first?.passed  // true
  /// ```
  public struct Comparison: Hashable, Sendable {
    /// The check's position in `expect`.
    public var check: Int
    /// The key compared (`state`, `periods`, …).
    public var key: String
    /// The expected value.
    public var expected: String
    /// The actual value.
    public var actual: String

    /// Creates a comparison.
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

    /// Whether the answer is the one expected.
    public var passed: Bool { expected == actual }
  }
}
