/// The stable ascending order of 64-bit keys by least-significant-digit radix sort: what
/// ``Deduplication`` sorts purchase instants with when entries arrive out of order.
///
/// Six passes of 11-bit digits cover the key; a digit that every key shares is skipped, so keys
/// that differ only in their low bits (instants a few years apart differ in the low 40) cost
/// four linear passes instead of a comparison sort with a closure (issue: performance).
///
/// ```swift
/// RadixOrder.order(of: [30, 10, 20, 10])  // [1, 3, 2, 0]: equal keys keep their order
/// ```
enum RadixOrder {
  private static let digitBits = 11
  private static let bucketCount = 1 << digitBits

  /// The positions of `keys` in ascending key order; equal keys keep the order of their
  /// positions.
  ///
  /// - Complexity: O(n) per digit that not all keys share, at most six; 64 keys or fewer are
  ///   compared instead.
  static func order(of keys: [UInt64]) -> [Int] {
    let count = keys.count
    precondition(count < Int(UInt32.max), "more keys than a history may hold")
    var currentKeys = keys
    var currentPositions = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
      for position in 0..<count { buffer[position] = UInt32(position) }
      initialized = count
    }
    guard count > 1 else { return currentPositions.map(Int.init) }
    // A few keys: clearing 2 048 counters per digit would cost more than comparing them.
    guard count > 64 else {
      return keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
    }
    var nextKeys = [UInt64](repeating: 0, count: count)
    var nextPositions = [UInt32](repeating: 0, count: count)
    var counts = [Int](repeating: 0, count: bucketCount)
    let mask = UInt64(bucketCount - 1)
    var shift: UInt64 = 0
    while shift < 64 {
      let digitShift = shift
      shift += UInt64(digitBits)
      let moved = counts.withUnsafeMutableBufferPointer { counts in
        counts.update(repeating: 0)
        currentKeys.withUnsafeBufferPointer { keys in
          for key in keys { counts[Int((key >> digitShift) & mask)] += 1 }
        }
        // A digit every key shares moves nothing.
        guard counts[Int((currentKeys[0] >> digitShift) & mask)] != count else { return false }
        var start = 0
        for bucket in counts.indices {
          let size = counts[bucket]
          counts[bucket] = start
          start += size
        }
        currentKeys.withUnsafeBufferPointer { keys in
          currentPositions.withUnsafeBufferPointer { positions in
            nextKeys.withUnsafeMutableBufferPointer { targetKeys in
              nextPositions.withUnsafeMutableBufferPointer { targetPositions in
                for index in 0..<count {
                  let key = keys[index]
                  let bucket = Int((key >> digitShift) & mask)
                  let target = counts[bucket]
                  counts[bucket] = target + 1
                  targetKeys[target] = key
                  targetPositions[target] = positions[index]
                }
              }
            }
          }
        }
        return true
      }
      if moved {
        swap(&currentKeys, &nextKeys)
        swap(&currentPositions, &nextPositions)
      }
    }
    return currentPositions.map(Int.init)
  }
}
