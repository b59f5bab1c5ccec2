/// A decoded App Store Server API transaction (`JWSTransactionDecodedPayload`): camelCase
/// fields, millisecond numbers, `revocationDate`, `isUpgraded`, `offerType`.
///
/// ```swift
/// // A payload verified already (AppStoreSignatureVerifier's `verify(_:).payload`):
/// let transaction = try AppStoreTransaction(unverifiedJSON: verified.payload)
/// transaction.entry?.cancellationDate  // revocationDate
/// ```
public struct AppStoreTransaction: PurchaseDocument, Hashable {
  // The optionals are spelt `Optional`, as ``ReceiptEntry``'s box is: a `var` of `T?` type
  // starts as `nil` before the initializer sets it, which makes the optimizer build each
  // transaction in memory and return a copy of it (DESIGN.md, "Entries built as values").

  /// The transaction as a receipt entry; `nil` when it has no `transactionId`.
  public var entry: Optional<ReceiptEntry>
  /// `type`: "Auto-Renewable Subscription", "Non-Consumable", "Consumable",
  /// "Non-Renewing Subscription".
  public var type: Optional<String>
  /// `environment`.
  public var environment: Optional<StoreEnvironment>
  /// `signedDate`.
  public var timestamp: Optional<Instant>
  /// Fields that could not be read.
  public var diagnostics: [Diagnostic]

  /// The entry, as a list.
  public var entries: [ReceiptEntry] { entry.map { [$0] } ?? [] }
  /// A transaction carries no renewal info.
  public var renewalInfo: [RenewalInfo] { [] }
  /// A transaction alone is no recovery evidence.
  public var billingRecoveries: [BillingRecovery] { [] }

  /// Reads a transaction from its decoded JSON **without verifying** it: for a payload
  /// verified already. Apple's documents as received go through
  /// ``DocumentReader/read(_:verifier:)``.
  ///
  /// - Parameter json: The decoded payload, trusted as it is: nothing is verified.
  /// - Throws: ``ReadError`` when it is not JSON or not an object.
  public init(unverifiedJSON json: [UInt8]) throws(ReadError) {
    guard case .transaction(let transaction) = try DocumentReader.read(json, as: .transaction)
    else { preconditionFailure("a transaction is read as one") }
    self = transaction
  }

  /// A transaction from its fields, read.
  init(
    entry: ReceiptEntry?, type: String?, environment: StoreEnvironment?, timestamp: Instant?,
    diagnostics: [Diagnostic]
  ) {
    self.entry = entry
    self.type = type
    self.environment = environment
    self.timestamp = timestamp
    self.diagnostics = diagnostics
  }
}

/// Decoded App Store Server API renewal info (`JWSRenewalInfoDecodedPayload`).
///
/// ```swift
/// let info = try AppStoreRenewalInfo(unverifiedJSON: verifiedRenewal.payload)
/// info.info?.isInBillingRetryPeriod  // true
/// ```
public struct AppStoreRenewalInfo: PurchaseDocument, Hashable {
  // `Optional`, not `?`, as in ``AppStoreTransaction``.

  /// The renewal info; `nil` when it has no `originalTransactionId`.
  public var info: Optional<RenewalInfo>
  /// `environment`.
  public var environment: Optional<StoreEnvironment>
  /// `signedDate`.
  public var timestamp: Optional<Instant>
  /// Fields that could not be read.
  public var diagnostics: [Diagnostic]

  /// Renewal info carries no entries.
  public var entries: [ReceiptEntry] { [] }
  /// The info, as a list, dated by the payload's `signedDate`.
  public var renewalInfo: [RenewalInfo] { info.map { [$0.dated(timestamp)] } ?? [] }
  /// Renewal info alone is no recovery evidence.
  public var billingRecoveries: [BillingRecovery] { [] }

  /// Reads renewal info from its decoded JSON **without verifying** it: for a payload
  /// verified already. Apple's documents as received go through
  /// ``DocumentReader/read(_:verifier:)``.
  ///
  /// - Parameter json: The decoded payload, trusted as it is: nothing is verified.
  /// - Throws: ``ReadError`` when it is not JSON or not an object.
  public init(unverifiedJSON json: [UInt8]) throws(ReadError) {
    guard case .renewal(let renewal) = try DocumentReader.read(json, as: .renewal) else {
      preconditionFailure("renewal info is read as such")
    }
    self = renewal
  }

  /// Renewal info from its fields, read.
  init(
    info: RenewalInfo?, environment: StoreEnvironment?, timestamp: Instant?,
    diagnostics: [Diagnostic]
  ) {
    self.info = info
    self.environment = environment
    self.timestamp = timestamp
    self.diagnostics = diagnostics
  }
}
