/// The entries of one entitlement as the evaluator classifies them: one coverage record per
/// entry, evaluated as the entry is classified (``CoverageRules``) and merged into periods as
/// it is made (``PeriodMerger``), and what classifying them reported.
///
/// Evaluating and merging each record while its entry is read for classification makes one
/// pass over the entries and none over the records, instead of two and one (issue:
/// performance; DESIGN.md "Performance").
struct EntitlementGroup {
  /// One record per entry of the entitlement, in canonical order.
  var records: [CoverageRecord] = []
  /// The diagnostics of classifying the entries.
  var diagnostics: [Diagnostic] = []
  /// The coverage rules' state after the last record, with their diagnostics.
  var cursor = CoverageRules.Cursor()
  /// The periods of the records so far, while they are in order of start.
  var merger: PeriodMerger
  /// The latest end of the records' intervals per subscription, by slot of the
  /// ``KnownSubscriptions`` of the pass, when the pass tracks them (the history has renewal
  /// info); ``Instant/distantPast`` for a subscription with none in this group. What
  /// ``LapseRules`` needs of the records, noted as they are made; valid while the cursor is
  /// complete (the records are then as they were made).
  var subscriptionEnds = KnownSubscriptions.Slots<Instant>(repeating: .distantPast)

  /// An empty group whose periods are merged as its records are made (gaps shorter than
  /// `minimumLapse` merged away), up to `spanLimit` periods (none when `nil`); past that, they
  /// are merged after the pass.
  ///
  /// An out-of-order history's pass reads its ``CanonicalEntries`` and makes records (32
  /// bytes per entry): its periods' list is made at once, for one period per eight entries (6
  /// bytes per entry), instead of growing by doubling above them. When the canonical entries
  /// were a block of 48 bytes per entry, growing brought the heap at 10⁵ shuffled entries past
  /// what glibc keeps between evaluations (twice the largest block freed, then 96 bytes per
  /// entry), and each evaluation took 1 200 page faults. Their block is now twice that (its
  /// scratch half: ``PurchaseBuckets``), so the limit has room to spare, and the list made at
  /// once saves its regrowth. More periods than the limit are merged after the pass, into the
  /// canonical entries' freed memory (issue: performance).
  init(minimumLapse: FixedDuration, spanLimit: Int? = nil) {
    merger = PeriodMerger(minimumLapse: minimumLapse, checksOrder: true, spanLimit: spanLimit)
  }

  /// Adds the record of an entry.
  @inline(__always)
  mutating func append(_ record: CoverageRecord) {
    merger.add(record, at: records.count, coverageIndex: records.count)
    records.append(record)
  }
}
