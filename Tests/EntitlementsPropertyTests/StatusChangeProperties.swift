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

  /// The policies the law is checked under, one per history: every rule of SPEC §4–§6 a
  /// policy changes (refunds ending at the cancellation, merged short lapses, passes from
  /// their purchase, a shorter retry window).
  static let policies: [Policy] = [
    Policy(),
    policy { try Policy(cancellation: .endAtCancellation) },
    policy { try Policy(minimumLapse: .days(3)) },
    policy { try Policy(nonRenewingStacking: .fromPurchase) },
    policy { try Policy(billingRetryLimit: .days(30)) },
  ]

  /// A policy the table knows to be valid.
  static func policy(_ make: () throws -> Policy) -> Policy {
    do { return try make() } catch { preconditionFailure("invalid policy in the table: \(error)") }
  }

  @Test(arguments: seeds)
  func changesAreTheStatusAtEveryInstant(seed: UInt64) {
    forAll(Self.cases, seed: seed) { generated in
      var random = SeededRandom(seed: generated.seed ^ 0x5EED)
      var customer = generated
      // Now and then an entry without its purchase date (it covers nothing).
      if random.chance(0.1), !customer.entries.isEmpty {
        customer.entries[random.int(in: 0...(customer.entries.count - 1))].purchaseDate = nil
      }
      let policy = random.pick(Self.policies)
      let history = Self.withSaidThen(customer.history, random: &random)
      // The boundaries of the history, and of what was said then: each date, 1 ms either side.
      var said: [Instant] = history.renewalInfo.flatMap {
        [$0.signedDate, $0.gracePeriodExpiresDate].compactMap { $0 }
      }
      for reversal in history.reversedRefunds {
        said += [reversal.reversedAt, reversal.refunded.cancellationDate].compactMap { $0 }
      }
      let instants =
        sampleInstants(customer)
        + said.flatMap { [$0 - .milliseconds(1), $0, $0 + .milliseconds(1)] }
      let evaluation = Evaluator(catalog: customer.catalog, policy: policy).evaluate(history)
      return evaluation.entitlements.allSatisfy { entitlement in
        Self.lawHolds(entitlement, boundaries: instants, random: &random)
      }
    }
  }

  /// The history with, now and then, what Apple said then (SPEC §5): renewal info signed
  /// after an expiry saying it retries (some in grace, some later saying it stopped), and
  /// refunds reversed some time after their date (the entry as the reversal left it).
  static func withSaidThen(_ history: PurchaseHistory, random: inout SeededRandom)
    -> PurchaseHistory
  {
    var history = history
    for index in history.entries.indices where random.chance(0.15) {
      let entry = history.entries[index]
      guard let expires = entry.expiresDate, !expires.isDistantFuture else { continue }
      let signed =
        expires + .milliseconds(random.int64(in: 0...FixedDuration.days(20).milliseconds))
      history.renewalInfo.append(
        RenewalInfo(
          originalTransactionID: entry.originalTransactionID, isInBillingRetryPeriod: true,
          gracePeriodExpiresDate: random.chance(0.5)
            ? expires + .days(random.pick([3, 6, 16])) : nil,
          signedDate: signed))
      if random.chance(0.3) {
        history.renewalInfo.append(
          RenewalInfo(
            originalTransactionID: entry.originalTransactionID, rawExpirationIntent: 2,
            isInBillingRetryPeriod: false, signedDate: signed + .days(random.pick([1, 10, 70]))))
      }
    }
    for index in history.entries.indices where random.chance(0.5) {
      guard let refundedAt = history.entries[index].cancellationDate else { continue }
      history.reversedRefunds.append(
        ReversedRefund(
          refunded: history.entries[index],
          reversedAt: refundedAt + .hours(random.int64(in: 1...2_000))))
      history.entries[index].cancellationDate = nil
      history.entries[index].rawCancellationReason = nil
      history.entries[index].rawRevocationType = nil
      history.entries[index].revocationPercentage = nil
    }
    return history
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
      // 1 ms before the change, the previous step.
      guard
        change.at == .distantPast
          || Step(entitlement.status(at: change.at - .milliseconds(1))) == previous
      else { return false }
      // Before the first: not subscribed, at random instants of the year before.
      for _ in 0..<(index == 0 ? 3 : 0) where change.at > .distantPast + .days(400) {
        let instant =
          change.at - .milliseconds(random.int64(in: 1...FixedDuration.days(400).milliseconds))
        guard Step(entitlement.status(at: instant)) == Step(.notSubscribed) else { return false }
      }
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
