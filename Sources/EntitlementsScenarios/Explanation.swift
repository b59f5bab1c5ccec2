import Entitlements

/// What `entitlements explain` prints: per entitlement, periods, lapses with causes, renewal,
/// retry and grace windows, the status at an instant, readable releases with why, and
/// diagnostics; as text for people or as JSON for backends in other languages.
///
/// The JSON object (keys sorted; instants in RFC 3339 UTC; `null` for "never" or "none"):
///
/// ```json
/// { "at": "2017-05-10T00:00:00Z",
///   "entitlements": [
///     { "id": "magazine",
///       "periods": [ { "start": "…", "end": "…", "startKind": "firstPurchase",
///                      "transactions": ["1", "2"], "beganWithTrial": false,
///                      "beganWithIntroOffer": false } ],
///       "lapses": [ { "start": "…", "end": "…", "cause": "voluntary",
///                     "reason": "voluntary" } ],
///       "windows": [ { "expiresAt": "…", "billingCheck": {"start": "…", "end": "…"},
///                      "renewalAttempts": {…}, "billingRetry": {…}, "gracePeriod": null } ],
///       "continuousSubscriptionStart": "…",
///       "gracePeriod": null,
///       "billingIssueDetectedAt": null, "unsubscribeDetectedAt": "…",
///       "changes": [ { "at": "…", "state": "active", "entitled": true, "reason": null },
///                    { "at": "…", "state": "expired", "entitled": false,
///                      "reason": "voluntary" } ],
///       "appleAgreement": [ { "at": "…", "appleStatus": 2, "ours": "expired",
///                             "agrees": true } ],
///       "status": { "state": "expired", "entitled": false, "expiresAt": null,
///                   "expiredAt": "…", "retryEndsAt": null, "gracePeriodEndsAt": null,
///                   "reason": "voluntary", "willRenew": null, "productId": null,
///                   "nextProductId": null, "transactionId": null, "commitment": null,
///                   "nextChangeAt": null, "revokedAt": null, "revokedTransactionId": null,
///                   "revocationType": null, "revocationPercentage": null,
///                   "environment": "Production", "offer": null,
///                   "ownershipType": "PURCHASED", "firstPurchaseAt": "…",
///                   "latestPurchaseAt": "…", "latestTransactionId": "…" },
///       "readable": [ { "id": "2017-02", "date": "…", "reason": "unlockedAtStart",
///                       "because": "…" } ] } ],
///   "purchaseEvents": [ { "transactionId": "…", "productId": "…", "purchaseDate": "…",
///                         "productType": "consumable", "quantity": 1, "refundedAt": null,
///                         "refundReason": null } ],
///   "diagnostics": [ { "kind": "…", "transactionId": null, "originalTransactionId": null,
///                      "field": "…", "message": "…" } ] }
/// ```
///
/// `changes` is the entitlement's status as a function of time (``EntitlementEvaluation/changes``):
/// each change's instant and the state, access and reason from it to the next; the
/// entitlement is `notSubscribed` before the first. `status.nextChangeAt` is the instant of
/// the next change after `at` (``EntitlementEvaluation/nextChange(after:)``), `null` when
/// nothing will change without a new document: when to look again. `status.commitment` is
/// `null` outside a commitment, else `{"billingPeriod", "totalBillingPeriods", "endsAt",
/// "willRenew", "renewsInto"}` (``ActiveStatus/Commitment``). A `revoked` status names what
/// was revoked: `revokedTransactionId` (the latest purchase, refunded or revoked),
/// `revokedAt`, and that entry's `revocationType` and `revocationPercentage` (thousandths of a
/// percent) when Apple sent them; `null` in any other state (a refund later reversed names
/// its refund while it held: ``ReversedRefund``). `transactionId` stays the active entry's,
/// `null` otherwise.
///
/// `productId`, `willRenew` and `nextProductId` are given when active, and in grace period
/// and billing retry too: then the lapsed subscription's product, whether it renews once a
/// charge succeeds and into what (``PendingRenewal``). `offer` is the offer the entry giving
/// access was bought with (`freeTrial`, `introductory`, `promotional`, `offerCode`,
/// `winBack`; ``ActiveStatus/Offer``), `null` otherwise. `environment` is the history's, in
/// Apple's spelling (`Production`, `Sandbox`, ``StoreEnvironment``). `firstPurchaseAt` is the entitlement's first purchase;
/// `latestPurchaseAt`, `latestTransactionId` and `ownershipType` (Apple's
/// `in_app_ownership_type`: `PURCHASED`, `FAMILY_SHARED`) are of its latest purchase at or
/// before `at` (``EntitlementEvaluation/latestPurchase(atOrBefore:)``); all three and
/// `firstPurchaseAt` are `null` before any purchase.
///
/// `purchaseEvents` lists the one-time purchases that unlock nothing (consumables, products
/// of no known kind): `productType` (`null` when unknown), `quantity`, and for a refunded one
/// `refundedAt` and `refundReason` (Apple's `cancellation_reason`, `"0"` or `"1"`).
/// `entitlements evaluate` writes the members of `status` beside each entitlement's id, and the
/// same `purchaseEvents`.
public struct Explanation: Sendable {
  /// The evaluation explained.
  public var evaluation: Evaluation
  /// The releases, for readability.
  public var releases: [Release]
  /// The instant of the status and of readability.
  public var at: Instant
  /// Problems found while reading the input documents.
  public var readingDiagnostics: [Diagnostic]
  /// The documents' environment, when they name one: the text and the timeline say
  /// "sandbox", where a month lasts minutes.
  public var environment: StoreEnvironment?
  /// The products the evaluation used, named in the text beside each entitlement.
  public var catalog: ProductCatalog

