// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
  name: "Entitlements",
  // Apple's platforms of the 26 releases: the byte-level reader keeps small fixed tables in
  // the standard library's InlineArray (Swift 6.2), which their runtimes added. Linux has no
  // such floor.
  platforms: [
    .macOS("26.0"), .iOS("26.0"), .tvOS("26.0"), .watchOS("26.0"), .visionOS("26.0"),
  ],
  products: [
    .library(name: "Entitlements", targets: ["Entitlements"]),
    .library(name: "EntitlementsScenarios", targets: ["EntitlementsScenarios"]),
    .library(name: "EntitlementsTesting", targets: ["EntitlementsTesting"]),
    .library(name: "EntitlementsVerification", targets: ["EntitlementsVerification"]),
    .executable(name: "entitlements", targets: ["entitlements"]),
  ],
  targets: [
    .target(name: "Entitlements", swiftSettings: strict),
    .target(
      name: "EntitlementsScenarios", dependencies: ["Entitlements"], swiftSettings: strict),
    .target(
      name: "EntitlementsTesting", dependencies: ["Entitlements"], swiftSettings: strict),
    // Verification of Apple's signed data (SPEC §11), pure Swift: the rules engine stays free
    // of cryptography. Entitlements only for the protocol it conforms to and StoreEnvironment.
    .target(
      name: "EntitlementsVerification", dependencies: ["Entitlements"],
      swiftSettings: strict),
    .target(
      name: "EntitlementsCLI",
      dependencies: ["Entitlements", "EntitlementsScenarios", "EntitlementsVerification"],
      swiftSettings: strict),
    .executableTarget(
      name: "entitlements", dependencies: ["EntitlementsCLI"], swiftSettings: strict),
    .executableTarget(
      name: "entitlements-bench",
      dependencies: ["Entitlements", "EntitlementsTesting", "EntitlementsCLI", "EntitlementsVerification"],
      swiftSettings: strict),
    .executableTarget(
      name: "entitlements-fuzz", dependencies: ["Entitlements"], swiftSettings: strict),
    .executableTarget(
      name: "entitlements-fuzz-verify", dependencies: ["EntitlementsVerification"],
      swiftSettings: strict),
    .testTarget(
      name: "EntitlementsTests",
      dependencies: ["Entitlements", "EntitlementsTesting"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "EntitlementsScenariosTests",
      dependencies: ["EntitlementsScenarios", "EntitlementsTesting"], swiftSettings: strict),
    .testTarget(
      name: "EntitlementsPropertyTests", dependencies: ["Entitlements", "EntitlementsTesting"],
      swiftSettings: strict),
    .testTarget(
      name: "EntitlementsVerificationTests",
      dependencies: ["EntitlementsVerification", "Entitlements"],
      exclude: ["Generated"],
      swiftSettings: strict),
    .testTarget(
      name: "EntitlementsCLITests", dependencies: ["EntitlementsCLI", "EntitlementsScenarios"],
      swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
