import Entitlements

/// Produces the receipt entries and renewal info the App Store would produce for one customer
/// of one auto-renewable subscription, from a start and a short list of ``CustomerEvent``s.
///
/// The App Store's behaviour modelled (SPEC §6, §7, guide tables 5-1 and 5-2):
/// - the subscription renews at each expiry while auto-renew is on and payment works; renewal
///   dates are computed from the anchor (the purchase or restart), so a subscription bought on
///   Jan 31 renews on Feb 29, Mar 31, Apr 30;
/// - a renewal that fails for billing starts billing retry `[E, E + retry limit)`, and a grace
///   period when one is configured; fixing payment during grace keeps the old renewal date,
///   fixing it later restarts the subscription at that instant with a new renewal date and
///   leaves a ``BillingRecovery``; the window passing ends it for good;
/// - in the sandbox, lengths come from ``SandboxProfile``, windows are scaled by the product's
///   ratio, and the subscription stops renewing after ``SandboxProfile/maximumRenewals``
///   renewals since the last purchase (6 for the guide's profile).
///
/// Transaction ids are `"1"`, `"2"`, … in order of creation; the original transaction id is
/// `"1"`.
///
/// ```swift
/// let simulator = TimelineSimulator(catalog: catalog, environment: .sandbox)
/// let timeline = try simulator.simulate(
///   product: "monthly", start: t, events: [], until: t + .hours(1))
/// timeline.entries.count           // 7: the purchase and 6 renewals, 5 minutes each
/// timeline.renewalInfo.autoRenewStatus  // false: the sandbox stopped renewing
/// ```
public struct TimelineSimulator: Sendable {
  /// The products that may be bought; each must be auto-renewable with a duration.
  public var catalog: ProductCatalog
  /// Production or sandbox.
  public var environment: StoreEnvironment
  /// The policies: `sandboxProfile`, `billingRetryLimit`, `scalesSandboxWindows`.
  public var policy: Policy
  /// The grace period configured in App Store Connect (a production length, scaled in the
  /// sandbox); `nil` when off.
  public var gracePeriod: FixedDuration?

  /// Creates a simulator.
  ///
  /// - Parameters:
  ///   - catalog: The products that may be bought.
  ///   - environment: Production or sandbox.
  ///   - policy: The policies in force.
  ///   - gracePeriod: The billing grace period, if configured.
  public init(
    catalog: ProductCatalog, environment: StoreEnvironment = .production, policy: Policy = Policy(),
    gracePeriod: FixedDuration? = nil
  ) {
    self.catalog = catalog
    self.environment = environment
    self.policy = policy
    self.gracePeriod = gracePeriod
  }

