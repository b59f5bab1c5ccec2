import Testing

@testable import Entitlements

/// The rules of Apple's 2026 model (<doc:Rules>, §4 "Revocation types" and §5
/// "Commitments"), each at its boundaries.
@Suite("Revocation types and commitments (SPEC §4, §5)")
struct Apple2026RulesTests {
  /// A revocation type against the policy: what the entry covers, the state after the
  /// revocation, its reason, and a lapse it opens up to a resubscription on Mar 10.
  struct RevocationCase: Sendable, CustomTestStringConvertible {
    var type: String?
    var policy: Policy.Cancellation
    var covers: Interval?
    var reason: ExpiryReason
    var lapseCause: LapseCause
    var testDescription: String { "\(type ?? "no type"), \(policy)" }
  }

  static let revocations: [RevocationCase] = [
    .init(
      type: "REFUND_PRORATED", policy: .voidEntirely,
      covers: interval("2017-02-01", "2017-02-11"), reason: .refund, lapseCause: .refund),
    .init(
      type: "REFUND_PRORATED", policy: .endAtCancellation,
      covers: interval("2017-02-01", "2017-02-11"), reason: .refund, lapseCause: .refund),
    .init(
      type: "FAMILY_REVOKE", policy: .voidEntirely,
      covers: interval("2017-02-01", "2017-02-11"), reason: .familySharingRevoked,
      lapseCause: .familySharingRevoked),
    .init(
      type: "REFUND_FULL", policy: .voidEntirely, covers: nil, reason: .refund,
      lapseCause: .refund),
    .init(
      type: "REFUND_FULL", policy: .endAtCancellation,
      covers: interval("2017-02-01", "2017-02-11"), reason: .refund, lapseCause: .refund),
    .init(type: nil, policy: .voidEntirely, covers: nil, reason: .refund, lapseCause: .refund),
    // A type this version does not know: the policy decides, as for a full refund.
    .init(
      type: "ASSIGNMENT_REVOKE", policy: .voidEntirely, covers: nil, reason: .refund,
      lapseCause: .refund),
  ]

  @Test(arguments: revocations)
  func aRevocationByType(_ test: RevocationCase) throws {
    let premium = try evaluateOne(
      [
        sub("1", "2017-01-01", "2017-02-01"),
        sub("2", "2017-02-01", "2017-03-01", cancelled: "2017-02-11", revocation: test.type),
        sub("3", "2017-03-10", "2017-04-10"),
      ], policy: validPolicy { try Policy(cancellation: test.policy) })
    let revoked = try #require(premium.coverage.first { $0.entry.transactionID == "2" })
    #expect(revoked.interval == test.covers)
    // The instant of the revocation belongs to the time after it.
    let before = premium.status(at: instant("2017-02-10T23:59:59.999Z"))
    #expect(before.state == (test.covers == nil ? .revoked : .active))
    let after = premium.status(at: instant("2017-02-11"))
    #expect(after.state == .revoked)
    #expect(after.reason == test.reason)
    #expect(premium.lapses.map(\.cause) == [test.lapseCause])
    #expect(premium.lapses.first?.interval.start == (test.covers?.end ?? instant("2017-02-01")))
  }

