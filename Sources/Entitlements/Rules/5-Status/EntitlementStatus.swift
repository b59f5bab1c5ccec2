/// What an entitlement is at one instant: the six states of SPEC §5 with their dates and
/// reasons.
///
/// ```swift
/// let status = evaluation["magazine"]?.status(at: try Instant(parsing: "2017-05-10"))
/// status?.state       // .expired
/// status?.isEntitled  // false
/// ```
public enum EntitlementStatus: Hashable, Sendable {
  /// Inside an active period (rule 1).
  case active(ActiveStatus)
  /// After the last period, before `grace_period_expires_date` (rule 4), or inside an earlier
  /// lapse that Apple said then was in grace. Access continues.
  ///
  /// `renewal` is the lapsed subscription's product and what its renewal info says of the
  /// renewal being retried.
  case gracePeriod(
    expiredAt: Instant, gracePeriodEndsAt: Instant, retryEndsAt: Instant,
    renewal: PendingRenewal? = nil)
  /// After the last period, while the App Store retries billing, up to the retry limit
  /// (rule 5), or inside an earlier lapse that Apple said then was a billing retry. No access.
  ///
  /// `renewal` is the lapsed subscription's product and what its renewal info says of the
  /// renewal being retried.
  case billingRetry(expiredAt: Instant, retryEndsAt: Instant, renewal: PendingRenewal? = nil)
  /// Nothing covers the instant (rule 6, or inside an earlier lapse). `expiredAt` is the end
  /// of the latest period before the instant, `nil` when no entry ever covered anything.
  case expired(expiredAt: Instant?, reason: ExpiryReason)
  /// Nothing covers the instant and the latest purchase at or before it was refunded or
  /// revoked; or a refund later reversed held on every purchase giving access, even inside a
  /// period (rule 2, ``ReversedRefund``):
  /// ``ExpiryReason/refund``, or ``ExpiryReason/familySharingRevoked`` when
  /// the family organiser stopped sharing (`revocationType` `FAMILY_REVOKE`).
  ///
  /// `rawRevocationType` and `revocationPercentage` are the revoked purchase's (Apple's
  /// `revocationType`, `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`, and
  /// `revocationPercentage` in thousandths of a percent), when it states them.
  case revoked(
    transactionID: TransactionID, revokedAt: Instant, reason: ExpiryReason,
    rawRevocationType: String? = nil, revocationPercentage: Int? = nil)
  /// No purchase at or before the instant (rule 3).
  case notSubscribed

  /// The state without its details.
  public var state: EntitlementState {
    switch self {
    case .active: .active
    case .gracePeriod: .gracePeriod
    case .billingRetry: .billingRetry
    case .expired: .expired
    case .revoked: .revoked
    case .notSubscribed: .notSubscribed
    }
  }

  /// Whether the customer has access: exactly for ``active(_:)`` and
  /// ``gracePeriod(expiredAt:gracePeriodEndsAt:retryEndsAt:renewal:)`` (SPEC §5).
  public var isEntitled: Bool {
    switch self {
    case .active, .gracePeriod: true
    default: false
    }
  }

  /// The current expiry, when active.
  public var expiresAt: Instant? {
    if case .active(let active) = self { return active.expiresAt }
    return nil
  }

  /// The end of the billing-retry window, in grace period or billing retry.
  public var retryEndsAt: Instant? {
    switch self {
    case .gracePeriod(_, _, let end, _), .billingRetry(_, let end, _): end
    default: nil
    }
  }

  /// The end of the grace period, in grace period.
  public var gracePeriodEndsAt: Instant? {
    if case .gracePeriod(_, let end, _, _) = self { return end }
    return nil
  }

  /// Why the subscription expired, when expired; why it was revoked, when revoked.
  public var reason: ExpiryReason? {
    switch self {
    case .expired(_, let reason), .revoked(_, _, let reason, _, _): reason
    default: nil
    }
  }

  /// Whether the subscription will renew, when known: active, in grace or in billing retry
  /// (then: whether it renews once a charge succeeds).
  ///
  /// ```swift
  /// premium.status(at: now).willRenew  // false: renewal turned off
  /// ```
  public var willRenew: Bool? {
    switch self {
    case .active(let active): active.willRenew
    case .gracePeriod(_, _, _, let renewal), .billingRetry(_, _, let renewal): renewal?.willRenew
    default: nil
    }
  }

  /// The product giving access (active), or the lapsed subscription's (grace period, billing
  /// retry).
  ///
  /// ```swift
  /// premium.status(at: now).productID  // "com.example.monthly", in billing retry too
  /// ```
  public var productID: ProductID? {
    switch self {
    case .active(let active): active.productID
    case .gracePeriod(_, _, _, let renewal), .billingRetry(_, _, let renewal):
      renewal?.productID
    default: nil
    }
  }

