/// A page of the App Store Server API's Get Transaction History (`HistoryResponse`, v1 and v2
/// endpoints): the signed transactions of one customer (SPEC §10).
///
/// Pages of one history overlap and repeat: ``SubscriberRecord`` folds them in any order.
///
/// ```swift
/// case .transactionHistory(let page) = try DocumentReader.read(body)
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

  /// Reads a page already parsed; each JWS through `payloads`.
  init(value: JSONValue, payloads: SignedPayloads) throws(ReadError) {
    let members = try value.documentObject(at: "")
    var fields = FieldReader(members, path: "")
    var diagnostics: [Diagnostic] = []
    hasMore = fields.bool("hasMore")
    revision = fields.string("revision")
    environment = fields.string("environment").flatMap(StoreEnvironment.init(appleName:))
    bundleID = fields.string("bundleId")
    transactions = []
    for (compact, path) in members["signedTransactions"]?.signedStrings(
      at: "signedTransactions", diagnostics: &diagnostics) ?? []
    {
      if let transaction = try AppStoreTransaction(
        signed: compact, at: path, payloads: payloads, diagnostics: &diagnostics)
      {
        transactions.append(transaction)
      }
    }
    // Read with a verifier, only signed data speaks: the page's own `environment` is not
    // signed, and would set the durations every verified transaction is evaluated with.
    if payloads.verifies { environment = transactions.lazy.compactMap(\.environment).first }
    self.diagnostics = diagnostics + fields.diagnostics
  }

  /// A page from its read fields (the byte-level reader's way in).
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

extension AppStoreTransaction {
  /// The transaction a JWS at `path` holds, read by the byte-level reader where it is
  /// regular; `nil`, with a diagnostic, when unverified and its payload cannot be read.
  init?(
    signed compact: String, at path: String, payloads: SignedPayloads,
    diagnostics: inout [Diagnostic]
  ) throws(ReadError) {
    do {
      let payload = try payloads.payload(of: compact, at: path)
      self = try AppStoreTransaction(json: payload)
      diagnostics += self.diagnostics.map { $0.at(path) }
    } catch {
      if case .signatureRejected = error { throw error }
      diagnostics.append(
        Diagnostic(
          .unreadableField, field: path, message: "cannot read the signed transaction: \(error)"))
      return nil
    }
  }
}

extension AppStoreRenewalInfo {
  /// The renewal info a JWS at `path` holds; `nil`, with a diagnostic, when unverified and its
  /// payload cannot be read.
  init?(
    signed compact: String, at path: String, payloads: SignedPayloads,
    diagnostics: inout [Diagnostic]
  ) throws(ReadError) {
    do {
      let payload = try payloads.payload(of: compact, at: path)
      self = try AppStoreRenewalInfo(json: payload)
      diagnostics += self.diagnostics.map { $0.at(path) }
    } catch {
      if case .signatureRejected = error { throw error }
      diagnostics.append(
        Diagnostic(
          .unreadableField, field: path, message: "cannot read the signed renewal info: \(error)"))
      return nil
    }
  }
}

extension Diagnostic {
  /// The same diagnostic, its field prefixed with the path of the document it was found in.
  func at(_ path: String) -> Diagnostic {
    var moved = self
    moved.field = field.isEmpty ? path : "\(path).\(field)"
    return moved
  }
}
