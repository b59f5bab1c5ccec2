import Entitlements

/// What the App Store would have produced for a simulated customer: receipt entries, the
/// renewal info as of the end of the simulation, and evidence of billing recoveries (the
/// `RENEWAL` notifications a backend would have received).
///
/// ```swift
/// let timeline = try simulator.simulate(product: "monthly", start: t, events: [], until: end)
/// Evaluator(catalog: catalog).evaluate(timeline.history)
/// ```
public struct SimulatedTimeline: Hashable, Sendable {
  /// The receipt entries, in purchase order.
  public var entries: [ReceiptEntry]
  /// The renewal info at the end of the simulation.
  public var renewalInfo: RenewalInfo
  /// One per billing-retry recovery after the grace period.
  public var billingRecoveries: [BillingRecovery]
  /// The environment simulated.
  public var environment: StoreEnvironment

  /// Creates a timeline.
  ///
  /// - Parameters:
  ///   - entries: The receipt entries.
  ///   - renewalInfo: The renewal info at the end.
  ///   - billingRecoveries: Evidence of billing recoveries.
  ///   - environment: The environment simulated.
  public init(
    entries: [ReceiptEntry], renewalInfo: RenewalInfo, billingRecoveries: [BillingRecovery],
    environment: StoreEnvironment
  ) {
    self.entries = entries
    self.renewalInfo = renewalInfo
    self.billingRecoveries = billingRecoveries
    self.environment = environment
  }

  /// The same, as the input of ``Evaluator/evaluate(_:)``.
  public var history: PurchaseHistory {
    PurchaseHistory(
      entries: entries, renewalInfo: [renewalInfo], billingRecoveries: billingRecoveries,
      environment: environment)
  }
}

/// Why a simulation cannot run: the input names something the simulator cannot model.
public struct SimulationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, in one sentence.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: What is wrong.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
