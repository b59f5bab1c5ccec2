/// Gives each entry a product type and an entitlement (SPEC §2).
///
/// With the product in the catalog, the catalog decides. Without a catalog, an entry with
/// `expires_date` is auto-renewable and entries group by `original_transaction_id`, which
/// names the entitlement. An entry without `expires_date` and without a catalog entry cannot be
/// typed: it may be a non-consumable, a consumable or a non-renewing subscription, and guessing
/// wrong would grant access forever. It becomes a purchase event with a
/// ``Diagnostic/Kind/unknownProductType`` diagnostic (DESIGN.md, "Entries without a catalog").
/// A product missing from a non-empty catalog is typed the same way, with a
/// ``Diagnostic/Kind/productNotInCatalog`` diagnostic.
enum ProductClassification {
  /// The catalog duration an entry counts with: its product's, and none for a product missing
  /// from the catalog (classified from its fields).
  static func duration(of entry: ReceiptEntry, catalog: ProductCatalog) -> CalendarPeriod? {
    catalog.isEmpty ? nil : catalog[entry.productID]?.duration
  }

  /// An entry whose product is not in the catalog: typed from its fields (`nil` when it cannot
  /// be typed) and grouped by `original_transaction_id`. An entry whose product is in the
  /// catalog takes the product's type and entitlement; the evaluator reads them directly.
  static func classify(
    _ entry: ReceiptEntry, catalog: ProductCatalog, diagnostics: inout [Diagnostic]
  ) -> (type: ProductType?, entitlement: EntitlementID) {
    if !catalog.isEmpty {
      diagnostics.append(
        Diagnostic(
          .productNotInCatalog, transactionID: entry.transactionID, field: "product_id",
          message:
            "product \(entry.productID) is not in the catalog; grouped by "
            + "original_transaction_id \(entry.originalTransactionID)"))
    }
    let entitlement = EntitlementID(entry.originalTransactionID.rawValue)
    if entry.expiresDate != nil {
      return (.autoRenewable, entitlement)
    }
    diagnostics.append(
      Diagnostic(
        .unknownProductType, transactionID: entry.transactionID, field: "expires_date",
        message:
          "no expires_date and no catalog entry for \(entry.productID): kept as a purchase "
          + "event, unlocks nothing; list the product in the catalog to grant access"))
    return (nil, entitlement)
  }
}