  /// Creates an explanation.
  ///
  /// - Parameters:
  ///   - evaluation: The evaluation.
  ///   - releases: The releases.
  ///   - at: The instant of the status.
  ///   - readingDiagnostics: Problems found while reading.
  ///   - environment: The documents' environment, when they name one.
  ///   - catalog: The catalog the evaluation used.
  public init(
    evaluation: Evaluation, releases: [Release], at: Instant, readingDiagnostics: [Diagnostic],
    environment: StoreEnvironment? = nil, catalog: ProductCatalog = .empty
  ) {
    self.evaluation = evaluation
    self.releases = releases
    self.at = at
    self.readingDiagnostics = readingDiagnostics
    self.environment = environment
    self.catalog = catalog
  }

  var diagnostics: [Diagnostic] { (readingDiagnostics + evaluation.diagnostics).sorted() }

  static func describe(_ reason: ReadableRelease.Reason) -> (String, String) {
    switch reason {
    case .releasedWhileActive(let period):
      ("releasedWhileActive", "released during the active period \(text(period))")
    case .releasedInGracePeriod(let grace):
      ("releasedInGracePeriod", "released during the grace period \(text(grace))")
    case .unlockedAtStart(let start):
      ("unlockedAtStart", "the latest release when the subscription started on \(start)")
    }
  }

  static func text(_ interval: Interval) -> String {
    let end = interval.end.isDistantFuture ? "never" : interval.end.description
    return "\(interval.start) – \(end)"
  }

  // MARK: Text

  /// The explanation for people: the environment, then per entitlement its products, status,
  /// periods, lapses, the windows around the last expiry (billing retry only where the App
  /// Store retries or retried, "unknown" where nothing says), readable releases; then
  /// purchase events and diagnostics.
  public var text: String {
    var lines: [String] = ["as of \(at)" + (environment.map { " (\($0.rawValue))" } ?? "")]
    if evaluation.entitlements.isEmpty { lines.append("no entitlement") }
    for entitlement in evaluation.entitlements {
      lines.append("")
      lines.append("entitlement \(entitlement.id)")
      lines.append("  products: \(productNames(of: entitlement))")
      let status = entitlement.status(at: at)
      lines.append("  status: \(Self.describe(status))")
      if let next = entitlement.nextChange(after: at) {
        lines.append("  next change: \(next.at), \(Self.step(next))")
      }
      let changes = entitlement.changes
      if !changes.isEmpty {
        lines.append("  changes:")
        for change in changes {
          lines.append("    \(change.at)  \(Self.step(change))")
        }
      }
      lines.append("  periods:")
      for period in entitlement.periods {
        var notes = [period.start.rawValue]
        if period.beganWithTrial { notes.append("free trial") }
        if period.beganWithIntroOffer { notes.append("intro offer") }
        let count = period.transactionIDs.count
        let span =
          period.interval.end.isDistantFuture
          ? "owned since \(period.interval.start)" : Self.text(period.interval)
        lines.append(
          "    \(span)  (\(notes.joined(separator: ", ")); "
            + (count == 1 ? "1 entry)" : "\(count) entries)"))
      }
      if entitlement.periods.isEmpty { lines.append("    none") }
      if !entitlement.lapses.isEmpty {
        lines.append("  lapses:")
        for lapse in entitlement.lapses {
          lines.append("    \(Self.text(lapse.interval))  cause: \(lapse.cause.rawValue)")
        }
      }
      if let windows = entitlement.windowsAfterLastPeriod {
        lines.append("  windows around the last expiry \(windows.expiresAt):")
        lines.append("    billing check     \(Self.text(windows.billingCheck))")
        lines.append("    renewal attempts  \(Self.text(windows.renewalAttempts))")
        if entitlement.billingRetryCanHappen {
          lines.append("    billing retry     \(Self.text(windows.billingRetry))")
        } else if entitlement.afterLastPeriodIsUnknown {
          lines.append("    billing retry     unknown: no renewal info says how the period ends")
        }
        if let grace = entitlement.gracePeriod {
          lines.append("    grace period      \(Self.text(grace))")
        }
      }
      if let start = entitlement.continuousSubscriptionStart {
        lines.append("  continuous subscription since \(start)")
      }
      if let detected = entitlement.unsubscribeDetectedAt {
        lines.append("  auto-renew turned off at \(detected)")
      }
      if let detected = entitlement.billingIssueDetectedAt {
        lines.append("  billing issue detected at \(detected)")
      }
      let agreement = entitlement.appleAgreement
      if !agreement.isEmpty {
        let disagreeing = agreement.filter { !$0.agrees }
        lines.append(
          "  Apple's own status: \(agreement.count - disagreeing.count) of \(agreement.count) "
            + "agree")
        for item in disagreeing { lines.append("    disagrees: \(item)") }
      }
      let readable = entitlement.readableReleases(releases, asOf: at)
      if !releases.isEmpty {
        lines.append("  readable releases:")
        for item in readable {
          lines.append("    \(item.release.id): \(Self.describe(item.reason).1)")
        }
        if readable.isEmpty { lines.append("    none") }
      }
    }
    if !evaluation.purchaseEvents.isEmpty {
      lines.append("")
      lines.append("purchase events:")
      for event in evaluation.purchaseEvents {
        let quantity = event.entry.quantity == 1 ? "" : " × \(event.entry.quantity)"
        lines.append(
          "  \(event.productID)\(quantity) (transaction \(event.entry.transactionID))"
            + (event.entry.purchaseDate.map { " at \($0)" } ?? "")
            + (event.entry.cancellationDate.map { ", refunded at \($0)" } ?? ""))
      }
    }
    lines.append("")
    lines.append("diagnostics: \(diagnostics.isEmpty ? "none" : String(diagnostics.count))")
    for diagnostic in diagnostics { lines.append("  \(diagnostic)") }
    // Each element is one line: a control character in it came from the input.
    return lines.map(ControlCharacters.escaped).joined(separator: "\n")
  }

