/// A value made from each entry, kept in buckets of purchase instants and read in the entries'
/// canonical order (SPEC §3: by purchase date, then ``Deduplication/canonicallyPrecedes(_:_:)``):
/// the one sort of out-of-order entries, for ``Deduplication`` (indices) and for the evaluator
/// (what its pass reads of each entry, ``CanonicalEntries``).
///
/// One sequential pass over the entries makes each entry's value and puts it straight into
/// its coarse bucket: one per range of instants, about ``Shape/bucketSize`` values each, over the
/// range of a sample of the instants (instants outside it go to the first or the last
/// bucket). A bucket is a chain of blocks (``Shape/blockShift``), so no pass counts the
/// buckets first. The values are read a bucket at a time (``Reader``): the bucket is moved
/// into fine buckets of about one value each in a list that stays in cache, each fine bucket
/// is sorted (by insertion, by comparison when large), and the reader hands the values out
/// in order. The reader's list is the only place the values are in canonical order: at 10⁶
/// shuffled entries, a list of all of them in order was 48 MB written to memory and read
/// back, and the move into it was a write to a scattered place per value (issue:
/// performance; DESIGN.md "Performance"). Reading the entries in their own order, and once,
/// matters as much: read in canonical order through a list of indices, a shuffled history's
/// entries are each two or three cache misses waiting on the one before.
///
/// ```swift
/// struct Keyed: PurchaseOrdered { let purchaseKey: UInt64; let entryIndex: Int }
/// let buckets = entries.withUnsafeBufferPointer { entries in
///   PurchaseBuckets(entries) { index, key in Keyed(purchaseKey: key, entryIndex: index) }
/// }  // nil when `entries` are in canonical order already
/// let order = buckets?.values(of: entries).map(\.entryIndex)
/// ```
struct PurchaseBuckets<Value: PurchaseOrdered> {
  /// The values, bucket by bucket, and how to find them.
  private let storage: Storage
  /// How many values there are: one per entry.
  var count: Int { storage.count }
  /// The size of the memory that holds the values, in bytes (advised huge pages from
  /// ``HugePages/threshold``).
  var byteCount: Int { storage.capacity * MemoryLayout<Value>.stride }

  /// `value(index, key)` for each of `entries` (its index and
  /// ``Deduplication/purchaseKey(_:)``), in buckets; `nil` when the entries are in canonical
  /// order already (the values made are then dropped).
  ///
  /// The values' block is mapped by the library and advised huge pages from
  /// ``HugePages/threshold`` on (``HugePages/allocate(byteCount:alignment:)``).
  ///
  /// - Complexity: O(n); reading the values back is O(n) for instants spread about evenly
  ///   and O(n log n) at worst (a fine bucket of many values is sorted by comparison).
  @inline(__always)
  init?(
    _ entries: UnsafeBufferPointer<ReceiptEntry>, shape: Shape = .standard,
    value: (_ index: Int, _ key: UInt64) -> Value
  ) {
    let count = entries.count
    precondition(count < Int(UInt32.max) / 2, "more entries than a history may hold")
    guard count > 1 else { return nil }
    // The range of the buckets, from a sample of the instants: exact for the usual history,
    // and only slower (a larger first or last bucket) for one whose extremes it misses.
    var sampleLowest = UInt64.max
    var sampleHighest = UInt64.min
    for index in stride(from: 0, to: count, by: max(1, count / shape.sampleSize)) {
      let key = Deduplication.purchaseKey(entries[index].purchaseDate)
      sampleLowest = min(sampleLowest, key)
      sampleHighest = max(sampleHighest, key)
    }
    let storage = Storage(
      count: count, lowest: sampleLowest, highest: sampleHighest, shape: shape)
    let (values, next, fills) = (storage.values, storage.next, storage.fills)
    let blockShift = storage.blockShift
    let blockEnd = 1 << blockShift - 1
    var free = storage.bucketCount
    var isInOrder = true
    var previous = UInt64.min
    // The exact extremes, for the first and the last bucket.
    var lowest = UInt64.max
    var highest = UInt64.min
    for index in entries.indices {
      let key = Deduplication.purchaseKey(entries[index].purchaseDate)
      lowest = min(lowest, key)
      highest = max(highest, key)
      let bucket = storage.bucket(of: key)
      var place = Int(fills[bucket])
      (values + place).initialize(to: value(index, key))
      place += 1
      // A full block: the bucket goes on in a new one.
      if place & blockEnd == 0 {
        next[(place - 1) >> blockShift] = UInt32(free)
        place = free << blockShift
        free += 1
      }
      fills[bucket] = UInt32(place)
      if isInOrder, index > 0,
        key < previous
          || (key == previous
            && Deduplication.canonicallyPrecedes(entries[index], entries[index - 1]))
      {
        isInOrder = false
      }
      previous = key
    }
    guard !isInOrder else { return nil }
    storage.finish(lowest: lowest, highest: highest)
    self.storage = storage
  }

