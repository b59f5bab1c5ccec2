import Foundation
import Testing

@testable import Entitlements

/// What the reader's tests share: documents made here, and how a reading is told in one line.
enum ReaderTestSupport {
  /// A compact JWS around a payload (unsigned: the reader does not verify signatures).
  static func jws(_ payload: String) -> String {
    let encoded = Data(payload.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    return "eyJhbGciOiJFUzI1NiJ9.\(encoded).c2ln"
  }

  /// What a document reads as, in one line: its kind and each of its diagnostics (`field:
  /// message`, in the order made), or its error.
  static func outcome(_ json: String) -> String {
    outcome(Array(json.utf8))
  }

  static func outcome(_ bytes: [UInt8]) -> String {
    do {
      let document = try DocumentReader.readUnverified(bytes)
      return
        (["\(type(of: document.document))"]
        + document.diagnostics.map { "\($0.field): \($0.message)" }).joined(separator: "; ")
    } catch {
      return "error: \(error)"
    }
  }

  /// Expects `json` to read as `expected` (``outcome(_:)``), and the reader to be consistent
  /// on it (``DocumentReader/_consistencyProblem(_:)``: in place as whole, refusing as not JSON
  /// what the JSON parser refuses).
  static func expectRead(
    _ json: String, as expected: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(outcome(json) == expected, "\(json)", sourceLocation: sourceLocation)
    #expect(
      DocumentReader._consistencyProblem(Array(json.utf8)) == nil, "\(json)",
      sourceLocation: sourceLocation)
  }

  /// Whether two identifiers' strings are one allocation: the address of their UTF-8 bytes
  /// (ids longer than 15 bytes are never held inline, so equal text alone does not pass).
  static func shareStorage<ID: TypedIdentifier>(_ first: ID, _ second: ID) -> Bool {
    func address(_ id: ID) -> UnsafeRawPointer? {
      id.rawValue.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) }
        ?? nil
    }
    // A short string is held inline: equal text would pass for one allocation.
    guard first.rawValue.utf8.count > 15 else { return false }
    return first == second && address(first) != nil && address(first) == address(second)
  }

  static let transactionPayload = #"""
    {"transactionId": "2000000123", "originalTransactionId": "2000000100",
     "webOrderLineItemId": "2000000050", "bundleId": "com.example", "productId": "monthly",
     "subscriptionGroupIdentifier": "21000000", "purchaseDate": 1698148900000,
     "originalPurchaseDate": 1698148000000, "expiresDate": 1700827300000, "quantity": 1,
     "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
     "signedDate": 1698148901000, "revocationDate": 1698149000000, "revocationReason": 1,
     "offerType": 3, "offerIdentifier": "SPRING", "isUpgraded": false,
     "environment": "Sandbox", "transactionReason": "PURCHASE", "storefront": "USA",
     "price": 4990, "currency": "USD", "offerPeriod": "P1M"}
    """#
  static let renewalPayload = #"""
    {"originalTransactionId": "2000000100", "autoRenewProductId": "yearly",
     "productId": "monthly", "autoRenewStatus": 1, "expirationIntent": 2,
     "isInBillingRetryPeriod": true, "gracePeriodExpiresDate": 1700900000000,
     "priceIncreaseStatus": 0, "signedDate": 1698148901000, "environment": "Sandbox",
     "recentSubscriptionStartDate": 1698148000000, "renewalDate": 1700827300000}
    """#
  /// A v2 notification whose signed fields are JWS (as Apple sends it, decoded).
  static let notificationPayload = #"""
    {"notificationType": "DID_FAIL_TO_RENEW", "subtype": "GRACE_PERIOD", "version": "2.0",
     "notificationUUID": "u", "signedDate": 1698148902000, "data": {"appAppleId": 1,
       "bundleId": "com.example", "environment": "Sandbox", "status": 4,
       "signedTransactionInfo": "\#(jws(transactionPayload))",
       "signedRenewalInfo": "\#(jws(renewalPayload))"}}
    """#
}
