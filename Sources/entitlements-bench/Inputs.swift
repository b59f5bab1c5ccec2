import Entitlements
import EntitlementsTesting

/// Deterministic benchmark inputs, from seeds.
enum Inputs {
  static let catalog = ProductCatalog([
    CatalogProduct(
      id: "com.example.monthly", type: .autoRenewable, duration: CalendarPeriod(1, .month),
      entitlement: "premium"),
    CatalogProduct(
      id: "com.example.yearly", type: .autoRenewable, duration: CalendarPeriod(1, .year),
      entitlement: "premium"),
  ])

  /// n monthly renewals of one subscription: mostly touching, some gaps, a few refunds.
  static func entries(count: Int, seed: UInt64) -> [ReceiptEntry] {
    var random = SeededRandom(seed: seed)
    var cursor = Instant(millisecondsSince1970: 1_300_000_000_000)
    var entries: [ReceiptEntry] = []
    entries.reserveCapacity(count)
    for index in 0..<count {
      if random.chance(0.1) { cursor = cursor + .hours(random.int64(in: 1...2000)) }
      let end = cursor + .days(30)
      var entry = ReceiptEntry(
        productID: random.chance(0.9) ? "com.example.monthly" : "com.example.yearly",
        transactionID: TransactionID(String(1_000_000_700_000_000 + index)),
        originalTransactionID: "1000000700000000",
        webOrderLineItemID: WebOrderLineItemID(String(1_000_000_050_000_000 + index)),
        purchaseDate: cursor, expiresDate: end)
      if random.chance(0.01) { entry.cancellationDate = cursor + .days(3) }
      entries.append(entry)
      cursor = end
    }
    return entries
  }

  /// A verifyReceipt response with Apple's full set of fields per entry (about 540 bytes each).
  static func verifyReceiptJSON(entries count: Int, seed: UInt64) -> [UInt8] {
    let entries = entries(count: count, seed: seed)
    func triple(_ name: String, _ instant: Instant?) -> String {
      guard let instant else { return "" }
      let text = instant.description.replacingOccurrences(of: "T", with: " ")
        .replacingOccurrences(of: "Z", with: " Etc/GMT")
      return """
        "\(name)": "\(text)", "\(name)_ms": "\(instant.millisecondsSince1970)", \
        "\(name)_pst": "\(text.replacingOccurrences(of: "Etc/GMT", with: "America/Los_Angeles"))", 
        """
    }
    let rendered = entries.map { entry in
      """
      {"quantity": "1", "product_id": "\(entry.productID)", "transaction_id": "\(entry.transactionID)", \
      "original_transaction_id": "\(entry.originalTransactionID)", \(triple("purchase_date", entry.purchaseDate))\
      \(triple("original_purchase_date", entry.purchaseDate))\(triple("expires_date", entry.expiresDate))\
      \(triple("cancellation_date", entry.cancellationDate))"web_order_line_item_id": "\(entry.webOrderLineItemID?.rawValue ?? "0")", \
      "is_trial_period": "false", "is_in_intro_offer_period": "false", "in_app_ownership_type": "PURCHASED"}
      """
    }.joined(separator: ",\n")
    let text = """
      {"status": 0, "environment": "Production", "receipt": {"receipt_type": "Production", \
      "bundle_id": "com.example.app", "receipt_creation_date_ms": "1600000000000", "in_app": []}, \
      "latest_receipt_info": [\(rendered)], "latest_receipt": "MIIT...", \
      "pending_renewal_info": [{"auto_renew_product_id": "com.example.monthly", \
      "original_transaction_id": "1000000700000000", "product_id": "com.example.monthly", "auto_renew_status": "1"}]}
      """
    return Array(text.utf8)
  }

  /// The history of a generated verifyReceipt document; stops the benchmark if it does not
  /// read.
  static func read(_ document: [UInt8]) -> PurchaseHistory {
    do {
      return try VerifyReceiptResponse(unverifiedJSON: document).history
    } catch {
      fatalError("entitlements-bench: a generated receipt does not read: \(error)")
    }
  }

  /// Monthly issues over the history.
  static func releases(count: Int) -> [Release] {
    (0..<count).map { index in
      Release(
        id: ReleaseID("issue-\(index)"),
        date: Instant(millisecondsSince1970: 1_300_000_000_000) + .days(Int64(index) * 30))
    }
  }
}