  /// All the values in canonical order; `entries` are those they were made of.
  func values(of entries: [ReceiptEntry]) -> [Value] {
    entries.withUnsafeBufferPointer { entries in
      var reader = Reader(self, entries: entries)
      var values: [Value] = []
      values.reserveCapacity(count)
      for _ in 0..<count { values.append(reader.next()) }
      return values
    }
  }

  /// Hands out the values in canonical order, one bucket at a time, sorted in a list that
  /// stays in cache.
  ///
  /// The first reader of some buckets sorts into the room the buckets reserved past their
  /// values; a reader made while another reads gets a list of its own. Buckets live inside one
  /// evaluation and are not shared between threads (they are not `Sendable`).
  ///
  /// ```swift
  /// var reader = PurchaseBuckets.Reader(buckets, entries: entries)
  /// let first = reader.next()  // the value of the entry bought first
  /// ```
  struct Reader: ~Copyable {
    /// The buckets read (kept alive while the reader reads them).
    private let storage: Storage
    /// The entries the values were made of: ties on the instant read them.
    private let entries: UnsafeBufferPointer<ReceiptEntry>
    /// The current bucket's values in canonical order, and where each fine bucket starts:
    /// room for the largest bucket. The list is the storage's spare room when it has some.
    private let sorted: UnsafeMutablePointer<Value>
    private let starts: UnsafeMutablePointer<UInt32>
    private let isSpare: Bool
    /// The next value handed out, and the end of the current bucket's.
    private var position = 0
    private var end = 0
    /// The next bucket to sort.
    private var bucket = 0

    /// A reader of `buckets` made of `entries`, at the first value.
    init(_ buckets: PurchaseBuckets, entries: UnsafeBufferPointer<ReceiptEntry>) {
      (storage, self.entries) = (buckets.storage, entries)
      if let spare = storage.lendSpare() {
        (sorted, isSpare) = (spare, true)
      } else {
        (sorted, isSpare) = (.allocate(capacity: storage.largest), false)
      }
      starts = .allocate(capacity: storage.largest + 1)
    }

    deinit {
      if isSpare { storage.returnSpare() } else { sorted.deallocate() }
      starts.deallocate()
    }

    /// The next value in canonical order: no more than ``PurchaseBuckets/count`` in all.
    @inline(__always)
    mutating func next() -> Value {
      if position == end { sortNextBucket() }
      defer { position += 1 }
      return sorted[position]
    }

    /// Sorts the next bucket that holds values into ``sorted``: into fine buckets of about
    /// one value each, each then sorted on its own.
    @inline(never)
    private mutating func sortNextBucket() {
      var bucket = self.bucket
      var size = 0
      while true {
        precondition(bucket < storage.bucketCount, "no value left to read")
        size = storage.size(of: bucket)
        if size > 0 { break }
        bucket += 1
      }
      self.bucket = bucket + 1
      let (low, high) = storage.range(of: bucket)
      var shift: UInt64 = 0
      while (high - low) >> shift >= UInt64(size) { shift += 1 }
      let fineCount = Int((high - low) >> shift) + 1
      let (sorted, starts) = (sorted, starts)
      for fine in 0...fineCount { starts[fine] = 0 }
      storage.forEachValue(in: bucket) { value in
        starts[Int((value.pointee.purchaseKey - low) >> shift) + 1] += 1
      }
      for fine in 1...fineCount { starts[fine] += starts[fine - 1] }
      storage.forEachValue(in: bucket) { value in
        let fine = Int((value.pointee.purchaseKey - low) >> shift)
        PurchaseBuckets.move(value, to: sorted + Int(starts[fine]))
        starts[fine] += 1
      }
      // Each fine bucket now ends where the next begins.
      let entries = entries
      func precedes(_ a: Value, _ b: Value) -> Bool {
        if a.purchaseKey != b.purchaseKey { return a.purchaseKey < b.purchaseKey }
        let (aIndex, bIndex) = (a.entryIndex, b.entryIndex)
        let (aEntry, bEntry) = (entries[aIndex], entries[bIndex])
        if Deduplication.canonicallyPrecedes(aEntry, bEntry) { return true }
        if Deduplication.canonicallyPrecedes(bEntry, aEntry) { return false }
        return aIndex < bIndex  // identical entries keep their order
      }
      var start = 0
      for fine in 0..<fineCount {
        let end = Int(starts[fine])
        if end - start > 1 {
          PurchaseBuckets.sort(
            UnsafeMutableBufferPointer(start: sorted, count: size), start..<end, by: precedes)
        }
        start = end
      }
      (position, end) = (0, size)
    }
  }

