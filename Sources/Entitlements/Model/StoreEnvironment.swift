/// The App Store environment a document comes from, with Apple's names and raw values
/// (`environment` in every App Store Server API payload; SPEC §7, §10).
///
/// Only the sandbox accelerates time (SPEC §7): a month lasts five minutes there. Xcode's
/// StoreKit testing runs at the rate its configuration file sets, real time by default, and
/// `LocalTesting` is the environment of Apple's own unit tests: both are read with production
/// lengths (DESIGN.md, "Environments").
///
/// The name is not Apple's (`StoreEnvironment`, `AppStoreEnvironment`), so that a backend can import
/// this library beside Apple's App Store Server Library; the raw values are, so converting is
/// `StoreEnvironment(rawValue: theirs.rawValue)`.
///
/// ```swift
/// StoreEnvironment(rawValue: "Sandbox")  // .sandbox
/// StoreEnvironment.sandbox.acceleratesTime  // true
/// StoreEnvironment.xcode.acceleratesTime    // false
/// ```
public enum StoreEnvironment: String, Hashable, Sendable, CaseIterable {
  /// The App Store: real customers, real durations.
  case production = "Production"
  /// The sandbox: accelerated durations (1 month lasts 5 minutes).
  case sandbox = "Sandbox"
  /// StoreKit testing in Xcode: payloads signed by Xcode, not by Apple's root.
  case xcode = "Xcode"
  /// Apple's local testing environment.
  case localTesting = "LocalTesting"

  /// Whether subscription durations and the guide's windows run faster than in production:
  /// only in the sandbox (SPEC §7).
  public var acceleratesTime: Bool { self == .sandbox }
}
