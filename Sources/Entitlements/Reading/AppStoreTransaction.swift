/// A decoded App Store Server API transaction (`JWSTransactionDecodedPayload`): camelCase
/// fields, millisecond numbers, `revocationDate`, `isUpgraded`, `offerType`.
///
/// ```swift
/// let transaction = try AppStoreTransaction(json: JWS.payload(of: signedTransactionInfo))
/// transaction.entry?.cancellationDate  // revocationDate
/// ```
public struct AppStoreTransaction: PurchaseDocument, Hashable {
  /// The transaction as a receipt entry; `nil` when it has no `transactionId`.
  public var entry: ReceiptEntry?
  /// `type`: "Auto-Renewable Subscription", "Non-Consumable", "Consumable",
  /// "Non-Renewing Subscription".
  public var type: String?
  /// `environment`.
  public var environment: StoreEnvironment?
  /// `signedDate`.
  public var timestamp: Instant?
  /// Fields that could not be read.
  public var diagnostics: [Diagnostic]

  /// The entry, as a list.
  public var entries: [ReceiptEntry] { entry.map { [$0] } ?? [] }
  /// A transaction carries no renewal info.
  public var renewalInfo: [RenewalInfo] { [] }
  /// A transaction alone is no recovery evidence.
  public var billingRecoveries: [BillingRecovery] { [] }

  /// Reads a transaction from its JSON bytes.
  ///
  /// - Parameter json: The decoded payload.
  /// - Throws: ``ReadError`` when it is not JSON or not an object.
  public init(json: [UInt8]) throws(ReadError) {
    self = try FastDocumentReader.read(json) { value throws(ReadError) in
      try Self(value: value)
    }
  }

  /// Reads a transaction already parsed.
  ///
  /// - Parameters:
  ///   - value: The decoded payload.
  ///   - path: Its JSON path, for diagnostics.
  /// - Throws: ``ReadError/unexpectedShape(path:expected:found:)`` when it is not an object.
  package init(value: JSONValue, path: String = "") throws(ReadError) {
    let members = try value.documentObject(at: path)
    var diagnostics: [Diagnostic] = []
    entry = ReceiptEntry.read(transactionFields: members, path: path, diagnostics: &diagnostics)
    var fields = FieldReader(members, path: path)
    fields.transactionID = entry?.transactionID
    type = fields.string("type")
    environment = fields.string("environment").flatMap(StoreEnvironment.init(appleName:))
    timestamp = fields.instant("signedDate")
    self.diagnostics = diagnostics + fields.diagnostics
  }

  /// A transaction from its read fields (the byte-level reader's way in).
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
/// let info = try AppStoreRenewalInfo(json: JWS.payload(of: signedRenewalInfo))
/// info.info?.isInBillingRetryPeriod  // true
/// ```
public struct AppStoreRenewalInfo: PurchaseDocument, Hashable {
  /// The renewal info; `nil` when it has no `originalTransactionId`.
  public var info: RenewalInfo?
  /// `environment`.
  public var environment: StoreEnvironment?
  /// `signedDate`.
  public var timestamp: Instant?
  /// Fields that could not be read.
  public var diagnostics: [Diagnostic]

  /// Renewal info carries no entries.
  public var entries: [ReceiptEntry] { [] }
  /// The info, as a list, dated by the payload's `signedDate`.
  public var renewalInfo: [RenewalInfo] { info.map { [$0.dated(timestamp)] } ?? [] }
  /// Renewal info alone is no recovery evidence.
  public var billingRecoveries: [BillingRecovery] { [] }

  /// Reads renewal info from its JSON bytes.
  ///
  /// - Parameter json: The decoded payload.
  /// - Throws: ``ReadError`` when it is not JSON or not an object.
  public init(json: [UInt8]) throws(ReadError) {
    self = try FastDocumentReader.read(json) { value throws(ReadError) in
      try Self(value: value)
    }
  }

  /// Reads renewal info already parsed.
  ///
  /// - Parameters:
  ///   - value: The decoded payload.
  ///   - path: Its JSON path, for diagnostics.
  /// - Throws: ``ReadError/unexpectedShape(path:expected:found:)`` when it is not an object.
  package init(value: JSONValue, path: String = "") throws(ReadError) {
    let members = try value.documentObject(at: path)
    var diagnostics: [Diagnostic] = []
    info = RenewalInfo.read(renewalFields: members, path: path, diagnostics: &diagnostics)
    var fields = FieldReader(members, path: path)
    environment = fields.string("environment").flatMap(StoreEnvironment.init(appleName:))
    timestamp = fields.instant("signedDate")
    self.diagnostics = diagnostics + fields.diagnostics
  }

  /// Renewal info from its read fields (the byte-level reader's way in).
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