  /// The values' memory: each bucket a chain of blocks (block b starts bucket b), each
  /// bucket's next free place, and each full block's next one.
  private final class Storage {
    let count: Int
    let bucketCount: Int
    /// How many values the blocks hold in all.
    let capacity: Int
    /// A block holds `1 << blockShift` values.
    let blockShift: Int
    /// The memory of the values (advised huge pages from ``HugePages/threshold``).
    private let block: HugePages.Block
    let values: UnsafeMutablePointer<Value>
    /// Per block: the block that follows it in its bucket, once it is full.
    let next: UnsafeMutablePointer<UInt32>
    /// Per bucket: where its next value goes (in its last block, which is never full).
    let fills: UnsafeMutablePointer<UInt32>
    /// The sample's lowest key, the width of a bucket (as a shift), and the exact extremes.
    private let sampleLowest: UInt64
    private let shift: UInt64
    private var lowest = UInt64.min
    private var highest = UInt64.max
    /// The size of the largest bucket.
    private(set) var largest = 0
    /// The reserved room past the values (as many again), which a reader sorts buckets into
    /// (one reader at a time), and whether one is.
    private let spare: UnsafeMutablePointer<Value>?
    private var isSpareLent = false

    /// Storage for `count` values, in buckets over the sample's range `lowest...highest`.
    init(count: Int, lowest: UInt64, highest: UInt64, shape: Shape) {
      let bucketCount = max(1, count / shape.bucketSize)
      var shift: UInt64 = 0
      while (highest - lowest) >> shift >= UInt64(bucketCount) { shift += 1 }
      (self.count, self.bucketCount, sampleLowest, self.shift) = (count, bucketCount, lowest, shift)
      if bucketCount == 1 {
        // One block that never fills.
        blockShift = Int.bitWidth - (count + 1).leadingZeroBitCount
        capacity = count
      } else {
        // Each value that fills a block takes a new one.
        blockShift = shape.blockShift
        capacity = (bucketCount + count >> blockShift + 1) << blockShift
      }
      // Twice the room when that stays below glibc's largest threshold (``HugePages``): glibc
      // gives the top of the heap back to the system once it exceeds twice the largest block
      // freed, and an evaluation's heap (these values, the records, the reader's list, the
      // periods) reached past twice the values alone: at 10⁵ shuffled entries, 1 200 page
      // faults per evaluation (4.8 MB of fresh pages, 4 ms more). The room is the reader's
      // list, which would be an allocation of its own, and only its written pages cost.
      let bytes = capacity * MemoryLayout<Value>.stride
      let reserved = 2 * bytes < HugePages.threshold ? 2 * capacity : capacity
      block = HugePages.allocate(
        byteCount: reserved * MemoryLayout<Value>.stride, alignment: MemoryLayout<Value>.alignment)
      values = block.base.bindMemory(to: Value.self, capacity: reserved)
      spare = reserved > capacity ? values + capacity : nil
      next = .allocate(capacity: capacity >> blockShift + 1)
      fills = .allocate(capacity: bucketCount)
      for bucket in 0..<bucketCount { fills[bucket] = UInt32(bucket << blockShift) }
    }

    deinit {
      block.deallocate()
      next.deallocate()
      fills.deallocate()
    }

    /// The spare room, for a reader's list, if there is some and no other reader has it.
    func lendSpare() -> UnsafeMutablePointer<Value>? {
      guard let spare, !isSpareLent else { return nil }
      isSpareLent = true
      return spare
    }

    /// Takes back the spare room from the reader that had it.
    func returnSpare() { isSpareLent = false }

