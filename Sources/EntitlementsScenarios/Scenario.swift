import Entitlements

/// A scenario file: a customer's history and what the engine must answer about it
/// (Scenarios/README.md). Product teams write them; ``ScenarioRunner`` checks them.
///
/// Read strictly (it is written by people): unknown keys, wrong types and unreadable dates are
/// ``ScenarioError``s naming the file and the key path. The pasted `receipt` and
/// `notifications` are Apple's documents and read tolerantly, their problems counted as
/// diagnostics.
///
/// Optional fields (documented in Scenarios/README.md with the rest):
/// `policy.unlockAtStart`, `policy.sandboxProfile`, `policy.scalesSandboxWindows`,
/// `notifications` (server notification bodies, v1 or v2), `end: null` in `periods` for a
/// period that never ends, and the check key `nextProductId`.
///
/// ```swift
/// let scenario = try Scenario(json: bytes, file: "Scenarios/guide-table-5-1.json")
/// let result = ScenarioRunner.run(scenario)
/// result.passed  // true
/// ```
public struct Scenario: Hashable, Sendable {
  /// The file it was read from, as given.
  public var file: String
  /// `name`: one line, shown in reports.
  public var name: String
  /// `notes`.
  public var notes: String?
  /// `environment`; by default the pasted documents' own (SPEC §10), else production.
  public var environment: StoreEnvironment
  /// `policy`.
  public var policy: Policy
  /// `products`.
  public var catalog: ProductCatalog
  /// `releases`.
  public var releases: [Release]
  /// Everything the scenario says about purchases: `receipt`, `transactions`,
  /// `pendingRenewalInfo` and `notifications`, folded.
  public var record: SubscriberRecord
  /// `expect`.
  public var checks: [ScenarioCheck]
  /// Apple's documents as pasted (`receipt`, `notifications`, `documents`), read.
  let pasted: [AppStoreDocument]
  /// What the author wrote (`transactions`, `pendingRenewalInfo`).
  let authored: AuthoredDocument

  /// The input of the evaluation.
  public var history: PurchaseHistory {
    var history = record.history
    history.environment = environment
    return history
  }

  /// The evaluation the checks are compared with.
  public func evaluate() -> Evaluation {
    Evaluator(catalog: catalog, policy: policy).evaluate(history)
  }

  /// The evaluation of what was known at an instant (``SubscriberRecord/init(knownAt:)``):
  /// what a check with `knownAt` is compared with.
  ///
  /// ```swift
  /// scenario.evaluate(knownAt: feb3)["premium"]?.status(at: feb3).willRenew  // true, then
  /// ```
  ///
  /// - Parameter knownAt: The instant.
  /// - Returns: The evaluation of the documents signed by then.
  public func evaluate(knownAt: Instant) -> Evaluation {
    evaluate(record(knownAt: knownAt))
  }

  /// The record of what was known at an instant: its history and its reading diagnostics.
  func record(knownAt: Instant) -> SubscriberRecord {
    Self.record(of: pasted, authored, knownAt: knownAt)
  }

  /// The evaluation of `record`, in the scenario's environment, catalog and policy.
  func evaluate(_ record: SubscriberRecord) -> Evaluation {
    var history = record.history
    history.environment = environment
    return Evaluator(catalog: catalog, policy: policy).evaluate(history)
  }

  /// Problems found in the pasted Apple documents (counted by the `diagnostics` check).
  public var readingDiagnostics: [Diagnostic] { record.readingDiagnostics }
}
