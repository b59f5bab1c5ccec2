/// Puts a value made from each entry in the entries' canonical order (SPEC §3: by purchase
/// date, then ``Deduplication/canonicallyPrecedes(_:_:)``), by buckets of purchase instants:
/// the one sort of out-of-order entries, for ``Deduplication`` (indices) and for the
/// evaluator (what its pass reads of each entry).
///
/// One sequential pass over the entries makes each entry's value and purchase key, in the
/// entries' order, with the keys' range and whether the entries are in order already. A
/// second pass, over those values (48 bytes for the evaluator, where an entry is 128), puts
/// each straight into its bucket, one bucket per range of instants, about one entry each.
/// Each bucket is then sorted on its own: by insertion (the usual bucket holds one or two
/// values), by comparison when large. Reading the entries in their own order, and once,
/// matters more than the sort: read in canonical order through a list of indices, a shuffled
/// history's entries are each two or three cache misses waiting on the one before; read twice
/// (once for the keys, once for the values), they were a third of the sort's time (issue:
/// performance; DESIGN.md "Performance").
///
/// ```swift
/// let order = entries.withUnsafeBufferPointer { entries in
///   PurchaseBuckets.arrange(
///     entries, value: { index, key in (key: key, index: index) }, key: \.key, index: \.index)
/// }?.map(\.index)  // nil when `entries` are in canonical order already
/// ```
enum PurchaseBuckets {
  /// `value(index, key)` for each entry (its index and ``Deduplication/purchaseKey(_:)``), in
  /// the entries' canonical order; `nil` when the entries are in canonical order already (the
  /// values made are then dropped). `key` and `index` read a value's key and entry index back.
  ///
  /// The values are made in the second half of the block that returns them, and moved from
  /// there into its first half: one block of twice the values, not two blocks. glibc keeps
  /// free memory for the next evaluation up to twice the largest block it has given back:
  /// with two blocks an evaluator at 10⁵ entries went past that, and every evaluation took
  /// 1 200 page faults more (DESIGN.md "Performance"). The working lists (keys, bucket starts)
  /// are allocated after the block, and freed at the top of the heap. A block large enough
  /// for glibc to map it on its own is advised to use huge pages (``HugePages``).
  ///
  /// - Complexity: O(n) for instants spread about evenly; O(n log n) at worst (a bucket of
  ///   many entries is sorted by comparison).
  @inline(__always)
  static func arrange<Value: BitwiseCopyable>(
    _ entries: UnsafeBufferPointer<ReceiptEntry>, value: (_ index: Int, _ key: UInt64) -> Value,
    key: (Value) -> UInt64, index: (Value) -> Int
  ) -> [Value]? {
    let count = entries.count
    precondition(count < Int(UInt32.max), "more entries than a history may hold")
    guard count > 1 else { return nil }
    var isInOrder = true
    // One block: the values in canonical order in its first half, the same values in the
    // entries' order in its second (a scratch half, never counted as elements).
    let arranged = [Value](unsafeUninitializedCapacity: 2 * count) { buffer, initialized in
      HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
      let made = UnsafeMutableBufferPointer(rebasing: buffer[count..<2 * count])
      var lowest = UInt64.max
      var highest = UInt64.min
      let keys = [UInt64](unsafeUninitializedCapacity: count) { keys, initialized in
        var previous = UInt64.min
        for index in entries.indices {
          let key = Deduplication.purchaseKey(entries[index].purchaseDate)
          keys[index] = key
          made.initializeElement(at: index, to: value(index, key))
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
        initialized = count
      }
      guard !isInOrder else { return }
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
            buffer.initializeElement(at: place, to: made[entry])
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
