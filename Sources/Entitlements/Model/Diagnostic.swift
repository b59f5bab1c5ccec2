/// A problem found in the input: what it concerns, which field, and why.
///
/// The engine never drops input silently: an entry it cannot use still appears, as a
/// diagnostic that names the transaction and the field (SPEC §4).
///
/// ```swift
/// // An entry whose expires_date is not after its purchase_date:
/// diagnostic.description
/// // "transaction 7: expires_date: 2017-02-20T08:00:00Z is not after purchase_date …"
/// ```
public struct Diagnostic: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// What a diagnostic is about.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// An entry without `purchase_date`: it covers nothing.
    case missingPurchaseDate
    /// An entry whose `expires_date` is at or before its `purchase_date`: it covers nothing.
    case expiresNotAfterPurchase
    /// A non-renewing subscription whose product has no duration in the catalog.
    case missingDuration
    /// An entry whose product is not in a non-empty catalog: typed from its fields.
    case productNotInCatalog
    /// An entry with no `expires_date` and no catalog to say what it is: it covers nothing.
    case unknownProductType
    /// An auto-renewable entry without `expires_date`.
    case missingExpiresDate
    /// `is_upgraded` without `cancellation_date` and no later entry inside it: it keeps its
    /// own expiry.
    case upgradeWithoutSuccessor
    /// Renewal info whose `original_transaction_id` matches no entry.
    case renewalInfoWithoutEntries
    /// Two renewal infos for one `original_transaction_id` that disagree.
    case conflictingRenewalInfo
    /// Two records of one purchase (same `transaction_id` or `web_order_line_item_id`) that
    /// disagree on more than the cancellation: one was kept.
    case conflictingDuplicate
    /// A field whose value could not be read (reported by the reading layer).
    case unreadableField
    /// An entry whose product no catalog lists, typed from Apple's own `type` of the
    /// transaction (`Non-Consumable`, `Consumable`, `Non-Renewing Subscription`).
    case productTypeFromApple
  }

  /// What the diagnostic is about.
  public var kind: Kind
  /// The transaction concerned, if any.
  public var transactionID: TransactionID?
  /// The subscription concerned, if any (renewal info).
  public var originalTransactionID: OriginalTransactionID?
  /// The field, by Apple's name (`expires_date`) or JSON path.
  public var field: String
  /// Why, in one sentence.
  public var message: String

  /// Creates a diagnostic.
  ///
  /// - Parameters:
  ///   - kind: What the diagnostic is about.
  ///   - transactionID: The transaction concerned.
  ///   - originalTransactionID: The subscription concerned.
  ///   - field: The field, by Apple's name or JSON path.
  ///   - message: Why, in one sentence.
  public init(
    _ kind: Kind, transactionID: TransactionID? = nil,
    originalTransactionID: OriginalTransactionID? = nil, field: String, message: String
  ) {
    self.kind = kind
    self.transactionID = transactionID
    self.originalTransactionID = originalTransactionID
    self.field = field
    self.message = message
  }

  /// "transaction 7: expires_date: why".
  public var description: String {
    var subject = ""
    if let transactionID {
      subject = "transaction \(transactionID): "
    } else if let originalTransactionID {
      subject = "original transaction \(originalTransactionID): "
    }
    return "\(subject)\(field): \(message)"
  }

  /// Orders diagnostics by transaction, field, kind and message, so a report has one order.
  public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
    (
      lhs.transactionID?.rawValue ?? "", lhs.originalTransactionID?.rawValue ?? "", lhs.field,
      lhs.kind.rawValue, lhs.message
    )
      < (
        rhs.transactionID?.rawValue ?? "", rhs.originalTransactionID?.rawValue ?? "", rhs.field,
        rhs.kind.rawValue, rhs.message
      )
  }
}
