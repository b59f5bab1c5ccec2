/// The choices SPEC (<doc:Rules>) marks **policy**: rules a backend may want to change, each
/// with the SPEC's default.
///
/// A policy is valid by construction: its fields are read-only, and the initializer that
/// takes them rejects a value no rule can use, naming the field (``PolicyError``).
///
/// ```swift
/// let standard = Policy()  // the SPEC's defaults
/// let lenient = try Policy(cancellation: .endAtCancellation, minimumLapse: .minutes(1))
/// try Policy(billingRetryLimit: .zero)
/// // throws PolicyError: "billingRetryLimit: must be longer than zero, got 0 ms"
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
  public let cancellation: Cancellation
  /// SPEC §5 `minimumLapse`: gaps shorter than this are merged away; default zero, never
  /// negative.
  public let minimumLapse: FixedDuration
  /// SPEC §5–6 `billingRetryLimit`: how long after expiry the App Store retries; default 60
  /// days, always longer than zero.
  public let billingRetryLimit: FixedDuration
  /// SPEC §6 `nonRenewingStacking`; default ``NonRenewingStacking/stack``.
  public let nonRenewingStacking: NonRenewingStacking
  /// SPEC §8 `unlockAtStart`: how many of the latest release dates a purchase or restart
  /// unlocks; default 1, never negative (0: a start unlocks nothing released before it).
  public let unlockAtStart: Int
  /// SPEC §7 `sandboxProfile`: how the test environment accelerates time; default
  /// ``SandboxProfile/guide``.
  public let sandboxProfile: SandboxProfile
  /// SPEC §7: whether, in the sandbox, the 10-day, 24-hour and 60-day windows are scaled by the
  /// product's ratio (our documented choice; default `true`). When `false` they keep their
  /// production lengths.
  public let scalesSandboxWindows: Bool

  /// The SPEC's defaults.
  public init() {
    cancellation = .voidEntirely
    minimumLapse = .zero
    billingRetryLimit = .days(60)
    nonRenewingStacking = .stack
    unlockAtStart = 1
    sandboxProfile = .guide
    scalesSandboxWindows = true
  }

  /// Creates a policy; every argument defaults to the SPEC's value.
  ///
  /// - Parameters:
  ///   - cancellation: SPEC §4 `cancellation`.
  ///   - minimumLapse: SPEC §5 `minimumLapse`; zero or longer.
  ///   - billingRetryLimit: SPEC §5 `billingRetryLimit`; longer than zero.
  ///   - nonRenewingStacking: SPEC §6 `nonRenewingStacking`.
  ///   - unlockAtStart: SPEC §8 `unlockAtStart`; zero or more.
  ///   - sandboxProfile: SPEC §7 `sandboxProfile`.
  ///   - scalesSandboxWindows: SPEC §7 window scaling in the sandbox.
  /// - Throws: ``PolicyError`` naming the first field whose value no rule can use.
  public init(
    cancellation: Cancellation = .voidEntirely,
    minimumLapse: FixedDuration = .zero,
    billingRetryLimit: FixedDuration = .days(60),
    nonRenewingStacking: NonRenewingStacking = .stack,
    unlockAtStart: Int = 1,
    sandboxProfile: SandboxProfile = .guide,
    scalesSandboxWindows: Bool = true
  ) throws(PolicyError) {
    guard minimumLapse >= .zero else {
      throw PolicyError(
        field: "minimumLapse", reason: "must be zero or longer, got \(minimumLapse)")
    }
    guard billingRetryLimit > .zero else {
      throw PolicyError(
        field: "billingRetryLimit", reason: "must be longer than zero, got \(billingRetryLimit)")
    }
    guard unlockAtStart >= 0 else {
      throw PolicyError(
        field: "unlockAtStart", reason: "must be zero or more, got \(unlockAtStart)")
    }
    self.cancellation = cancellation
    self.minimumLapse = minimumLapse
    self.billingRetryLimit = billingRetryLimit
    self.nonRenewingStacking = nonRenewingStacking
    self.unlockAtStart = unlockAtStart
    self.sandboxProfile = sandboxProfile
    self.scalesSandboxWindows = scalesSandboxWindows
  }
}

/// A policy value no rule can use, with the field that holds it.
///
/// ```swift
/// do { _ = try Policy(unlockAtStart: -1) } catch {
///   error.field        // "unlockAtStart"
///   error.description  // "unlockAtStart: must be zero or more, got -1"
/// }
/// ```
public struct PolicyError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The policy field, by its SPEC name (`billingRetryLimit`).
  public let field: String
  /// Why the value cannot be used, with the value.
  public let reason: String

  /// "field: reason".
  public var description: String { "\(field): \(reason)" }
}
