import Entitlements

/// Evaluates a scenario and compares every check with the answer (Scenarios/README.md, "Checks").
///
/// ```swift
/// let result = ScenarioRunner.run(try Scenario(json: bytes, file: name))
/// result.failures.map(\.line)  // [] when it passes
/// ```
public enum ScenarioRunner {
  /// Runs one scenario.
  ///
  /// - Parameter scenario: The scenario.
  /// - Returns: Its result.
  public static func run(_ scenario: Scenario) -> ScenarioResult {
    let evaluation = scenario.evaluate()
    var comparisons: [ScenarioResult.Comparison] = []
    // Checks as known at an instant compare with what was known then: one evaluation each.
    var knownThen: [Instant: (evaluation: Evaluation, reading: [Diagnostic])] = [:]
    for (index, check) in scenario.checks.enumerated() {
      var compared = (evaluation: evaluation, reading: scenario.readingDiagnostics)
      if let knownAt = check.knownAt {
        let then =
          knownThen[knownAt]
          ?? {
            let record = scenario.record(knownAt: knownAt)
            return (scenario.evaluate(record), record.readingDiagnostics)
          }()
        knownThen[knownAt] = then
        compared = then
      }
      comparisons += compare(
        check, index: index, evaluation: compared.evaluation,
        readingDiagnostics: compared.reading, releases: scenario.releases)
    }
    var result = ScenarioResult(
      file: scenario.file, name: scenario.name, checkCount: scenario.checks.count,
      failures: comparisons.filter { !$0.passed }.map {
        .init(check: $0.check, key: $0.key, expected: $0.expected, actual: $0.actual)
      },
      diagnostics: (scenario.readingDiagnostics + evaluation.diagnostics).sorted())
    result.comparisons = comparisons
    return result
  }

