import Entitlements
import Testing

@Suite("Lapses and their causes, from evidence only (SPEC §5, §6)")
struct LapseRulesTests {
  static let history = [
    sub("1", "2017-02-20T08:00:00Z", "2017-03-20T08:00:00Z"),
    sub("2", "2017-03-20T08:00:00Z", "2017-04-20T08:00:00Z"),
  ]

  @Test func withoutEvidenceTheCauseIsUnknown() throws {
    let evaluation = try evaluateOne(
      Self.history + [sub("3", "2017-05-05T08:00:00Z", "2017-06-05T08:00:00Z")])
    #expect(
      evaluation.lapses == [
        Lapse(interval: interval("2017-04-20T08:00:00Z", "2017-05-05T08:00:00Z"), cause: .unknown)
      ])
  }

  @Test func recoveryOnDay59IsABillingErrorButARestartOnDay61IsNot() throws {
    let day59 = instant("2017-04-20T08:00:00Z") + .days(59)
    let day61 = instant("2017-04-20T08:00:00Z") + .days(61)
    for (restart, expected) in [(day59, LapseCause.billingError), (day61, .unknown)] {
      let renewal = ReceiptEntry(
        productID: "monthly", transactionID: "3", originalTransactionID: "1",
        purchaseDate: restart, expiresDate: CalendarPeriod(1, .month).advance(restart))
      let evaluation = try evaluateOne(
        Self.history + [renewal],
        recoveries: [BillingRecovery(originalTransactionID: "1", renewedAt: restart)])
      #expect(evaluation.lapses.map(\.cause) == [expected], "restart at \(restart)")
    }
  }

  @Test func recoveryExactlyAtTheRetryLimitCannotBeARecovery() throws {
    let limit = instant("2017-04-20T08:00:00Z") + .days(60)
    let evaluation = try evaluateOne(
      Self.history + [sub("3", limit.description, "2017-08-01")],
      recoveries: [BillingRecovery(originalTransactionID: "1", renewedAt: limit)])
    #expect(evaluation.lapses.map(\.cause) == [.unknown])
  }

  /// A recovery explains the gap it ends, `(start, end]`: one at the instant a gap begins
  /// explains nothing, one at the instant the next gap ends explains that one.
  @Test func recoveriesAreMatchedToTheGapTheyEnd() throws {
    let evaluation = try evaluateOne(
      [
        sub("1", "2017-02-20", "2017-03-20"), sub("2", "2017-04-01", "2017-05-01"),
        sub("3", "2017-05-10", "2017-06-10"),
      ],
      recoveries: [
        BillingRecovery(originalTransactionID: "1", renewedAt: instant("2017-03-20")),
        BillingRecovery(originalTransactionID: "1", renewedAt: instant("2017-05-10")),
      ])
    #expect(evaluation.lapses.map(\.cause) == [.unknown, .billingError])
  }

  @Test func recoveryOfAnotherSubscriptionIsNoEvidence() throws {
    let evaluation = try evaluateOne(
      Self.history + [sub("3", "2017-05-05T08:00:00Z", "2017-06-05T08:00:00Z")],
      recoveries: [
        BillingRecovery(originalTransactionID: "other", renewedAt: instant("2017-05-05T08:00:00Z"))
      ])
    #expect(evaluation.lapses.map(\.cause) == [.unknown])
  }

  struct InfoCase: CustomTestStringConvertible, Sendable {
    var name: String
    var info: RenewalInfo
    var cause: LapseCause
    var testDescription: String { name }
  }

  static let infoCases: [InfoCase] = [
    .init(
      name: "auto-renew off",
      info: RenewalInfo(originalTransactionID: "1", autoRenewStatus: false), cause: .voluntary),
    .init(
      name: "intent 1", info: RenewalInfo(originalTransactionID: "1", rawExpirationIntent: 1),
      cause: .voluntary),
    .init(
      name: "intent 2", info: RenewalInfo(originalTransactionID: "1", rawExpirationIntent: 2),
      cause: .billingError),
    .init(
      name: "in billing retry",
      info: RenewalInfo(originalTransactionID: "1", isInBillingRetryPeriod: true),
      cause: .billingError),
    .init(
      name: "intent 3", info: RenewalInfo(originalTransactionID: "1", rawExpirationIntent: 3),
      cause: .priceIncrease),
    .init(
      name: "intent 4", info: RenewalInfo(originalTransactionID: "1", rawExpirationIntent: 4),
      cause: .productUnavailable),
    .init(
      name: "auto-renew on, no intent",
      info: RenewalInfo(originalTransactionID: "1", autoRenewStatus: true), cause: .unknown),
  ]

  /// Subscription 1 ends for good; subscription 2 (another group, same entitlement) restarts
  /// access later. Renewal info of 1 describes the lapse.
  @Test(arguments: infoCases)
  func renewalInfoOfASubscriptionThatEndedIsEvidence(_ test: InfoCase) throws {
    let catalog = ProductCatalog([
      CatalogProduct(id: "monthly", type: .autoRenewable, entitlement: "premium"),
      CatalogProduct(id: "other", type: .autoRenewable, entitlement: "premium"),
    ])
    let evaluation = try evaluateOne(
      Self.history + [
        sub("3", "2017-05-05T08:00:00Z", "2017-06-05T08:00:00Z", product: "other", original: "3")
      ], renewalInfo: [test.info], catalog: catalog)
    #expect(evaluation.lapses.map(\.cause) == [test.cause])
  }

  @Test func renewalInfoOfAContinuingSubscriptionSaysNothingAboutAnEarlierLapse() throws {
    let evaluation = try evaluateOne(
      Self.history + [sub("3", "2017-06-17T08:00:00Z", "2017-07-17T08:00:00Z")],
      renewalInfo: [RenewalInfo(originalTransactionID: "1", autoRenewStatus: false)])
    #expect(evaluation.lapses.map(\.cause) == [.unknown])
  }

  @Test func refundOutranksOtherEvidence() throws {
    let evaluation = try evaluateOne(
      [
        sub("1", "2017-01-01", "2017-02-01"),
        sub("2", "2017-02-01", "2017-03-01", cancelled: "2017-02-02"),
        sub("3", "2017-03-01", "2017-04-01"),
      ], recoveries: [BillingRecovery(originalTransactionID: "1", renewedAt: instant("2017-03-01"))]
    )
    #expect(evaluation.lapses.map(\.cause) == [.refund])
  }

  /// A refunded span meets a gap by its end, not by its start: a long refund that began
  /// before a shorter one still reaches into the gap after the shorter one has ended.
  @Test func aRefundStartedEarlierThatEndsLaterMeetsTheGap() throws {
    let evaluation = try evaluateOne([
      sub("1", "2017-01-01", "2017-02-01"),
      sub("2", "2017-01-20", "2017-06-01", cancelled: "2017-01-21"),
      sub("3", "2017-01-25", "2017-01-28", cancelled: "2017-01-26"),
      sub("4", "2017-03-01", "2017-04-01"),
    ])
    #expect(evaluation.lapses.map(\.interval) == [interval("2017-02-01", "2017-03-01")])
    #expect(evaluation.lapses.map(\.cause) == [.refund])
  }

  /// What evidence comes with A's undated renewal info, which decides how a gap is read.
  enum Evidence: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Nothing else: only the gap after A's last period is read.
    case undatedOnly
    /// A dated notification of another subscription: every gap is read, and whether A covers
    /// again is asked.
    case withDatedNotification
    /// Undated infos of four more subscriptions, which name no entry: more than are looked
    /// up, so every gap is read.
    case namingFiveSubscriptions
    var testDescription: String { rawValue }
  }

  /// What covers after A's gap.
  enum After: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Three renewals of B: whether A covers again is read from the last positions.
    case threeRenewals
    /// Twenty renewals of B: past 16 positions, from every subscription's last end.
    case twentyRenewals
    /// Twenty subscriptions of one entry each: their last ends are hashed.
    case twentySubscriptions
    var testDescription: String { rawValue }
  }

  static let coversAgainCases: [(Bool, After, Evidence)] = [false, true].flatMap { aReturns in
    After.allCases.flatMap { after in Evidence.allCases.map { (aReturns, after, $0) } }
  }

  /// Subscription A lapses with auto-renew off, and others cover after the gap (`after`); A
  /// either never comes back, or covers once right after the gap, before them. A's undated
  /// renewal info explains the gap only when A never covers again. Whether it does is read
  /// from the last positions first, and past 16 of them from every subscription's last end
  /// (hashed past eight subscriptions): `after` takes each way, when the evidence makes the
  /// gap be read.
  @Test(arguments: coversAgainCases)
  func undatedInfoExplainsALapseOnlyWhenItsSubscriptionNeverCoversAgain(
    aReturns: Bool, after: After, evidence: Evidence
  ) throws {
    // A sorts after the other subscriptions named, so that it is the fifth looked up.
    let (a, b) = ("1000000000000007", "1000000000000002")
    let restart = instant("2017-02-10")
    var entries = [sub("2000000000000001", "2017-01-01", "2017-02-01", original: a)]
    var start = restart
    if aReturns {
      entries.append(sub("2000000000000002", "2017-02-10", "2017-03-10", original: a))
      start = instant("2017-03-10")
    }
    for renewal in 0..<(after == .threeRenewals ? 3 : 20) {
      let from = start + .days(30 * Int64(renewal))
      let original = after == .twentySubscriptions ? String(3_000_000_000_000_000 + renewal) : b
      entries.append(
        sub(
          String(2_000_000_000_000_100 + renewal), from.description,
          (from + .days(30)).description, original: original))
    }
    var infos = [
      RenewalInfo(originalTransactionID: OriginalTransactionID(a), autoRenewStatus: false)
    ]
    var notifications: [NotificationEvidence] = []
    switch evidence {
    case .undatedOnly: break
    case .withDatedNotification:
      notifications.append(
        NotificationEvidence(
          originalTransactionID: "1000000000000008", signedDate: instant("2017-01-05"),
          rawType: "DID_RENEW"))
    case .namingFiveSubscriptions:
      infos += (3...6).map {
        RenewalInfo(
          originalTransactionID: OriginalTransactionID("100000000000000\($0)"),
          autoRenewStatus: false)
      }
    }
    let evaluation = Evaluator(
      catalog: ProductCatalog([
        CatalogProduct(id: "monthly", type: .autoRenewable, entitlement: "premium")
      ])
    ).evaluate(
      PurchaseHistory(entries: entries, renewalInfo: infos, notifications: notifications))
    let premium = try #require(evaluation["premium"])
    #expect(
      premium.lapses.map(\.interval) == [Interval(start: instant("2017-02-01"), end: restart)])
    #expect(premium.lapses.map(\.cause) == [aReturns ? .unknown : .voluntary])
  }

  /// Stacked non-renewing passes put the coverage out of the order of start, and entries
  /// without an expiry cover nothing: positions in the order of start are then not indices of
  /// the coverage, and whether A covers again is read through that order. A (auto-renew off,
  /// undated) ends with the second pass; then either B covers (A never covers again: the info
  /// explains the lapse) or A itself does, after an entry with no expiry, with a dated
  /// notification of another subscription (the info describes no earlier lapse).
  @Test(arguments: [false, true])
  func coverageOutOfStartOrderIsReadByStart(aReturns: Bool) throws {
    let base = instant("2017-07-14T02:40:00Z")
    func entry(_ product: String, _ id: String, _ original: String, _ from: Int64, _ to: Int64?)
      -> ReceiptEntry
    {
      ReceiptEntry(
        productID: ProductID(product), transactionID: TransactionID(id),
        originalTransactionID: OriginalTransactionID(original),
        purchaseDate: base + .days(from), expiresDate: to.map { base + .days($0) })
    }
    // Each pass lasts a month: the second, bought a day after the first, starts at its end.
    var entries = [entry("pass", "1", "P", 0, nil), entry("pass", "2", "P", 1, nil)]
    var notifications: [NotificationEvidence] = []
    if aReturns {
      entries += [
        entry("monthly", "5", "A", 4, 62), entry("monthly", "3", "X", 80, nil),
        entry("monthly", "6", "A", 90, 120),
      ]
      notifications.append(
        NotificationEvidence(originalTransactionID: "Z", signedDate: base, rawType: "DID_RENEW"))
    } else {
      entries += [
        entry("monthly", "3", "X", 2, nil), entry("monthly", "4", "X", 3, nil),
        entry("monthly", "5", "A", 4, 62), entry("monthly", "6", "B", 90, 120),
      ]
    }
    let evaluation = Evaluator(
      catalog: ProductCatalog([
        CatalogProduct(id: "monthly", type: .autoRenewable, entitlement: "premium"),
        CatalogProduct(
          id: "pass", type: .nonRenewing, duration: CalendarPeriod(1, .month),
          entitlement: "premium"),
      ])
    ).evaluate(
      PurchaseHistory(
        entries: entries,
        renewalInfo: [RenewalInfo(originalTransactionID: "A", autoRenewStatus: false)],
        notifications: notifications))
    let premium = try #require(evaluation["premium"])
    #expect(
      premium.lapses.map(\.interval) == [Interval(start: base + .days(62), end: base + .days(90))])
    #expect(premium.lapses.map(\.cause) == [aReturns ? .unknown : .voluntary])
  }

  /// The forms one history with renewal info can take.
  enum Form: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inOrder, reversed
    /// Each entry's `original_transaction_id` in a string of its own: recognised by text.
    case ownStrings
    /// One entry given twice: the entries are deduplicated before they are classified.
    case duplicated
    /// Nine more subscriptions, of another entitlement, met first.
    case manySubscriptions
    var testDescription: String { rawValue }
  }

  /// Subscriptions A and B (16-digit ids, as Apple's) run side by side in one entitlement; A
  /// ends for good before a gap, and B before a later one, after which C starts. A fourth
  /// renewal info names no entry.
  @Test(arguments: Form.allCases)
  func renewalInfoFindsTheGapAfterItsSubscriptionsLastEnd(_ form: Form) throws {
    let (a, b, c) = ("1000000000000001", "1000000000000002", "1000000000000003")
    let catalog = ProductCatalog([
      CatalogProduct(id: "monthly", type: .autoRenewable, entitlement: "premium"),
      CatalogProduct(id: "extra", type: .autoRenewable, entitlement: "extra"),
    ])
    func entry(_ id: String, _ start: String, _ end: String, _ original: String) -> ReceiptEntry {
      let text =
        form == .ownStrings ? String(decoding: Array(original.utf8), as: UTF8.self) : original
      return sub(id, start, end, original: text)
    }
    var entries = [
      entry("1", "2017-01-01", "2017-02-01", a),
      entry("2", "2017-01-15", "2017-02-20", b),
      entry("3", "2017-02-01", "2017-03-01", a),
      // Bought after A's first renewal, ended before it: A's last end is the latest, not the
      // last purchased.
      entry("7", "2017-02-05", "2017-02-25", a),
      entry("4", "2017-03-10", "2017-04-10", b),
      entry("5", "2017-04-10", "2017-05-10", b),
      entry("6", "2017-05-20", "2017-06-20", c),
    ]
    switch form {
    case .inOrder, .ownStrings: break
    case .reversed: entries.reverse()
    case .duplicated: entries.append(entries[3])
    case .manySubscriptions:
      entries =
        (10..<19).map {
          sub(
            "\($0)", "2016-0\($0 - 9)-01", "2016-0\($0 - 9)-02", product: "extra", original: "\($0)"
          )
        } + entries
    }
    let evaluation = Evaluator(catalog: catalog).evaluate(
      PurchaseHistory(
        entries: entries,
        renewalInfo: [
          RenewalInfo(originalTransactionID: OriginalTransactionID(a), autoRenewStatus: false),
          RenewalInfo(
            originalTransactionID: OriginalTransactionID(b), isInBillingRetryPeriod: true),
          RenewalInfo(originalTransactionID: OriginalTransactionID(c), autoRenewStatus: true),
          RenewalInfo(originalTransactionID: "1000000000000004", autoRenewStatus: false),
        ]))
    let premium = try #require(evaluation["premium"])
    #expect(
      premium.lapses == [
        Lapse(interval: interval("2017-03-01", "2017-03-10"), cause: .voluntary),
        Lapse(interval: interval("2017-05-10", "2017-05-20"), cause: .billingError),
      ])
    #expect(
      evaluation.diagnostics.filter { $0.kind == .renewalInfoWithoutEntries }.map(
        \.originalTransactionID) == ["1000000000000004"])
  }
}
