import Entitlements

/// Something a customer does, for ``TimelineSimulator``.
///
/// ```swift
/// let table52: [CustomerEvent] = [
///   .paymentFails(at: try Instant(parsing: "2017-04-19")),
///   .paymentFixed(at: try Instant(parsing: "2017-05-05T08:00:00Z")),
/// ]
/// ```
public enum CustomerEvent: Hashable, Sendable {
  /// Buys the subscription (again): a new purchase with a new renewal date.
  case subscribe(at: Instant)
  /// The payment method stops working: the next renewal fails and billing retry begins.
  case paymentFails(at: Instant)
  /// The customer fixes the payment method: a retry in progress succeeds at once.
  case paymentFixed(at: Instant)
  /// Turns auto-renew off: the subscription ends at its expiry.
  case autoRenewOff(at: Instant)
  /// Turns auto-renew back on before the expiry.
  case autoRenewOn(at: Instant)
  /// Apple support refunds a transaction (ids are given in order: see ``TimelineSimulator``).
  /// Refunding the current transaction also ends the subscription.
  case refund(TransactionID, at: Instant)
  /// Moves to a higher plan: takes effect at once; the current entry is cancelled with
  /// `is_upgraded`.
  case upgrade(to: ProductID, at: Instant)
  /// Moves to a lower plan or crossgrades: shows in `auto_renew_product_id` and takes effect
  /// at the next renewal.
  case downgrade(to: ProductID, at: Instant)

  /// When the event happens.
  public var instant: Instant {
    switch self {
    case .subscribe(let at), .paymentFails(let at), .paymentFixed(let at),
      .autoRenewOff(let at), .autoRenewOn(let at), .refund(_, let at), .upgrade(_, let at),
      .downgrade(_, let at):
      at
    }
  }
}
