extension Array where Element == UInt64 {
  /// Sorts the keys in increasing order, in place: a least-significant-digit radix sort, one
  /// byte per pass, skipping the bytes that every key shares.
  ///
  /// A comparison sort of 1 000 keys makes about 10 000 comparisons through a closure; this
  /// makes, per varying byte, one pass that counts and one that moves. Histories of a few dozen
  /// entries are sorted by comparison: the 256 counters of a pass cost more than they save
  /// there.
  ///
  /// ```swift
  /// var keys: [UInt64] = [300, 2, 70_000, 2]
  /// keys.radixSort()  // [2, 2, 300, 70_000]
  /// ```
  mutating func radixSort() {
    guard count > 1 else { return }
    let first = self[0]
    var varying: UInt64 = 0
    for key in self { varying |= key ^ first }
    guard varying != 0 else { return }
    var other = [UInt64](repeating: 0, count: count)
    var inOther = false
    withUnsafeMutableBufferPointer { keys in
      other.withUnsafeMutableBufferPointer { spare in
        var (source, target) = (keys, spare)
        var counts = [Int](repeating: 0, count: 256)
        counts.withUnsafeMutableBufferPointer { counts in
          for shift in stride(from: UInt64(0), to: 64, by: 8)
          where (varying >> shift) & 0xFF != 0 {
            for digit in 0..<256 { counts[digit] = 0 }
            for key in source { counts[Int(truncatingIfNeeded: key >> shift) & 0xFF] += 1 }
            var total = 0
            for digit in 0..<256 { (counts[digit], total) = (total, total + counts[digit]) }
            for key in source {
              let digit = Int(truncatingIfNeeded: key >> shift) & 0xFF
              target[counts[digit]] = key
              counts[digit] += 1
            }
            swap(&source, &target)
            inOther.toggle()
          }
        }
      }
    }
    if inOther { self = other }
  }
}
