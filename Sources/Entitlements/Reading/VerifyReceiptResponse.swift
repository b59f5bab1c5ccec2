/// A verifyReceipt response, read as Apple sends it (SPEC §3).
///
/// Reads `status`, `environment`, `receipt.in_app`, `latest_receipt_info`,
/// `pending_renewal_info` and `latest_receipt`, and the iOS 6 style: a `receipt` that is itself
/// one transaction, `latest_receipt_info` as an object, `latest_expired_receipt_info`, and
/// renewal fields at the top level.
///
/// ```swift
/// let response = try VerifyReceiptResponse(json: bytes)
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

  /// Reads a response from its bytes.
  ///
  /// - Parameter json: The response body.
  /// - Throws: ``ReadError`` when the bytes are not JSON or not an object, and
  ///   ``ReadError/verifyReceiptStatus(_:)`` for a status that carries no receipt (any but 0
  ///   and 21006): such a response is never read as an empty history.
  public init(json: [UInt8]) throws(ReadError) {
    self = try FastDocumentReader.read(json) { value throws(ReadError) in
      try Self(value: value)
    }
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

  /// Reads a response already parsed, such as a scenario's `receipt`.
  ///
  /// - Parameters:
  ///   - value: The response.
  ///   - path: Its JSON path, for diagnostics; empty at the top of a document.
  /// - Throws: ``ReadError/unexpectedShape(path:expected:found:)`` when it is not an object.
  package init(value: JSONValue, path: String = "") throws(ReadError) {
    let members = try value.documentObject(at: path)
    func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    var diagnostics: [Diagnostic] = []
    var top = FieldReader(members, path: path)
    status = top.int("status")
    environment = top.string("environment").flatMap(StoreEnvironment.init(appleName:))
    latestReceipt = top.string("latest_receipt")

    inApp = []
    timestamp = nil
    if let receipt = members["receipt"] {
      if case .object(let receiptMembers) = receipt {
        var receiptFields = FieldReader(receiptMembers, path: at("receipt"))
        timestamp =
          receiptFields.instant(
            "receipt_creation_date", millisecondsKey: "receipt_creation_date_ms")
          ?? receiptFields.instant("request_date", millisecondsKey: "request_date_ms")
        // Anonymised captures say "Production" at the top while the receipt says
        // "ProductionSandbox": the receipt's own type is the better witness.
        if let type = receiptFields.string("receipt_type"), type.hasSuffix("Sandbox") {
          environment = .sandbox
        }
        diagnostics += receiptFields.diagnostics
        if receiptMembers["transaction_id"] != nil {
          // iOS 6 style: the receipt is one transaction.
          inApp = Self.entries(receipt, path: at("receipt"), &diagnostics)
        } else if let list = receiptMembers["in_app"] {
          inApp = Self.entries(list, path: at("receipt.in_app"), &diagnostics)
        }
      } else {
        diagnostics.append(
          Diagnostic(
            .unreadableField, field: at("receipt"),
            message: "expected an object, found \(receipt.kindDescription)"))
      }
    }
    latestReceiptInfo = []
    for key in ["latest_receipt_info", "latest_expired_receipt_info"] {
      if let list = members[key] {
        latestReceiptInfo += Self.entries(list, path: at(key), &diagnostics)
      }
    }
    renewalInfo = []
    // Early responses omit original_transaction_id in pending_renewal_info; with a single
    // subscription in the receipt there is only one thing it can describe.
    let subscriptions = Set((inApp + latestReceiptInfo).map(\.originalTransactionID))
    if let pending = members["pending_renewal_info"] {
      renewalInfo = Self.renewalInfo(
        pending, path: at("pending_renewal_info"),
        defaultSubscription: subscriptions.count == 1 ? subscriptions.first : nil, &diagnostics)
    } else if members["auto_renew_status"] != nil || members["expiration_intent"] != nil {
      // iOS 6 style: the renewal fields sit at the top, for the receipt's subscription.
      let subscription = (latestReceiptInfo + inApp).last?.originalTransactionID
      if let info = RenewalInfo.read(
        receiptFields: members, path: path, defaultSubscription: subscription,
        diagnostics: &diagnostics)
      {
        renewalInfo = [info]
      }
    }
    self.diagnostics = diagnostics + top.diagnostics
  }

  /// Entries from an array, or from a single object (iOS 6 style).
  static func entries(_ value: JSONValue, path: String, _ diagnostics: inout [Diagnostic])
    -> [ReceiptEntry]
  {
    switch value {
    case .array(let elements):
      return elements.enumerated().compactMap { index, element in
        ReceiptEntry.read(
          receiptFields: element, path: "\(path)[\(index)]", diagnostics: &diagnostics)
      }
    case .object:
      return ReceiptEntry.read(receiptFields: value, path: path, diagnostics: &diagnostics)
        .map { [$0] } ?? []
    case .null:
      return []
    default:
      diagnostics.append(
        Diagnostic(
          .unreadableField, field: path,
          message: "expected an array of entries, found \(value.kindDescription)"))
      return []
    }
  }

  /// Renewal infos from an array (or a single object).
  static func renewalInfo(
    _ value: JSONValue, path: String, defaultSubscription: OriginalTransactionID? = nil,
    _ diagnostics: inout [Diagnostic]
  ) -> [RenewalInfo] {
    let elements: [(JSONValue, String)]
    switch value {
    case .array(let array): elements = array.enumerated().map { ($1, "\(path)[\($0)]") }
    case .object: elements = [(value, path)]
    case .null: elements = []
    default:
      diagnostics.append(
        Diagnostic(
          .unreadableField, field: path,
          message: "expected an array of renewal info, found \(value.kindDescription)"))
      return []
    }
    return elements.compactMap { element, elementPath in
      guard case .object(let members) = element else {
        diagnostics.append(
          Diagnostic(
            .unreadableField, field: elementPath,
            message: "expected a renewal info object, found \(element.kindDescription)"))
        return nil
      }
      return RenewalInfo.read(
        receiptFields: members, path: elementPath, defaultSubscription: defaultSubscription,
        diagnostics: &diagnostics)
    }
  }
}