  /// Simulates one customer from a first purchase at `start` until `until`.
  ///
  /// - Parameters:
  ///   - product: The product first bought.
  ///   - start: The first purchase.
  ///   - events: What the customer does, in any order; events at or after `until` are ignored.
  ///   - until: The end of the simulation; the renewal info describes this instant.
  /// - Returns: The entries, renewal info and recovery evidence.
  /// - Throws: ``SimulationError`` when a product is unknown, not auto-renewable, has no
  ///   duration (or no sandbox length), or an event cannot happen (refunding an unknown
  ///   transaction, subscribing while subscribed).
  public func simulate(
    product: ProductID, start: Instant, events: [CustomerEvent], until: Instant
  ) throws(SimulationError) -> SimulatedTimeline {
    var run = try Run(simulator: self, product: product)
    try run.purchase(at: start)
    let ordered = events.enumerated()
      .sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }
      .map(\.element)
    var next = 0
    while true {
      let eventTime = next < ordered.count ? ordered[next].instant : .distantFuture
      let horizon = min(eventTime, until)
      if run.isActive, run.expiry <= horizon, run.expiry < until {
        try run.renewOrLapse()
      } else if let retryEnd = run.retryEnd, retryEnd <= horizon, retryEnd < until {
        run.exhaustRetry()
      } else if next < ordered.count, eventTime < until {
        try run.apply(ordered[next])
        next += 1
      } else {
        break
      }
    }
    return run.timeline(at: until)
  }

  /// The state of one simulation.
  private struct Run {
    let simulator: TimelineSimulator
    var entries: [ReceiptEntry] = []
    var recoveries: [BillingRecovery] = []
    var product: CatalogProduct
    var nextProduct: CatalogProduct
    var anchor = Instant.distantPast
    var periodsSinceAnchor = 0
    var isActive = false
    var expiry = Instant.distantPast
    var autoRenew = true
    var paymentWorks = true
    var renewalsSincePurchase = 0
    var retryEnd: Instant?
    var graceEnd: Instant?
    var expirationIntent: Int?

    init(simulator: TimelineSimulator, product id: ProductID) throws(SimulationError) {
      self.simulator = simulator
      let product = try simulator.product(id)
      self.product = product
      self.nextProduct = product
    }

    var originalTransactionID: OriginalTransactionID { "1" }

    /// The end of the n-th period from the anchor.
    func end(of product: CatalogProduct, anchor: Instant, periods: Int) throws(SimulationError)
      -> Instant
    {
      guard let duration = product.duration else {
        throw SimulationError("product \(product.id) has no duration")
      }
      guard simulator.environment.acceleratesTime else {
        return duration.advance(anchor, times: periods)
      }
      guard let length = simulator.policy.sandboxProfile.length(of: duration) else {
        throw SimulationError("no sandbox length for \(duration) (product \(product.id))")
      }
      return anchor + length * Int64(periods)
    }

    /// The index of the entry with id `transaction`, if any. The entry at index i has id
    /// "i + 1" (``addEntry(_:from:to:)``; an upgrade puts its entry back where it was), so the
    /// id is read as a number and checked, where a search of every entry for each refund made
    /// a timeline of many refunds quadratic (20 000 daily renewals, each refunded: 10.8 s).
    func index(of transaction: TransactionID) -> Int? {
      guard let number = Int(transaction.rawValue), number >= 1, number <= entries.count,
        entries[number - 1].transactionID == transaction
      else { return nil }
      return number - 1
    }

    mutating func addEntry(
      _ product: CatalogProduct, from start: Instant, to end: Instant
    ) {
      let number = entries.count + 1
      entries.append(
        ReceiptEntry(
          productID: product.id, transactionID: TransactionID("\(number)"),
          originalTransactionID: originalTransactionID,
          webOrderLineItemID: WebOrderLineItemID("\(number)"), purchaseDate: start,
          originalPurchaseDate: entries.first?.purchaseDate ?? start, expiresDate: end))
      isActive = true
      expiry = end
    }

    mutating func purchase(at instant: Instant) throws(SimulationError) {
      product = nextProduct
      anchor = instant
      periodsSinceAnchor = 1
      renewalsSincePurchase = 0
      retryEnd = nil
      graceEnd = nil
      expirationIntent = nil
      paymentWorks = true
      autoRenew = true
      addEntry(product, from: instant, to: try end(of: product, anchor: instant, periods: 1))
    }

    mutating func renewOrLapse() throws(SimulationError) {
      let expired = expiry
      isActive = false
      guard autoRenew else {
        expirationIntent = 1
        return
      }
      if simulator.environment.acceleratesTime,
        renewalsSincePurchase >= simulator.policy.sandboxProfile.maximumRenewals
      {
        autoRenew = false
        expirationIntent = 1
        return
      }
      guard paymentWorks else {
        let lengths = simulator.windowLengths(for: product)
        retryEnd = expired + lengths.retry
        graceEnd = lengths.grace.map { expired + $0 }
        expirationIntent = 2
        return
      }
      if nextProduct != product {
        product = nextProduct
        anchor = expired
        periodsSinceAnchor = 0
      }
      periodsSinceAnchor += 1
      renewalsSincePurchase += 1
      addEntry(
        product, from: expired,
        to: try end(of: product, anchor: anchor, periods: periodsSinceAnchor))
    }

    mutating func exhaustRetry() {
      retryEnd = nil
      graceEnd = nil
      expirationIntent = 2
    }

    mutating func apply(_ event: CustomerEvent) throws(SimulationError) {
      switch event {
      case .subscribe(let at):
        guard !isActive else {
          throw SimulationError("subscribe at \(at): the customer is already subscribed")
        }
        try purchase(at: at)
      case .paymentFails:
        paymentWorks = false
      case .paymentFixed(let at):
        paymentWorks = true
        try recover(at: at)
      case .autoRenewOff:
        autoRenew = false
      case .autoRenewOn:
        if isActive { autoRenew = true }
      case .refund(let transaction, let at):
        guard let index = index(of: transaction) else {
          throw SimulationError("refund at \(at): no transaction \(transaction) yet")
        }
        entries[index].cancellationDate = at
        entries[index].rawCancellationReason = "0"
        if index == entries.count - 1, isActive {
          isActive = false
          autoRenew = false
        }
      case .upgrade(let id, let at):
        guard isActive, var current = entries.popLast() else {
          throw SimulationError("upgrade at \(at): no active subscription to upgrade")
        }
        current.cancellationDate = at
        current.isUpgraded = true
        entries.append(current)
        nextProduct = try simulator.product(id)
        try purchase(at: at)
      case .downgrade(let id, _):
        nextProduct = try simulator.product(id)
      }
    }

    mutating func recover(at instant: Instant) throws(SimulationError) {
      guard let retryEnd, instant < retryEnd, let lastExpiry = entries.last?.expiresDate else {
        return
      }
      if let graceEnd, instant < graceEnd {
        // Paid service was not interrupted: the old renewal date stands.
        periodsSinceAnchor += 1
        renewalsSincePurchase += 1
        addEntry(
          product, from: lastExpiry,
          to: try end(of: product, anchor: anchor, periods: periodsSinceAnchor))
      } else {
        // Restart with a new renewal date (guide table 5-2).
        product = nextProduct
        anchor = instant
        periodsSinceAnchor = 1
        renewalsSincePurchase += 1
        recoveries.append(
          BillingRecovery(originalTransactionID: originalTransactionID, renewedAt: instant))
        addEntry(product, from: instant, to: try end(of: product, anchor: instant, periods: 1))
      }
      self.retryEnd = nil
      graceEnd = nil
      expirationIntent = nil
    }

    func timeline(at instant: Instant) -> SimulatedTimeline {
      let inRetry = retryEnd.map { instant < $0 } ?? false
      let info = RenewalInfo(
        originalTransactionID: originalTransactionID, productID: product.id,
        autoRenewProductID: nextProduct.id, autoRenewStatus: autoRenew,
        rawExpirationIntent: isActive ? nil : expirationIntent,
        isInBillingRetryPeriod: inRetry,
        gracePeriodExpiresDate: inRetry ? graceEnd : nil)
      return SimulatedTimeline(
        entries: entries, renewalInfo: info, billingRecoveries: recoveries,
        environment: simulator.environment)
    }
  }

  fileprivate func product(_ id: ProductID) throws(SimulationError) -> CatalogProduct {
    guard let product = catalog[id] else {
      throw SimulationError("product \(id) is not in the catalog")
    }
    guard product.type == .autoRenewable, product.duration != nil else {
      throw SimulationError("product \(id) is not an auto-renewable subscription with a duration")
    }
    return product
  }

  /// The retry and grace lengths after an expiry of `product`, scaled in the sandbox.
  fileprivate func windowLengths(for product: CatalogProduct) -> (
    retry: FixedDuration, grace: FixedDuration?
  ) {
    let production = WindowLengths(billingRetryLimit: policy.billingRetryLimit)
    guard environment.acceleratesTime, policy.scalesSandboxWindows else {
      return (production.billingRetry, gracePeriod)
    }
    let scaled = production.scaled(by: policy.sandboxProfile, for: product.duration)
    return (
      scaled.billingRetry,
      gracePeriod.map { policy.sandboxProfile.scaled($0, for: product.duration) }
    )
  }
}