  /// The catalog's products of an entitlement, with their kind and duration; without a
  /// catalog, the products its entries name.
  func productNames(of entitlement: EntitlementEvaluation) -> String {
    let listed = catalog.products.values.filter { $0.entitlements.contains(entitlement.id) }
      .sorted { $0.id < $1.id }
    if !listed.isEmpty {
      return listed.map { product in
        "\(product.id) (\(Self.describe(product.type))"
          + (product.duration.map { ", \(Self.describe($0))" } ?? "") + ")"
      }.joined(separator: ", ")
    }
    var seen = Set<ProductID>()
    let named = entitlement.coverage.map(\.entry.productID).filter { seen.insert($0).inserted }
    guard !named.isEmpty else { return "none" }
    return named.map(\.rawValue).sorted().joined(separator: ", ")
      + (catalog.isEmpty ? " (no catalog)" : " (not in the catalog)")
  }

  static func describe(_ kind: ProductKind) -> String {
    switch kind {
    case .autoRenewable: "auto-renewable"
    case .nonRenewing: "non-renewing"
    case .nonConsumable: "non-consumable"
    case .consumable: "consumable"
    }
  }

  static func describe(_ period: CalendarPeriod) -> String {
    "\(period.count) \(period.unit.rawValue)" + (period.count == 1 ? "" : "s")
  }

  /// "payment 3 of 12; the commitment ends 2027-01-01 and will not renew".
  static func describe(_ commitment: ActiveStatus.Commitment) -> String {
    var text = "payment \(commitment.billingPeriod) of \(commitment.totalBillingPeriods)"
    if let end = commitment.endsAt {
      text += "; the commitment ends \(end.description.prefix(10))"
      switch commitment.willRenew {
      case true?:
        text += " and will renew" + (commitment.renewsInto.map { " into \($0)" } ?? "")
      case false?: text += " and will not renew"
      case nil: break
      }
    }
    return text
  }

  /// A change in words: its state, and its reason when expired or revoked.
  static func step(_ change: StatusChange) -> String {
    change.state.rawValue + (change.reason.map { " (\($0.rawValue))" } ?? "")
  }

  /// The status in words; a revoked one says how, from `revoked`, its entry, when given.
  static func describe(_ status: EntitlementStatus) -> String {
    switch status {
    case .active(let active) where active.expiresAt.isDistantFuture:
      return "owned since \(active.periodStart) (\(active.productID))"
    case .active(let active):
      var text = "active (\(active.productID), expires \(active.expiresAt)"
      if let willRenew = active.willRenew {
        text += willRenew ? ", will renew" : ", will not renew"
      }
      if let next = active.nextProductID, next != active.productID { text += ", next \(next)" }
      if let commitment = active.commitment { text += "; " + describe(commitment) }
      return text + ")"
    case .gracePeriod(let expired, let graceEnd, let retryEnd, _):
      return "grace period (expired \(expired), grace until \(graceEnd), retry until \(retryEnd))"
    case .billingRetry(let expired, let retryEnd, _):
      return "billing retry (expired \(expired), retry until \(retryEnd))"
    case .expired(let expired, let reason):
      return "expired (\(reason.rawValue)" + (expired.map { ", since \($0)" } ?? "") + ")"
    case .revoked(let transaction, let revokedAt, let reason, let type, let percentage):
      // A revocation says its type and percentage, as the status carries them.
      let what =
        reason == .familySharingRevoked
        ? "family sharing stopped"
        : type == nil
          ? "refunded"
          : TimelineWords.revocation(type: type, percentage: percentage, familyShared: false)
      return "revoked (transaction \(transaction) \(what) at \(revokedAt))"
    case .notSubscribed:
      return "not subscribed"
    }
  }
}
