/// The transaction ids of one period's entries, in order of purchase: a random-access
/// collection read from the evaluation's coverage, or a list given by the caller (SPEC §5).
///
/// A period made by the evaluator does not copy its entries' ids: it refers to the
/// evaluation's entries, records and layout (shared by every period) and a range of the
/// layout, and builds each id when read (issue: performance). ``ActivePeriod/transactionIDs``
/// reads it as an array.
///
/// ```swift
/// let period = evaluation["magazine"]!.periods[0]
/// period.transactionIDs            // ["1", "2"]
/// ```
struct PeriodMembers: RandomAccessCollection, Hashable, Sendable {
  /// What the evaluator's periods share: the history's entries, the entitlement's coverage
  /// records and the coverage indices in order of start.
  final class Source: Sendable {
    let entries: [ReceiptEntry]
    let records: [CoverageRecord]
    let order: [Int]

    init(entries: [ReceiptEntry], records: [CoverageRecord], order: [Int]) {
      self.entries = entries
      self.records = records
      self.order = order
    }
  }

  private enum Storage: Sendable {
    case listed([TransactionID])
    case layout(Source, Range<Int>)
  }

  private let storage: Storage

  /// Ids given as a list.
  init(_ transactionIDs: [TransactionID]) {
    storage = .listed(transactionIDs)
  }

  /// The ids of the entries at `source.order[range]`.
  init(_ source: Source, _ range: Range<Int>) {
    storage = .layout(source, range)
  }

  var startIndex: Int { 0 }

  var endIndex: Int {
    switch storage {
    case .listed(let ids): ids.count
    case .layout(_, let range): range.count
    }
  }

  subscript(position: Int) -> TransactionID {
    switch storage {
    case .listed(let ids):
      return ids[position]
    case .layout(let source, let range):
      precondition(position >= 0 && position < range.count, "index out of range")
      return source.entries[source.records[source.order[range.lowerBound + position]].entryIndex]
        .transactionID
    }
  }

  static func == (lhs: PeriodMembers, rhs: PeriodMembers) -> Bool {
    lhs.elementsEqual(rhs)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for id in self { hasher.combine(id) }
  }
}
