/// An App Store Server Notification, version 2, decoded (`responseBodyV2DecodedPayload`).
///
/// `data.signedTransactionInfo` and `data.signedRenewalInfo` are JWS strings: their payloads
/// are decoded, and verified first only by ``DocumentReader/read(_:verifier:)`` given a verifier
/// (``init(json:)`` verifies **nothing**, see ``JWS``); an already-decoded object in their place
/// is read as is. A `DID_RENEW` with subtype `BILLING_RECOVERY` is recovery evidence.
/// ``appleStatus`` is Apple's own status at ``timestamp`` (1 active, 2 expired, 3 billing retry,
/// 4 grace period, 5 revoked).
///
/// ```swift
/// let notification = try ServerNotification(json: JWS.payload(of: signedPayload))
/// notification.rawNotificationType  // "DID_RENEW"
/// notification.appleStatus          // 1
/// ```
public struct ServerNotification: PurchaseDocument, Hashable {
  /// `notificationType`.
  public var rawNotificationType: String?
  /// `subtype`.
  public var rawSubtype: String?
  /// `data.status`: Apple's status of the subscription when it signed the notification.
  public var appleStatus: Int?
  /// `data.environment`.
  public var environment: StoreEnvironment?
  /// `signedDate`.
  public var timestamp: Instant?
  /// The transaction of `data.signedTransactionInfo`.
  public var entries: [ReceiptEntry]
  /// The renewal info of `data.signedRenewalInfo`.
  public var renewalInfo: [RenewalInfo]
  /// For `DID_RENEW` / `BILLING_RECOVERY`: the recovery.
  public var billingRecoveries: [BillingRecovery]
  /// Fields that could not be read.
  public var diagnostics: [Diagnostic]
  /// For `DID_CHANGE_RENEWAL_PREF` / `UPGRADE`: the old plan ended where this transaction began.
  public var upgrades: [UpgradeEvidence]

  /// The typed `notificationType`; `nil` for a type this version does not know (the reader
  /// reports it: it carries no evidence).
  public var notificationType: NotificationEvidence.NotificationType? {
    rawNotificationType.flatMap(NotificationEvidence.NotificationType.init(rawValue:))
  }

  /// The subscription the notification is about: its transaction's, else its renewal info's.
  public var originalTransactionID: OriginalTransactionID? {
    entries.first?.originalTransactionID ?? renewalInfo.first?.originalTransactionID
  }

  /// What the notification states, dated by its `signedDate`: evidence for the rules
  /// (SPEC §5). Empty without a type, a date or a subscription.
  public var notifications: [NotificationEvidence] {
    guard let rawNotificationType, let timestamp, let originalTransactionID else { return [] }
    return [
      NotificationEvidence(
        originalTransactionID: originalTransactionID, transactionID: entries.first?.transactionID,
        signedDate: timestamp, rawType: rawNotificationType, rawSubtype: rawSubtype)
    ]
  }

  /// Apple's status of the subscription at `signedDate` (`data.status`; SPEC §10).
  public var appleStatuses: [AppleStatusReport] {
    guard let appleStatus, let timestamp, let originalTransactionID else { return [] }
    return [
      AppleStatusReport(
        originalTransactionID: originalTransactionID, at: timestamp, rawStatus: appleStatus)
    ]
  }

  /// Reads a notification from its decoded payload's bytes.
  ///
  /// - Parameter json: The decoded `signedPayload`.
  /// - Throws: ``ReadError`` when it is not JSON or not an object.
  public init(json: [UInt8]) throws(ReadError) {
    self = try FastDocumentReader.read(json) { value throws(ReadError) in
      try Self(value: value)
    }
  }

  /// Reads a notification already parsed.
  ///
  /// - Parameters:
  ///   - value: The decoded payload.
  ///   - payloads: How the signed payloads inside it are opened (verified or not).
  /// - Throws: ``ReadError/unexpectedShape(path:expected:found:)`` when it is not an object.
  package init(value: JSONValue, payloads: SignedPayloads = .unverified) throws(ReadError) {
    let members = try value.documentObject(at: "")
    var top = FieldReader(members, path: "")
    let type = top.string("notificationType")
    let subtype = top.string("subtype")
    let timestamp = top.instant("signedDate")
    var diagnostics: [Diagnostic] = []
    var entries: [ReceiptEntry] = []
    var renewalInfo: [RenewalInfo] = []
    var appleStatus: Int?
    var environment: StoreEnvironment?
    if case .object(let data) = members["data"] {
      var fields = FieldReader(data, path: "data")
      appleStatus = fields.int("status")
      environment = fields.string("environment").flatMap(StoreEnvironment.init(appleName:))
      diagnostics += fields.diagnostics
      let transactionPath = "data.signedTransactionInfo"
      if let payload = try Self.payload(
        data["signedTransactionInfo"], transactionPath, payloads, &diagnostics),
        let transaction = Self.read(
          payload, transactionPath, &diagnostics, AppStoreTransaction.init(value:path:))
      {
        entries = transaction.entries
        diagnostics += transaction.diagnostics
      }
      let renewalPath = "data.signedRenewalInfo"
      if let payload = try Self.payload(
        data["signedRenewalInfo"], renewalPath, payloads, &diagnostics),
        let info = Self.read(
          payload, renewalPath, &diagnostics, AppStoreRenewalInfo.init(value:path:))
      {
        renewalInfo = info.renewalInfo
        diagnostics += info.diagnostics
      }
    }
    self.init(
      rawNotificationType: type, rawSubtype: subtype, appleStatus: appleStatus,
      environment: environment, timestamp: timestamp, entries: entries,
      renewalInfo: renewalInfo, diagnostics: diagnostics + top.diagnostics)
  }

