/// An entry (by its index in the deduplicated entries) with the product type it counts with
/// (SPEC §2). Eight bytes on purpose: one is made per entry of every evaluation, and the
/// entitlement and the duration are not stored (entries are grouped by entitlement as they are
/// classified, and the few rules that need a duration look it up in the catalog:
/// ``ProductClassification/duration(of:catalog:)``).
struct ClassifiedEntry: Sendable {
  private var storedIndex: UInt32
  /// `nil` when the type cannot be known: no catalog and no `expires_date`.
  var type: ProductType?

  init(index: Int, type: ProductType?) {
    precondition(index >= 0 && index < Int(UInt32.max), "more entries than a history may hold")
    storedIndex = UInt32(index)
    self.type = type
  }

  /// The entry's index in the history's deduplicated entries.
  var index: Int { Int(storedIndex) }
}

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
  /// An entry whose product is in the catalog: the catalog decides.
  static func classify(index: Int, product: Product) -> ClassifiedEntry {
    ClassifiedEntry(index: index, type: product.type)
  }

  /// The catalog duration an entry counts with: its product's, and none for a product missing
  /// from the catalog (classified from its fields).
  static func duration(of entry: ReceiptEntry, catalog: ProductCatalog) -> CalendarPeriod? {
    catalog.isEmpty ? nil : catalog[entry.productID]?.duration
  }

  /// An entry whose product is not in the catalog: typed from its fields and grouped by
  /// `original_transaction_id`.
  static func classify(
    _ entry: ReceiptEntry, index: Int, catalog: ProductCatalog, diagnostics: inout [Diagnostic]
  ) -> (entry: ClassifiedEntry, entitlement: EntitlementID) {
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
      return (ClassifiedEntry(index: index, type: .autoRenewable), entitlement)
    }
    diagnostics.append(
      Diagnostic(
        .unknownProductType, transactionID: entry.transactionID, field: "expires_date",
        message:
          "no expires_date and no catalog entry for \(entry.productID): kept as a purchase "
          + "event, unlocks nothing; list the product in the catalog to grant access"))
    return (ClassifiedEntry(index: index, type: nil), entitlement)
  }
}
