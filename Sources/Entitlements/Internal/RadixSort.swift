extension Array where Element == UInt64 {
  /// Sorts the keys in increasing order, in place: a least-significant-digit radix sort, one
  /// byte per pass, skipping the bytes that every key shares.
  ///
  /// A comparison sort of 1 000 keys makes about 10 000 comparisons through a closure; this
  /// makes, per varying byte, one pass that counts and one that moves. Histories of a few dozen
  /// entries are sorted by comparison: the 256 counters of a pass cost more than they save
  /// there.
  ///
  /// The sort is stable: with `lowBytes`, the keys are ordered by their bytes above the
  /// lowest `lowBytes` only, and keys equal there keep their order. A key that carries its
  /// position in its low bytes is then ordered by the rest with no pass over the position.
  ///
  /// ```swift
  /// var keys: [UInt64] = [300, 2, 70_000, 2]
  /// keys.radixSort()  // [2, 2, 300, 70_000]
  /// var tagged: [UInt64] = [0x0300, 0x0101, 0x0102]
  /// tagged.radixSort(above: 1)  // [0x0101, 0x0102, 0x0300]: 0x01 before 0x03, in order
  /// ```
  mutating func radixSort(above lowBytes: Int = 0) {
    guard count > 1 else { return }
    let first = self[0]
    var varying: UInt64 = 0
    for key in self { varying |= key ^ first }
    varying = lowBytes >= 8 ? 0 : (varying >> (8 * lowBytes)) << (8 * lowBytes)
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