  /// A notification from its read fields; billing recoveries and upgrades follow from the
  /// type and subtype (one place for the general and the byte-level reader).
  init(
    rawNotificationType: String?, rawSubtype: String?, appleStatus: Int?,
    environment: StoreEnvironment?, timestamp: Instant?, entries: [ReceiptEntry],
    renewalInfo: [RenewalInfo], diagnostics: [Diagnostic]
  ) {
    self.rawNotificationType = rawNotificationType
    self.rawSubtype = rawSubtype
    self.appleStatus = appleStatus
    self.environment = environment
    self.timestamp = timestamp
    self.entries = entries
    self.renewalInfo = renewalInfo
    self.diagnostics = diagnostics
    if let rawNotificationType,
      NotificationEvidence.NotificationType(rawValue: rawNotificationType) == nil
    {
      self.diagnostics.append(
        Diagnostic(
          .unreadableField, field: "notificationType",
          message:
            "\(rawNotificationType) is a notification type this version does not know: read as "
            + "carrying no evidence"))
    }
    if let rawSubtype, NotificationEvidence.Subtype(rawValue: rawSubtype) == nil {
      self.diagnostics.append(
        Diagnostic(
          .unreadableField, field: "subtype",
          message:
            "\(rawSubtype) is a subtype this version does not know: the notification is read by "
            + "its type alone"))
    }
    if rawNotificationType == "DID_RENEW", rawSubtype == "BILLING_RECOVERY",
      let entry = entries.first, let renewedAt = entry.purchaseDate
    {
      billingRecoveries = [
        BillingRecovery(originalTransactionID: entry.originalTransactionID, renewedAt: renewedAt)
      ]
    } else {
      billingRecoveries = []
    }
    if rawNotificationType == "DID_CHANGE_RENEWAL_PREF", rawSubtype == "UPGRADE",
      let entry = entries.first, let upgradedAt = entry.purchaseDate
    {
      upgrades = [
        UpgradeEvidence(
          originalTransactionID: entry.originalTransactionID, newTransactionID: entry.transactionID,
          upgradedAt: upgradedAt)
      ]
    } else {
      upgrades = []
    }
  }

  /// The document a signed field's payload holds, or `nil` with a diagnostic naming the field
  /// when it holds none (a payload that is JSON but not an object): never dropped silently.
  private static func read<Document>(
    _ payload: JSONValue, _ path: String, _ diagnostics: inout [Diagnostic],
    _ document: (JSONValue, String) throws(ReadError) -> Document
  ) -> Document? {
    do {
      return try document(payload, path)
    } catch {
      diagnostics.append(
        Diagnostic(
          .unreadableField, field: path,
          message: "the signed payload holds no \(Document.self): \(error)"))
      return nil
    }
  }

  /// The payload a signed field holds: a JWS decoded (verified first when `payloads`
  /// verifies), or a decoded object in its place (which a verifying reader refuses: it carries
  /// no signature).
  private static func payload(
    _ value: JSONValue?, _ path: String, _ payloads: SignedPayloads,
    _ diagnostics: inout [Diagnostic]
  ) throws(ReadError) -> JSONValue? {
    switch value {
    case nil, .null: return nil
    case .object:
      if payloads.verifies {
        throw .signatureRejected(path: path, reason: "a decoded object, not a signed payload")
      }
      return value
    case .string(let compact):
      let bytes: [UInt8]
      do {
        bytes = try payloads.payload(of: compact, at: path)
      } catch {
        if case .signatureRejected = error { throw error }
        diagnostics.append(
          Diagnostic(
            .unreadableField, field: path, message: "cannot decode the JWS payload: \(error)"))
        return nil
      }
      do {
        return try JSONValue(parsing: bytes)
      } catch {
        diagnostics.append(
          Diagnostic(
            .unreadableField, field: path, message: "cannot decode the JWS payload: \(error)"))
        return nil
      }
    case .some(let other):
      diagnostics.append(
        Diagnostic(
          .unreadableField, field: path,
          message: "expected a JWS string or an object, found \(other.kindDescription)"))
      return nil
    }
  }
}
