import Entitlements

/// One object of a scenario's `expect` list: every key present is compared, absent keys are
/// not checked (Scenarios/README.md, "Checks").
///
/// ```swift
/// // { "at": "2017-05-10", "state": "expired", "entitled": false }
/// check.at     // 2017-05-10T00:00:00Z
/// check.state  // .expired
/// ```
public struct ScenarioCheck: Hashable, Sendable {
  /// An expected lapse: its interval and, when given, its cause.
  public struct ExpectedLapse: Hashable, Sendable {
    /// The gap.
    public var interval: Interval
    /// The cause, compared only when given.
    public var cause: LapseCause?

    /// Creates an expected lapse.
    ///
    /// - Parameters:
    ///   - interval: The gap.
    ///   - cause: The cause, if checked.
    public init(interval: Interval, cause: LapseCause? = nil) {
      self.interval = interval
      self.cause = cause
    }
  }

  /// An expected change of the status (``StatusChange``): its instant and state, and its
  /// access and reason when given.
  ///
  /// ```swift
  /// // { "at": "2017-04-20T08:00:00Z", "state": "expired", "reason": "voluntary" }
  /// change.state     // .expired
  /// change.entitled  // nil: not compared
  /// ```
  public struct ExpectedChange: Hashable, Sendable {
    /// The instant of the change.
    public var at: Instant
    /// The state from it.
    public var state: EntitlementState
    /// Whether the customer has access from it, compared only when given.
    public var entitled: Bool?
    /// The reason from it, compared only when given (`null` gives "none").
    public var reason: ExpectedReason

    /// Whether and how a change's reason is compared.
    public enum ExpectedReason: Hashable, Sendable {
      /// Not given: not compared.
      case notCompared
      /// `null`: the change has no reason (active, grace period, billing retry).
      case noReason
      /// The reason expected.
      case reason(ExpiryReason)
    }

    /// Creates an expected change.
    ///
    /// - Parameters:
    ///   - at: The instant of the change.
    ///   - state: The state from it.
    ///   - entitled: The access from it, if checked.
    ///   - reason: The reason from it, if checked.
    public init(
      at: Instant, state: EntitlementState, entitled: Bool? = nil,
      reason: ExpectedReason = .notCompared
    ) {
      self.at = at
      self.state = state
      self.entitled = entitled
      self.reason = reason
    }
  }

  /// An expected commitment (``ActiveStatus/Commitment``): the keys given are compared, and
  /// a status outside a commitment fails the check.
  ///
  /// ```swift
  /// // { "at": "2026-12-15", "commitment": { "billingPeriod": 12, "willRenew": false } }
  /// check.commitment?.billingPeriod  // 12
  /// check.commitment?.endsAt         // nil: not compared
  /// ```
  public struct ExpectedCommitment: Hashable, Sendable {
    /// `billingPeriod`.
    public var billingPeriod: Int?
    /// `totalBillingPeriods`.
    public var totalBillingPeriods: Int?
    /// `endsAt`.
    public var endsAt: Instant?
    /// `willRenew`.
    public var willRenew: Bool?
    /// `renewsInto`.
    public var renewsInto: ProductID?

    /// An expected commitment; set the keys to compare.
    public init() {}
  }

  /// `entitlement`: which entitlement; may be left out when there is one.
  public var entitlement: EntitlementID?
  /// `periods`: the exact list of active periods (`end: null` for forever: our addition).
  public var periods: [Interval]?
  /// `lapses`: the exact list of lapses.
  public var lapses: [ExpectedLapse]?
  /// `changes`: the exact list of the status's changes (``EntitlementEvaluation/changes``),
  /// each element's `entitled` and `reason` compared where given.
  public var changes: [ExpectedChange]?
  /// `knownAt` (our addition): compare with what was known at this instant: only the
  /// documents signed by then (``Scenario/evaluate(knownAt:)``); `at` is then this instant
  /// unless given.
  public var knownAt: Instant?
  /// `at`: the instant for the keys below.
  public var at: Instant?
  /// `state`.
  public var state: EntitlementState?
  /// `entitled`.
  public var entitled: Bool?
  /// `expiresAt`: current expiry (state `active`).
  public var expiresAt: Instant?
  /// `retryEndsAt`: end of the billing-retry window.
  public var retryEndsAt: Instant?
  /// `gracePeriodEndsAt`: end of the grace period.
  public var gracePeriodEndsAt: Instant?
  /// `reason`: why it expired (`refund` when revoked).
  public var reason: ExpiryReason?
  /// `willRenew`.
  public var willRenew: Bool?
  /// `nextProductId` (our addition): the product of the next renewal, `auto_renew_product_id`
  /// of the last period (a pending downgrade shows here).
  public var nextProductID: ProductID?
  /// `commitment`: where the status stands in a commitment, the keys given compared.
  public var commitment: ExpectedCommitment?
  /// `readable`: ids of the releases readable as of `at` (the end of time without it).
  public var readable: [ReleaseID]?
  /// `diagnostics`: how many input problems the engine reported.
  public var diagnostics: Int?

  /// An empty check; set the keys to compare.
  public init() {}
}
