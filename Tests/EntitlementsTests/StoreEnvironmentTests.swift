import Entitlements
import Testing

@Suite("StoreEnvironment")
struct StoreEnvironmentTests {
  /// Apple's spellings of an environment, in any case, and the receipt types; anything else
  /// is no environment.
  @Test(
    arguments: [
      ("Production", StoreEnvironment.production), ("Sandbox", .sandbox), ("PROD", .production),
      ("production", .production), ("SANDBOX", .sandbox), ("ProductionSandbox", .sandbox),
      ("ProductionVPP", .production), ("ProductionVPPSandbox", .sandbox), ("Xcode", .xcode),
      ("xcode", .xcode), ("LocalTesting", .localTesting), ("Sandbox ", nil), ("Prod", .production),
      ("Staging", nil), ("", nil),
    ] as [(String, StoreEnvironment?)])
  func environmentSpellings(_ name: String, _ environment: StoreEnvironment?) {
    #expect(StoreEnvironment(appleName: name) == environment, "\(name)")
  }
}
