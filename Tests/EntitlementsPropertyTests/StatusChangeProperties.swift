import Entitlements
import EntitlementsTesting
import Testing

/// The law of the status function (issue: the whole status function): an entitlement's
/// `changes` equal `status(at:)` at every instant, checked at every change, 1 ms before it,
/// at every boundary of the history and at random instants in between; `nextChange(after:)`
/// is the first change after the instant. 2 seeds × 5 000 generated histories.
@Suite("StatusChangeProperties")
struct StatusChangeProperties {
  static let seeds: [UInt64] = [20_261_129, 44]
  static let cases = 5_000

  /// The step of the status function: what two consecutive changes must differ in.
  struct Step: Hashable {
    var state: EntitlementState
    var reason: ExpiryReason?
    var entitled: Bool

    init(_ status: EntitlementStatus) {
      (state, reason, entitled) = (status.state, status.reason, status.isEntitled)
    }
  }

  @Test(arguments: seeds)
  func changesAreTheStatusAtEveryInstant(seed: UInt64) {
    forAll(Self.cases, seed: seed) { customer in
      var random = SeededRandom(seed: customer.seed ^ 0x5EED)
      let instants = sampleInstants(customer)
      return customer.evaluate().entitlements.allSatisfy { entitlement in
        Self.lawHolds(entitlement, boundaries: instants, random: &random)
      }
    }
  }

  static func lawHolds(
    _ entitlement: EntitlementEvaluation, boundaries: [Instant], random: inout SeededRandom
  ) -> Bool {
    let changes = entitlement.changes
    // The function's value at an instant, by a linear scan written here.
    func inForce(_ instant: Instant) -> Step {
      changes.last { $0.at <= instant }.map { Step($0.status) } ?? Step(.notSubscribed)
    }
    var previous = Step(.notSubscribed)
    var previousAt = Instant.distantPast
    for (index, change) in changes.enumerated() {
      // Sorted, strictly; each differs from the one before (the first from notSubscribed).
      guard index == 0 || change.at > previousAt, Step(change.status) != previous else {
        return false
      }
      // The change carries the status at its instant; 1 ms before it, the previous step.
      guard entitlement.status(at: change.at) == change.status,
        change.at == .distantPast
          || Step(entitlement.status(at: change.at - .milliseconds(1))) == previous
      else { return false }
      // Random instants up to the next change.
      let next = index + 1 < changes.count ? changes[index + 1].at : change.at + .days(400)
      let span = (next - change.at).milliseconds
      for _ in 0..<3 where span > 1 {
        let instant = change.at + .milliseconds(random.int64(in: 0...(span - 1)))
        guard Step(entitlement.status(at: instant)) == Step(change.status) else { return false }
      }
      (previous, previousAt) = (Step(change.status), change.at)
    }
    // Every boundary of the history, 1 ms either side, and far away (but not
    // `distantFuture`, the end of a lifetime purchase, never reached).
    for instant in boundaries where !instant.isDistantFuture {
      guard Step(entitlement.status(at: instant)) == inForce(instant) else { return false }
    }
    // The next change: the first strictly after the instant.
    for instant in boundaries + changes.map(\.at) {
      guard entitlement.nextChange(after: instant) == changes.first(where: { $0.at > instant })
      else { return false }
    }
    return true
  }

  /// The histories of the law reach every state and every reason as a change, so the law
  /// covers them all.
  @Test func theLawSeesEveryStateAndReason() {
    var states = Set<EntitlementState>()
    var reasons = Set<ExpiryReason>()
    let generator = HistoryGenerator()
    for index in 0..<Self.cases {
      let customer = generator.generate(seed: SeededRandom.derive(Self.seeds[0], index))
      for entitlement in customer.evaluate().entitlements {
        for change in entitlement.changes {
          states.insert(change.state)
          if let reason = change.reason { reasons.insert(reason) }
        }
      }
    }
    // notSubscribed is never a change: it is the status before the first.
    #expect(states == Set(EntitlementState.allCases).subtracting([.notSubscribed]))
    #expect(reasons == Set(ExpiryReason.allCases))
  }
}