  /// A revocation that ends access at its date is no revocation before it: a family member's
  /// access revoked after the subscription expired leaves the time between expired.
  @Test func aRevocationAfterTheExpiryIsRevokedOnlyFromItsDate() throws {
    let premium = try evaluateOne([
      sub("1", "2017-01-01", "2017-02-01", cancelled: "2017-03-01", revocation: "FAMILY_REVOKE")
    ])
    #expect(premium.periods.map(\.interval) == [interval("2017-01-01", "2017-02-01")])
    #expect(premium.status(at: instant("2017-02-15")).state == .expired)
    let revoked = premium.status(at: instant("2017-03-01"))
    #expect(
      revoked
        == .revoked(
          transactionID: "1", revokedAt: instant("2017-03-01"), reason: .familySharingRevoked,
          rawRevocationType: "FAMILY_REVOKE"))
    // A full refund is void from the purchase on, as the guide says: revoked at once.
    let refunded = try evaluateOne([
      sub("1", "2017-01-01", "2017-02-01", cancelled: "2017-03-01", revocation: "REFUND_FULL")
    ])
    #expect(refunded.status(at: instant("2017-02-15")).state == .revoked)
  }

  /// Of several purchases at the latest instant, the reason is familySharingRevoked only when
  /// each was revoked so.
  @Test(arguments: [
    ("FAMILY_REVOKE", "FAMILY_REVOKE", ExpiryReason.familySharingRevoked),
    ("FAMILY_REVOKE", "REFUND_PRORATED", .refund),
  ])
  func theReasonOfPurchasesRevokedTogether(first: String, second: String, reason: ExpiryReason)
    throws
  {
    let catalog = ProductCatalog([
      CatalogProduct(id: "monthly", type: .autoRenewable, entitlement: "premium")
    ])
    let premium = try evaluateOne(
      [
        sub(
          "1", "2017-01-01", "2017-02-01", original: "1", cancelled: "2017-01-11", revocation: first
        ),
        sub(
          "2", "2017-01-01", "2017-02-01", original: "2", cancelled: "2017-01-11",
          revocation: second),
      ], catalog: catalog)
    #expect(premium.status(at: instant("2017-01-20")).reason == reason)
  }

  /// Two records of one purchase revoked at one instant: the one that says how is kept, and
  /// two that disagree on how are reported; the order they come in changes nothing.
  @Test func recordsRevokedAtOneInstantKeepTheOneSayingHow() throws {
    let first = sub("1", "2017-01-01", "2017-02-01")
    let untyped = sub("2", "2017-02-01", "2017-03-01", cancelled: "2017-02-11")
    let prorated = sub(
      "2", "2017-02-01", "2017-03-01", cancelled: "2017-02-11", revocation: "REFUND_PRORATED")
    let full = sub(
      "2", "2017-02-01", "2017-03-01", cancelled: "2017-02-11", revocation: "REFUND_FULL")
    for records in [[untyped, prorated], [prorated, untyped]] {
      let premium = try evaluateOne([first] + records)
      #expect(premium.periods.map(\.interval) == [interval("2017-01-01", "2017-02-11")])
    }
    let one = Evaluator().evaluate(PurchaseHistory(entries: [first, full, prorated]))
    let other = Evaluator().evaluate(PurchaseHistory(entries: [prorated, first, full]))
    #expect(one == other)
    #expect(
      one.diagnostics.filter { $0.kind == .conflictingDuplicate }.map(\.field)
        == ["revocationType"])
    // REFUND_FULL comes first in canonical order: the policy voids the renewal.
    #expect(one["1"]?.periods.map(\.interval) == [interval("2017-01-01", "2017-02-01")])
  }

  // MARK: - Commitments

  static func payment(_ number: Int, of total: Int = 12) -> ReceiptEntry {
    let month = CalendarPeriod(1, .month)
    let from = month.advance(instant("2026-01-01"), times: number - 1)
    return ReceiptEntry(
      productID: "yearly.monthly",
      transactionID: TransactionID("\(2_000_000_400_000_000 + number)"),
      originalTransactionID: "2000000400000001", purchaseDate: from,
      expiresDate: month.advance(from), rawBillingPlanType: "MONTHLY",
      commitment: ReceiptEntry.Commitment(
        billingPeriodNumber: number, totalBillingPeriods: total,
        expiresDate: instant("2027-01-01")))
  }

  static func renewal(commitmentRenews: Bool?, signed: String) -> RenewalInfo {
    RenewalInfo(
      originalTransactionID: "2000000400000001", productID: "yearly.monthly",
      autoRenewProductID: "yearly.monthly", autoRenewStatus: true,
      signedDate: instant(signed), rawRenewalBillingPlanType: "MONTHLY",
      commitment: commitmentRenews.map {
        RenewalInfo.Commitment(autoRenewStatus: $0, autoRenewProductID: "yearly")
      })
  }

  /// After the last payment of a commitment, what renews follows its own renewal; after any
  /// other payment, billing goes on whatever it says.
  struct CommitmentCase: Sendable, CustomTestStringConvertible {
    var payments: Int
    var renews: Bool?
    var willRenew: Bool?
    var nextProduct: ProductID?
    var reasonAfter: ExpiryReason
    var testDescription: String {
      "\(payments) payments, commitment renews: \(renews.map(String.init) ?? "unknown")"
    }
  }

  static let commitments: [CommitmentCase] = [
    .init(
      payments: 12, renews: false, willRenew: false, nextProduct: "yearly",
      reasonAfter: .voluntary),
    .init(
      payments: 12, renews: true, willRenew: true, nextProduct: "yearly", reasonAfter: .unknown),
    .init(
      payments: 12, renews: nil, willRenew: true, nextProduct: "yearly.monthly",
      reasonAfter: .unknown),
    // Payment 11 of 12, the commitment's renewal off: the twelfth will still be billed.
    .init(
      payments: 11, renews: false, willRenew: true, nextProduct: "yearly.monthly",
      reasonAfter: .unknown),
  ]

  @Test(arguments: commitments)
  func theLastPaymentOfACommitment(_ test: CommitmentCase) throws {
    let entries = (1...test.payments).map { Self.payment($0) }
    let end = try #require(entries.last?.expiresDate)
    let signed = try #require(entries.last?.purchaseDate)
    let premium = try evaluateOne(
      entries,
      renewalInfo: [Self.renewal(commitmentRenews: test.renews, signed: signed.description)])
    let status = premium.status(at: end - .milliseconds(1))
    #expect(status.willRenew == test.willRenew)
    #expect(status.commitment?.billingPeriod == test.payments)
    #expect(status.commitment?.willRenew == test.renews)
    guard case .active(let active) = status else {
      Issue.record("not active: \(status)")
      return
    }
    #expect(active.nextProductID == test.nextProduct)
    #expect(premium.status(at: end).reason == test.reasonAfter)
  }

  /// The renewal turned off before the last payment's start still counts for the time after
  /// it: the newest renewal info says so when nothing signed since does.
  @Test func aCommitmentsRenewalTurnedOffEarlierStillCounts() throws {
    let entries = (1...12).map { Self.payment($0) }
    let premium = try evaluateOne(
      entries,
      renewalInfo: [Self.renewal(commitmentRenews: false, signed: "2026-11-20T00:00:00Z")])
    #expect(premium.status(at: instant("2026-12-15")).willRenew == false)
    #expect(premium.status(at: instant("2026-12-15")).commitment?.willRenew == false)
    #expect(premium.status(at: instant("2027-01-01")).reason == .voluntary)
    #expect(premium.unsubscribeDetectedAt == instant("2026-11-20T00:00:00Z"))
  }

  /// Turning renewal off during a commitment (DID_CHANGE_RENEWAL_STATUS with
  /// AUTO_RENEW_DISABLED) is the commitment's, whatever renewal info came before it: the
  /// months left are still billed.
  @Test(arguments: ["2026-10-01T00:00:00Z", "2026-11-20T00:00:00Z", nil] as [String?])
  func aRenewalStatusNotificationInACommitmentIsTheCommitments(infoSigned: String?) throws {
    let entries = (1...11).map { Self.payment($0) }
    let evaluation = Evaluator().evaluate(
      PurchaseHistory(
        entries: entries,
        renewalInfo: infoSigned.map { [Self.renewal(commitmentRenews: true, signed: $0)] } ?? [],
        notifications: [
          Self.notification("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", "2026-11-20")
        ]))
    let premium = try #require(evaluation.entitlements.first)
    let status = premium.status(at: instant("2026-11-25"))
    // Payment 12 will be billed: the period renews, though the commitment will not.
    #expect(status.willRenew != false)
    #expect(status.commitment?.willRenew == false)
    // After payment 11, were it the last one known, the lapse is no voluntary one.
    #expect(premium.status(at: instant("2026-12-01")).reason != .voluntary)
  }

  static func notification(_ type: String, _ subtype: String?, _ signed: String)
    -> NotificationEvidence
  {
    NotificationEvidence(
      originalTransactionID: "2000000400000001", signedDate: instant(signed), rawType: type,
      rawSubtype: subtype)
  }

  /// A commitment whose renewal was turned off, then a purchase months later: the lapse
  /// between them is voluntary, as the status after the commitment said.
  @Test func theLapseAfterACommitmentThatDidNotRenewIsVoluntary() throws {
    let later = ReceiptEntry(
      productID: "yearly.monthly", transactionID: "2000000400000100",
      originalTransactionID: "2000000400000001", purchaseDate: instant("2027-03-01"),
      expiresDate: instant("2027-04-01"))
    let premium = try evaluateOne(
      (1...12).map { Self.payment($0) } + [later],
      renewalInfo: [Self.renewal(commitmentRenews: false, signed: "2026-11-20T00:00:00Z")])
    #expect(premium.lapses.map(\.interval) == [interval("2027-01-01", "2027-03-01")])
    #expect(premium.lapses.map(\.cause) == [.voluntary])
    #expect(premium.status(at: instant("2027-02-01")).reason == .voluntary)
  }

  /// What was said of an earlier commitment's renewal says nothing of a later one's.
  @Test func anEarlierCommitmentsRenewalSaysNothingOfTheNext() throws {
    let month = CalendarPeriod(1, .month)
    func payment(_ number: Int, from first: String, ends: String, id: Int) -> ReceiptEntry {
      let start = month.advance(instant(first), times: number - 1)
      return ReceiptEntry(
        productID: "yearly.monthly", transactionID: TransactionID("\(id)"),
        originalTransactionID: "2000000400000001", purchaseDate: start,
        expiresDate: month.advance(start), rawBillingPlanType: "MONTHLY",
        commitment: ReceiptEntry.Commitment(
          billingPeriodNumber: number, totalBillingPeriods: 12, expiresDate: instant(ends)))
    }
    let first = (1...12).map {
      payment($0, from: "2025-01-01", ends: "2026-01-01", id: 2_000_000_400_000_000 + $0)
    }
    let second = (1...12).map {
      payment($0, from: "2026-03-01", ends: "2027-03-01", id: 2_000_000_400_000_100 + $0)
    }
    let premium = try evaluateOne(
      first + second,
      renewalInfo: [Self.renewal(commitmentRenews: false, signed: "2025-11-20T00:00:00Z")])
    let status = premium.status(at: instant("2027-02-15"))
    #expect(status.commitment?.billingPeriod == 12)
    #expect(status.commitment?.willRenew == nil)
    #expect(premium.status(at: instant("2027-03-01")).reason != .voluntary)
    // The first commitment's lapse, to the second, is voluntary.
    #expect(premium.lapses.map(\.cause) == [.voluntary])
  }

  /// Under `endAtCancellation` any refund ends access at its date, and is no revocation
  /// before it: one after the expiry leaves the time between expired.
  @Test func aFullRefundAfterTheExpiryUnderEndAtCancellation() throws {
    let premium = try evaluateOne(
      [sub("1", "2017-01-01", "2017-02-01", cancelled: "2017-03-01", revocation: "REFUND_FULL")],
      policy: validPolicy { try Policy(cancellation: .endAtCancellation) })
    #expect(premium.status(at: instant("2017-02-15")).state == .expired)
    #expect(premium.status(at: instant("2017-03-01")).state == .revoked)
  }
}
