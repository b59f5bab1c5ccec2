/// A gap between two active periods, with its cause from evidence only (SPEC §5).
///
/// The receipt never records a lapse: it is found by comparing one period's end with the next
/// period's start (the guide). Its cause is never guessed: without evidence it is
/// ``LapseCause/unknown``.
///
/// ```swift
/// // Guide table 5-2: renewal failed Apr 20, recovered May 5 (with a RENEWAL notification).
/// evaluation["service"]?.lapses.first?.interval  // [2017-04-20…, 2017-05-05…)
/// evaluation["service"]?.lapses.first?.cause     // .billingError
/// ```
public struct Lapse: Hashable, Sendable {
  /// The instants without access, half-open: from the previous period's end to the next start.
  public let interval: Interval
  /// Why, from evidence.
  public let cause: LapseCause
  /// The reason the status gives inside the lapse (`expired`): the cause, told as finely as
  /// the evidence allows (an `EXPIRED` / `BILLING_RETRY` notification makes a billing error
  /// ``ExpiryReason/billingRetryExhausted``).
  public let reason: ExpiryReason

  /// Creates a lapse.
  ///
  /// - Parameters:
  ///   - interval: The instants without access.
  ///   - cause: Why, from evidence.
  ///   - reason: The reason inside the lapse; the cause's own by default.
  public init(interval: Interval, cause: LapseCause, reason: ExpiryReason? = nil) {
    self.interval = interval
    self.cause = cause
    self.reason = reason ?? cause.reason
  }
}

/// Why a lapse happened, from evidence only (SPEC §5).
///
/// | evidence | cause |
/// |---|---|
/// | a refunded entry would have covered part of the gap | ``refund`` |
/// | a ``BillingRecovery`` ending the gap, or renewal info in billing retry / intent 2 | ``billingError`` |
/// | renewal info with intent 3, price consent withheld, or `PRICE_INCREASE` / `PENDING` | ``priceIncrease`` |
/// | renewal info with auto-renew off or intent 1 | ``voluntary`` |
/// | renewal info with intent 4, or `EXPIRED` / `PRODUCT_NOT_FOR_SALE` | ``productUnavailable`` |
/// | none | ``unknown`` |
public enum LapseCause: String, Hashable, Sendable, CaseIterable {
  /// A refunded or revoked entry left the gap.
  case refund
  /// A family member's access was revoked (`FAMILY_REVOKE`), and the gap follows.
  case familySharingRevoked
  /// A renewal failed for a billing reason.
  case billingError
  /// The customer turned auto-renew off.
  case voluntary
  /// The customer did not consent to a price increase.
  case priceIncrease
  /// The product was not available at renewal.
  case productUnavailable
  /// No evidence.
  case unknown
}

extension LapseCause {
  /// The reason an `expired` status gives for this cause.
  public var reason: ExpiryReason {
    switch self {
    case .refund: .refund
    case .familySharingRevoked: .familySharingRevoked
    case .billingError: .billingError
    case .voluntary: .voluntary
    case .priceIncrease: .priceIncrease
    case .productUnavailable: .productUnavailable
    case .unknown: .unknown
    }
  }
}
