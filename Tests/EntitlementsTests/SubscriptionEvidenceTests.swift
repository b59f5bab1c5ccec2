import EntitlementsTesting
import Testing

@testable import Entitlements

/// What Apple stated about each subscription over time (SPEC §5, dated evidence).
@Suite("Subscription evidence: dated renewal info and notifications")
struct SubscriptionEvidenceTests {
  static let day: Int64 = 86_400_000

  /// The renewal info of subscription `1000000000000<number>`, 16 digits as Apple's.
  static func info(
    _ number: Int, autoRenew: Bool? = nil, intent: Int? = nil, retry: Bool? = nil,
    signed day: Int64? = nil
  ) -> RenewalInfo {
    RenewalInfo(
      originalTransactionID: subscription(number), autoRenewStatus: autoRenew,
      rawExpirationIntent: intent, isInBillingRetryPeriod: retry,
      signedDate: day.map { Instant(millisecondsSince1970: $0 * Self.day) })
  }

  static func subscription(_ number: Int) -> OriginalTransactionID {
    OriginalTransactionID(String(1_000_000_000_000_000 + number))
  }

  static func notification(_ number: Int, _ type: String, _ subtype: String? = nil, day: Int64)
    -> NotificationEvidence
  {
    NotificationEvidence(
      originalTransactionID: subscription(number),
      signedDate: Instant(millisecondsSince1970: day * Self.day), rawType: type,
      rawSubtype: subtype)
  }

