extension RandomAccessCollection {
  /// The first index whose element satisfies a predicate that is false for a prefix of the
  /// collection and true for the rest (binary search): the one search every rule over sorted
  /// instants uses.
  ///
  /// - Parameter predicate: False, then true, along the collection.
  /// - Returns: The first index where it holds; `endIndex` when it never does.
  /// - Complexity: O(log n).
  func partitionPoint(where predicate: (Element) -> Bool) -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if predicate(self[middle]) {
        count = half
      } else {
        low = index(after: middle)
        count -= half + 1
      }
    }
    return low
  }
}
