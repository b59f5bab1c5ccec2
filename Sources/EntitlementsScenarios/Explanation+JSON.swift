import Entitlements

extension Explanation {
  /// The documented JSON object, as text (`indent` spaces per level; 0 for one line), written
  /// as it goes with no tree.
  ///
  /// - Parameter indent: Spaces per level of nesting; 0 writes one line.
  /// - Returns: The object of ``Explanation``'s documentation, keys sorted.
  public func jsonText(indent: Int = 0) -> String {
    String(decoding: jsonBytes(indent: indent), as: UTF8.self)
  }

  /// ``jsonText(indent:)`` as UTF-8 bytes.
  ///
  /// - Parameter indent: Spaces per level of nesting; 0 writes one line.
  /// - Returns: The JSON object's bytes.
  public func jsonBytes(indent: Int = 0) -> [UInt8] {
    var writer = JSONWriter(indent: indent)
    write(to: &writer)
    return writer.bytes
  }

  /// Writes the documented object, keys in sorted order.
  package func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("at")
    writer.instant(at)
    writer.key("diagnostics")
    writer.beginArray()
    for diagnostic in diagnostics {
      writer.beginObject()
      writer.key("field")
      writer.string(diagnostic.field)
      writer.key("kind")
      writer.string(diagnostic.kind.rawValue)
      writer.key("message")
      writer.string(diagnostic.message)
      writer.key("originalTransactionId")
      writer.string(diagnostic.originalTransactionID?.rawValue)
      writer.key("transactionId")
      writer.string(diagnostic.transactionID?.rawValue)
      writer.endObject()
    }
    writer.endArray()
    writer.key("entitlements")
    writer.beginArray()
    for entitlement in evaluation.entitlements { write(entitlement, to: &writer) }
    writer.endArray()
    writer.key("purchaseEvents")
    Self.write(evaluation.purchaseEvents, to: &writer)
    writer.endObject()
  }

  /// The documented `purchaseEvents` array: each one-time purchase that unlocks nothing
  /// (a consumable, a product of no known kind), with its quantity and, refunded, its refund.
  package static func write(_ events: [PurchaseEvent], to writer: inout JSONWriter) {
    writer.beginArray()
    for event in events {
      writer.beginObject()
      writer.key("productId")
      writer.string(event.productID.rawValue)
      writer.key("productType")
      writer.string(event.productType?.rawValue)
      writer.key("purchaseDate")
      writer.instant(event.entry.purchaseDate)
      writer.key("quantity")
      writer.integer(event.entry.quantity)
      let refunded = event.entry.isRefunded
      writer.key("refundReason")
      writer.string(refunded ? event.entry.rawCancellationReason : nil)
      writer.key("refundedAt")
      writer.instant(refunded ? event.entry.cancellationDate : nil)
      writer.key("transactionId")
      writer.string(event.entry.transactionID.rawValue)
      writer.endObject()
    }
    writer.endArray()
  }

  private func write(_ entitlement: EntitlementEvaluation, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("appleAgreement")
    writer.beginArray()
    for agreement in entitlement.appleAgreement {
      writer.beginObject()
      writer.key("agrees")
      writer.bool(agreement.agrees)
      writer.key("appleStatus")
      writer.integer(agreement.report.rawStatus)
      writer.key("at")
      writer.instant(agreement.report.at)
      writer.key("ours")
      writer.string(agreement.ours.state.rawValue)
      writer.endObject()
    }
    writer.endArray()
    writer.key("billingIssueDetectedAt")
    writer.instant(entitlement.billingIssueDetectedAt)
    writer.key("changes")
    writer.beginArray()
    for change in entitlement.changes {
      writer.beginObject()
      writer.key("at")
      writer.instant(change.at)
      writer.key("entitled")
      writer.bool(change.isEntitled)
      writer.key("reason")
      writer.string(change.reason?.rawValue)
      writer.key("state")
      writer.string(change.state.rawValue)
      writer.endObject()
    }
    writer.endArray()
    writer.key("continuousSubscriptionStart")
    writer.instant(entitlement.continuousSubscriptionStart)
    writer.key("gracePeriod")
    if let grace = entitlement.gracePeriod { writer.interval(grace) } else { writer.null() }
    writer.key("id")
    writer.string(entitlement.id.rawValue)
    writer.key("lapses")
    writer.beginArray()
    for lapse in entitlement.lapses {
      writer.beginObject()
      writer.key("cause")
      writer.string(lapse.cause.rawValue)
      writer.key("end")
      writer.instant(lapse.interval.end)
      writer.key("reason")
      writer.string(lapse.reason.rawValue)
      writer.key("start")
      writer.instant(lapse.interval.start)
      writer.endObject()
    }
    writer.endArray()
    writer.key("periods")
    writer.beginArray()
    for period in entitlement.periods {
      writer.beginObject()
      writer.key("beganWithIntroOffer")
      writer.bool(period.beganWithIntroOffer)
      writer.key("beganWithTrial")
      writer.bool(period.beganWithTrial)
      writer.key("end")
      writer.instant(period.interval.end)
      writer.key("start")
      writer.instant(period.interval.start)
      writer.key("startKind")
      writer.string(period.start.rawValue)
      writer.key("transactions")
      writer.beginArray()
      for id in period.transactionIDs { writer.string(id.rawValue) }
      writer.endArray()
      writer.endObject()
    }
    writer.endArray()
    writer.key("readable")
    writer.beginArray()
    for readable in entitlement.readableReleases(releases, asOf: at) {
      let (reason, because) = Self.describe(readable.reason)
      writer.beginObject()
      writer.key("because")
      writer.string(because)
      writer.key("date")
      writer.instant(readable.release.date)
      writer.key("id")
      writer.string(readable.release.id.rawValue)
      writer.key("reason")
      writer.string(reason)
      writer.endObject()
    }
    writer.endArray()
    writer.key("status")
    Self.writeStatus(of: entitlement, at: at, to: &writer)
    writer.key("unsubscribeDetectedAt")
    writer.instant(entitlement.unsubscribeDetectedAt)
    writer.key("windows")
    writer.beginArray()
    for windows in entitlement.windows {
      writer.beginObject()
      writer.key("billingCheck")
      writer.interval(windows.billingCheck)
      writer.key("billingRetry")
      writer.interval(windows.billingRetry)
      writer.key("expiresAt")
      writer.instant(windows.expiresAt)
      writer.key("gracePeriod")
      if let grace = windows.gracePeriod { writer.interval(grace) } else { writer.null() }
      writer.key("renewalAttempts")
      writer.interval(windows.renewalAttempts)
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
  }

  /// The documented `status` object of an entitlement at an instant.
  package static func writeStatus(
    of entitlement: EntitlementEvaluation, at instant: Instant, to writer: inout JSONWriter
  ) {
    writer.beginObject()
    writeMembers(of: entitlement, at: instant, to: &writer)
    writer.endObject()
  }

  /// The members of the documented `status` object of `entitlement` at `instant`, in an
  /// object the caller opened: the `evaluate` command writes them beside the entitlement's
  /// id. `nextChangeAt` is the instant of the entitlement's next status change (`null` when
  /// none); `firstPurchaseAt`, `latestPurchaseAt` and `ownershipType` read the entitlement's
  /// purchases at or before the instant.
  package static func writeMembers(
    of entitlement: EntitlementEvaluation, at instant: Instant, to writer: inout JSONWriter
  ) {
    let status = entitlement.status(at: instant)
    let latest = entitlement.latestPurchase(atOrBefore: instant)
    var revoked: (transaction: TransactionID, at: Instant, type: String?, percentage: Int?)?
    if case .revoked(let transaction, let at, _, let type, let percentage) = status {
      revoked = (transaction, at, type, percentage)
    }
    var active: ActiveStatus?
    if case .active(let details) = status { active = details }
    var expiredAt: Instant?
    switch status {
    case .expired(let end, _): expiredAt = end
    case .gracePeriod(let end, _, _, _), .billingRetry(let end, _, _): expiredAt = end
    default: break
    }
    writer.key("commitment")
    if let commitment = active?.commitment {
      write(commitment, to: &writer)
    } else {
      writer.null()
    }
    writer.key("entitled")
    writer.bool(status.isEntitled)
    writer.key("environment")
    writer.string(entitlement.environment.rawValue)
    writer.key("expiredAt")
    writer.instant(expiredAt)
    writer.key("expiresAt")
    writer.instant(status.expiresAt)
    writer.key("firstPurchaseAt")
    writer.instant(latest == nil ? nil : entitlement.firstPurchaseDate)
    writer.key("gracePeriodEndsAt")
    writer.instant(status.gracePeriodEndsAt)
    writer.key("latestPurchaseAt")
    writer.instant(latest?.purchaseDate)
    writer.key("latestTransactionId")
    writer.string(latest?.transactionID.rawValue)
    writer.key("nextChangeAt")
    writer.instant(entitlement.nextChange(after: instant)?.at)
    writer.key("nextProductId")
    writer.string(status.nextProductID?.rawValue)
    writer.key("offer")
    writer.string(active?.offer?.rawValue)
    writer.key("ownershipType")
    writer.string(latest?.rawInAppOwnershipType)
    writer.key("productId")
    writer.string(status.productID?.rawValue)
    writer.key("reason")
    writer.string(status.reason?.rawValue)
    writer.key("retryEndsAt")
    writer.instant(status.retryEndsAt)
    // A revocation: its instant, transaction, type and percentage.
    writer.key("revocationPercentage")
    if let percentage = revoked?.percentage {
      writer.integer(percentage)
    } else {
      writer.null()
    }
    writer.key("revocationType")
    writer.string(revoked?.type)
    writer.key("revokedAt")
    writer.instant(revoked?.at)
    writer.key("revokedTransactionId")
    writer.string(revoked?.transaction.rawValue)
    writer.key("state")
    writer.string(status.state.rawValue)
    writer.key("transactionId")
    writer.string(active?.transactionID.rawValue)
    writer.key("willRenew")
    if let willRenew = status.willRenew { writer.bool(willRenew) } else { writer.null() }
  }

  /// The documented `commitment` object of a status.
  private static func write(_ commitment: ActiveStatus.Commitment, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("billingPeriod")
    writer.integer(commitment.billingPeriod)
    writer.key("endsAt")
    writer.instant(commitment.endsAt)
    writer.key("renewsInto")
    writer.string(commitment.renewsInto?.rawValue)
    writer.key("totalBillingPeriods")
    writer.integer(commitment.totalBillingPeriods)
    writer.key("willRenew")
    if let willRenew = commitment.willRenew { writer.bool(willRenew) } else { writer.null() }
    writer.endObject()
  }
}
