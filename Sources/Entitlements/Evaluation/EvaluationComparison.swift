/// What a new document changed: for each entitlement, its status at an instant before and
/// after the document was folded, and whether its past changed (SPEC §5).
///
/// A backend that receives a notification verifies it, folds it into the subscriber's record,
/// evaluates, and compares with the evaluation before, at the instant it received it:
///
/// ```swift
/// let before = evaluator.evaluate(record.history)
/// record.fold(try DocumentReader.read(body, verifier: verifier))
/// let after = evaluator.evaluate(record.history)
/// let comparison = EvaluationComparison(before: before, after: after, at: now)
/// for change in comparison.changed where change.after.state == .billingRetry {
///   sendUpdateYourCardEmail(change.id)
/// }
/// // Every entitlement's next change, changed or not: a renewal only moves it.
/// for entitlement in comparison.entitlements {
///   store(entitlement.id, entitled: entitlement.after.isEntitled,
///         lookAgainAt: entitlement.nextChange?.at)
/// }
/// ```
public struct EvaluationComparison: Hashable, Sendable {
  /// The instant compared at.
  public let at: Instant
  /// One comparison per entitlement of either evaluation, ordered by entitlement id.
  public let entitlements: [EntitlementComparison]

  /// Compares two evaluations of one subscriber at an instant.
  ///
  /// - Parameters:
  ///   - before: The evaluation before the new document.
  ///   - after: The evaluation after it.
  ///   - instant: The instant compared at: usually when the document arrived.
  public init(before: Evaluation, after: Evaluation, at instant: Instant) {
    at = instant
    // Both lists are ordered by id: merge them.
    let (old, new) = (before.entitlements, after.entitlements)
    var (i, j) = (0, 0)
    var entitlements: [EntitlementComparison] = []
    while i < old.count || j < new.count {
      let id: EntitlementID
      if j == new.count || (i < old.count && old[i].id < new[j].id) {
        id = old[i].id
      } else {
        id = new[j].id
      }
      let was = i < old.count && old[i].id == id ? old[i] : nil
      let now = j < new.count && new[j].id == id ? new[j] : nil
      if was != nil { i += 1 }
      if now != nil { j += 1 }
      entitlements.append(EntitlementComparison(id: id, before: was, after: now, at: instant))
    }
    self.entitlements = entitlements
  }

  /// The entitlements whose status at the instant or whose past changed.
  public var changed: [EntitlementComparison] { entitlements.filter(\.changed) }

  /// The comparison of one entitlement, or `nil` when neither evaluation has it.
  public subscript(entitlement: EntitlementID) -> EntitlementComparison? {
    entitlements.first { $0.id == entitlement }
  }
}