  /// Tables of every size, given in a shuffled order: each subscription's newest info is
  /// found, and ids between and around them have none.
  @Test(arguments: [0, 1, 2, 7, 8, 9, 20])
  func everySubscriptionsNewestInfoIsFound(count: Int) {
    var random = SeededRandom(seed: UInt64(count))
    let infos = random.shuffled(
      (0..<count).flatMap {
        [
          Self.info(2 * $0 + 1, autoRenew: true, signed: 1),
          Self.info(2 * $0 + 1, autoRenew: false, signed: 2),
        ]
      })
    var diagnostics: [Diagnostic] = []
    let evidence = SubscriptionEvidence(infos, [], diagnostics: &diagnostics)
    #expect(diagnostics.isEmpty)
    #expect(evidence.isEmpty == (count == 0))
    for number in 0...(2 * count + 1) {
      let current = evidence.current(Self.subscription(number))
      #expect((current != nil) == (number % 2 == 1 && number < 2 * count), "\(number)")
      if let current { #expect(current.autoRenewStatus == false, "the newest, signed day 2") }
    }
  }

  /// Infos of one instant that disagree keep the same one whatever their order, and are
  /// reported once per subscription; infos of different instants are history, not conflict.
  @Test func conflictsAreInfosOfOneInstant() {
    let infos = [
      Self.info(1, autoRenew: true), Self.info(2, autoRenew: true),
      Self.info(1, autoRenew: false), Self.info(3), Self.info(3), Self.info(1, autoRenew: true),
      Self.info(4, autoRenew: true, signed: 1), Self.info(4, autoRenew: false, signed: 2),
    ]
    var kept: Set<[RenewalInfo]> = []
    for seed in 0..<8 as Range<UInt64> {
      var random = SeededRandom(seed: seed)
      var diagnostics: [Diagnostic] = []
      let evidence = SubscriptionEvidence(random.shuffled(infos), [], diagnostics: &diagnostics)
      kept.insert(evidence.infos)
      #expect(diagnostics.map(\.kind) == [.conflictingRenewalInfo])
      #expect(diagnostics.map(\.originalTransactionID) == [Self.subscription(1)])
      #expect(evidence.infos.count == 5)
    }
    #expect(kept.count == 1)
  }

  struct Window: CustomTestStringConvertible, Sendable {
    let name: String
    let infos: [RenewalInfo]
    let notifications: [NotificationEvidence]
    /// The window: from day `from`, before day `before`.
    let from: Int64
    let before: Int64?
    let undated: Bool
    let reason: ExpiryReason
    let cause: LapseCause
    var testDescription: String { name }
  }

  /// SPEC §5: the reason comes from `expirationIntent`, else the `EXPIRED` subtype, else
  /// auto-renew off at the expiry; each statement counts only inside its window.
  static let windows: [Window] = [
    Window(
      name: "intent first", infos: [info(1, autoRenew: true, intent: 3, signed: 12)],
      notifications: [notification(1, "EXPIRED", "VOLUNTARY", day: 12)], from: 10,
      before: 20, undated: false, reason: .priceIncrease, cause: .priceIncrease),
    Window(
      name: "the EXPIRED subtype without an intent", infos: [info(1, autoRenew: true, signed: 12)],
      notifications: [notification(1, "EXPIRED", "VOLUNTARY", day: 12)], from: 10,
      before: 20, undated: false, reason: .voluntary, cause: .voluntary),
    Window(
      name: "auto-renew off without intent or subtype",
      infos: [info(1, autoRenew: false, signed: 11)], notifications: [], from: 10, before: 20,
      undated: false, reason: .voluntary, cause: .voluntary),
    Window(
      name: "AUTO_RENEW_DISABLED, then nothing",
      infos: [info(1, autoRenew: true, signed: 10)],
      notifications: [notification(1, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", day: 15)],
      from: 10, before: 20, undated: false, reason: .voluntary, cause: .voluntary),
    Window(
      name: "auto-renew turned off then on again",
      infos: [],
      notifications: [
        notification(1, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", day: 12),
        notification(1, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", day: 13),
      ], from: 10, before: 20, undated: false, reason: .unknown, cause: .unknown),
    Window(
      name: "a statement after the lapse ended says nothing of it",
      infos: [info(1, autoRenew: false, intent: 1, signed: 20)], notifications: [], from: 10,
      before: 20, undated: false, reason: .unknown, cause: .unknown),
    Window(
      name: "a statement before the last coverage began is stale",
      infos: [info(1, autoRenew: false, intent: 1, signed: 9)], notifications: [], from: 10,
      before: 20, undated: false, reason: .unknown, cause: .unknown),
    Window(
      name: "undated info counts only when asked",
      infos: [info(1, autoRenew: false, intent: 1)], notifications: [], from: 10, before: 20,
      undated: false, reason: .unknown, cause: .unknown),
    Window(
      name: "undated info counts after the subscription's last coverage",
      infos: [info(1, autoRenew: false, intent: 1)], notifications: [], from: 10, before: nil,
      undated: true, reason: .voluntary, cause: .voluntary),
    Window(
      name: "undated info is the newest statement, after dated info and notifications",
      infos: [info(1, autoRenew: true, signed: 11), info(1, autoRenew: false)],
      notifications: [
        notification(1, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", day: 12)
      ], from: 10, before: nil, undated: true, reason: .voluntary, cause: .voluntary),
    Window(
      name: "dated info and notifications in date order, whatever their kinds",
      infos: [info(1, autoRenew: false, signed: 11), info(1, autoRenew: true, signed: 14)],
      notifications: [
        notification(1, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", day: 13)
      ], from: 10, before: nil, undated: true, reason: .unknown, cause: .unknown),
    Window(
      name: "billing retry that ran out", infos: [info(1, retry: true, signed: 11)],
      notifications: [notification(1, "EXPIRED", "BILLING_RETRY", day: 70)], from: 10,
      before: nil, undated: false, reason: .billingRetryExhausted, cause: .billingError),
    Window(
      name: "a failed renewal is billing retry",
      infos: [], notifications: [notification(1, "DID_FAIL_TO_RENEW", day: 11)], from: 10,
      before: 20, undated: false, reason: .unknown, cause: .billingError),
    Window(
      name: "a product not for sale", infos: [],
      notifications: [notification(1, "EXPIRED", "PRODUCT_NOT_FOR_SALE", day: 11)], from: 10,
      before: 20, undated: false, reason: .productUnavailable, cause: .productUnavailable),
  ]

  @Test(arguments: windows)
  func theStatementOfAWindow(_ window: Window) {
    var diagnostics: [Diagnostic] = []
    let evidence = SubscriptionEvidence(
      window.infos, window.notifications, diagnostics: &diagnostics)
    let statement = evidence.statement(
      about: Self.subscription(1), from: Instant(millisecondsSince1970: window.from * Self.day),
      before: window.before.map { Instant(millisecondsSince1970: $0 * Self.day) },
      includingUndated: window.undated)
    #expect(statement.reason == window.reason)
    #expect(statement.cause(couldBeRecovery: true) == window.cause)
  }

  /// When auto-renew was turned off and when a billing problem began: the first statement of
  /// the newest run, cleared when it ends.
  @Test func detectedAtIsTheStartOfTheNewestRun() {
    var diagnostics: [Diagnostic] = []
    let evidence = SubscriptionEvidence(
      [
        Self.info(1, autoRenew: true, retry: false, signed: 10),
        Self.info(1, autoRenew: false, signed: 14),
      ],
      [
        Self.notification(1, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", day: 12),
        Self.notification(1, "DID_FAIL_TO_RENEW", day: 30),
        Self.notification(1, "DID_FAIL_TO_RENEW", day: 31),
      ], diagnostics: &diagnostics)
    let statement = evidence.statement(
      about: Self.subscription(1), from: .distantPast, before: nil, includingUndated: true)
    #expect(statement.unsubscribeDetectedAt == Instant(millisecondsSince1970: 12 * Self.day))
    #expect(statement.billingIssueDetectedAt == Instant(millisecondsSince1970: 30 * Self.day))
    let renewed = SubscriptionEvidence(
      [],
      [
        Self.notification(1, "DID_FAIL_TO_RENEW", day: 30),
        Self.notification(1, "DID_RENEW", day: 35),
      ],
      diagnostics: &diagnostics)
    #expect(
      renewed.statement(
        about: Self.subscription(1), from: .distantPast, before: nil, includingUndated: true
      ).billingIssueDetectedAt == nil)
  }
}
