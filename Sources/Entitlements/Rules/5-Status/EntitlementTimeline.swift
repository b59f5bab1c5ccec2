/// What the rules compute for one entitlement before any instant is asked about: the
/// coverage of its entries (SPEC §4), its periods and lapses (§5), and what describes the time
/// after its last period (renewal info, grace period, retry window). The status at an instant
/// (``StatusRules``) and the readable releases (``ReleaseRules``) are read from it.
struct EntitlementTimeline: Hashable, Sendable {
  /// The entitlement.
  let id: EntitlementID
  /// One coverage per entry, in canonical order.
  let coverage: CoverageList
  /// The active periods, in order.
  let periods: [ActivePeriod]
  /// Where each period's coverage sits.
  let layout: PeriodRules.Layout
  /// The lapses between consecutive periods.
  let lapses: [Lapse]
  /// What Apple said inside the lapses it said were a billing retry, by lapse index.
  let lapseRetries: [LapseRetry]
  /// The refunds of the entitlement's purchases that the App Store later reversed.
  let reversedRefunds: [ReversedRefund]
  /// The newest renewal info of the subscription that ended the last period.
  let renewalInfo: RenewalInfo?
  /// The product of the subscription that ended the last period (its auto-renewable one,
  /// when a pass ran past it): what grace and billing retry retry.
  let lapsedProductID: ProductID?
  /// What Apple stated about the time after the last period (rules 5 and 6).
  let afterLastPeriod: Statement?
  /// The grace period after the last period (rule 4).
  let gracePeriod: Interval?
  /// The renewal info that states it: of the subscription in grace.
  let graceInfo: RenewalInfo?
  /// The length of the billing-retry window after the last period (rule 5).
  let billingRetryLimit: FixedDuration
  /// Where the history comes from.
  let environment: StoreEnvironment
}
