import Entitlements

/// A generated customer: a purchase history, a catalog, a release calendar, and the seed that
/// made it.
///
/// ```swift
/// let customer = HistoryGenerator().generate(seed: 7)
/// Evaluator(catalog: customer.catalog).evaluate(customer.history)
/// ```
public struct GeneratedHistory: Hashable, Sendable, CustomStringConvertible {
  /// The seed that generated it (``HistoryGenerator/generate(seed:)`` gives it back).
  public var seed: UInt64
  /// The receipt entries.
  public var entries: [ReceiptEntry]
  /// The renewal info.
  public var renewalInfo: [RenewalInfo]
  /// The product catalog.
  public var catalog: ProductCatalog
  /// Content releases.
  public var releases: [Release]
  /// Production or sandbox.
  public var environment: StoreEnvironment

  /// Creates a history.
  ///
  /// - Parameters:
  ///   - seed: The seed that made it.
  ///   - entries: The receipt entries.
  ///   - renewalInfo: The renewal info.
  ///   - catalog: The catalog.
  ///   - releases: The releases.
  ///   - environment: The environment.
  public init(
    seed: UInt64, entries: [ReceiptEntry], renewalInfo: [RenewalInfo], catalog: ProductCatalog,
    releases: [Release], environment: StoreEnvironment
  ) {
    self.seed = seed
    self.entries = entries
    self.renewalInfo = renewalInfo
    self.catalog = catalog
    self.releases = releases
    self.environment = environment
  }

  /// The input of ``Evaluator/evaluate(_:)``.
  public var history: PurchaseHistory {
    PurchaseHistory(entries: entries, renewalInfo: renewalInfo, environment: environment)
  }

  /// Evaluates the history with its catalog.
  ///
  /// - Parameter policy: The policies; the SPEC's defaults by default.
  /// - Returns: The evaluation.
  public func evaluate(policy: Policy = Policy()) -> Evaluation {
    Evaluator(catalog: catalog, policy: policy).evaluate(history)
  }

  /// A readable listing: one line per entry and renewal info, for failure reports.
  public var description: String {
    var lines = ["seed \(seed), \(environment), \(entries.count) entries:"]
    for entry in entries {
      var flags: [String] = []
      if let cancellation = entry.cancellationDate {
        flags.append("cancelled \(cancellation)")
      }
      if entry.isUpgraded { flags.append("upgraded") }
      if entry.isTrialPeriod { flags.append("trial") }
      if entry.isInIntroOfferPeriod { flags.append("intro") }
      let span =
        "\(entry.purchaseDate.map(\.description) ?? "no purchase date") – "
        + "\(entry.expiresDate.map(\.description) ?? "no expiry")"
      lines.append(
        "  \(entry.transactionID) \(entry.productID) (\(entry.originalTransactionID)) \(span)"
          + (flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]"))
    }
    for info in renewalInfo {
      lines.append(
        "  renewal info \(info.originalTransactionID): autoRenew \(String(describing: info.autoRenewStatus)), "
          + "intent \(String(describing: info.rawExpirationIntent)), retry "
          + "\(String(describing: info.isInBillingRetryPeriod)), grace "
          + "\(info.gracePeriodExpiresDate.map(\.description) ?? "none")")
    }
    if !releases.isEmpty { lines.append("  \(releases.count) releases") }
    return lines.joined(separator: "\n")
  }
}
