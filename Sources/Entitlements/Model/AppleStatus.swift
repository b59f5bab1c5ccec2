/// Apple's own status of a subscription, as a v2 notification (`data.status`) or the App
/// Store Server API (`lastTransactions[].status`) states it, with Apple's raw values
/// (SPEC §10). Named apart from the App Store Server Library's `Status` so both can be
/// imported.
///
/// ```swift
/// AppleStatus(rawValue: 4)  // .billingGracePeriod
/// ```
public enum AppleStatus: Int, Hashable, Sendable, CaseIterable {
  /// 1: active.
  case active = 1
  /// 2: expired.
  case expired = 2
  /// 3: in billing retry.
  case billingRetry = 3
  /// 4: in the billing grace period.
  case billingGracePeriod = 4
  /// 5: revoked.
  case revoked = 5
}

/// Apple's status of a subscription at an instant, as a document stated it: the reference the
/// evaluation is compared with (SPEC §10, "Agreement with Apple").
///
/// ```swift
/// AppleStatusReport(
///   originalTransactionID: "2000001024993299", at: signedDate, status: .expired)
/// ```
public struct AppleStatusReport: Hashable, Sendable {
  /// The subscription.
  public let originalTransactionID: OriginalTransactionID
  /// When Apple stated it: the notification's `signedDate`, or the instant the API response
  /// was signed.
  public let at: Instant
  /// Apple's status; `nil` for a value this version does not know (the raw value is kept).
  public var status: AppleStatus? { AppleStatus(rawValue: rawStatus) }
  /// The status as Apple sent it.
  public let rawStatus: Int

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - originalTransactionID: The subscription.
  ///   - at: When Apple stated it.
  ///   - rawStatus: Apple's status value.
  public init(originalTransactionID: OriginalTransactionID, at: Instant, rawStatus: Int) {
    self.originalTransactionID = originalTransactionID
    self.at = at
    self.rawStatus = rawStatus
  }

  /// Creates a report of a known status.
  ///
  /// - Parameters:
  ///   - originalTransactionID: The subscription.
  ///   - at: When Apple stated it.
  ///   - status: Apple's status.
  public init(originalTransactionID: OriginalTransactionID, at: Instant, status: AppleStatus) {
    self.init(originalTransactionID: originalTransactionID, at: at, rawStatus: status.rawValue)
  }
}
