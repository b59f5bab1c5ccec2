/// The answer for one customer: an evaluation per entitlement, purchase events, and every
/// problem found in the input.
///
/// ```swift
/// let evaluation = Evaluator(catalog: catalog).evaluate(history)
/// evaluation["magazine"]?.status(at: now).isEntitled  // true
/// evaluation.diagnostics                              // []
/// ```
public struct Evaluation: Hashable, Sendable {
  /// One evaluation per entitlement, ordered by entitlement id.
  public let entitlements: [EntitlementEvaluation]
  /// Purchases that unlock no entitlement (consumables, untyped entries), in purchase order.
  public let purchaseEvents: [PurchaseEvent]
  /// Every problem found in the input, in a fixed order. Includes each entitlement's own.
  public let diagnostics: [Diagnostic]

  /// The evaluation of one entitlement, or `nil` when no entry unlocks it.
  public subscript(entitlement: EntitlementID) -> EntitlementEvaluation? {
    entitlements.first { $0.id == entitlement }
  }
}
