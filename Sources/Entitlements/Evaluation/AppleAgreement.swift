/// Whether the evaluation agrees with Apple's own status of a subscription at the instant a
/// document stated it (SPEC §10, "Agreement with Apple").
///
/// A report, not an input: the evaluation is computed from the entries and evidence alone, and
/// this says where it and Apple agree. Apple's status is per subscription, the evaluation's per
/// entitlement; with one subscription per entitlement (the usual case) they mean the same.
///
/// ```swift
/// for agreement in premium.appleAgreement where !agreement.agrees {
///   print(agreement)  // "at 2025-10-06T05:16:30Z Apple says expired, we say active"
/// }
/// ```
public struct AppleAgreement: Hashable, Sendable, CustomStringConvertible {
  /// What Apple stated.
  public let report: AppleStatusReport
  /// The evaluation's status at the same instant.
  public let ours: EntitlementStatus

  /// Whether the two say the same: active, expired (or never subscribed), billing retry, grace
  /// period and revoked each match their own; a status value Apple added later matches none.
  public var agrees: Bool {
    switch report.status {
    case .active?: ours.state == .active
    case .expired?: ours.state == .expired || ours.state == .notSubscribed
    case .billingRetry?: ours.state == .billingRetry
    case .billingGracePeriod?: ours.state == .gracePeriod
    case .revoked?: ours.state == .revoked
    case nil: false
    }
  }

  /// "at T Apple says X, we say Y".
  public var description: String {
    let apple = report.status.map { "\($0)" } ?? "status \(report.rawStatus)"
    return "at \(report.at) Apple says \(apple), we say \(ours.state.rawValue)"
  }
}
