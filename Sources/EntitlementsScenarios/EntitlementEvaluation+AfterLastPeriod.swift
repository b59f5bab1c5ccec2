import Entitlements

extension EntitlementEvaluation {
  /// The renewal windows around the end of the last period, when that period ends with an
  /// auto-renewable entry; `nil` for a history ending with a lifetime or non-renewing
  /// purchase, whose windows (if any) belong to an earlier period.
  var windowsAfterLastPeriod: RenewalWindows? {
    guard let last = windows.last, let end = periods.last?.interval.end,
      last.expiresAt == end
    else { return nil }
    return last
  }

  /// Whether the App Store retries, or retried, billing after the last period (SPEC §5 rules
  /// 4–6, §6), as the status at its expiry says from Apple's evidence: a grace period, billing
  /// retry, or an expiry for a billing reason (`billingError`, `billingRetryExhausted`), even
  /// once the window has passed. After a voluntary or any other expiry there is nothing to
  /// retry, and with no evidence at all (no renewal info, no notification) the engine does
  /// not guess one: the window is neither printed nor drawn (see DESIGN.md).
  var billingRetryCanHappen: Bool {
    guard let windows = windowsAfterLastPeriod else { return false }
    switch status(at: windows.expiresAt) {
    case .gracePeriod, .billingRetry: return true
    case .expired(_, let reason): return reason == .billingError || reason == .billingRetryExhausted
    case .active, .revoked, .notSubscribed: return false
    }
  }

  /// Whether nothing Apple said describes the time after the last period: no renewal info and
  /// no expiry reason, so whether the App Store retries billing is unknown.
  var afterLastPeriodIsUnknown: Bool {
    guard let windows = windowsAfterLastPeriod, renewalInfo == nil else { return false }
    return status(at: windows.expiresAt) == .expired(expiredAt: windows.expiresAt, reason: .unknown)
  }
}