  static func compare(
    _ check: ScenarioCheck, index: Int, evaluation: Evaluation, readingDiagnostics: [Diagnostic],
    releases: [Release]
  ) -> [ScenarioResult.Comparison] {
    var failures: [ScenarioResult.Comparison] = []
    func expect(_ key: String, _ expected: String?, _ actual: String) {
      guard let expected else { return }
      failures.append(.init(check: index, key: key, expected: expected, actual: actual))
    }
    if let diagnostics = check.diagnostics {
      let actual = evaluation.diagnostics.count + readingDiagnostics.count
      expect("diagnostics", String(diagnostics), String(actual))
    }
    let needsEntitlement =
      check.periods != nil || check.lapses != nil || check.changes != nil || check.at != nil
      || check.readable != nil
    guard needsEntitlement else { return failures }
    let entitlement: EntitlementEvaluation
    if let id = check.entitlement {
      guard let found = evaluation[id] else {
        let known = evaluation.entitlements.map(\.id.rawValue).joined(separator: ", ")
        return failures + [
          .init(
            check: index, key: "entitlement", expected: id.rawValue,
            actual: known.isEmpty ? "no entitlement" : "only \(known)")
        ]
      }
      entitlement = found
    } else {
      guard evaluation.entitlements.count == 1, let only = evaluation.entitlements.first else {
        let known = evaluation.entitlements.map(\.id.rawValue).joined(separator: ", ")
        return failures + [
          .init(
            check: index, key: "entitlement", expected: "one entitlement (or name one)",
            actual: known.isEmpty ? "none" : known)
        ]
      }
      entitlement = only
    }
    expect("periods", check.periods.map(describe), describe(entitlement.periods.map(\.interval)))
    if let lapses = check.lapses {
      // Causes are compared only where the scenario gives one.
      let actual = entitlement.lapses.enumerated().map { position, lapse in
        ScenarioCheck.ExpectedLapse(
          interval: lapse.interval,
          cause: position < lapses.count && lapses[position].cause == nil ? nil : lapse.cause)
      }
      expect("lapses", describe(lapses), describe(actual))
    }
    if let changes = check.changes {
      // Access and reasons are compared only where the scenario gives them.
      let actual = entitlement.changes.enumerated().map { position, change in
        let given = position < changes.count ? changes[position] : nil
        var reason = ScenarioCheck.ExpectedChange.ExpectedReason.notCompared
        if given?.reason != .notCompared {
          reason = change.reason.map { .reason($0) } ?? .noReason
        }
        return ScenarioCheck.ExpectedChange(
          at: change.at, state: change.state,
          entitled: given?.entitled == nil ? nil : change.isEntitled, reason: reason)
      }
      expect("changes", describe(changes), describe(actual))
    }
    if let at = check.at {
      let status = entitlement.status(at: at)
      expect("state", check.state?.rawValue, status.state.rawValue)
      expect("entitled", check.entitled.map(String.init), String(status.isEntitled))
      expect("expiresAt", check.expiresAt.map(describe), status.expiresAt.map(describe) ?? "none")
      expect(
        "retryEndsAt", check.retryEndsAt.map(describe),
        status.retryEndsAt.map(describe) ?? "none")
      expect(
        "gracePeriodEndsAt", check.gracePeriodEndsAt.map(describe),
        status.gracePeriodEndsAt.map(describe) ?? "none")
      expect("reason", check.reason?.rawValue, status.reason?.rawValue ?? "none")
      expect(
        "willRenew", check.willRenew.map(String.init),
        status.willRenew.map(String.init) ?? "unknown")
      var nextProduct: ProductID?
      if case .active(let active) = status { nextProduct = active.nextProductID }
      expect("nextProductId", check.nextProductID?.rawValue, nextProduct?.rawValue ?? "none")
      if let expected = check.commitment {
        let actual = status.commitment
        // Only the keys the scenario gives, in one line each side.
        var keys: [(name: String, expected: String, actual: String)] = []
        func key(_ name: String, _ expected: String?, _ actual: String?) {
          if let expected { keys.append((name, expected, actual ?? "none")) }
        }
        key(
          "billingPeriod", expected.billingPeriod.map(String.init),
          actual.map { String($0.billingPeriod) })
        key(
          "totalBillingPeriods", expected.totalBillingPeriods.map(String.init),
          actual.map { String($0.totalBillingPeriods) })
        key("endsAt", expected.endsAt.map(describe), actual?.endsAt.map(describe))
        key(
          "willRenew", expected.willRenew.map(String.init),
          actual?.willRenew.map(String.init) ?? actual.map { _ in "unknown" })
        key("renewsInto", expected.renewsInto?.rawValue, actual?.renewsInto?.rawValue)
        expect(
          "commitment", keys.map { "\($0.name) \($0.expected)" }.joined(separator: ", "),
          actual == nil ? "none" : keys.map { "\($0.name) \($0.actual)" }.joined(separator: ", "))
      }
    }
    if let readable = check.readable {
      let actual = entitlement.readableReleases(releases, asOf: check.at)
        .map(\.release.id.rawValue)
      expect(
        "readable", describe(readable.map(\.rawValue).sorted()), describe(actual.sorted()))
    }
    return failures
  }

  static func describe(_ instant: Instant) -> String {
    instant.isDistantFuture ? "never" : instant.description
  }

  static func describe(_ intervals: [Interval]) -> String {
    "["
      + intervals.map { "\(describe($0.start)) – \(describe($0.end))" }
      .joined(separator: ", ") + "]"
  }

  static func describe(_ lapses: [ScenarioCheck.ExpectedLapse]) -> String {
    "["
      + lapses.map { lapse in
        "\(describe(lapse.interval.start)) – \(describe(lapse.interval.end))"
          + (lapse.cause.map { " (\($0.rawValue))" } ?? "")
      }.joined(separator: ", ") + "]"
  }

  static func describe(_ changes: [ScenarioCheck.ExpectedChange]) -> String {
    "["
      + changes.map { change in
        var notes: [String] = []
        if let entitled = change.entitled { notes.append(entitled ? "entitled" : "not entitled") }
        switch change.reason {
        case .notCompared: break
        case .noReason: notes.append("no reason")
        case .reason(let reason): notes.append(reason.rawValue)
        }
        return "\(describe(change.at)) \(change.state.rawValue)"
          + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
      }.joined(separator: ", ") + "]"
  }

  static func describe(_ ids: [String]) -> String { "[" + ids.joined(separator: ", ") + "]" }
}
