/// What the evaluator's pass reads of each entry of an out-of-order history, put in canonical
/// order (SPEC §3): the entry's ``ReceiptEntry/Fields``, its index, and its product.
///
/// Read through a list of indices, an out-of-order history is scattered over memory: each
/// entry is two or three cache lines, each a miss waiting on the one before (at 10⁵ shuffled
/// entries, more than half of an evaluation). Instead what the pass reads of each entry (48
/// bytes instead of 128) is made as the entries are read in their own order, into the
/// buckets of instants of ``PurchaseBuckets``; the pass reads it in canonical order through a
/// ``PurchaseBuckets/Reader``, which sorts each bucket as it is reached (issue: performance;
/// DESIGN.md "Performance"). Entries already in canonical order need none of this.
///
/// ```swift
/// let canonical = CanonicalEntries.make(entries, catalog: catalog)  // nil when in order
/// canonical?.entries(of: entries).first?.index  // the earliest purchase's index
/// ```
struct CanonicalEntries {
  /// One entry as the evaluator's pass reads it.
  struct Entry: PurchaseOrdered {
    /// The entry's fields.
    let fields: ReceiptEntry.Fields
    /// The slot of the entry's product in ``CanonicalEntries/products``, or ``unlisted``.
    let product: UInt8
    /// The slot of the entry's subscription in ``CanonicalEntries/subscriptions`` when they
    /// are tracked, else 0 (in the bytes the alignment of ``index`` leaves: the entry stays 48
    /// bytes).
    let subscription: UInt8
    /// The entry's index in the history.
    let index: UInt32

    /// The ``product`` of an entry whose product is not in ``CanonicalEntries/products``.
    static let unlisted = UInt8.max

    var purchaseKey: UInt64 { Deduplication.purchaseKey(fields.purchaseDate) }
    var entryIndex: Int { Int(index) }
  }

  /// The entries, in buckets read in canonical order.
  let buckets: PurchaseBuckets<Entry>
  /// The catalog products the entries name, in the slots ``Entry/product`` gives.
  let products: KnownProducts
  /// The subscriptions the entries name, in the slots ``Entry/subscription`` gives, when they
  /// are tracked; else none.
  let subscriptions: KnownSubscriptions

  /// What the evaluator reads of `entries`, in canonical order (``PurchaseBuckets``); `nil`
  /// when the entries are in canonical order already (then they are read as they are).
  /// With `tracksSubscriptions`, each entry's subscription is given a slot too.
  ///
  /// - Complexity: O(n) for instants spread about evenly; O(n log n) at worst.
  static func make(
    _ entries: [ReceiptEntry], catalog: ProductCatalog, tracksSubscriptions: Bool
  ) -> CanonicalEntries? {
    // Fields are read in place: reading through `[ReceiptEntry]` may copy a whole entry.
    entries.withUnsafeBufferPointer { entries in
      var products = KnownProducts()
      var subscriptions = KnownSubscriptions()
      let buckets = PurchaseBuckets<Entry>(
        entries,
        value: { index, _ in
          let slot = products.slot(of: entries[index].productID, in: catalog)
          return Entry(
            fields: entries[index].fields, product: slot.map(UInt8.init) ?? Entry.unlisted,
            subscription: tracksSubscriptions ? subscriptions.slot(of: index, in: entries) : 0,
            index: UInt32(index))
        })
      return buckets.map {
        CanonicalEntries(buckets: $0, products: products, subscriptions: subscriptions)
      }
    }
  }

  /// The entries in canonical order; `entries` are those they were made of.
  func entries(of entries: [ReceiptEntry]) -> [Entry] { buckets.values(of: entries) }
}
