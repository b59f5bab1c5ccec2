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
  /// The periods of the records so far, while they are in order of start; `nil` when they are
  /// merged after the pass.
  var merger: PeriodMerger?

  /// An empty group whose periods are merged (gaps shorter than `minimumLapse` merged away)
  /// as its records are made when `mergesAsItGoes`, else after the pass.
  ///
  /// An out-of-order history's pass reads its ``CanonicalEntries``, freed after the pass: its
  /// periods, merged then, take their memory instead of more. Merged during the pass, at 10⁵
  /// shuffled entries, the heap grew past what glibc keeps between evaluations, and each
  /// evaluation took 1 200 page faults (issue: performance).
  init(minimumLapse: FixedDuration, mergesAsItGoes: Bool = true) {
    if mergesAsItGoes { merger = PeriodMerger(minimumLapse: minimumLapse, checksOrder: true) }
  }

  /// Adds the record of an entry.
  @inline(__always)
  mutating func append(_ record: CoverageRecord) {
    merger?.add(record, at: records.count, coverageIndex: records.count)
    records.append(record)
  }
}
