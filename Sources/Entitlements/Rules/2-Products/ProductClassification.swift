/// Gives each entry a product type and its entitlements (SPEC §2): its product's own, and
/// those the product unlocks besides.
///
/// With the product in the catalog, the catalog decides. Without a catalog, an entry with
/// `expires_date` is auto-renewable and entries group by `original_transaction_id`, which
/// names the entitlement. An entry without `expires_date` and without a catalog entry cannot be
/// typed: it may be a non-consumable, a consumable or a non-renewing subscription, and guessing
/// wrong would grant access forever. It becomes a purchase event with a
/// ``Diagnostic/Kind/unknownProductType`` diagnostic (DESIGN.md, "Entries without a catalog").
/// A product missing from a non-empty catalog is typed the same way, with a
/// ``Diagnostic/Kind/productNotInCatalog`` diagnostic. Apple's own `type` of a transaction
/// (``ReceiptEntry/appleProductType``) decides the kind of a product no catalog lists, with a
/// ``Diagnostic/Kind/productTypeFromApple`` diagnostic: a non-consumable is owned, a consumable
/// is a purchase event, and a non-renewing subscription, which needs the catalog's duration,
/// is a purchase event. Consumables are purchase events.
enum ProductClassification {
  /// The entries of one entitlement, in canonical order, as runs of entries next to each
  /// other in that order that count with one product type: a history of one catalog product,
  /// or of several of one type (monthly and yearly plans), is one run, however long; a run
  /// ends only where an entry of another type, of another entitlement or a purchase event
  /// comes between.
  struct Group {
    /// Entries of one type, at consecutive positions of the canonical order.
    struct Run {
      /// The positions in the canonical order.
      var positions: Range<Int>
      /// The type the entries count with.
      let productType: ProductKind
    }

    /// The entitlement.
    let id: EntitlementID
    /// The canonical order the runs' positions are in: indices of the history's entries, or
    /// `nil` for the entries' own order.
    let order: [Int]?
    /// The first run, kept in place: most groups have one, and need no list.
    private var firstRun: Run?
    /// The runs after the first.
    private var laterRuns: [Run] = []
    /// The diagnostics of classifying the entries (a product missing from the catalog).
    var diagnostics: [Diagnostic] = []

    init(id: EntitlementID, order: [Int]?) {
      (self.id, self.order) = (id, order)
    }

    /// How many runs the group holds.
    var runCount: Int { firstRun == nil ? 0 : 1 + laterRuns.count }

    /// The run at `index`, `0 ..< runCount`.
    func run(_ index: Int) -> Run {
      guard index > 0, !laterRuns.isEmpty else {
        guard let firstRun, index == 0 else { preconditionFailure("no run \(index)") }
        return firstRun
      }
      return laterRuns[index - 1]
    }

    /// How many entries the group holds.
    var count: Int {
      (firstRun?.positions.count ?? 0) + laterRuns.reduce(0) { $0 + $1.positions.count }
    }

    /// Adds a run after the others.
    mutating func add(_ run: Run) {
      if firstRun == nil { firstRun = run } else { laterRuns.append(run) }
    }

