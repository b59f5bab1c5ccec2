import Entitlements
import EntitlementsTesting

/// Apple-shaped documents for the realistic rows: subscribers with one or two subscriptions
/// (monthly or yearly premium, sometimes a monthly magazine), 16-digit ids, renewals with
/// occasional gaps and refunds, and renewal info that says whether each will renew, is in
/// billing retry or in a grace period. Seeded: the same seed gives the same bytes.
enum Documents {
  /// The instant each status is asked at: 2026-06-01T00:00:00Z.
  static let at = Instant(millisecondsSince1970: 1_780_272_000_000)

  /// The products of the realistic rows, as a catalog and as the `--catalog` file.
  static let catalog = ProductCatalog([
    CatalogProduct(
      id: "com.example.premium.monthly", type: .autoRenewable,
      duration: CalendarPeriod(1, .month), entitlement: "premium"),
    CatalogProduct(
      id: "com.example.premium.yearly", type: .autoRenewable, duration: CalendarPeriod(1, .year),
      entitlement: "premium"),
    CatalogProduct(
      id: "com.example.magazine.monthly", type: .autoRenewable,
      duration: CalendarPeriod(1, .month), entitlement: "magazine"),
  ])

  static let catalogJSON = """
    {"products": [
      {"id": "com.example.premium.monthly", "type": "autoRenewable", "duration": "P1M", "entitlement": "premium"},
      {"id": "com.example.premium.yearly", "type": "autoRenewable", "duration": "P1Y", "entitlement": "premium"},
      {"id": "com.example.magazine.monthly", "type": "autoRenewable", "duration": "P1M", "entitlement": "magazine"}
    ]}
    """

  /// One purchase of a subscription: what both document shapes are written from.
  struct Purchase {
    var transactionID: Int64
    var originalTransactionID: Int64
    var webOrderLineItemID: Int64
    var productID: String
    var group: String
    var purchase: Int64
    var originalPurchase: Int64
    var expires: Int64
    var revocation: Int64?
    var isRenewal: Bool
  }

  /// A subscription's renewal info.
  struct Renewal {
    var originalTransactionID: Int64
    var productID: String
    var autoRenewStatus: Bool
    var expirationIntent: Int?
    var isInBillingRetryPeriod: Bool
    var gracePeriodExpires: Int64?
    var renewalDate: Int64
    var signedDate: Int64
  }

  /// A subscriber's purchases and renewal info.
  struct Subscriber {
    var purchases: [Purchase] = []
    var renewals: [Renewal] = []
  }

  /// Subscriber `index` with `entries` purchases in all, one subscription or (one in five) two.
  static func subscriber(_ index: Int, entries: Int, seed: UInt64) -> Subscriber {
    var random = SeededRandom(seed: seed &* 1_000_003 &+ UInt64(index))
    var subscriber = Subscriber()
    let two = entries >= 4 && random.chance(0.2)
    let counts = two ? [entries - entries / 3, entries / 3] : [entries]
    for (subscription, count) in counts.enumerated() {
      let original = 2_000_000_000_000_000 + Int64(index) * 1_000 + Int64(subscription) * 200
      let yearly = subscription == 0 && random.chance(0.15)
      let product =
        subscription == 1
        ? "com.example.magazine.monthly"
        : yearly ? "com.example.premium.yearly" : "com.example.premium.monthly"
      let length: Int64 = yearly ? 365 * 86_400_000 : 30 * 86_400_000
      // Most subscriptions run up to `at`; some ended earlier.
      let endsBefore = random.chance(0.3) ? random.int64(in: 1...400) * 86_400_000 : 0
      var cursor =
        at.millisecondsSince1970 - endsBefore - Int64(count) * length
        + random.int64(in: 0...(length - 1))
      let first = cursor
      var purchases: [Purchase] = []
      for number in 0..<count {
        if number > 0, random.chance(0.06) {
          cursor += random.int64(in: 1...60) * 86_400_000
        }
        purchases.append(
          Purchase(
            transactionID: original + Int64(number), originalTransactionID: original,
            webOrderLineItemID: 1_000_000_000_000_000 + Int64(index) * 1_000
              + Int64(subscription) * 200 + Int64(number),
            productID: product, group: subscription == 1 ? "20000002" : "20000001",
            purchase: cursor, originalPurchase: first, expires: cursor + length,
            revocation: random.chance(0.01) ? cursor + 3 * 86_400_000 : nil,
            isRenewal: number > 0))
        cursor += length
      }
      let last = purchases[purchases.count - 1]
      let renews = random.chance(0.75)
      let retry = !renews && random.chance(0.2)
      subscriber.renewals.append(
        Renewal(
          originalTransactionID: original, productID: product, autoRenewStatus: renews,
          expirationIntent: renews ? nil : retry ? 2 : 1, isInBillingRetryPeriod: retry,
          gracePeriodExpires: retry && random.chance(0.5) ? last.expires + 16 * 86_400_000 : nil,
          renewalDate: last.expires, signedDate: at.millisecondsSince1970 - 3_600_000))
      subscriber.purchases += purchases
    }
    return subscriber
  }

