import EntitlementsTesting
import Foundation
import Testing

@testable import Entitlements

/// The byte-level reader gives the same answer as the general reader on every document, or
/// gives up (and the general reader answers).
@Suite("Fast verifyReceipt reader agrees with the general reader")
struct FastVerifyReceiptReaderTests {
  /// Both readers on one document: same response, or the same error.
  static func agree(_ bytes: [UInt8]) -> (agree: Bool, fast: Bool) {
    let fast = FastVerifyReceiptReader.read(bytes)
    let general = Result { () throws(ReadError) in try VerifyReceiptResponse(generalJSON: bytes) }
    let combined = Result { () throws(ReadError) in try VerifyReceiptResponse(json: bytes) }
    if let fast {
      guard case .success(let reference) = general else { return (false, true) }
      return (fast == reference && (try? combined.get()) == reference, true)
    }
    switch (general, combined) {
    case (.success(let a), .success(let b)): return (a == b, false)
    case (.failure(let a), .failure(let b)): return (a == b, false)
    default: return (false, false)
    }
  }

  @Test func everyVerifyReceiptFixture() throws {
    let files = try FileManager.default.subpathsOfDirectory(atPath: fixturesDirectory.path)
      .filter { $0.hasPrefix("verifyreceipt_v1/") || $0.hasPrefix("local_receipts/") }
      .filter { $0.hasSuffix(".json") }
    var fastCount = 0
    for file in files {
      let result = Self.agree(Array(try fixtureData(file)))
      #expect(result.agree, "\(file)")
      if result.fast { fastCount += 1 }
    }
    // Regular real receipts take the fast path (the odd ones, iOS 6 and numeric fields, do not).
    #expect(fastCount >= 8, "fast path taken for \(fastCount) of \(files.count)")
  }

  @Test func everyFieldOfARegularDocument() throws {
    let json = #"""
      {"status": "0", "environment": "Production", "latest_receipt": "MII\/T+=",
       "receipt": {"receipt_type": "ProductionSandbox", "request_date_ms": "1490000000000",
         "receipt_creation_date": "2017-03-20 08:00:00 Etc/GMT", "in_app": [
         {"product_id": "p", "transaction_id": "1", "original_transaction_id": "1",
          "web_order_line_item_id": "w1", "quantity": 2, "purchase_date": "2017-02-20T08:00:00Z",
          "original_purchase_date_ms": "1487577600000", "expires_date_formatted":
          "2017-03-20 00:00:00 America/Los_Angeles", "cancellation_date_ms": "1488000000000",
          "cancellation_reason": "1", "is_trial_period": true, "is_in_intro_offer_period": "0",
          "is_upgraded": "false", "in_app_ownership_type": "FAMILY_SHARED",
          "offer_code_ref_name": "spring", "promotional_offer_id": "promo",
          "unknown": [1, {"a": null}, -2.5e3]}]},
       "latest_receipt_info": [],
       "pending_renewal_info": [{"original_transaction_id": "1", "product_id": "p",
          "auto_renew_product_id": "q", "auto_renew_status": "1", "expiration_intent": "2",
          "is_in_billing_retry_period": "1", "grace_period_expires_date_ms": "1490500000000",
          "price_consent_status": "0", "extra": true}]}
      """#
    let result = Self.agree(Array(json.utf8))
    #expect(result.agree)
    #expect(result.fast)
  }

  @Test(arguments: [
    #"{"status": 0, "latest_receipt_info": {"transaction_id": "1", "product_id": "p"}}"#,
    #"{"status": 0, "receipt": {"transaction_id": "1", "product_id": "p"}}"#,
    #"{"status": 0, "latest_receipt_info": [{"product_id": "p"}]}"#,
    #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "product_id": "p", "purchase_date_ms": 5}]}"#,
    #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "transaction_id": "2", "product_id": "p"}]}"#,
    #"{"status": 0, "auto_renew_status": "0", "latest_receipt_info": []}"#,
    #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "product_id": "p\u00e9"}]}"#,
    #"{"status": 0, "latest_receipt_info": [], "latest_receipt_info": [{"transaction_id": "1", "product_id": "p"}]}"#,
    #"{"status": 01}"#, #"{"status": 0,}"#, "[]",
  ])
  func irregularDocumentsFallBackAndAgree(_ json: String) {
    let result = Self.agree(Array(json.utf8))
    #expect(result.agree)
    #expect(!result.fast)
  }

  @Test(arguments: 0..<4 as Range<UInt64>)
  func theRobustnessCorpus(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let original = Array(RobustnessTests.seeds[0].utf8)
    var fast = 0
    for round in 0..<5000 {
      let mutation = RobustnessTests.Mutation.allCases[
        round % RobustnessTests.Mutation.allCases.count]
      let bytes = RobustnessTests.mutate(original, mutation, &random)
      let result = Self.agree(bytes)
      #expect(result.agree, "seed \(seed) round \(round)")
      if result.fast { fast += 1 }
    }
    // Some mutations leave a regular document (a flipped digit, a shorter id).
    #expect(fast > 0)
  }
}
