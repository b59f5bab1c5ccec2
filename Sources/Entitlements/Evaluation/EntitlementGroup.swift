/// The entries of one entitlement as the evaluator classifies them: one coverage record per
/// entry, evaluated as the entry is classified (``CoverageRules``), and what classifying them
/// reported.
///
/// Evaluating each record while its entry is read for classification makes one pass over the
/// entries instead of two (issue: performance; DESIGN.md "Performance").
struct EntitlementGroup {
  /// One record per entry of the entitlement, in canonical order.
  var records: [CoverageRecord] = []
  /// The diagnostics of classifying the entries.
  var diagnostics: [Diagnostic] = []
  /// The coverage rules' state after the last record, with their diagnostics.
  var cursor = CoverageRules.Cursor()
}
