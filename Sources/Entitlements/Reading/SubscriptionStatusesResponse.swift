/// The App Store Server API's Get All Subscription Statuses (`StatusResponse`): for each
/// subscription group, the last transaction and renewal info of each subscription, with
/// Apple's own status (SPEC §10).
///
/// Apple's `status` is reported at the instant the renewal info was signed (the response's
/// own time), for the evaluation to say whether it agrees.
///
/// ```swift
/// case .subscriptionStatuses(let response) = try DocumentReader.read(body)
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

  /// Reads a response already parsed; each JWS through `payloads`.
  init(value: JSONValue, payloads: SignedPayloads) throws(ReadError) {
    let members = try value.documentObject(at: "")
    var fields = FieldReader(members, path: "")
    var diagnostics: [Diagnostic] = []
    environment = fields.string("environment").flatMap(StoreEnvironment.init(appleName:))
    bundleID = fields.string("bundleId")
    lastTransactions = []
    if case .array(let groups)? = members["data"] {
      for (groupIndex, group) in groups.enumerated() {
        let groupPath = "data[\(groupIndex)]"
        guard case .object(let groupMembers) = group else {
          diagnostics.append(
            Diagnostic(
              .unreadableField, field: groupPath,
              message: "expected an object, found \(group.kindDescription): left out"))
          continue
        }
        var groupFields = FieldReader(groupMembers, path: groupPath)
        let identifier = groupFields.string("subscriptionGroupIdentifier")
        diagnostics += groupFields.diagnostics
        guard case .array(let items)? = groupMembers["lastTransactions"] else {
          diagnostics.append(
            Diagnostic(
              .unreadableField, field: "\(groupPath).lastTransactions",
              message: "expected an array of the group's subscriptions"))
          continue
        }
        for (itemIndex, item) in items.enumerated() {
          let path = "\(groupPath).lastTransactions[\(itemIndex)]"
          guard case .object(let itemMembers) = item else {
            diagnostics.append(
              Diagnostic(
                .unreadableField, field: path,
                message: "expected an object, found \(item.kindDescription): left out"))
            continue
          }
          var itemFields = FieldReader(itemMembers, path: path)
          var last = LastTransaction(
            subscriptionGroupIdentifier: identifier,
            originalTransactionID: itemFields.string("originalTransactionId").map(
              OriginalTransactionID.init(rawValue:)),
            rawStatus: itemFields.int("status"))
          if let compact = itemFields.string("signedTransactionInfo") {
            last.transaction = try AppStoreTransaction(
              signed: compact, at: "\(path).signedTransactionInfo", payloads: payloads,
              diagnostics: &diagnostics)
          }
          if let compact = itemFields.string("signedRenewalInfo") {
            last.renewal = try AppStoreRenewalInfo(
              signed: compact, at: "\(path).signedRenewalInfo", payloads: payloads,
              diagnostics: &diagnostics)
          }
          diagnostics += itemFields.diagnostics
          lastTransactions.append(last)
        }
      }
    } else if let data = members["data"] {
      diagnostics.append(
        Diagnostic(
          .unreadableField, field: "data",
          message: "expected an array of subscription groups, found \(data.kindDescription)"))
    }
    // Read with a verifier, only signed data speaks: the response's own `environment` is not
    // signed, and would set the durations every verified transaction is evaluated with.
    if payloads.verifies {
      environment =
        lastTransactions.lazy.compactMap {
          $0.transaction?.environment ?? $0.renewal?.environment
        }.first
    }
    self.diagnostics = diagnostics + fields.diagnostics
  }

  /// A response from its read fields (the byte-level reader's way in).
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