  /// The product of the next renewal (`auto_renew_product_id`), when known: active, in grace
  /// or in billing retry.
  ///
  /// ```swift
  /// premium.status(at: now).nextProductID  // "com.example.yearly": a crossgrade pending
  /// ```
  public var nextProductID: ProductID? {
    switch self {
    case .active(let active): active.nextProductID
    case .gracePeriod(_, _, _, let renewal), .billingRetry(_, _, let renewal):
      renewal?.nextProductID
    default: nil
    }
  }

  /// The commitment of the billing period giving access, when active in one (SPEC §5,
  /// "Commitments").
  ///
  /// ```swift
  /// evaluation["premium"]?.status(at: march15).commitment?.billingPeriod  // 3
  /// ```
  public var commitment: ActiveStatus.Commitment? {
    if case .active(let active) = self { return active.commitment }
    return nil
  }
}

/// The six states of SPEC §5, without details.
public enum EntitlementState: String, Hashable, Sendable, CaseIterable {
  /// Inside an active period.
  case active
  /// After expiry, inside the billing grace period: access continues.
  case gracePeriod
  /// After expiry, while the App Store retries billing: no access.
  case billingRetry
  /// Expired.
  case expired
  /// The latest purchase was refunded or revoked.
  case revoked
  /// Never purchased (as of the instant).
  case notSubscribed
}

/// Why a subscription is expired (SPEC §5 rule 6).
public enum ExpiryReason: String, Hashable, Sendable, CaseIterable {
  /// The customer cancelled (`expiration_intent` 1).
  case voluntary
  /// A billing error (`expiration_intent` 2), or a lapse caused by one.
  case billingError
  /// The billing-retry window passed without a successful renewal.
  case billingRetryExhausted
  /// The customer declined a price increase (`expiration_intent` 3).
  case priceIncrease
  /// The product was not available at renewal (`expiration_intent` 4).
  case productUnavailable
  /// A refund left the gap, or revoked the latest purchase.
  case refund
  /// The family organiser stopped sharing (`revocationType` `FAMILY_REVOKE`): a family
  /// member's access ended at the revocation.
  case familySharingRevoked
  /// No evidence.
  case unknown
}

/// The details of an active entitlement (SPEC §5 rule 1).
///
/// ```swift
/// if case .active(let active) = status {
///   active.expiresAt       // the period's end
///   active.nextProductID   // a pending downgrade shows here
/// }
/// ```
public struct ActiveStatus: Hashable, Sendable {
  /// The start of the active period.
  public let periodStart: Instant
  /// The current expiry: the end of the period (``Instant/distantFuture`` for a lifetime
  /// purchase).
  public let expiresAt: Instant
  /// The entry giving access at the instant (the latest-purchased one covering it).
  public let transactionID: TransactionID
  /// Its product.
  public let productID: ProductID
  /// Whether the last period renews at its end: `auto_renew_status` of its subscription
  /// (after a commitment's last payment, its `commitmentAutoRenewStatus`); `false` for a
  /// period ending with a non-renewing or lifetime product; `nil` for an earlier period or
  /// without renewal info. It is the period's answer, the same at every instant of it.
  public let willRenew: Bool?
  /// `auto_renew_product_id` of the last period: the product of the next renewal (after a
  /// commitment's last payment, its `commitmentAutoRenewProductId`); `nil` for an earlier
  /// period or without renewal info.
  public let nextProductID: ProductID?
  /// The offer the entry giving access was bought with.
  public let offer: Offer?
  /// The commitment the entry giving access is a billing period of; `nil` outside one.
  public let commitment: Commitment?

  /// Creates the details of an active status.
  ///
  /// - Parameters:
  ///   - periodStart: The start of the active period.
  ///   - expiresAt: The end of the period.
  ///   - transactionID: The entry giving access.
  ///   - productID: Its product.
  ///   - willRenew: Whether the last period will renew.
  ///   - nextProductID: The product of the next renewal.
  ///   - offer: The offer the entry was bought with.
  ///   - commitment: The commitment the entry is a billing period of.
  public init(
    periodStart: Instant, expiresAt: Instant, transactionID: TransactionID,
    productID: ProductID, willRenew: Bool?, nextProductID: ProductID?, offer: Offer?,
    commitment: Commitment? = nil
  ) {
    self.periodStart = periodStart
    self.expiresAt = expiresAt
    self.transactionID = transactionID
    self.productID = productID
    self.willRenew = willRenew
    self.nextProductID = nextProductID
    self.offer = offer
    self.commitment = commitment
  }

  /// An offer an entry was bought with.
  public enum Offer: String, Hashable, Sendable, CaseIterable {
    /// A free trial (`is_trial_period`; `offerType` 1 with `offerDiscountType` `FREE_TRIAL`).
    case freeTrial
    /// An introductory price (`is_in_intro_offer_period`; `offerType` 1).
    case introductory
    /// A promotional offer (`promotional_offer_id`; `offerType` 2).
    case promotional
    /// An offer code (`offer_code_ref_name`; `offerType` 3).
    case offerCode
    /// A win-back offer (`offerType` 4).
    case winBack
  }
}
