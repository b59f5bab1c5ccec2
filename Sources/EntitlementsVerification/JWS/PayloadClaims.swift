/// The claims SPEC §11 checks, read from a verified payload without decoding the rest.
///
/// Where they are, in Apple's payloads: a transaction, renewal info or app transaction carries
/// them at the top level (`bundleId`, `environment`, `signedDate`; an app transaction says
/// `receiptType` and `receiptCreationDate`); a notification (it has `notificationType`) under
/// `data` or `summary` (`bundleId`, `appAppleId`, `environment`), with `signedDate` at the top,
/// or under `externalPurchaseToken`, whose environment is Sandbox when its
/// `externalPurchaseId` starts with `SANDBOX` — as Apple's own library reads them. A claim given
/// twice at one level is refused rather than guessed.
struct PayloadClaims: Hashable, Sendable {
  /// `signedDate` (or an app transaction's `receiptCreationDate`), milliseconds.
  var signedDate: Int64?
  var bundleId: String?
  var appAppleId: Int64?
  /// The environment's raw value as written (`Production`, `Sandbox`, `Xcode`,
  /// `LocalTesting`).
  var environment: String?
  /// Whether the payload is a notification (has `notificationType`).
  var isNotification = false
  /// A notification's `data.signedTransactionInfo`.
  var signedTransactionInfo: String?
  /// A notification's `data.signedRenewalInfo`.
  var signedRenewalInfo: String?

  private struct Fields {
    var bundleId: String?
    var appAppleId: Int64?
    var environment: String?
    var signedTransactionInfo: String?
    var signedRenewalInfo: String?
    var externalPurchaseId: String?
  }

  /// The claims of a payload's JSON.
  init(json: [UInt8]) throws(JSONScanError) {
    var top = Fields()
    var nested: Fields?
    var signedDate: Int64?
    var receiptCreationDate: Int64?
    var receiptType: String?
    var isNotification = false
    var seen: Set<String> = []
    let result = json.withUnsafeBufferPointer { bytes -> Result<Void, JSONScanError> in
      var scanner = JSONScanner(bytes)
      do throws(JSONScanError) {
        try scanner.readObject { scanner, key throws(JSONScanError) in
          if try Self.readField(key, &scanner, into: &top, seen: &seen, prefix: "") { return }
          if key.is("signedDate") {
            try Self.once("signedDate", &seen)
            signedDate = try scanner.readNullIfPresent() ? nil : scanner.readMilliseconds()
          } else if key.is("receiptCreationDate") {
            try Self.once("receiptCreationDate", &seen)
            receiptCreationDate = try scanner.readNullIfPresent() ? nil : scanner.readMilliseconds()
          } else if key.is("receiptType") {
            try Self.once("receiptType", &seen)
            receiptType = try scanner.readNullIfPresent() ? nil : scanner.readString()
          } else if key.is("notificationType") {
            try Self.once("notificationType", &seen)
            isNotification = true
            try scanner.skipValue()
          } else if key.is("data") || key.is("summary") || key.is("externalPurchaseToken") {
            let name = key.text
            try Self.once(name, &seen)
            if try scanner.readNullIfPresent() { return }
            guard nested == nil else { throw JSONScanError("more than one of data, summary") }
            var fields = Fields()
            var nestedSeen: Set<String> = []
            try scanner.readObject { scanner, key throws(JSONScanError) in
              if try !Self.readField(
                key, &scanner, into: &fields, seen: &nestedSeen, prefix: name + ".")
              {
                try scanner.skipValue()
              }
            }
            if name == "externalPurchaseToken" {
              fields.environment =
                fields.externalPurchaseId?.hasPrefix("SANDBOX") == true ? "Sandbox" : "Production"
            }
            nested = fields
          } else {
            try scanner.skipValue()
          }
        }
        try scanner.finish()
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
    let claims = isNotification ? (nested ?? Fields()) : top
    self.signedDate = signedDate ?? receiptCreationDate
    bundleId = claims.bundleId
    appAppleId = claims.appAppleId
    environment = claims.environment ?? (isNotification ? nil : receiptType)
    self.isNotification = isNotification
    signedTransactionInfo = isNotification ? claims.signedTransactionInfo : nil
    signedRenewalInfo = isNotification ? claims.signedRenewalInfo : nil
  }

  /// Reads `key` when it is a claim of `fields`; false when it is not one.
  private static func readField(
    _ key: JSONScanner.Key, _ scanner: inout JSONScanner, into fields: inout Fields,
    seen: inout Set<String>, prefix: String
  ) throws(JSONScanError) -> Bool {
    func string(_ name: String) throws(JSONScanError) -> String? {
      try once(prefix + name, &seen)
      if try scanner.readNullIfPresent() { return nil }
      guard scanner.peek() == UInt8(ascii: "\"") else {
        throw JSONScanError("\(prefix)\(name) is not a string")
      }
      return try scanner.readString()
    }
    if key.is("bundleId") {
      fields.bundleId = try string("bundleId")
    } else if key.is("environment") {
      fields.environment = try string("environment")
    } else if key.is("signedTransactionInfo") {
      fields.signedTransactionInfo = try string("signedTransactionInfo")
    } else if key.is("signedRenewalInfo") {
      fields.signedRenewalInfo = try string("signedRenewalInfo")
    } else if key.is("externalPurchaseId") {
      fields.externalPurchaseId = try string("externalPurchaseId")
    } else if key.is("appAppleId") {
      try once(prefix + "appAppleId", &seen)
      fields.appAppleId = try scanner.readNullIfPresent() ? nil : scanner.readInteger()
    } else {
      return false
    }
    return true
  }

  private static func once(_ name: String, _ seen: inout Set<String>) throws(JSONScanError) {
    guard seen.insert(name).inserted else { throw JSONScanError("\(name) appears twice") }
  }
}