    /// Notes the exact extremes of the keys once every value is in, and the largest bucket.
    func finish(lowest: UInt64, highest: UInt64) {
      (self.lowest, self.highest) = (lowest, highest)
      largest = (0..<bucketCount).reduce(0) { max($0, size(of: $1)) }
    }

    /// The bucket of an entry with purchase key `key`.
    @inline(__always)
    func bucket(of key: UInt64) -> Int {
      // Compared before it is an `Int`: a key far past the sample's range is a bucket number
      // past `Int.max`.
      key < sampleLowest
        ? 0 : Int(truncatingIfNeeded: min(UInt64(bucketCount - 1), (key - sampleLowest) >> shift))
    }

    /// The lowest and highest key `bucket` may hold; `bucket` holds at least one.
    func range(of bucket: Int) -> (low: UInt64, high: UInt64) {
      let low = bucket == 0 ? lowest : sampleLowest + UInt64(bucket) << shift
      guard bucket < bucketCount - 1 else { return (low, highest) }
      // A bucket's width may reach past the largest key: its range then ends there.
      let (width, isWide) = UInt64(bucket + 1).multipliedReportingOverflow(by: 1 << shift)
      let (end, isPast) = sampleLowest.addingReportingOverflow(width)
      return (low, isWide || isPast ? .max : end - 1)
    }

    /// How many values `bucket` holds.
    func size(of bucket: Int) -> Int {
      let last = Int(fills[bucket]) >> blockShift
      var (block, size) = (bucket, 0)
      while block != last {
        size += 1 << blockShift
        block = Int(next[block])
      }
      return size + Int(fills[bucket]) - last << blockShift
    }

    /// Calls `body` with each value of `bucket`.
    @inline(__always)
    func forEachValue(in bucket: Int, _ body: (UnsafeMutablePointer<Value>) -> Void) {
      let last = Int(fills[bucket]) >> blockShift
      var block = bucket
      while true {
        let end = block == last ? Int(fills[bucket]) : (block + 1) << blockShift
        for place in block << blockShift..<end { body(values + place) }
        if block == last { return }
        block = Int(next[block])
      }
    }
  }

  /// The sizes of the buckets and their blocks, and of the sample their range is taken from.
  struct Shape {
    /// About how many values a bucket holds.
    var bucketSize: Int
    /// A bucket's blocks hold `1 << blockShift` values.
    var blockShift: Int
    /// About how many instants the buckets' range is taken from.
    var sampleSize: Int

    /// Buckets of about 16 384 values: the evaluator's (48 bytes each, 768 KB) stay in the
    /// second-level cache while they are sorted and read. Smaller buckets lost at 10⁶
    /// entries: with 512 values each, the first pass wrote to 2 000 places at once, each a
    /// line fetched from memory when it is first written, where 60 places are streams the
    /// processor fetches ahead (59 ms against 44). Blocks of 1 024 values (48 KB) are long
    /// runs, read ahead too (blocks of 64 values, 1.1 times the time at 10⁶).
    static var standard: Shape { Shape(bucketSize: 16_384, blockShift: 10, sampleSize: 1_024) }
  }

  /// Copies a value's bytes: moved as a `Value`, one with a padding byte was copied in pieces
  /// that overlap, and read back before their stores had landed.
  @inline(__always)
  private static func move(_ source: UnsafePointer<Value>, to target: UnsafeMutablePointer<Value>) {
    UnsafeMutableRawPointer(target).copyMemory(
      from: UnsafeRawPointer(source), byteCount: MemoryLayout<Value>.size)
  }

  /// Sorts `buffer[range]`: by insertion when short, else by the standard library's sort.
  /// A value already after the one before it (half of them, shuffled) is not moved, and
  /// values are moved as bytes (``move(_:to:)``).
  private static func sort(
    _ buffer: UnsafeMutableBufferPointer<Value>, _ range: Range<Int>,
    by precedes: (Value, Value) -> Bool
  ) {
    guard range.count <= 16 else {
      var bucket = UnsafeMutableBufferPointer(rebasing: buffer[range])
      bucket.sort(by: precedes)
      return
    }
    guard let base = buffer.baseAddress else { return }
    withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { held in
      guard let held = held.baseAddress else { return }
      for next in range.dropFirst() where precedes(base[next], base[next - 1]) {
        move(base + next, to: held)
        var place = next
        repeat {
          move(base + place - 1, to: base + place)
          place -= 1
        } while place > range.lowerBound && precedes(held.pointee, base[place - 1])
        move(held, to: base + place)
      }
    }
  }
}
