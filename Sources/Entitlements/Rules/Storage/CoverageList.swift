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
/// stays in the shared entries at ``entryIndex``.
///
/// Packed into 32 bytes of plain values (less than half the size of the five fields it stands
/// for), so that arrays of it are copied and freed without reference counting and a large
/// history touches less fresh memory. Cuts only move an interval's end, so one start is stored
/// for both intervals, and the end follows from the disposition: the natural end when the
/// entry covers, the upgrade's instant when an upgrade ended it, the earlier of the natural end
/// and the refund when a refund ended it. Histories are limited to 2³² − 1 entries.
///
/// ``CoverageRules`` makes one record per entry of an entitlement, where it goes in the list.
struct CoverageRecord: Hashable, Sendable {
  private let storedIndex: UInt32
  let productType: ProductKind
  /// 0 covers, 1 ended by upgrade, 2 refund voided, 3 refund ended, 4 invalid.
  private let tag: UInt8
  /// The kind of an invalid entry; `.missingPurchaseDate` for any other.
  private let kind: Diagnostic.Kind
  /// Bit 0: the entry gives access at all (a cut can leave nothing); bit 1: the entry is in a
  /// free trial; bit 2: in an introductory offer.
  private var bits: UInt8
  private let startInstant: Instant
  private let naturalEnd: Instant
  /// The instant of ``EntryCoverage/Disposition/endedByUpgrade(at:)`` or
  /// ``EntryCoverage/Disposition/refundEndedAt(_:)``.
  private let at: Instant

  init(
    entryIndex: Int, productType: ProductKind, interval: Interval?,
    disposition: EntryCoverage.Disposition, naturalInterval: Interval?
  ) {
    precondition(
      entryIndex >= 0 && entryIndex < Int(UInt32.max), "more entries than a history may hold")
    storedIndex = UInt32(entryIndex)
    self.productType = productType
    bits = interval != nil ? 1 : 0
    startInstant = naturalInterval?.start ?? .distantPast
    naturalEnd = naturalInterval?.end ?? .distantPast
    var kind = Diagnostic.Kind.missingPurchaseDate
    var at = Instant.distantPast
    switch disposition {
    case .covers: tag = 0
    case .endedByUpgrade(let instant): (tag, at) = (1, instant)
    case .refundVoided: tag = 2
    case .refundEndedAt(let instant): (tag, at) = (3, instant)
    case .invalid(let invalidKind): (tag, kind) = (4, invalidKind)
    }
    self.kind = kind
    self.at = at
    assert(
      interval.map { $0.start == naturalInterval?.start && tag != 2 && tag != 4 } ?? true,
      "an interval starts where its natural interval starts, and only a valid entry has one")
    assert(
      interval.map { $0.end == storedEnd } ?? true,
      "an interval ends where its disposition says")
  }

  /// The record of an entry that covers its whole natural interval
  /// (``EntryCoverage/Disposition/covers``): the usual entry.
  init(
    covering entryIndex: Int, productType: ProductKind, interval: Interval, trial: Bool,
    intro: Bool
  ) {
    precondition(
      entryIndex >= 0 && entryIndex < Int(UInt32.max), "more entries than a history may hold")
    storedIndex = UInt32(entryIndex)
    self.productType = productType
    (tag, kind, at) = (0, .missingPurchaseDate, .distantPast)
    bits = (interval.isEmpty ? 0 : 1) | (trial ? 2 : 0) | (intro ? 4 : 0)
    (startInstant, naturalEnd) = (interval.start, interval.end)
  }

  /// The entry's index in the history's entries.
  var entryIndex: Int { Int(storedIndex) }

  /// Where the natural interval starts (and the interval, when there is one).
  var start: Instant { startInstant }

  /// Whether the entry gives access at all: ``interval`` is not `nil`.
  var hasInterval: Bool { bits & 1 != 0 }

  /// The entry's `is_trial_period`, kept so that periods find their offer without reading
  /// entries (``PeriodRules``); `false` until ``setOffers(trial:intro:)``.
  var isTrialPeriod: Bool { bits & 2 != 0 }

  /// The entry's `is_in_intro_offer_period`; `false` until ``setOffers(trial:intro:)``.
  var isInIntroOfferPeriod: Bool { bits & 4 != 0 }

  /// Keeps the offer flags of the record's entry.
  mutating func setOffers(trial: Bool, intro: Bool) {
    bits = bits & 1 | (trial ? 2 : 0) | (intro ? 4 : 0)
  }

  /// Where the interval ends, when there is one.
  private var storedEnd: Instant {
    switch tag {
    case 0: naturalEnd
    case 1: at
    default: min(naturalEnd, at)
    }
  }

  /// The instants the entry gives access to.
  var interval: Interval? { hasInterval ? Interval(start: startInstant, end: storedEnd) : nil }

  /// Whether a refund voided or ended the entry (``EntryCoverage/Disposition/refundVoided`` or
  /// ``EntryCoverage/Disposition/refundEndedAt(_:)``): a valid entry whose `cancellation_date`
  /// is not an upgrade's, so the rules need not read the entry again.
  var isRefunded: Bool { tag == 2 || tag == 3 }

  /// What the entry would have covered without a refund; `nil` for an invalid entry.
  var naturalInterval: Interval? { tag == 4 ? nil : Interval(start: startInstant, end: naturalEnd) }

  /// Why.
  var disposition: EntryCoverage.Disposition {
    switch tag {
    case 0: .covers
    case 1: .endedByUpgrade(at: at)
    case 2: .refundVoided
    case 3: .refundEndedAt(at)
    default: .invalid(kind)
    }
  }
}
