/// The coverage of every entry of one entitlement, in purchase order: a random-access
/// collection of ``EntryCoverage`` (SPEC §4).
///
/// It stores one small record per entry and the history's deduplicated entries once, and
/// builds each ``EntryCoverage`` when it is read; an evaluation of 100 000 entries does not
/// copy 100 000 receipt entries (issue: performance; DESIGN.md "Performance"). Read it like an
/// array:
///
/// ```swift
/// let coverage = evaluation["magazine"]!.coverage
/// coverage.count                   // 3
/// coverage[1].disposition          // .refundVoided
/// coverage.compactMap(\.interval)  // the spans that give access
/// Array(coverage)                  // [EntryCoverage], when an array is needed
/// ```
///
/// Two lists are equal when their elements are equal, whatever history they were read from.
public struct CoverageList: RandomAccessCollection, Hashable, Sendable {
  /// The history's deduplicated entries, shared by every entitlement of one evaluation.
  let entries: [ReceiptEntry]
  /// One record per entry of the entitlement, in purchase order.
  let records: [CoverageRecord]

  init(entries: [ReceiptEntry], records: [CoverageRecord]) {
    self.entries = entries
    self.records = records
  }

  /// The position of the first coverage: 0.
  public var startIndex: Int { records.startIndex }

  /// One past the position of the last coverage: the number of entries.
  public var endIndex: Int { records.endIndex }

  /// The coverage at `position`, built from its record and its entry.
  ///
  /// - Parameter position: A valid position, `0 ..< count`.
  public subscript(position: Int) -> EntryCoverage {
    let record = records[position]
    return EntryCoverage(
      entry: entries[record.entryIndex], productType: record.productType,
      interval: record.interval, disposition: record.disposition,
      naturalInterval: record.naturalInterval)
  }

  /// The entry of the coverage at `position`, without building the coverage.
  func entry(at position: Int) -> ReceiptEntry { entries[records[position].entryIndex] }

  /// Whether two lists hold equal coverage, element by element.
  ///
  /// - Parameters:
  ///   - lhs: A list.
  ///   - rhs: Another list.
  /// - Returns: `true` when they have the same count and equal elements.
  public static func == (lhs: CoverageList, rhs: CoverageList) -> Bool {
    guard lhs.records.count == rhs.records.count else { return false }
    if lhs.records == rhs.records, lhs.entries == rhs.entries { return true }
    return lhs.elementsEqual(rhs)
  }

  /// Hashes the elements, consistently with ``==(_:_:)``.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(records.count)
    for element in self { hasher.combine(element) }
  }
}

/// What ``CoverageRules`` computes for one entry: an ``EntryCoverage`` without the entry, which
/// stays in the shared entries at `entryIndex`. A trivial type: arrays of it are copied and
/// freed without reference counting.
struct CoverageRecord: Hashable, Sendable {
  /// The entry's index in the history's deduplicated entries.
  var entryIndex: Int
  var productType: ProductType
  var interval: Interval?
  var disposition: EntryCoverage.Disposition
  var naturalInterval: Interval?
}
