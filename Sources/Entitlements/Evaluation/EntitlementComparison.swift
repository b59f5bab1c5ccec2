/// What a new document changed for one entitlement, at one instant: its status before and
/// after, and whether its past changed (``EvaluationComparison``).
///
/// ```swift
/// // A REFUND notification folded in at `now`:
/// let premium = comparison["premium"]!
/// premium.before.state    // .active
/// premium.after.state     // .revoked
/// premium.statusChanged   // true: take access away
/// premium.pastChanged     // true: the refunded months are voided
/// premium.nextChange      // nil: nothing will change without a new document
/// ```
public struct EntitlementComparison: Hashable, Sendable {
  /// The entitlement.
  public let id: EntitlementID
  /// Its status at the instant before the document (`notSubscribed` when no entry unlocked
  /// it).
  public let before: EntitlementStatus
  /// Its status at the instant after the document.
  public let after: EntitlementStatus
  /// Whether its past changed: its periods or lapses before the instant were added, removed
  /// or cut, as a refund reaching back does, or a lapse's cause or reason changed (a late
  /// `EXPIRED` saying an earlier billing retry ran out). A renewal that extends the
  /// current period does not change the past; neither does a word on the time after the last
  /// period (a billing retry, a grace period), which shows in ``before`` and ``after``.
  public let pastChanged: Bool
  /// Its next status change after the instant, after the document: when to look again
  /// (``EntitlementEvaluation/nextChange(after:)``); `nil` when nothing will change.
  public let nextChange: StatusChange?

  init(
    id: EntitlementID, before: EntitlementEvaluation?, after: EntitlementEvaluation?,
    at instant: Instant
  ) {
    self.id = id
    self.before = before?.status(at: instant) ?? .notSubscribed
    self.after = after?.status(at: instant) ?? .notSubscribed
    pastChanged = Past(before, before: instant) != Past(after, before: instant)
    nextChange = after?.nextChange(after: instant)
  }

  /// Whether the state, the reason or the access changed at the instant: what a backend
  /// reacts to (a renewal that only moves ``EntitlementStatus/expiresAt`` does not; compare
  /// ``before`` with ``after`` for every detail).
  public var statusChanged: Bool {
    before.state != after.state || before.reason != after.reason
      || before.isEntitled != after.isEntitled
  }

  /// Whether anything a backend reacts to changed: the status at the instant or the past.
  public var changed: Bool { statusChanged || pastChanged }

  /// An entitlement's periods and lapses before an instant, cut at the instant.
  private struct Past: Equatable {
    var periods: [Interval] = []
    var lapses: [Interval] = []
    var causes: [LapseCause] = []
    var reasons: [ExpiryReason] = []

    init(_ evaluation: EntitlementEvaluation?, before instant: Instant) {
      guard let evaluation else { return }
      for period in evaluation.periods where period.interval.start < instant {
        periods.append(Self.cut(period.interval, at: instant))
      }
      for lapse in evaluation.lapses where lapse.interval.start < instant {
        lapses.append(Self.cut(lapse.interval, at: instant))
        causes.append(lapse.cause)
        reasons.append(lapse.reason)
      }
    }

    static func cut(_ interval: Interval, at instant: Instant) -> Interval {
      Interval(start: interval.start, end: min(interval.end, instant))
    }
  }
}