    /// The index of the entry at `position` of the canonical order.
    @inline(__always)
    func entryIndex(at position: Int) -> Int { order?[position] ?? position }
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
  /// Entries of one product usually come in runs, or alternate between two products around an
  /// upgrade or a downgrade: the catalog is read only for a product other than the last two,
  /// and a run costs nothing per entry.
  static func classify(
    _ order: [Int]?, of entries: [ReceiptEntry], catalog: ProductCatalog
  ) -> Classification {
    var builder = Builder()
    // The positions of the groups by entitlement, made when a second group appears.
    var positions: [EntitlementID: Int] = [:]
    // The catalog product of the previous entry, when it goes to the current group: the next
    // entry is usually of the same product, and extends the run with nothing to write.
    var previousProduct: ProductID?
    // The catalog product met before it, with its type and group: entries alternate between
    // two products around upgrades and downgrades.
    var otherProduct: (id: ProductID, type: ProductKind, group: Int)?
    let count = order?.count ?? entries.count
    // Entries are read in place: a copy of an entry retains its strings.
    entries.withUnsafeBufferPointer { entries in
      for position in 0..<count {
        let index = order?[position] ?? position
        if let previousProduct, previousProduct == entries[index].productID { continue }
        let previous = previousProduct.flatMap { product in
          builder.current.map { (product, builder.type, $0) }
        }
        previousProduct = nil
        if let other = otherProduct,
          other.id.rawValue.isSameText(as: entries[index].productID.rawValue)
        {
          // The product before the previous one: its type and group are known.
          otherProduct = previous
          builder.join(other.group, other.type, at: position)
          previousProduct = entries[index].productID
          continue
        }
        if let previous { otherProduct = previous }
        var diagnostics: [Diagnostic] = []
        // The product's place in the catalog: its type and entitlement are read there, with
        // no copy of the product.
        let product = catalog.isEmpty ? nil : catalog.position(of: entries[index].productID)
        let (type, entitlement) =
          product.map { (catalog.listed[$0].type, catalog.listed[$0].entitlement) }
          ?? classify(entries[index], catalog: catalog, diagnostics: &diagnostics)
        guard let type, type != .consumable else {
          builder.addPurchaseEvent(entries[index], type, at: position, diagnostics)
          continue
        }
        var group = builder.current ?? 0
        if builder.current.map({ builder.result.groups[$0].id != entitlement }) ?? true {
          group = builder.group(of: entitlement, order: order, positions: &positions)
        }
        builder.join(group, type, at: position)
        // The entry's own string, not the catalog's: entries read from one document share one
        // string per product, and the same string is recognised without reading its text.
        if product != nil { previousProduct = entries[index].productID }
        if !diagnostics.isEmpty { builder.result.groups[group].diagnostics += diagnostics }
      }
    }
    builder.end(before: count)
    var result = builder.result
    if !catalog.sharedEntitlements.isEmpty {
      share(catalog.sharedEntitlements, in: &result, order: order, of: entries, catalog: catalog)
    }
    if result.groups.count > 1 { result.groups.sort { $0.id < $1.id } }
    return result
  }

  /// The groups of entitlements that products unlock besides their own ("premium includes
  /// basic"), made again from every entry whose catalog product unlocks them: an entry may
  /// then count in several groups. Out of line: most catalogs have none.
  @inline(never)
  private static func share(
    _ shared: [EntitlementID], in result: inout Classification, order: [Int]?,
    of entries: [ReceiptEntry], catalog: ProductCatalog
  ) {
    let count = order?.count ?? entries.count
    for entitlement in shared {
      let existing = result.groups.firstIndex { $0.id == entitlement }
      var group = Group(id: entitlement, order: order)
      if let existing { group.diagnostics = result.groups[existing].diagnostics }
      var run: (start: Int, type: ProductKind)?
      func close(before end: Int) {
        if let open = run {
          group.add(Group.Run(positions: open.start..<end, productType: open.type))
        }
        run = nil
      }
      for position in 0..<count {
        let entry = entries[order?[position] ?? position]
        let product = catalog.position(of: entry.productID).map { catalog.listed[$0] }
        guard let product, product.type != .consumable,
          product.unlocked.contains(entitlement)
        else {
          close(before: position)
          continue
        }
        if let open = run, open.type == product.type { continue }
        close(before: position)
        run = (position, product.type)
      }
      close(before: count)
      if let existing {
        result.groups[existing] = group
      } else if group.runCount > 0 {
        result.groups.append(group)
      }
    }
  }

  /// The classification being made, and the run being read: its group, first position and
  /// type. A run ends where an entry of another type, or one that goes elsewhere, is met.
  private struct Builder {
    /// The groups, purchase events and diagnostics so far.
    var result = Classification()
    /// The group entries go to (usually the only one).
    var current: Int?
    /// The first position of the run being read; `nil` between runs.
    var start: Int?
    /// The type the run's entries count with.
    var type = ProductKind.autoRenewable

    /// Ends the run being read before `position`.
    mutating func end(before position: Int) {
      if let start, let current {
        result.groups[current].add(Group.Run(positions: start..<position, productType: type))
      }
      start = nil
    }

