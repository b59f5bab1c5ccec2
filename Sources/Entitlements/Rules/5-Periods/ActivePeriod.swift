/// A maximal stretch of time in which an entitlement was active: the union of its entries'
/// coverage, merged where intervals overlap or touch (SPEC §5).
///
/// ```swift
/// // Feb 20–Mar 20 and Mar 20–Apr 20 touch: one period.
/// let period = evaluation["magazine"]?.periods.first
/// period?.interval         // [2017-02-20T08:00:00Z, 2017-04-20T08:00:00Z)
/// period?.start            // .firstPurchase
/// period?.transactionIDs   // ["1", "2"]
/// ```
public struct ActivePeriod: Hashable, Sendable {
  /// How a period began.
  public enum Start: String, Hashable, Sendable {
    /// The entitlement's first period.
    case firstPurchase
    /// A period after a lapse: a resubscription or a billing-retry recovery.
    case restart
  }

  /// The instants the entitlement was active, half-open.
  public let interval: Interval
  /// How the period began.
  public let start: Start
  /// The entries whose coverage makes up the period, in order of purchase.
  ///
  /// A period from ``Evaluator`` builds this array when it is read, from the evaluation's
  /// entries: read it once where it is needed. Such a period keeps the
  /// evaluation's entries alive; keep the array, not the period, to hold the ids alone.
  public var transactionIDs: [TransactionID] { Array(members) }
  /// The entry whose coverage ends last: its subscription's renewal info describes what comes
  /// after the period.
  ///
  /// A period from ``Evaluator`` reads it from the evaluation's entries when asked, like
  /// ``transactionIDs``.
  public var lastTransactionID: TransactionID { members.last }
  /// Whether the period began with a free trial (`is_trial_period` on an entry starting it).
  public let beganWithTrial: Bool
  /// Whether the period began with an introductory offer (`is_in_intro_offer_period`).
  public let beganWithIntroOffer: Bool
  /// The ids behind ``transactionIDs`` and ``lastTransactionID``.
  private let members: PeriodMembers

  /// Creates a period.
  ///
  /// - Parameters:
  ///   - interval: The instants the entitlement was active.
  ///   - start: How the period began.
  ///   - transactionIDs: The entries making up the period.
  ///   - lastTransactionID: The entry ending last.
  ///   - beganWithTrial: Whether the period began with a free trial.
  ///   - beganWithIntroOffer: Whether the period began with an introductory offer.
  public init(
    interval: Interval, start: Start, transactionIDs: [TransactionID],
    lastTransactionID: TransactionID, beganWithTrial: Bool = false,
    beganWithIntroOffer: Bool = false
  ) {
    self.interval = interval
    self.start = start
    self.members = PeriodMembers(transactionIDs, last: lastTransactionID)
    self.beganWithTrial = beganWithTrial
    self.beganWithIntroOffer = beganWithIntroOffer
  }

  /// A period whose ids are read from the evaluation's coverage.
  init(
    interval: Interval, start: Start, members: PeriodMembers, beganWithTrial: Bool,
    beganWithIntroOffer: Bool
  ) {
    self.interval = interval
    self.start = start
    self.members = members
    self.beganWithTrial = beganWithTrial
    self.beganWithIntroOffer = beganWithIntroOffer
  }
}
