/// The transaction ids of one period's entries, in order of purchase, and the id of the entry
/// ending last: a collection read from the evaluation's coverage, or a list given by the
/// caller (SPEC §5).
///
/// A period made by the evaluator does not copy its entries' ids: it refers to the
/// evaluation's entries, records and layout (shared by every period), a range of the layout
/// and the coverage index ending the period, and builds each id when read. Apple's 16-digit
/// ids are kept as numbers by the entries (``CompactIdentifier``): making every period's ids
/// as strings up front would allocate one string per entry in every evaluation, for a list
/// most callers never read. ``ActivePeriod/transactionIDs`` reads it as an array and
/// ``ActivePeriod/lastTransactionID`` reads ``last``.
///
/// ```swift
/// let period = evaluation["magazine"]!.periods[0]
/// period.transactionIDs            // ["1", "2"]
/// ```
///
/// A period's slice of the layout may hold coverage without an interval (a voided refund
/// between two renewals, when the coverage needs no order list): it is no member and is
/// skipped, so positions are not contiguous and the collection is not random-access.
struct PeriodMembers: Collection, Hashable, Sendable {
  /// What the evaluator's periods share: the history's entries, the entitlement's coverage
  /// records and the coverage indices in order of start (`nil`: the records' own order;
  /// ``PeriodRules/Layout``).
  final class Source: Sendable {
    let entries: [ReceiptEntry]
    let records: [CoverageRecord]
    let order: [Int]?

    init(entries: [ReceiptEntry], records: [CoverageRecord], order: [Int]?) {
      self.entries = entries
      self.records = records
      self.order = order
    }

    /// The record at `position` of the order of start (``PeriodRules/Layout/coverageIndex(at:)``).
    func record(at position: Int) -> CoverageRecord {
      records[order?[position] ?? position]
    }
  }

  private enum Storage: Sendable {
    case listed([TransactionID], last: TransactionID)
    case layout(Source, Range<Int>, last: Int)
  }

  private let storage: Storage

  /// Ids given as a list.
  init(_ transactionIDs: [TransactionID], last: TransactionID) {
    storage = .listed(transactionIDs, last: last)
  }

  /// The ids of the entries with an interval at positions `range` of the order of start; the
  /// period ends with the coverage at index `last`.
  init(_ source: Source, _ range: Range<Int>, last: Int) {
    storage = .layout(source, range, last: last)
  }

  /// The id of the entry whose coverage ends last.
  var last: TransactionID {
    switch storage {
    case .listed(_, let last): last
    case .layout(let source, _, let last):
      source.entries[source.records[last].entryIndex].transactionID
    }
  }

  var startIndex: Int {
    switch storage {
    case .listed(let ids, _): ids.startIndex
    case .layout(let source, let range, _): member(source, from: range.lowerBound, before: range)
    }
  }

  var endIndex: Int {
    switch storage {
    case .listed(let ids, _): ids.endIndex
    case .layout(_, let range, _): range.upperBound
    }
  }

  func index(after position: Int) -> Int {
    switch storage {
    case .listed: position + 1
    case .layout(let source, let range, _): member(source, from: position + 1, before: range)
    }
  }

  subscript(position: Int) -> TransactionID {
    switch storage {
    case .listed(let ids, _):
      return ids[position]
    case .layout(let source, let range, _):
      precondition(range.contains(position), "index out of range")
      return source.entries[source.record(at: position).entryIndex].transactionID
    }
  }

  /// The first position at or after `position` whose coverage has an interval; the end of
  /// `range` when none has.
  private func member(_ source: Source, from position: Int, before range: Range<Int>) -> Int {
    var position = position
    while position < range.upperBound, !source.record(at: position).hasInterval {
      position += 1
    }
    return position
  }

  static func == (lhs: PeriodMembers, rhs: PeriodMembers) -> Bool {
    lhs.last == rhs.last && lhs.elementsEqual(rhs)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(last)
    hasher.combine(count)
    for id in self { hasher.combine(id) }
  }
}
