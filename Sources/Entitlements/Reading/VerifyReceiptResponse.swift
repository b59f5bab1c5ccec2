/// A verifyReceipt response, read as Apple sends it (SPEC §3).
///
/// Reads `status`, `environment`, `receipt.in_app`, `latest_receipt_info`,
/// `pending_renewal_info` and `latest_receipt`, and the iOS 6 style: a `receipt` that is itself
/// one transaction, `latest_receipt_info` as an object, `latest_expired_receipt_info`, and
/// renewal fields at the top level.
///
/// ```swift
/// let response = try VerifyReceiptResponse(unverifiedJSON: bytes)
/// try response.requireSuccess()   // throws VerifyReceiptStatusError for 21007, …
/// Evaluator().evaluate(response.history)
/// ```
public struct VerifyReceiptResponse: PurchaseDocument, Hashable {
  /// `status`: 0 for a valid receipt.
  public var status: Int?
  /// `environment`.
  public var environment: StoreEnvironment?
  /// `receipt.in_app` (or, iOS 6 style, the `receipt` itself).
  public var inApp: [ReceiptEntry]
  /// `latest_receipt_info`, plus iOS 6's `latest_expired_receipt_info`.
  public var latestReceiptInfo: [ReceiptEntry]
  /// `pending_renewal_info`, or the iOS 6 top-level renewal fields.
  public var renewalInfo: [RenewalInfo]
  /// `latest_receipt`: the base64 receipt to store for the next verification.
  public var latestReceipt: String?
  /// `receipt.receipt_creation_date`, else `receipt.request_date`.
  public var timestamp: Instant?
  /// Fields that could not be read, with their JSON paths.
  public var diagnostics: [Diagnostic]

  /// Every entry of `in_app` and `latest_receipt_info`; one present in both counts once when
  /// evaluated (SPEC §3).
  public var entries: [ReceiptEntry] {
    // One of the two lists is often empty: then the other is shared, not copied.
    if inApp.isEmpty { return latestReceiptInfo }
    if latestReceiptInfo.isEmpty { return inApp }
    return inApp + latestReceiptInfo
  }

  /// A verifyReceipt response carries no recovery evidence.
  public var billingRecoveries: [BillingRecovery] { [] }

  /// The status as a typed error, `nil` for 0 and for 21006 (whose receipt is still returned).
  public var statusError: VerifyReceiptStatusError? {
    guard let status, status != 0, status != 21006 else { return nil }
    return VerifyReceiptStatusError(code: status)
  }

  /// Throws the status as a typed error unless the receipt is usable.
  ///
  /// - Throws: ``VerifyReceiptStatusError`` for any status but 0 and 21006.
  public func requireSuccess() throws(VerifyReceiptStatusError) {
    if let statusError { throw statusError }
  }

  /// Reads a response from its bytes, as ``DocumentReader/readUnverified(_:)`` does.
  ///
  /// - Parameter json: The response body, trusted as it is (a verifyReceipt response is not
  ///   signed: it comes from Apple's server over TLS).
  /// - Throws: ``ReadError`` when the bytes are not JSON or not an object, and
  ///   ``ReadError/verifyReceiptStatus(_:)`` for a status that carries no receipt (any but 0
  ///   and 21006): such a response is never read as an empty history.
  public init(unverifiedJSON json: [UInt8]) throws(ReadError) {
    guard case .verifyReceipt(let response) = try DocumentReader.read(json, as: .verifyReceipt)
    else { preconditionFailure("a response is read as one") }
    self = response
    if let statusError { throw .verifyReceiptStatus(statusError) }
  }

  init(
    status: Int?, environment: StoreEnvironment?, inApp: [ReceiptEntry],
    latestReceiptInfo: [ReceiptEntry], renewalInfo: [RenewalInfo], latestReceipt: String?,
    timestamp: Instant?, diagnostics: [Diagnostic]
  ) {
    self.status = status
    self.environment = environment
    self.inApp = inApp
    self.latestReceiptInfo = latestReceiptInfo
    self.renewalInfo = renewalInfo
    self.latestReceipt = latestReceipt
    self.timestamp = timestamp
    self.diagnostics = diagnostics
  }

  /// Reads a response already parsed, such as a scenario's `receipt` (its status is not
  /// checked: see ``statusError``).
  ///
  /// - Parameters:
  ///   - value: The response.
  ///   - path: Its JSON path, for diagnostics; empty at the top of a document.
  /// - Throws: ``ReadError/unexpectedShape(path:expected:found:)`` when it is not an object.
  package init(value: JSONValue, path: String = "") throws(ReadError) {
    guard
      case .verifyReceipt(let response) = try DocumentReader.read(
        value.bytes, as: .verifyReceipt, path: path)
    else { preconditionFailure("a response is read as one") }
    self = response
  }
}