  // MARK: - Writing

  /// A verifyReceipt response (Apple's full set of fields per entry, in `latest_receipt_info`
  /// newest first, with `pending_renewal_info`) for `subscribers`.
  static func verifyReceipt(_ subscribers: [Subscriber]) -> [UInt8] {
    var out = Bytes()
    out.text(
      #"{"status": 0, "environment": "Production", "receipt": {"receipt_type": "Production", "#
        + #""adam_id": 1234567890, "app_item_id": 1234567890, "bundle_id": "com.example.app", "#
        + #""application_version": "42", "download_id": 98765432101234, "#
        + #""version_external_identifier": 845123456, "#
        + #""receipt_creation_date": "2026-05-31 23:00:00 Etc/GMT", "#
        + #""receipt_creation_date_ms": "1780268400000", "#
        + #""receipt_creation_date_pst": "2026-05-31 16:00:00 America/Los_Angeles", "#
        + #""request_date": "2026-06-01 00:00:00 Etc/GMT", "request_date_ms": "1780272000000", "#
        + #""request_date_pst": "2026-05-31 17:00:00 America/Los_Angeles", "#
        + #""original_purchase_date": "2024-01-01 00:00:00 Etc/GMT", "#
        + #""original_purchase_date_ms": "1704067200000", "#
        + #""original_purchase_date_pst": "2023-12-31 16:00:00 America/Los_Angeles", "#
        + #""original_application_version": "1.0", "in_app": []}, "latest_receipt_info": ["#)
    var first = true
    for subscriber in subscribers {
      for purchase in subscriber.purchases.reversed() {
        if !first { out.text(", ") }
        first = false
        receiptEntry(purchase, &out)
      }
    }
    out.text(
      #"], "latest_receipt": "MIIUVQYJKoZIhvcNAQcCoIIURjCCFEICAQExCzAJBgUrDgMCGgUAMIID9gYJKoZIhvcNAQcBoIID5wSCA+MxggPfMAoCAQgCAQEEAhYAMAoCARQCAQEEAgwAMAsCAQECAQEEAwIBADALAgEDAgEBBAMMATEwCwIBCwIBAQQDAgEAMAsCAQ8CAQEEAwIBADALAgEQAgEBBAMCAQAwCwIBGQIBAQQDAgEDMAwCAQoCAQEEBBYCNCswDAIBDgIBAQQEAgIAkjANAgENAgEBBAUCAwH9YDANAgETAgEBBAUMAzEuMDAOAgEJAgEBBAYCBFAyNTYwGAIBBAIBAgQQ", "pending_renewal_info": ["#
    )
    first = true
    for subscriber in subscribers {
      for renewal in subscriber.renewals {
        if !first { out.text(", ") }
        first = false
        out.text(#"{"auto_renew_product_id": ""#)
        out.text(renewal.productID)
        out.text(#"", "product_id": ""#)
        out.text(renewal.productID)
        out.text(#"", "original_transaction_id": ""#)
        out.integer(renewal.originalTransactionID)
        out.text(#"", "auto_renew_status": ""#)
        out.text(renewal.autoRenewStatus ? "1" : "0")
        out.text("\"")
        if let intent = renewal.expirationIntent {
          out.text(#", "expiration_intent": ""#)
          out.integer(Int64(intent))
          out.text("\"")
        }
        if renewal.isInBillingRetryPeriod {
          out.text(#", "is_in_billing_retry_period": "1""#)
        }
        if let grace = renewal.gracePeriodExpires {
          dateTriple("grace_period_expires_date", grace, &out)
        }
        out.text("}")
      }
    }
    out.text("]}")
    return out.bytes
  }

  /// One entry of `latest_receipt_info`, with Apple's fields (about 600 bytes).
  static func receiptEntry(_ purchase: Purchase, _ out: inout Bytes) {
    out.text(#"{"quantity": "1", "product_id": ""#)
    out.text(purchase.productID)
    out.text(#"", "transaction_id": ""#)
    out.integer(purchase.transactionID)
    out.text(#"", "original_transaction_id": ""#)
    out.integer(purchase.originalTransactionID)
    out.text("\"")
    dateTriple("purchase_date", purchase.purchase, &out)
    dateTriple("original_purchase_date", purchase.originalPurchase, &out)
    dateTriple("expires_date", purchase.expires, &out)
    if let revocation = purchase.revocation {
      dateTriple("cancellation_date", revocation, &out)
      out.text(#", "cancellation_reason": "0""#)
    }
    out.text(#", "web_order_line_item_id": ""#)
    out.integer(purchase.webOrderLineItemID)
    out.text(#"", "is_trial_period": "false", "is_in_intro_offer_period": "false", "#)
    out.text(#""in_app_ownership_type": "PURCHASED", "subscription_group_identifier": ""#)
    out.text(purchase.group)
    out.text("\"}")
  }

  /// `, "name": "…Etc/GMT", "name_ms": "…", "name_pst": "…America/Los_Angeles"`.
  static func dateTriple(_ name: String, _ milliseconds: Int64, _ out: inout Bytes) {
    let text = Instant(millisecondsSince1970: milliseconds).description
    let date = text.replacingOccurrences(of: "T", with: " ").dropLast()
    out.text(", \"\(name)\": \"\(date) Etc/GMT\", \"\(name)_ms\": \"")
    out.integer(milliseconds)
    // The Pacific time is eight hours behind (Apple writes it with daylight saving; the
    // reader ignores it).
    let pacific = Instant(millisecondsSince1970: milliseconds - 28_800_000).description
    out.text(
      "\", \"\(name)_pst\": \"\(pacific.replacingOccurrences(of: "T", with: " ").dropLast()) "
        + "America/Los_Angeles\"")
  }

  /// A decoded signed transaction (`JWSTransactionDecodedPayload`), with Apple's fields.
  static func transactionPayload(_ purchase: Purchase, _ out: inout Bytes) {
    out.text(#"{"transactionId": ""#)
    out.integer(purchase.transactionID)
    out.text(#"", "originalTransactionId": ""#)
    out.integer(purchase.originalTransactionID)
    out.text(#"", "webOrderLineItemId": ""#)
    out.integer(purchase.webOrderLineItemID)
    out.text(#"", "bundleId": "com.example.app", "productId": ""#)
    out.text(purchase.productID)
    out.text(#"", "subscriptionGroupIdentifier": ""#)
    out.text(purchase.group)
    out.text(#"", "purchaseDate": "#)
    out.integer(purchase.purchase)
    out.text(#", "originalPurchaseDate": "#)
    out.integer(purchase.originalPurchase)
    out.text(#", "expiresDate": "#)
    out.integer(purchase.expires)
    out.text(#", "quantity": 1, "type": "Auto-Renewable Subscription", "#)
    out.text(#""inAppOwnershipType": "PURCHASED", "signedDate": "#)
    out.integer(purchase.purchase + 1_000)
    if let revocation = purchase.revocation {
      out.text(#", "revocationDate": "#)
      out.integer(revocation)
      out.text(#", "revocationReason": 0"#)
    }
    out.text(#", "environment": "Production", "transactionReason": ""#)
    out.text(purchase.isRenewal ? "RENEWAL" : "PURCHASE")
    out.text(#"", "storefront": "USA", "storefrontId": "143441", "price": 9990, "#)
    out.text(#""currency": "USD", "appTransactionId": "704289572311676239"}"#)
  }

  /// A decoded signed renewal info (`JWSRenewalInfoDecodedPayload`), with Apple's fields.
  static func renewalPayload(_ renewal: Renewal, _ out: inout Bytes) {
    out.text(#"{"originalTransactionId": ""#)
    out.integer(renewal.originalTransactionID)
    out.text(#"", "autoRenewProductId": ""#)
    out.text(renewal.productID)
    out.text(#"", "productId": ""#)
    out.text(renewal.productID)
    out.text(#"", "autoRenewStatus": "#)
    out.text(renewal.autoRenewStatus ? "1" : "0")
    if let intent = renewal.expirationIntent {
      out.text(#", "expirationIntent": "#)
      out.integer(Int64(intent))
    }
    out.text(#", "isInBillingRetryPeriod": "#)
    out.text(renewal.isInBillingRetryPeriod ? "true" : "false")
    if let grace = renewal.gracePeriodExpires {
      out.text(#", "gracePeriodExpiresDate": "#)
      out.integer(grace)
    }
    out.text(#", "signedDate": "#)
    out.integer(renewal.signedDate)
    out.text(#", "environment": "Production", "recentSubscriptionStartDate": "#)
    out.integer(renewal.renewalDate - 30 * 86_400_000)
    out.text(#", "renewalDate": "#)
    out.integer(renewal.renewalDate)
    out.text(#", "renewalPrice": 9990, "currency": "USD", "#)
    out.text(#""appTransactionId": "704289572311676239"}"#)
  }

  /// `{"subscriber": "ID", "documents": [transaction, …, renewal info, …]}`: the decoded
  /// payloads a backend stores once it has verified them.
  static func subscriberLine(_ index: Int, _ subscriber: Subscriber, _ out: inout Bytes) {
    out.text(#"{"subscriber": "user-"#)
    out.integer(Int64(index))
    out.text(#"", "documents": ["#)
    var first = true
    for purchase in subscriber.purchases {
      if !first { out.text(", ") }
      first = false
      transactionPayload(purchase, &out)
    }
    for renewal in subscriber.renewals {
      out.text(", ")
      renewalPayload(renewal, &out)
    }
    out.text("]}\n")
  }

  /// A page of the Get Transaction History response: each transaction a JWS whose header
  /// carries a certificate chain of Apple's size (about 4 KB), as Apple sends it.
  static func historyPage(_ subscriber: Subscriber) -> [UInt8] {
    var out = Bytes()
    out.text(#"{"revision": "1780272000000_2000000000000019", "bundleId": "com.example.app", "#)
    out.text(#""appAppleId": 1234567890, "environment": "Production", "hasMore": false, "#)
    out.text(#""signedTransactions": ["#)
    for (index, purchase) in subscriber.purchases.enumerated() {
      if index > 0 { out.text(", ") }
      var payload = Bytes()
      transactionPayload(purchase, &payload)
      out.text("\"")
      out.text(jws(payload.bytes))
      out.text("\"")
    }
    out.text("]}")
    return out.bytes
  }

  /// A subscription's signed renewal info, as a JWS.
  static func signedRenewalInfo(_ renewal: Renewal) -> String {
    var payload = Bytes()
    renewalPayload(renewal, &payload)
    return jws(payload.bytes)
  }

  /// `header.payload.signature` with a header of Apple's shape and size (three certificates
  /// in `x5c`: 1.4 KB, 1.1 KB and 0.6 KB of DER) and a 64-byte signature. Not signed: the
  /// reader does not verify.
  static func jws(_ payload: [UInt8]) -> String {
    base64URL(Array(header.utf8)) + "." + base64URL(payload) + "." + signature
  }

  static let header: String = {
    var random = SeededRandom(seed: 77)
    func certificate(_ count: Int) -> String {
      base64((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }
    return #"{"alg":"ES256","x5c":[""# + certificate(1_400) + #"",""# + certificate(1_100)
      + #"",""# + certificate(600) + #""]}"#
  }()

  static let signature: String = {
    var random = SeededRandom(seed: 78)
    return base64URL((0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) })
  }()

  static func base64(_ bytes: [UInt8]) -> String {
    encode(
      bytes,
      alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8),
      pad: true)
  }

  static func base64URL(_ bytes: [UInt8]) -> String {
    encode(
      bytes,
      alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8),
      pad: false)
  }

  static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 4 / 3 + 4)
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      var value = UInt32(bytes[index]) << 16
      if count > 1 { value |= UInt32(bytes[index + 1]) << 8 }
      if count > 2 { value |= UInt32(bytes[index + 2]) }
      for position in 0..<4 {
        if position <= count {
          out.append(alphabet[Int(value >> UInt32(18 - 6 * position) & 63)])
        } else if pad {
          out.append(UInt8(ascii: "="))
        }
      }
      index += 3
    }
    return String(decoding: out, as: UTF8.self)
  }
}

/// Bytes written as they go, for the generators.
struct Bytes {
  var bytes: [UInt8] = []

  mutating func text(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  mutating func text(_ text: Substring) { bytes.append(contentsOf: text.utf8) }

  mutating func integer(_ value: Int64) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      integer(-value)
      return
    }
    if value >= 10 { integer(value / 10) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }
}
