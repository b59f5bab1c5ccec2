import Entitlements

/// What the timeline writes in words: the status beside the marker, lapse causes, the fate of
/// a release. Short forms follow the long ones, for labels that must fit.
///
/// ```swift
/// TimelineWords.status(.expired(expiredAt: apr20, reason: .voluntary), date: { $0.day })
/// // ["Expired since Apr 20 (customer cancelled)", "Expired since Apr 20", "Expired"]
/// ```
enum TimelineWords {
  /// The status at the instant, longest first.
  ///
  /// - Parameters:
  ///   - status: The status.
  ///   - date: How to write a date at the picture's scale.
  /// - Returns: The texts, longest first.
  static func status(_ status: EntitlementStatus, date: (Instant) -> String) -> [String] {
    switch status {
    case .active(let active) where active.expiresAt.isDistantFuture:
      return ["Owned since \(date(active.periodStart)) (lifetime)", "Owned (lifetime)", "Owned"]
    case .active(let active):
      let until = date(active.expiresAt)
      if let commitment = active.commitment {
        let payment = "payment \(commitment.billingPeriod) of \(commitment.totalBillingPeriods)"
        let ends = active.willRenew == false ? ", will not renew" : ""
        return [
          "Active until \(until), \(payment)\(ends)", "Active until \(until), \(payment)",
          "Active until \(until)", "Active",
        ]
      }
      switch active.willRenew {
      case true?: return ["Active, renews \(until)", "Active until \(until)", "Active"]
      case false?:
        return ["Active until \(until), will not renew", "Active until \(until)", "Active"]
      case nil: return ["Active until \(until)", "Active"]
      }
    case .gracePeriod(_, let graceEnd, _, _):
      return [
        "Grace period until \(date(graceEnd)): access continues",
        "Grace period until \(date(graceEnd))", "Grace period",
      ]
    case .billingRetry(_, let retryEnd, _):
      return [
        "Billing retry until \(date(retryEnd)): no access", "Billing retry until \(date(retryEnd))",
        "Billing retry",
      ]
    case .expired(let expiredAt, let reason):
      guard let expiredAt else { return ["Expired (\(words(reason)))", "Expired"] }
      return [
        "Expired since \(date(expiredAt)) (\(words(reason)))", "Expired since \(date(expiredAt))",
        "Expired",
      ]
    case .revoked(_, let revokedAt, let reason, _, _):
      let what = reason == .familySharingRevoked ? "family sharing stopped" : "refunded"
      return ["Revoked: \(what) \(date(revokedAt)), no access", "Revoked", "Revoked"]
    case .notSubscribed:
      return ["Not subscribed", "Not subscribed"]
    }
  }

  /// How an entry was refunded or revoked, its type and percentage where Apple gives them:
  /// "refunded pro rata (67.742 %)", "revoked: family sharing stopped", "refunded in full".
  static func revocation(of entry: ReceiptEntry) -> String {
    revocation(
      type: entry.rawRevocationType, percentage: entry.revocationPercentage,
      familyShared: entry.inAppOwnershipType == .familyShared)
  }

  /// A revocation in words from Apple's `revocationType` and `revocationPercentage`.
  static func revocation(type: String?, percentage: Int?, familyShared: Bool) -> String {
    switch type.flatMap(ReceiptEntry.RevocationType.init(rawValue:)) {
    case .refundProrated?:
      let share = percentage.map { " (\(percent($0)))" } ?? ""
      return "refunded pro rata\(share)"
    case .familyRevoke?: return "revoked: family sharing stopped"
    case .refundFull?: return "refunded in full"
    case nil:
      if let type { return "revoked (\(type))" }
      return familyShared ? "revoked" : "refunded"
    }
  }

  /// Thousandths of a percent as a percentage: 67742 → "67.742 %", 50000 → "50 %".
  static func percent(_ milliunits: Int) -> String {
    guard (0...100_000).contains(milliunits) else {
      return "\(milliunits) thousandths of a percent"
    }
    let whole = milliunits / 1000
    var fraction = String(milliunits % 1000)
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return fraction.isEmpty ? "\(whole) %" : "\(whole).\(fraction) %"
  }

  static func words(_ reason: ExpiryReason) -> String {
    switch reason {
    case .voluntary: "customer cancelled"
    case .billingError: "billing error"
    case .billingRetryExhausted: "billing retry ran out"
    case .priceIncrease: "price increase declined"
    case .productUnavailable: "product unavailable"
    case .refund: "refunded"
    case .familySharingRevoked: "family sharing stopped"
    case .unknown: "cause unknown"
    }
  }

  static func words(_ cause: LapseCause) -> String {
    switch cause {
    case .refund: "refund"
    case .familySharingRevoked: "family sharing stopped"
    case .billingError: "billing error"
    case .voluntary: "customer cancelled"
    case .priceIncrease: "price increase declined"
    case .productUnavailable: "product unavailable"
    case .unknown: "cause unknown"
    }
  }

  /// "transactions 1, 2, 3 and 44 more".
  static func transactions(_ ids: [TransactionID]) -> String {
    let shown = ids.prefix(5).map(\.rawValue).joined(separator: ", ")
    let more = ids.count > 5 ? " and \(ids.count - 5) more" : ""
    return (ids.count == 1 ? "transaction " : "transactions ") + shown + more
  }
}
