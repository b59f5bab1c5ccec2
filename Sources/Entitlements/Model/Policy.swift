/// The choices SPEC.md marks **policy**: rules a backend may want to change, each with the
/// SPEC's default.
///
/// ```swift
/// var policy = Policy()                   // the SPEC's defaults
/// policy.cancellation = .endAtCancellation
/// policy.minimumLapse = .minutes(1)       // merge sandbox hiccups away
/// ```
public struct Policy: Hashable, Sendable {
  /// How a refund or revocation (`cancellation_date` without `is_upgraded`) affects coverage.
  public enum Cancellation: String, Hashable, Sendable, CaseIterable {
    /// The entry is treated as if it had never been bought: no coverage, no content
    /// (the guide; the default).
    case voidEntirely
    /// Coverage ends at the cancellation instant (Apple's newer documents).
    case endAtCancellation
  }

  /// How successive non-renewing purchases combine (SPEC §6).
  public enum NonRenewingStacking: String, Hashable, Sendable, CaseIterable {
    /// Each purchase covers its duration from the later of its purchase date and the end of
    /// the previous coverage (the default).
    case stack
    /// Each purchase covers its duration from its own purchase date; overlaps merge.
    case fromPurchase
  }

  /// SPEC §4 `cancellation`; default ``Cancellation/voidEntirely``.
  public var cancellation: Cancellation
  /// SPEC §5 `minimumLapse`: gaps shorter than this are merged away; default zero.
  public var minimumLapse: FixedDuration
  /// SPEC §5–6 `billingRetryLimit`: how long after expiry the App Store retries; default 60 days.
  public var billingRetryLimit: FixedDuration
  /// SPEC §6 `nonRenewingStacking`; default ``NonRenewingStacking/stack``.
  public var nonRenewingStacking: NonRenewingStacking
  /// SPEC §8 `unlockAtStart`: how many of the latest releases a purchase or restart unlocks;
  /// default 1.
  public var unlockAtStart: Int
  /// SPEC §7 `sandboxProfile`: how the test environment accelerates time; default
  /// ``SandboxProfile/guide``.
  public var sandboxProfile: SandboxProfile
  /// SPEC §7: whether, in the sandbox, the 10-day, 24-hour and 60-day windows are scaled by the
  /// product's ratio (our documented choice; default `true`). When `false` they keep their
  /// production lengths.
  public var scalesSandboxWindows: Bool

  /// Creates a policy; every argument defaults to the SPEC's value.
  ///
  /// - Parameters:
  ///   - cancellation: SPEC §4 `cancellation`.
  ///   - minimumLapse: SPEC §5 `minimumLapse`.
  ///   - billingRetryLimit: SPEC §5 `billingRetryLimit`.
  ///   - nonRenewingStacking: SPEC §6 `nonRenewingStacking`.
  ///   - unlockAtStart: SPEC §8 `unlockAtStart`.
  ///   - sandboxProfile: SPEC §7 `sandboxProfile`.
  ///   - scalesSandboxWindows: SPEC §7 window scaling in the sandbox.
  public init(
    cancellation: Cancellation = .voidEntirely,
    minimumLapse: FixedDuration = .zero,
    billingRetryLimit: FixedDuration = .days(60),
    nonRenewingStacking: NonRenewingStacking = .stack,
    unlockAtStart: Int = 1,
    sandboxProfile: SandboxProfile = .guide,
    scalesSandboxWindows: Bool = true
  ) {
    self.cancellation = cancellation
    self.minimumLapse = minimumLapse
    self.billingRetryLimit = billingRetryLimit
    self.nonRenewingStacking = nonRenewingStacking
    self.unlockAtStart = unlockAtStart
    self.sandboxProfile = sandboxProfile
    self.scalesSandboxWindows = scalesSandboxWindows
  }
}
