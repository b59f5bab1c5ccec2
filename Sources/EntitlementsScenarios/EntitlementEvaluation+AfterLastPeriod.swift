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

  /// Whether the App Store retries billing after the last period (SPEC §5, rules 4 and 5):
  /// the renewal info says it is retrying, or a grace period runs. After a voluntary
  /// cancellation there is nothing to retry, and the window is neither printed nor drawn.
  var billingRetryCanHappen: Bool {
    windowsAfterLastPeriod != nil
      && (renewalInfo?.isInBillingRetryPeriod == true || gracePeriod != nil)
  }
}
