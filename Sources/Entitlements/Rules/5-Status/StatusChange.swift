/// One change of an entitlement's status (SPEC §5): from ``at`` until the next change, the
/// entitlement's state, reason and access are those of ``status``.
///
/// An entitlement's changes (``EntitlementEvaluation/changes``) are its status as a function of
/// time: `notSubscribed` before the first, and two consecutive changes always differ in state,
/// reason or access. Only those three hold until the next change: the details may move within
/// one (an active status's transaction, product and offer at a renewal, a crossgrade or the
/// end of a trial; a revoked status's transaction when a later purchase is revoked too).
///
/// ```swift
/// for change in evaluation["magazine"]!.changes {
///   print(change.at, change.state, change.reason as Any)
/// }
/// // 2017-02-20T08:00:00Z active nil
/// // 2017-04-20T08:00:00Z expired Optional(unknown)
/// // 2017-06-17T08:00:00Z active nil
/// // 2017-07-17T08:00:00Z expired Optional(voluntary)
/// ```
public struct StatusChange: Hashable, Sendable {
  /// The instant of the change: the status holds from it (included) to the next change
  /// (excluded).
  public let at: Instant
  /// The status at ``at``, as ``EntitlementEvaluation/status(at:)`` gives it.
  public let status: EntitlementStatus

  init(at: Instant, status: EntitlementStatus) {
    self.at = at
    self.status = status
  }

  /// The state from ``at`` to the next change.
  public var state: EntitlementState { status.state }
  /// Why the entitlement is expired or revoked, from ``at`` to the next change; `nil` in
  /// the other states.
  public var reason: ExpiryReason? { status.reason }
  /// Whether the customer has access from ``at`` to the next change.
  public var isEntitled: Bool { status.isEntitled }

}
