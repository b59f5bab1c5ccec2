extension StoreEnvironment {
  /// Reads Apple's spellings of an environment: the App Store Server API's `Production`,
  /// `Sandbox`, `Xcode`, `LocalTesting`; verifyReceipt's `PROD`; the receipt types
  /// `ProductionSandbox` / `ProductionVPPSandbox` (sandbox) and `ProductionVPP` (production).
  /// Case is ignored.
  ///
  /// ```swift
  /// StoreEnvironment(appleName: "PROD")     // .production
  /// StoreEnvironment(appleName: "Sandbox")  // .sandbox
  /// ```
  ///
  /// - Parameter appleName: The value of an `environment` or `receipt_type` field.
  public init?(appleName: String) {
    switch appleName.lowercased() {
    case "production", "prod", "productionvpp": self = .production
    case "sandbox", "productionsandbox", "productionvppsandbox": self = .sandbox
    case "xcode": self = .xcode
    case "localtesting": self = .localTesting
    default: return nil
    }
  }
}
