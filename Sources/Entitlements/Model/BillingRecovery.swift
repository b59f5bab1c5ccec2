/// Evidence that a subscription expired and was then renewed by the App Store's billing retry:
/// a `RENEWAL` server notification ("an expired subscription recovered through billing
/// retry"), or a backend's own record of the same fact.
///
/// The receipt never says why a lapse happened (SPEC §5); this is the evidence that makes a
/// lapse's cause ``LapseCause/billingError``. It counts only for a lapse that ends at
/// ``renewedAt`` and is shorter than the billing-retry window: a longer lapse cannot have been a
/// recovery (SPEC §6).
///
/// ```swift
/// BillingRecovery(originalTransactionID: "1", renewedAt: try Instant(parsing: "2017-05-05"))
/// ```
public struct BillingRecovery: Hashable, Sendable {
  /// The subscription that recovered.
  public var originalTransactionID: OriginalTransactionID
  /// When the successful retry was charged: the purchase date of the recovering entry.
  public var renewedAt: Instant

  /// Creates recovery evidence.
  ///
  /// - Parameters:
  ///   - originalTransactionID: The subscription that recovered.
  ///   - renewedAt: When the successful retry was charged.
  public init(originalTransactionID: OriginalTransactionID, renewedAt: Instant) {
    self.originalTransactionID = originalTransactionID
    self.renewedAt = renewedAt
  }
}
