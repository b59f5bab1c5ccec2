extension EntitlementEvaluation {
  /// The releases the customer can read as of an instant, each with why (SPEC §8).
  ///
  /// Everything released inside an active period, plus, at each purchase or restart, the latest
  /// release before it (policy `unlockAtStart`); grace-period time counts as active, billing
  /// retry does not; refunded entries unlock nothing.
  ///
  /// ```swift
  /// // Guide table 5-1: issues on the 1st of Feb … Jul; subscribed Feb 20 – Apr 20 and
  /// // Jun 17 – Jul 17.
  /// magazine.readableReleases(issues).map(\.release.id)
  /// // ["2017-02", "2017-03", "2017-04", "2017-06", "2017-07"]: not May
  /// ```
  ///
  /// - Parameters:
  ///   - releases: The content calendar, in any order; releases for another entitlement are
  ///     ignored.
  ///   - instant: Evaluate as of this instant; the end of time when `nil`.
  /// - Returns: The readable releases, by date then id.
  /// - Complexity: O((R + P) log R + output) for R releases and P periods.
  public func readableReleases(_ releases: [Release], asOf instant: Instant? = nil)
    -> [ReadableRelease]
  {
    ReleaseRules.readable(
      releases, in: timeline, asOf: instant ?? .distantFuture, unlockAtStart: unlockAtStart)
  }
}
