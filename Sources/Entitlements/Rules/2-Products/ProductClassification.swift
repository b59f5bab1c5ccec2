/// Gives each entry a product type and an entitlement (SPEC §2).
///
/// With the product in the catalog, the catalog decides. Without a catalog, an entry with
/// `expires_date` is auto-renewable and entries group by `original_transaction_id`, which
/// names the entitlement. An entry without `expires_date` and without a catalog entry cannot be
/// typed: it may be a non-consumable, a consumable or a non-renewing subscription, and guessing
/// wrong would grant access forever. It becomes a purchase event with a
/// ``Diagnostic/Kind/unknownProductType`` diagnostic (DESIGN.md, "Entries without a catalog").
/// A product missing from a non-empty catalog is typed the same way, with a
/// ``Diagnostic/Kind/productNotInCatalog`` diagnostic. Consumables are purchase events.
enum ProductClassification {
  /// The entries of one entitlement, each as a coverage record still to be evaluated
  /// (``CoverageRecord/init(unevaluated:productType:)``), in canonical order.
  struct Group {
    /// The entitlement.
    let id: EntitlementID
    /// One record per entry.
    var records: [CoverageRecord] = []
    /// The diagnostics of classifying the entries (a product missing from the catalog).
    var diagnostics: [Diagnostic] = []
  }

  /// What classifying a history gives.
  struct Classification {
    /// One group per entitlement, by entitlement id.
    var groups: [Group] = []
    /// The entries that unlock no entitlement, in canonical order.
    var purchaseEvents: [PurchaseEvent] = []
    /// The diagnostics of the purchase events.
    var diagnostics: [Diagnostic] = []
  }

  /// Classifies the entries at `order` (canonical order) of `entries`; all of them, in their
  /// own order, when `order` is `nil`.
  ///
  /// Entries of one product usually come in runs: the catalog is read once per run.
  static func classify(
    _ order: [Int]?, of entries: [ReceiptEntry], catalog: ProductCatalog
  ) -> Classification {
    var result = Classification()
    // The group entries go to (usually the only one): its records are held in `records` while
    // it is current, and swapped back into its place when another group becomes current.
    var current: Int?
    var records: [CoverageRecord] = []
    // The positions of the groups by entitlement, made when a second group appears.
    var positions: [EntitlementID: Int] = [:]
    // The catalog product of the previous entry, when it goes to the current group: the next
    // entry is usually of the same product.
    var previousProduct: ProductID?
    var previousType = ProductKind.autoRenewable
    var previousListed = 0
    // The catalog product met before it, by its position in the catalog: entries alternate
    // between two products around upgrades and downgrades.
    var otherProduct: (id: ProductID, listed: Int)?
    // Entries are read in place: a copy of an entry retains its strings.
    entries.withUnsafeBufferPointer { entries in
      for position in 0..<(order?.count ?? entries.count) {
        let index = order?[position] ?? position
        if let previousProduct, previousProduct == entries[index].productID {
          records.append(CoverageRecord(unevaluated: index, productType: previousType))
          continue
        }
        var diagnostics: [Diagnostic] = []
        let listed: Int?
        if let other = otherProduct,
          other.id.rawValue.isSameText(as: entries[index].productID.rawValue)
        {
          listed = other.listed
        } else {
          listed = catalog.isEmpty ? nil : catalog.position(of: entries[index].productID)
        }
        if let previousProduct { otherProduct = (previousProduct, previousListed) }
        previousProduct = nil
        let product = listed.map { catalog.listed[$0] }
        let (type, entitlement) =
          product.map { ($0.type, $0.entitlement) }
          ?? classify(entries[index], catalog: catalog, diagnostics: &diagnostics)
        guard let type, type != .consumable else {
          if !diagnostics.isEmpty { result.diagnostics += diagnostics }
          result.purchaseEvents.append(PurchaseEvent(entry: entries[index], productType: type))
          continue
        }
        if current.map({ result.groups[$0].id != entitlement }) ?? true {
          // Another group becomes current (a nested function here would box the variables
          // it changes, and check each access to them at run time).
          let position: Int
          if let found = positions[entitlement] {
            position = found
          } else {
            if result.groups.count == 1 { positions[result.groups[0].id] = 0 }
            position = result.groups.count
            if position > 0 { positions[entitlement] = position }
            result.groups.append(Group(id: entitlement))
          }
          if let current { swap(&records, &result.groups[current].records) }
          swap(&records, &result.groups[position].records)
          if position == 0 { records.reserveCapacity(order?.count ?? entries.count) }
          current = position
        }
        // The entry's own string, not the catalog's: entries read from one document share one
        // string per product, and the same string is recognised without reading its text.
        if let listed {
          (previousProduct, previousType, previousListed) = (entries[index].productID, type, listed)
        }
        records.append(CoverageRecord(unevaluated: index, productType: type))
        if let current, !diagnostics.isEmpty { result.groups[current].diagnostics += diagnostics }
      }
    }
    if let current { swap(&records, &result.groups[current].records) }
    result.groups.sort { $0.id < $1.id }
    return result
  }

  /// The catalog duration an entry counts with: its product's, and none for a product missing
  /// from the catalog (classified from its fields).
  static func duration(of entry: ReceiptEntry, catalog: ProductCatalog) -> CalendarPeriod? {
    catalog.isEmpty ? nil : catalog[entry.productID]?.duration
  }

  /// An entry whose product is not in the catalog: typed from its fields (`nil` when it cannot
  /// be typed) and grouped by `original_transaction_id`.
  static func classify(
    _ entry: ReceiptEntry, catalog: ProductCatalog, diagnostics: inout [Diagnostic]
  ) -> (type: ProductKind?, entitlement: EntitlementID) {
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
