/// What the evaluator's pass reads of each entry of an out-of-order history, put in canonical
/// order (SPEC §3): the entry's ``ReceiptEntry/Fields``, its index, and its product.
///
/// Read through a list of indices, an out-of-order history is scattered over memory: each
/// entry is two or three cache lines, each a miss waiting on the one before (at 10⁵ shuffled
/// entries, more than half of an evaluation). Instead the entries are read in their own order,
/// twice: once for the sort keys, once to put what the pass reads of each (48 bytes instead of
/// 120) straight into its bucket of purchase instants, in canonical order once each bucket is
/// sorted. The pass then reads them in order (issue: performance; DESIGN.md "Performance").
/// Entries already in canonical order need none of this.
///
/// ```swift
/// let canonical = CanonicalEntries.make(entries, catalog: catalog)  // nil when in order
/// canonical?.entries.first?.index  // the index of the earliest purchase in `entries`
/// ```
struct CanonicalEntries {
  /// One entry as the evaluator's pass reads it.
  struct Entry {
    /// The entry's fields.
    let fields: ReceiptEntry.Fields
    /// The slot of the entry's product in ``CanonicalEntries/products``, or ``unlisted``.
    let product: UInt8
    /// The entry's index in the history.
    let index: UInt32

    /// The ``product`` of an entry whose product is not in ``CanonicalEntries/products``.
    static let unlisted = UInt8.max
  }

  /// The entries, in canonical order.
  let entries: [Entry]
  /// The catalog products the entries name, in the slots ``Entry/product`` gives.
  let products: KnownProducts

  /// What the evaluator reads of `entries`, in canonical order; `nil` when the entries are in
  /// canonical order already (then they are read as they are).
  ///
  /// Two sequential passes over the entries: one makes the sort keys (purchase instants) and
  /// proves whether the entries are in order; the other puts what is read of each entry in its
  /// bucket, one bucket per range of instants (about one entry each). Each bucket is then
  /// sorted on its own, by instant, then as ``Deduplication/canonicallyPrecedes(_:_:)`` (then
  /// by position, for identical entries).
  ///
  /// - Complexity: O(n) for instants spread about evenly; O(n log n) at worst (a bucket of
  ///   many entries is sorted by comparison).
  static func make(_ entries: [ReceiptEntry], catalog: ProductCatalog) -> CanonicalEntries? {
    let count = entries.count
    precondition(count < Int(UInt32.max), "more entries than a history may hold")
    guard count > 1 else { return nil }
    // Fields are read in place: reading through `[ReceiptEntry]` may copy a whole entry.
    return entries.withUnsafeBufferPointer { entries -> CanonicalEntries? in
      var products = KnownProducts()
      var isInOrder = false
      // Allocated before the working lists, which are then freed at the top of the heap: the
      // evaluation's memory stays in one block that the allocator keeps between evaluations.
      // Allocated after them, 10⁵ entries took about 10 MB, past what glibc keeps: every
      // evaluation took 1 200 page faults more.
      let arranged = [Entry](unsafeUninitializedCapacity: count) { buffer, initialized in
        let (keys, lowest, highest) = purchaseKeys(entries)
        guard let keys else {
          isInOrder = true
          return
        }
        // Buckets of 2^shift milliseconds, no more buckets than entries.
        var shift: UInt64 = 0
        while (highest - lowest) >> shift >= UInt64(count) { shift += 1 }
        var places = bucketStarts(keys, count: Int((highest - lowest) >> shift) + 1) {
          Int(($0 - lowest) >> shift)
        }
        places.withUnsafeMutableBufferPointer { places in
          for index in entries.indices {
            let slot = products.slot(of: entries[index].productID, in: catalog)
            let bucket = Int((keys[index] - lowest) >> shift)
            let place = Int(places[bucket])
            places[bucket] += 1
            buffer.initializeElement(
              at: place,
              to: Entry(
                fields: entries[index].fields, product: slot.map(UInt8.init) ?? Entry.unlisted,
                index: UInt32(index)))
          }
        }
        initialized = count
        // Each bucket holds its entries in the order of their positions, and now ends where
        // the next begins: each is sorted on its own.
        func precedes(_ a: Entry, _ b: Entry) -> Bool {
          let aKey = Deduplication.purchaseKey(a.fields.purchaseDate)
          let bKey = Deduplication.purchaseKey(b.fields.purchaseDate)
          if aKey != bKey { return aKey < bKey }
          let (aEntry, bEntry) = (entries[Int(a.index)], entries[Int(b.index)])
          if Deduplication.canonicallyPrecedes(aEntry, bEntry) { return true }
          if Deduplication.canonicallyPrecedes(bEntry, aEntry) { return false }
          return a.index < b.index
        }
        var start = 0
        for end in places {
          let end = Int(end)
          if end - start > 1 { sort(buffer, start..<end, by: precedes) }
          start = end
        }
      }
      return isInOrder ? nil : CanonicalEntries(entries: arranged, products: products)
    }
  }

  /// Each entry's ``Deduplication/purchaseKey(_:)``, the lowest and the highest; no keys when
  /// the entries are in canonical order.
  private static func purchaseKeys(_ entries: UnsafeBufferPointer<ReceiptEntry>) -> (
    keys: [UInt64]?, lowest: UInt64, highest: UInt64
  ) {
    var lowest = UInt64.max
    var highest = UInt64.min
    var isInOrder = true
    let keys = [UInt64](unsafeUninitializedCapacity: entries.count) { keys, initialized in
      var previous = UInt64.min
      for index in entries.indices {
        let key = Deduplication.purchaseKey(entries[index].purchaseDate)
        keys[index] = key
        lowest = min(lowest, key)
        highest = max(highest, key)
        if isInOrder, index > 0,
          key < previous
            || (key == previous
              && Deduplication.canonicallyPrecedes(entries[index], entries[index - 1]))
        {
          isInOrder = false
        }
        previous = key
      }
      initialized = entries.count
    }
    return (isInOrder ? nil : keys, lowest, highest)
  }

  /// Where each of `count` buckets starts when `keys` are put in the bucket `bucket(key)`.
  private static func bucketStarts(
    _ keys: [UInt64], count: Int, _ bucket: (UInt64) -> Int
  ) -> [UInt32] {
    var starts = [UInt32](repeating: 0, count: count)
    starts.withUnsafeMutableBufferPointer { starts in
      for key in keys { starts[bucket(key)] += 1 }
      var start: UInt32 = 0
      for index in starts.indices {
        let size = starts[index]
        starts[index] = start
        start += size
      }
    }
    return starts
  }

  /// Sorts `buffer[range]`: by insertion when short (the usual bucket holds one or two
  /// entries, in order), else by the standard library's sort.
  private static func sort(
    _ buffer: UnsafeMutableBufferPointer<Entry>, _ range: Range<Int>,
    by precedes: (Entry, Entry) -> Bool
  ) {
    guard range.count <= 16 else {
      var bucket = UnsafeMutableBufferPointer(rebasing: buffer[range])
      bucket.sort(by: precedes)
      return
    }
    for next in range.dropFirst() {
      let entry = buffer[next]
      var place = next
      while place > range.lowerBound, precedes(entry, buffer[place - 1]) {
        buffer[place] = buffer[place - 1]
        place -= 1
      }
      buffer[place] = entry
    }
  }
}
