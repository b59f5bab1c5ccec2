/// Classification, the evaluator's one pass over the entries (issue: performance; DESIGN.md
/// "Performance"): each entry gets a type and an entitlement (SPEC §2), its coverage record is
/// evaluated (SPEC §4) and merged into periods (SPEC §5) as it is read, and the order of the
/// entries is proved on the way.
extension Evaluator {
  /// What classifying a history gives: purchase events, what could not be grouped, and one
  /// group per entitlement.
  struct Classification {
    var purchaseEvents: [PurchaseEvent] = []
    var diagnostics: [Diagnostic] = []
    var groups: [EntitlementID: EntitlementGroup] = [:]
    /// Runs of one entitlement are the norm: the current group stays out of the dictionary.
    var currentID: EntitlementID?
    var current: EntitlementGroup

    init(minimumLapse: FixedDuration) {
      current = EntitlementGroup(minimumLapse: minimumLapse)
    }
  }

  /// Gives each entry a type and an entitlement (SPEC §2) and evaluates its coverage record in
  /// the same pass (SPEC §4), reading the entries in `order` (canonical order; `nil` when the
  /// entries are in it). With a proof (``Deduplication/IncreasingIDs``), stops with `false` at
  /// the first entry it does not admit. Fills `result`, which starts empty (a returned value
  /// would be copied, with every list in it retained).
  func classify(
    _ entries: [ReceiptEntry], in order: [Int]?, proving proof: Deduplication.IncreasingIDs?,
    into result: inout Classification
  ) -> Bool {
    // Fields are read in place: reading through `[ReceiptEntry]` may copy a whole entry.
    entries.withUnsafeBufferPointer { entries in
      var proof = proof
      // Catalog products met so far: a history has a handful, so a short scan (identical
      // strings compare by pointer) beats hashing every entry's product id.
      var known: [Product] = []
      // Read through an order, the entries are scattered in memory: each would be a cache miss
      // waiting on the one before. They are touched a few at a time first (``warm(_:_:)``).
      var warmed = 0
      var warmth = 0
      for position in entries.indices {
        if let order, position == warmed {
          warmed = min(entries.count, position + Self.warmedAhead)
          warmth &+= Self.warm(entries, order[position..<warmed])
        }
        let index = order?[position] ?? position
        if proof?.admits(entries, index) == false { return false }
        var entryDiagnostics: [Diagnostic] = []
        // The catalog decides a listed product's type and entitlement (SPEC §2).
        let itemType: ProductType?
        let entitlement: EntitlementID
        if let slot = known.firstIndex(where: { $0.id == entries[index].productID }) {
          (itemType, entitlement) = (known[slot].type, known[slot].entitlement)
        } else if !catalog.isEmpty, let product = catalog[entries[index].productID] {
          if known.count < 8 {
            if known.isEmpty { known.reserveCapacity(8) }  // one allocation, not regrowth
            known.append(product)
          }
          (itemType, entitlement) = (product.type, product.entitlement)
        } else {
          (itemType, entitlement) = ProductClassification.classify(
            entries[index], catalog: catalog, diagnostics: &entryDiagnostics)
        }
        guard let type = itemType, type != .consumable else {
          if !entryDiagnostics.isEmpty { result.diagnostics += entryDiagnostics }
          result.purchaseEvents.append(PurchaseEvent(entry: entries[index], productType: itemType))
          continue
        }
        if entitlement != result.currentID {
          if let currentID = result.currentID { result.groups[currentID] = result.current }
          result.currentID = entitlement
          result.current =
            result.groups.isEmpty
            ? EntitlementGroup(minimumLapse: policy.minimumLapse)
            : result.groups.removeValue(forKey: entitlement)
              ?? EntitlementGroup(minimumLapse: policy.minimumLapse)
          // The first entitlement usually takes every remaining entry: no regrowth.
          if result.groups.isEmpty {
            result.current.records.reserveCapacity(entries.count - position)
          }
        }
        // Later entries are not known yet: an upgrade that needs them leaves the group's
        // cursor incomplete, and the group is evaluated again once they are.
        result.current.append(
          CoverageRules.record(
            of: index, as: type, at: result.current.records.count, in: entries,
            catalog: catalog, policy: policy, cursor: &result.current.cursor, starts: nil))
        if !entryDiagnostics.isEmpty { result.current.diagnostics += entryDiagnostics }
      }
      // The sum of the warming loads is used, so that they are not optimized away.
      if warmth == Int.min { result.diagnostics.reserveCapacity(1) }
      return true
    }
  }

  /// How many entries ``warm(_:_:)`` touches at a time: enough misses to keep the memory
  /// system busy, few enough that they are still cached when classified.
  private static let warmedAhead = 16

  /// Touches every cache line of `entries[index]` for each index, and returns a sum of the
  /// bytes read (for the caller to use, so that the loads are kept).
  ///
  /// A tight loop of independent loads has many cache misses in flight at once; the same loads
  /// made one entry at a time by the classification each wait for the last. Read in a
  /// shuffled history's canonical order, an evaluation of 10⁵ entries took about 14 ms with no
  /// warming and 7 to 11 ms with it (issue: performance). The bytes read are at most 63 apart, so
  /// every 64-byte line an entry spans is touched.
  @inline(never)
  private static func warm(
    _ entries: UnsafeBufferPointer<ReceiptEntry>, _ indices: ArraySlice<Int>
  ) -> Int {
    guard let base = entries.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let stride = MemoryLayout<ReceiptEntry>.stride
    let size = MemoryLayout<ReceiptEntry>.size
    var sum = 0
    for index in indices {
      let entry = raw + index * stride
      sum &+= Int(entry.load(fromByteOffset: 0, as: UInt8.self))
      sum &+= Int(entry.load(fromByteOffset: 63, as: UInt8.self))
      sum &+= Int(entry.load(fromByteOffset: 126, as: UInt8.self))
      sum &+= Int(entry.load(fromByteOffset: size - 1, as: UInt8.self))
    }
    return sum
  }
}
