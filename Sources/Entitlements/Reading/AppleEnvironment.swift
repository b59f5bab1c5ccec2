extension Environment {
  /// Reads Apple's spellings of an environment: `Production`, `PROD`, `Sandbox`, the test
  /// environments `Xcode` and `LocalTesting` (read as sandbox), and the receipt types
  /// `ProductionSandbox` / `ProductionVPPSandbox` (sandbox) and `ProductionVPP` (production).
  ///
  /// ```swift
  /// Environment(appleName: "PROD")     // .production
  /// Environment(appleName: "Sandbox")  // .sandbox
  /// ```
  ///
  /// - Parameter appleName: The value of an `environment` field.
  public init?(appleName: String) {
    switch appleName.lowercased() {
    case "production", "prod", "productionvpp": self = .production
    case "sandbox", "xcode", "localtesting", "productionsandbox", "productionvppsandbox":
      self = .sandbox
    default: return nil
    }
  }
}
