/// `expiration_intent`: why a subscription expired, as Apple reports it (SPEC §3).
///
/// ```swift
/// ExpirationIntent(rawValue: 2)  // .billingError
/// ExpirationIntent(rawValue: 9)  // nil: keep the raw value, read it as unknown
/// ```
public enum ExpirationIntent: Int, Hashable, Sendable, CaseIterable {
  /// 1: the customer cancelled (turned auto-renew off).
  case customerCancelled = 1
  /// 2: a billing error, such as an expired card.
  case billingError = 2
  /// 3: the customer did not agree to a price increase.
  case declinedPriceIncrease = 3
  /// 4: the product was not available at the time of renewal.
  case productUnavailable = 4
  /// 5: unknown.
  case unknown = 5
}
