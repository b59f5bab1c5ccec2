// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
  name: "Entitlements",
  // The floor of peer server libraries, so that backends developed on macOS 13 and apps that
  // support iOS 16 can depend on the package: no API of a later runtime is used (no
  // InlineArray, no Synchronization). Linux has no such floor.
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
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
      name: "EntitlementsCLITests",
      dependencies: [
        "EntitlementsCLI", "EntitlementsScenarios", "EntitlementsTesting",
        "EntitlementsVerification",
      ],
      exclude: ["Generated"],
      swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
