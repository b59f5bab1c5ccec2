/// A page of the App Store Server API's Get Transaction History (`HistoryResponse`, v1 and v2
/// endpoints): the signed transactions of one customer (SPEC §10).
///
/// Pages of one history overlap and repeat: ``SubscriberRecord`` folds them in any order.
///
/// ```swift
/// case .transactionHistory(let page) = try DocumentReader.read(body, verifier: verifier)
/// page.entries.count  // the page's transactions
/// page.hasMore        // whether to ask for the next page with `revision`
/// ```
public struct TransactionHistoryResponse: PurchaseDocument, Hashable {
  /// The page's transactions, read from `signedTransactions`.
  public var transactions: [AppStoreTransaction]
  /// `hasMore`: whether another page follows.
  public var hasMore: Bool?
  /// `revision`: the token for the next page.
  public var revision: String?
  /// `environment`.
  public var environment: StoreEnvironment?
  /// `bundleId`.
  public var bundleID: String?
  /// Fields that could not be read, with their JSON paths.
  public var diagnostics: [Diagnostic]

  /// The transactions as receipt entries.
  public var entries: [ReceiptEntry] { transactions.flatMap(\.entries) }
  /// A transaction history carries no renewal info.
  public var renewalInfo: [RenewalInfo] { [] }
  /// A transaction history carries no recovery evidence.
  public var billingRecoveries: [BillingRecovery] { [] }
  /// The newest `signedDate` of the page's transactions: when Apple made the page.
  public var timestamp: Instant? { transactions.compactMap(\.timestamp).max() }

  /// A page from its fields, read.
  init(
    transactions: [AppStoreTransaction], hasMore: Bool?, revision: String?,
    environment: StoreEnvironment?, bundleID: String?, diagnostics: [Diagnostic]
  ) {
    self.transactions = transactions
    self.hasMore = hasMore
    self.revision = revision
    self.environment = environment
    self.bundleID = bundleID
    self.diagnostics = diagnostics
  }
}
