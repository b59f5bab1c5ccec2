import Entitlements

/// One section of an ``HTMLReport``: a scenario with its checks, a document explained, or a
/// file that could not be read; each with its timeline.
///
/// The sections are built from values the library computes (a ``ScenarioResult``, an
/// ``Explanation``), never from command-line arguments, so any tool can write the same page.
///
/// ```swift
/// let result = ScenarioRunner.run(scenario)
/// let section = HTMLReportSection(scenario: scenario, result: result)
/// section.outcome  // .passed
/// ```
public struct HTMLReportSection: Hashable, Sendable {
  /// What the section reports.
  public enum Outcome: String, Hashable, Sendable {
    /// A scenario whose checks all passed.
    case passed
    /// A scenario with a check that failed.
    case failed
    /// A file that could not be read (counted as failed).
    case unreadable
    /// A document explained: nothing is checked.
    case explained
  }

  /// One row of the checks table: a key of a check, expected and actual.
  public typealias Comparison = ScenarioResult.Comparison

  /// The heading: the scenario's name, or the document's file.
  public var title: String
  /// The file, as given.
  public var file: String
  /// The scenario's notes.
  public var notes: String?
  /// The outcome.
  public var outcome: Outcome
  /// The instants of the checks that have one, by position in `expect`.
  public var checkInstants: [Int: Instant]
  /// The checks' keys, compared.
  public var comparisons: [Comparison]
  /// The environment, when not production.
  public var environment: StoreEnvironment
  /// The status of each entitlement at the instant drawn, in words.
  public var statuses: [String]
  /// The input's problems, one line each.
  public var diagnostics: [String]
  /// The explanation as text, for a document explained.
  public var explanationText: String?
  /// Why the file could not be read.
  public var error: String?
  /// The timeline, an SVG document.
  public var timeline: String?

  /// A scenario and its result; the timeline spans the history and marks the last instant a
  /// check asks about.
  ///
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - result: What ``ScenarioRunner/run(_:)`` answered.
  public init(scenario: Scenario, result: ScenarioResult) {
    let explanation = Self.explanation(of: scenario)
    title = scenario.name
    file = scenario.file
    notes = scenario.notes
    outcome = result.passed ? .passed : .failed
    var instants: [Int: Instant] = [:]
    for (index, check) in scenario.checks.enumerated() {
      if let at = check.at { instants[index] = at }
    }
    checkInstants = instants
    comparisons = result.comparisons
    environment = scenario.environment
    statuses = Self.statuses(explanation)
    diagnostics = result.diagnostics.map(\.description)
    explanationText = nil
    error = nil
    timeline = TimelineSVG(explanation: explanation, range: .history).render()
  }

  /// A document (or a scenario) explained at an instant.
  ///
  /// - Parameters:
  ///   - title: The heading, usually the file.
  ///   - file: The file, as given.
  ///   - explanation: The explanation.
  ///   - range: The timeline's range: ``TimelineRange/history`` unless an instant was asked
  ///     for.
  public init(
    title: String, file: String, explanation: Explanation, range: TimelineRange = .history
  ) {
    self.title = title
    self.file = file
    notes = nil
    outcome = .explained
    checkInstants = [:]
    comparisons = []
    environment = explanation.environment ?? .production
    statuses = Self.statuses(explanation)
    diagnostics = explanation.diagnostics.map(\.description)
    explanationText = explanation.text
    error = nil
    timeline = TimelineSVG(explanation: explanation, range: range).render()
  }

  /// A file that could not be read.
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - error: Why, in one line.
  public init(file: String, error: String) {
    title = file
    self.file = file
    notes = nil
    outcome = .unreadable
    checkInstants = [:]
    comparisons = []
    environment = .production
    statuses = []
    diagnostics = []
    explanationText = nil
    self.error = error
    timeline = nil
  }

  /// The scenario's evaluation at the last instant its checks ask about, or at the end of
  /// its history.
  static func explanation(of scenario: Scenario) -> Explanation {
    let evaluation = scenario.evaluate()
    var explanation = Explanation(
      evaluation: evaluation, releases: scenario.releases, at: .distantPast,
      readingDiagnostics: scenario.readingDiagnostics, environment: scenario.environment,
      catalog: scenario.catalog)
    explanation.at =
      scenario.checks.compactMap(\.at).max()
      ?? TimelineDrawing.instants(of: explanation).max()
      ?? Instant(millisecondsSince1970: 0)
    return explanation
  }

  /// "magazine at Jul 17, 2017 08:00 UTC: Expired since Jul 17, 2017 08:00 UTC (customer
  /// cancelled)", and "; next change Aug 1, 2017 00:00 UTC: expired (voluntary)" when the
  /// status will change.
  static func statuses(_ explanation: Explanation) -> [String] {
    let at = TimelineDateFormat(explanation.at).full
    return explanation.evaluation.entitlements.map { entitlement in
      let words = TimelineWords.status(entitlement.status(at: explanation.at)) {
        TimelineDateFormat($0).full
      }
      // When the status will change next, with no new document (StatusChange).
      let next = entitlement.nextChange(after: explanation.at).map { change in
        "; next change \(TimelineDateFormat(change.at).full): \(Explanation.step(change))"
      }
      return "\(entitlement.id) at \(at): \(words.first ?? "")\(next ?? "")"
    }
  }
}
