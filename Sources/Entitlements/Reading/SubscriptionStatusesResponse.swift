/// The App Store Server API's Get All Subscription Statuses (`StatusResponse`): for each
/// subscription group, the last transaction and renewal info of each subscription, with
/// Apple's own status (SPEC §10).
///
/// Apple's `status` is reported at the instant the renewal info was signed (the response's
/// own time), for the evaluation to say whether it agrees.
///
/// ```swift
/// case .subscriptionStatuses(let response) = try DocumentReader.read(body, verifier: verifier)
/// response.appleStatuses.first?.status  // .billingGracePeriod
/// ```
public struct SubscriptionStatusesResponse: PurchaseDocument, Hashable {
  /// One subscription's last transaction, renewal info and status (`lastTransactions[]`).
  public struct LastTransaction: Hashable, Sendable {
    /// `subscriptionGroupIdentifier` of the group it is in.
    public var subscriptionGroupIdentifier: String?
    /// `originalTransactionId`.
    public var originalTransactionID: OriginalTransactionID?
    /// `status` as Apple sent it (1 active, 2 expired, 3 billing retry, 4 grace, 5 revoked).
    public var rawStatus: Int?
    /// The transaction of `signedTransactionInfo`.
    public var transaction: AppStoreTransaction?
    /// The renewal info of `signedRenewalInfo`.
    public var renewal: AppStoreRenewalInfo?
  }

  /// Every subscription of every group.
  public var lastTransactions: [LastTransaction]
  /// `environment`.
  public var environment: StoreEnvironment?
  /// `bundleId`.
  public var bundleID: String?
  /// Fields that could not be read, with their JSON paths.
  public var diagnostics: [Diagnostic]

  /// The last transactions as receipt entries.
  public var entries: [ReceiptEntry] { lastTransactions.flatMap { $0.transaction?.entries ?? [] } }
  /// The renewal infos, dated.
  public var renewalInfo: [RenewalInfo] {
    lastTransactions.flatMap { $0.renewal?.renewalInfo ?? [] }
  }
  /// A status response carries no recovery evidence.
  public var billingRecoveries: [BillingRecovery] { [] }
  /// The newest `signedDate` of its signed payloads: when Apple made the response.
  public var timestamp: Instant? {
    lastTransactions.flatMap { [$0.renewal?.timestamp, $0.transaction?.timestamp] }
      .compactMap { $0 }.max()
  }

  /// Apple's status of each subscription, at the instant its renewal info (else its
  /// transaction) was signed.
  public var appleStatuses: [AppleStatusReport] {
    lastTransactions.compactMap { item in
      guard let rawStatus = item.rawStatus,
        let subscription = item.originalTransactionID
          ?? item.transaction?.entry?.originalTransactionID,
        let at = item.renewal?.timestamp ?? item.transaction?.timestamp
      else { return nil }
      return AppleStatusReport(originalTransactionID: subscription, at: at, rawStatus: rawStatus)
    }
  }

  /// A response from its fields, read.
  init(
    lastTransactions: [LastTransaction], environment: StoreEnvironment?, bundleID: String?,
    diagnostics: [Diagnostic]
  ) {
    self.lastTransactions = lastTransactions
    self.environment = environment
    self.bundleID = bundleID
    self.diagnostics = diagnostics
  }
}
