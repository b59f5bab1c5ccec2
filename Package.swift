// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
  name: "Entitlements",
  products: [
    .library(name: "Entitlements", targets: ["Entitlements"])
  ],
  targets: [
    .target(name: "Entitlements", swiftSettings: strict),
    .executableTarget(
      name: "entitlements-fuzz", dependencies: ["Entitlements"], swiftSettings: strict),
    .testTarget(
      name: "EntitlementsTests",
      dependencies: ["Entitlements"],
      swiftSettings: strict
    ),
  ],
  swiftLanguageModes: [.v6]
)
