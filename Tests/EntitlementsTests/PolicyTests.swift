import Entitlements
import Testing

/// A policy no rule can use is refused when it is made, naming the field (SPEC policies).
@Suite("Policy: valid by construction")
struct PolicyTests {
  struct Invalid: CustomTestStringConvertible, Sendable {
    let field: String
    let make: @Sendable () throws -> Policy
    var testDescription: String { field }
  }

  static let invalid: [Invalid] = [
    Invalid(field: "billingRetryLimit") { try Policy(billingRetryLimit: .zero) },
    Invalid(field: "billingRetryLimit") { try Policy(billingRetryLimit: .days(-1)) },
    Invalid(field: "minimumLapse") { try Policy(minimumLapse: .milliseconds(-1)) },
    Invalid(field: "unlockAtStart") { try Policy(unlockAtStart: -1) },
  ]

  @Test(arguments: invalid)
  func anUnusableValueIsRefusedNamingItsField(_ test: Invalid) {
    #expect {
      _ = try test.make()
    } throws: { error in
      guard let error = error as? PolicyError else { return false }
      return error.field == test.field && error.description.hasPrefix("\(test.field): ")
    }
  }

  /// The boundaries are allowed: no minimum lapse, a start that unlocks nothing, 1 ms of retry.
  @Test func theBoundariesAreValid() throws {
    let policy = try Policy(
      minimumLapse: .zero, billingRetryLimit: .milliseconds(1), unlockAtStart: 0)
    #expect(policy.billingRetryLimit == .milliseconds(1))
    #expect(Policy() == (try Policy(cancellation: .voidEntirely)))
  }

  /// A policy's fields cannot be set one by one past the checks.
  @Test func fieldsAreReadOnly() {
    let fields: [PartialKeyPath<Policy>] = [
      \.cancellation, \.minimumLapse, \.billingRetryLimit, \.nonRenewingStacking,
      \.unlockAtStart, \.sandboxProfile, \.scalesSandboxWindows,
    ]
    #expect(!fields.contains { isWritable($0) })
  }
}

/// Results are read-only: a caller cannot put an evaluation in a state the library did not
/// compute (`evaluation.periods.append(…)` does not compile). A key path to a stored or
/// settable property would be writable; every public one of the results is not.
@Suite("Results are read-only")
struct ReadOnlyResultsTests {
  @Test func noPropertyOfAnEvaluationIsWritable() {
    let entitlement: [PartialKeyPath<EntitlementEvaluation>] = [
      \.id, \.coverage, \.periods, \.lapses, \.windows, \.renewalInfo, \.gracePeriod,
      \.continuousSubscriptionStart, \.diagnostics, \.billingRetryLimit, \.unlockAtStart,
    ]
    let evaluation: [PartialKeyPath<Evaluation>] = [
      \.entitlements, \.purchaseEvents, \.diagnostics,
    ]
    let event: [PartialKeyPath<PurchaseEvent>] = [\.entry, \.productType, \.productID]
    #expect(!entitlement.contains { isWritable($0) })
    #expect(!evaluation.contains { isWritable($0) })
    #expect(!event.contains { isWritable($0) })
    // The check can fail: an input value's key path is writable.
    let input: PartialKeyPath<ReceiptEntry> = \.expiresDate
    #expect(isWritable(input))
  }
}

/// Whether a key path can set its value: the runtime class of a writable key path is
/// `WritableKeyPath` (or `ReferenceWritableKeyPath`), of a read-only one `KeyPath`.
func isWritable<Root>(_ path: PartialKeyPath<Root>) -> Bool {
  String(describing: type(of: path)).contains("WritableKeyPath")
}
