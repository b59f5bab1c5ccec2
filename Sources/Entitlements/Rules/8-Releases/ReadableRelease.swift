/// A release the customer can read, and why (SPEC §8).
///
/// ```swift
/// // Guide table 5-1: the Feb 1 issue, readable because the Feb 20 purchase unlocked it.
/// readable.first?.reason  // .unlockedAtStart(periodStart: 2017-02-20T08:00:00Z)
/// ```
public struct ReadableRelease: Hashable, Sendable {
  /// Why a release is readable.
  public enum Reason: Hashable, Sendable {
    /// Released while the entitlement was active, inside this period.
    case releasedWhileActive(period: Interval)
    /// Released during the billing grace period after the last period: grace counts as active.
    case releasedInGracePeriod(Interval)
    /// One of the latest releases at or before a purchase or restart, which unlocks it
    /// (policy `unlockAtStart`).
    case unlockedAtStart(periodStart: Instant)
  }

  /// The release.
  public let release: Release
  /// Why it is readable: the first reason in time.
  public let reason: Reason

  /// Creates a readable release.
  ///
  /// - Parameters:
  ///   - release: The release.
  ///   - reason: Why it is readable.
  public init(release: Release, reason: Reason) {
    self.release = release
    self.reason = reason
  }
}
