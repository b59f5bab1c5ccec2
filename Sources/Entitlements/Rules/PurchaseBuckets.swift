/// Puts a value made from each entry in the entries' canonical order (SPEC §3: by purchase
/// date, then ``Deduplication/canonicallyPrecedes(_:_:)``), by buckets of purchase instants:
/// the one sort of out-of-order entries, for ``Deduplication`` (indices) and for the
/// evaluator (what its pass reads of each entry).
///
/// Two sequential passes over the entries: one makes the purchase keys, their range, and
/// whether the entries are in order already; the other makes each entry's value and puts it
/// straight into its bucket, one bucket per range of instants, about one entry each. Each
/// bucket is then sorted on its own: by insertion (the usual bucket holds one or two values),
/// by comparison when large. Reading the entries in their own order matters more than the
/// sort: read in canonical order through a list of indices, a shuffled history's entries are
/// each two or three cache misses waiting on the one before (issue: performance; DESIGN.md
/// "Performance").
///
/// ```swift
/// let order = entries.withUnsafeBufferPointer { entries in
///   PurchaseBuckets.arrange(
///     entries, value: { index, key in (key: key, index: index) }, key: \.key, index: \.index)
/// }?.map(\.index)  // nil when `entries` are in canonical order already
/// ```
enum PurchaseBuckets {
  /// `value(index, key)` for each entry (its index and ``Deduplication/purchaseKey(_:)``), in
  /// the entries' canonical order; `nil` when the entries are in canonical order already, and
  /// then no value is made. `key` and `index` read a value's key and entry index back.
  ///
  /// The values are allocated before the working lists (keys, bucket starts), which are then
  /// freed at the top of the heap: allocated after them, an evaluator's memory at 10⁵ entries
  /// reached past what glibc keeps between evaluations, and every evaluation took 1 200 page
  /// faults more.
  ///
  /// - Complexity: O(n) for instants spread about evenly; O(n log n) at worst (a bucket of
  ///   many entries is sorted by comparison).
  @inline(__always)
  static func arrange<Value>(
    _ entries: UnsafeBufferPointer<ReceiptEntry>, value: (_ index: Int, _ key: UInt64) -> Value,
    key: (Value) -> UInt64, index: (Value) -> Int
  ) -> [Value]? {
    let count = entries.count
    precondition(count < Int(UInt32.max), "more entries than a history may hold")
    guard count > 1 else { return nil }
    var isInOrder = false
    let arranged = [Value](unsafeUninitializedCapacity: count) { buffer, initialized in
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
        keys.withUnsafeBufferPointer { keys in
          for entry in entries.indices {
            let bucket = Int((keys[entry] - lowest) >> shift)
            let place = Int(places[bucket])
            places[bucket] += 1
            buffer.initializeElement(at: place, to: value(entry, keys[entry]))
          }
        }
      }
      initialized = count
      // Each bucket holds its values in the order of their entries, and now ends where the
      // next begins: each is sorted on its own.
      func precedes(_ a: Value, _ b: Value) -> Bool {
        let (aKey, bKey) = (key(a), key(b))
        if aKey != bKey { return aKey < bKey }
        let (aIndex, bIndex) = (index(a), index(b))
        let (aEntry, bEntry) = (entries[aIndex], entries[bIndex])
        if Deduplication.canonicallyPrecedes(aEntry, bEntry) { return true }
        if Deduplication.canonicallyPrecedes(bEntry, aEntry) { return false }
        return aIndex < bIndex  // identical entries keep their order
      }
      var start = 0
      for end in places {
        let end = Int(end)
        if end - start > 1 { sort(buffer, start..<end, by: precedes) }
        start = end
      }
    }
    return isInOrder ? nil : arranged
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

  /// Sorts `buffer[range]`: by insertion when short, else by the standard library's sort.
  private static func sort<Value>(
    _ buffer: UnsafeMutableBufferPointer<Value>, _ range: Range<Int>,
    by precedes: (Value, Value) -> Bool
  ) {
    guard range.count <= 16 else {
      var bucket = UnsafeMutableBufferPointer(rebasing: buffer[range])
      bucket.sort(by: precedes)
      return
    }
    for next in range.dropFirst() {
      let value = buffer[next]
      var place = next
      while place > range.lowerBound, precedes(value, buffer[place - 1]) {
        buffer[place] = buffer[place - 1]
        place -= 1
      }
      buffer[place] = value
    }
  }
}
