/// Where a receipt comes from: Apple's production store or its test environment (SPEC §7).
///
/// ```swift
/// Environment(rawValue: "sandbox")  // .sandbox
/// ```
public enum Environment: String, Hashable, Sendable, CaseIterable {
  /// The App Store: real customers, real durations.
  case production
  /// The sandbox: accelerated durations (1 month lasts 5 minutes).
  case sandbox
}