    /// The position of `entitlement`'s group, which its first entry makes; `positions` holds
    /// the groups' positions once there are two. Out of line, as
    /// ``addPurchaseEvent(_:_:at:_:)``: the loop over the entries seldom calls either, and stays
    /// short (DESIGN.md, "Performance").
    @inline(never)
    mutating func group(
      of entitlement: EntitlementID, order: [Int]?, positions: inout [EntitlementID: Int]
    ) -> Int {
      if let found = positions[entitlement] { return found }
      if result.groups.count == 1 { positions[result.groups[0].id] = 0 }
      let group = result.groups.count
      if group > 0 { positions[entitlement] = group }
      result.groups.append(Group(id: entitlement, order: order))
      return group
    }

    /// The entry at `position`, of a consumable or of no known type, is a purchase event, with
    /// its `diagnostics`: it ends the run being read.
    @inline(never)
    mutating func addPurchaseEvent(
      _ entry: ReceiptEntry, _ type: ProductKind?, at position: Int, _ diagnostics: [Diagnostic]
    ) {
      end(before: position)
      if !diagnostics.isEmpty { result.diagnostics += diagnostics }
      result.purchaseEvents.append(PurchaseEvent(entry: entry, productType: type))
    }

    /// The entry at `position` goes to `group` with `type`: the run being read goes on when
    /// it is of that group and type, else another begins.
    mutating func join(_ group: Int, _ type: ProductKind, at position: Int) {
      if start != nil, current == group, self.type == type { return }
      end(before: position)
      (current, start, self.type) = (group, position, type)
    }
  }

  /// The duration an entry counts with: a month for a billing period of a commitment (a
  /// one-year product paid monthly pays for one month at a time: SPEC §4 "Commitments", §7),
  /// else its product's in the catalog, and none for a product missing from the catalog
  /// (classified from its fields).
  static func duration(of entry: ReceiptEntry, catalog: ProductCatalog) -> CalendarPeriod? {
    if entry.commitment != nil || entry.billingPlanType == .monthly {
      return CalendarPeriod(1, .month)
    }
    return catalog.isEmpty ? nil : catalog[entry.productID]?.duration
  }

  /// An entry whose product is not in the catalog: typed from its fields (`nil` when it cannot
  /// be typed) and grouped by `original_transaction_id`.
  static func classify(
    _ entry: ReceiptEntry, catalog: ProductCatalog, diagnostics: inout [Diagnostic]
  ) -> (type: ProductKind?, entitlement: EntitlementID) {
    if !catalog.isEmpty {
      diagnostics.append(
        rare:
          Diagnostic(
            .productNotInCatalog, transactionID: entry.transactionID, field: "product_id",
            message:
              "product \(entry.productID) is not in the catalog; grouped by "
              + "original_transaction_id \(entry.originalTransactionID)"))
    }
    let entitlement = EntitlementID(entry.originalTransactionID.rawValue)
    // Apple's own `type` of the transaction, where the fields alone cannot tell.
    if let kind = entry.appleProductType, kind != .autoRenewable {
      let (type, outcome): (ProductKind?, String) =
        switch kind {
        case .nonConsumable: (.nonConsumable, "owned from its purchase, for good")
        case .consumable: (.consumable, "a purchase event, unlocking nothing")
        default:
          (nil, "kept as a purchase event: list the product with its duration to grant access")
        }
      diagnostics.append(
        rare:
          Diagnostic(
            .productTypeFromApple, transactionID: entry.transactionID, field: "type",
            message:
              "no catalog lists \(entry.productID); typed from Apple's type "
              + "\"\(kind.appleName)\": \(outcome)"))
      return (type, entitlement)
    }
    if entry.expiresDate != nil {
      return (.autoRenewable, entitlement)
    }
    diagnostics.append(
      rare:
        Diagnostic(
          .unknownProductType, transactionID: entry.transactionID, field: "expires_date",
          message:
            "no expires_date and no catalog entry for \(entry.productID): kept as a purchase "
            + "event, unlocks nothing; list the product in the catalog to grant access"))
    return (nil, entitlement)
  }
}
