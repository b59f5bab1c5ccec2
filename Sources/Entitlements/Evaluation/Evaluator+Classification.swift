/// Classification, the evaluator's one pass over the entries (issue: performance; DESIGN.md
/// "Performance"): each entry gets a type and an entitlement (SPEC §2), its coverage record is
/// evaluated (SPEC §4) and merged into periods (SPEC §5) as it is read, and the order of the
/// entries is proved on the way. An out-of-order history is read through its
/// ``CanonicalEntries``, a bucket of instants at a time, and its groups keep room for one
/// period per eight entries; more are merged after the pass (``EntitlementGroup``).
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
    /// The subscriptions of the entries, when the pass tracks them: each group's
    /// ``EntitlementGroup/subscriptionEnds`` are by their slots.
    var subscriptions = KnownSubscriptions()

    init(minimumLapse: FixedDuration) {
      current = EntitlementGroup(minimumLapse: minimumLapse)
    }
  }

  /// Gives each entry a type and an entitlement (SPEC §2) and evaluates its coverage record in
  /// the same pass (SPEC §4), reading the entries in canonical order: through `canonical`, or
  /// in their own order when it is `nil`. With a proof (``Deduplication/IncreasingIDs``), stops
  /// with `false` at the first entry it does not admit, and `result` empty again. Fills
  /// `result`, which starts empty (a returned value would be copied, with every list in it
  /// retained). With `tracksSubscriptions` (the history has renewal info), each group notes
  /// its latest end per subscription (``EntitlementGroup/subscriptionEnds``); `canonical`
  /// must then have been made tracking them too.
  func classify(
    _ entries: [ReceiptEntry], canonical: CanonicalEntries?,
    proving proof: Deduplication.IncreasingIDs?, tracksSubscriptions: Bool,
    into result: inout Classification
  ) -> Bool {
    // Fields are read in place: reading through `[ReceiptEntry]` may copy a whole entry.
    entries.withUnsafeBufferPointer { entries in
      // Canonical entries are handed out a bucket at a time, sorted in a list that stays in
      // cache (``PurchaseBuckets``).
      var reader = canonical.map { PurchaseBuckets.Reader($0.buckets, entries: entries) }
      var proof = proof
      // The catalog products met so far.
      var known = canonical?.products ?? KnownProducts()
      let isCanonical = canonical != nil
      // The subscriptions met, and the current group's latest end per subscription: kept
      // here while the pass runs, and in the result only when the group changes and at the
      // end (written through `result` at each entry, they cost the pass without renewal
      // info 4% more instructions).
      var subscriptions =
        tracksSubscriptions
        ? canonical?.subscriptions ?? KnownSubscriptions() : KnownSubscriptions()
      var ends = KnownSubscriptions.Slots<Instant>(repeating: .distantPast)
      // The slots of the listed products whose entries go to the current group, a bit
      // each: the usual next entry is of one of them, and its entitlement, a `String`, is
      // neither copied nor compared.
      var groupSlots: UInt32 = 0
      for position in entries.indices {
        let index: Int
        let fields: ReceiptEntry.Fields
        let slot: Int?
        let subscription: UInt8
        // A reader only when the entries are read through `canonical`.
        if let entry = reader?.next() {
          (index, fields) = (Int(entry.index), entry.fields)
          slot = entry.product == CanonicalEntries.Entry.unlisted ? nil : Int(entry.product)
          subscription = entry.subscription
        } else {
          (index, fields) = (position, entries[position].fields)
          slot = known.slot(of: entries[position].productID, in: catalog)
          subscription = tracksSubscriptions ? subscriptions.slot(of: position, in: entries) : 0
        }
        if proof?.admits(fields, of: index, in: entries) == false {
          // Emptied at once: the next attempt's memory (canonical entries, records) can
          // then reuse this one's.
          result = Classification(minimumLapse: policy.minimumLapse)
          return false
        }
        let type: ProductType
        if let slot, groupSlots & 1 << slot != 0 {
          type = known.type(at: slot)
        } else {
          if tracksSubscriptions { result.current.subscriptionEnds = ends }
          guard
            let (typed, isNewGroup) = enterGroup(
              of: index, slot: slot, in: entries, known: known,
              remaining: entries.count - position, isCanonical: isCanonical,
              into: &result)
          else { continue }  // a purchase event: the current group stays
          if tracksSubscriptions { ends = result.current.subscriptionEnds }
          type = typed
          if isNewGroup { groupSlots = 0 }
          if let slot { groupSlots |= 1 << slot }
        }
        // Later entries are not known yet: an upgrade that needs them leaves the group's
        // cursor incomplete, and the group is evaluated again once they are.
        let record = CoverageRules.record(
          of: index, fields, as: type, at: result.current.records.count, in: entries,
          catalog: catalog, policy: policy, cursor: &result.current.cursor, starts: nil)
        if tracksSubscriptions, subscription != KnownSubscriptions.unlisted,
          let end = record.interval?.end
        {
          ends[Int(subscription)] = max(ends[Int(subscription)], end)
        }
        result.current.append(record)
      }
      if tracksSubscriptions {
        result.current.subscriptionEnds = ends
        result.subscriptions = subscriptions
      }
      return true
    }
  }

  /// How many entries per period a group read from canonical entries keeps room for.
  static let entriesPerPeriod = 8

  /// The type of `entries[index]` (SPEC §2: the catalog decides a listed product's type and
  /// entitlement), with `result.current` its entitlement's group, and whether that group is
  /// another than before; `nil` for a purchase event, which is recorded. `slot` is the entry's
  /// product in `known`, `remaining` the entries left to classify, this one included, and
  /// `isCanonical` whether they are read from canonical entries.
  ///
  /// Out of line: the usual entry is of a product already met in the current group, and needs
  /// none of this. Kept in the pass, it made the pass too large for the coverage rules to be
  /// inlined into it (14% more instructions in the batch).
  @inline(never)
  private func enterGroup(
    of index: Int, slot: Int?, in entries: UnsafeBufferPointer<ReceiptEntry>,
    known: KnownProducts, remaining: Int, isCanonical: Bool,
    into result: inout Classification
  ) -> (type: ProductType, isNewGroup: Bool)? {
    var diagnostics: [Diagnostic] = []
    let itemType: ProductType?
    let entitlement: EntitlementID
    if let slot {
      (itemType, entitlement) = (known.type(at: slot), known.entitlement(at: slot, in: catalog))
    } else if !catalog.isEmpty, let product = catalog[entries[index].productID] {
      // Listed, beyond the slots of ``KnownProducts``.
      (itemType, entitlement) = (product.type, product.entitlement)
    } else {
      (itemType, entitlement) = ProductClassification.classify(
        entries[index], catalog: catalog, diagnostics: &diagnostics)
    }
    guard let type = itemType, type != .consumable else {
      if !diagnostics.isEmpty { result.diagnostics += diagnostics }
      result.purchaseEvents.append(PurchaseEvent(entry: entries[index], productType: itemType))
      return nil
    }
    let isNewGroup = entitlement != result.currentID
    if isNewGroup {
      if let currentID = result.currentID { result.groups[currentID] = result.current }
      result.currentID = entitlement
      // A group met before goes on; a new one is made only when none was. The first, read
      // from canonical entries, makes its room for one period per eight remaining entries at
      // once (EntitlementGroup); later ones grow their list as they go. Room for the
      // remaining entries in every new group was quadratic in a history of many
      // entitlements (issue: performance, "no quadratic path").
      result.current =
        (result.groups.isEmpty ? nil : result.groups.removeValue(forKey: entitlement))
        ?? EntitlementGroup(
          minimumLapse: policy.minimumLapse,
          spanLimit: isCanonical && result.groups.isEmpty
            ? max(8, remaining / Self.entriesPerPeriod) : nil)
      // The first entitlement usually takes every remaining entry: no regrowth.
      if result.groups.isEmpty { result.current.records.reserveCapacity(remaining) }
    }
    if !diagnostics.isEmpty { result.current.diagnostics += diagnostics }
    return (type, isNewGroup)
  }
}
