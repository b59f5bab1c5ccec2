extension Array where Element == UInt64 {
  /// Sorts keys that spread over their range, in increasing order: one pass deals them into
  /// about as many buckets as there are keys, by their leading bits above the smallest key,
  /// and each bucket is then sorted on its own (by insertion when it holds a few keys, by the
  /// standard library's sort when it holds more).
  ///
  /// A history's purchase instants (above each entry's index, so that keys are distinct)
  /// spread so: a shuffled history of 1 000 entries leaves one or two keys per bucket, and is
  /// sorted in three passes over the keys (their range, the count of each bucket, the dealing)
  /// and two over the buckets (their starts, then each one's sort). Keys that crowd into a few
  /// buckets cost no more than a comparison sort of each bucket: O(n log n) at worst.
  ///
  /// ```swift
  /// var keys: [UInt64] = [300, 2, 70_000, 2]
  /// keys.bucketSort()  // [2, 2, 300, 70_000]
  /// ```
  mutating func bucketSort() {
    guard count > 1 else { return }
    var (low, high) = (UInt64.max, UInt64.min)
    for key in self { (low, high) = (Swift.min(low, key), Swift.max(high, key)) }
    let spread = high - low
    guard spread != 0 else { return }
    // About one bucket per key: the bits of `count`, at most 16 (65 536 buckets).
    let bucketBits = Swift.min(16, Int.bitWidth - count.leadingZeroBitCount)
    let spreadBits = UInt64.bitWidth - spread.leadingZeroBitCount
    let shift = UInt64(Swift.max(0, spreadBits - bucketBits))
    let bucketCount = Int(truncatingIfNeeded: spread >> shift) + 1
    var sorted = [UInt64](repeating: 0, count: count)
    // `ends[b]` counts the keys of the buckets before `b`, then, once each key of bucket `b`
    // is dealt, the end of bucket `b`.
    var ends = [Int](repeating: 0, count: bucketCount)
    withUnsafeBufferPointer { keys in
      sorted.withUnsafeMutableBufferPointer { sorted in
        ends.withUnsafeMutableBufferPointer { ends in
          @inline(__always) func bucket(_ key: UInt64) -> Int {
            Int(truncatingIfNeeded: (key &- low) >> shift)
          }
          for key in keys {
            let next = bucket(key) + 1
            if next < bucketCount { ends[next] += 1 }
          }
          for index in 1..<bucketCount { ends[index] += ends[index - 1] }
          for key in keys {
            let target = bucket(key)
            sorted[ends[target]] = key
            ends[target] += 1
          }
          var start = 0
          for end in ends {
            if end - start > 16 {
              sorted[start..<end].sort()
            } else if end - start > 1 {
              Self.insertionSort(sorted, start, end)
            }
            start = end
          }
        }
      }
    }
    self = sorted
  }

  /// Sorts `keys[start..<end]`, a few keys, by insertion.
  @inline(__always)
  private static func insertionSort(
    _ keys: UnsafeMutableBufferPointer<UInt64>, _ start: Int, _ end: Int
  ) {
    for index in (start + 1)..<end {
      let key = keys[index]
      var place = index
      while place > start, keys[place - 1] > key {
        keys[place] = keys[place - 1]
        place -= 1
      }
      keys[place] = key
    }
  }
}
