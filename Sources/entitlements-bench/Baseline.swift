import Foundation

/// The baseline of the end-to-end benchmark: Foundation's JSONDecoder decoding the same bytes
/// into plain Decodable structs (no evaluation at all).
enum Baseline {
  struct Response: Decodable {
    var status: Int
    var environment: String?
    var latestReceiptInfo: [Entry]?
    var pendingRenewalInfo: [Renewal]?

    enum CodingKeys: String, CodingKey {
      case status, environment
      case latestReceiptInfo = "latest_receipt_info"
      case pendingRenewalInfo = "pending_renewal_info"
    }
  }

  struct Entry: Decodable {
    var quantity: String?
    var productID: String
    var transactionID: String
    var originalTransactionID: String?
    var purchaseDateMS: String?
    var originalPurchaseDateMS: String?
    var expiresDateMS: String?
    var cancellationDateMS: String?
    var webOrderLineItemID: String?
    var isTrialPeriod: String?
    var isInIntroOfferPeriod: String?
    var inAppOwnershipType: String?

    enum CodingKeys: String, CodingKey {
      case quantity
      case productID = "product_id"
      case transactionID = "transaction_id"
      case originalTransactionID = "original_transaction_id"
      case purchaseDateMS = "purchase_date_ms"
      case originalPurchaseDateMS = "original_purchase_date_ms"
      case expiresDateMS = "expires_date_ms"
      case cancellationDateMS = "cancellation_date_ms"
      case webOrderLineItemID = "web_order_line_item_id"
      case isTrialPeriod = "is_trial_period"
      case isInIntroOfferPeriod = "is_in_intro_offer_period"
      case inAppOwnershipType = "in_app_ownership_type"
    }
  }

  struct Renewal: Decodable {
    var autoRenewProductID: String?
    var originalTransactionID: String?
    var autoRenewStatus: String?

    enum CodingKeys: String, CodingKey {
      case autoRenewProductID = "auto_renew_product_id"
      case originalTransactionID = "original_transaction_id"
      case autoRenewStatus = "auto_renew_status"
    }
  }

  static func decode(_ bytes: Data) -> Int {
    (try? JSONDecoder().decode(Response.self, from: bytes))?.latestReceiptInfo?.count ?? -1
  }
}
