/// What Apple stated about each subscription over time: its renewal infos and v2
/// notifications, each dated by when Apple signed it (SPEC §5, "dated evidence").
///
/// Evidence about the time after an expiry is read from a window of time: it starts where
/// the subscription's last coverage before the expiry began (anything older was followed by a
/// renewal, so it is stale), and it ends where the next period begins when a later purchase
/// closed the lapse (a document signed after a lapse ended says nothing about it). After the
/// last period, the window never ends: the newest statement describes the present.
///
/// Within a window, the newest statement of each kind wins: the newest expiration intent, the
/// newest `EXPIRED` subtype, the newest word on auto-renew (renewal info's `auto_renew_status`
/// or a `DID_CHANGE_RENEWAL_STATUS` notification), the newest word on billing retry (renewal
/// info's `is_in_billing_retry_period`, or `DID_FAIL_TO_RENEW`, `GRACE_PERIOD_EXPIRED`,
/// `EXPIRED`, `DID_RENEW`), the newest word on a price increase (renewal info's
/// `price_consent_status`, or `PRICE_INCREASE` with `PENDING` or `ACCEPTED`).
///
/// ```swift
/// var diagnostics: [Diagnostic] = []
/// let evidence = SubscriptionEvidence(infos, notifications, diagnostics: &diagnostics)
/// evidence.current("1000000000000001")?.autoRenewStatus  // the newest renewal info's
/// evidence.statement(
///   after: lastEntry, in: entries, from: lastStart, before: nil, includingUndated: true
/// ).reason  // .voluntary
/// ```
struct SubscriptionEvidence {
  /// Renewal infos by subscription, then date (undated first), one per instant.
  let infos: [RenewalInfo]
  /// Notifications by subscription, then date.
  let notifications: [NotificationEvidence]
  /// The latest grace period end any renewal info states: no grace period can end later.
  let latestGracePeriodEnd: Instant?
  /// Whether any renewal info is dated or any notification given: without, only undated
  /// renewal info speaks, of the time after a subscription's last coverage.
  let hasDatedEvidence: Bool

  /// The evidence of a history. Infos of one subscription signed at one instant that
  /// disagree keep the first in the order of ``RenewalInfo/precedes(_:_:)``, so that the
  /// input's order never changes the answer, and are reported in `diagnostics`.
  init(
    _ infos: [RenewalInfo], _ notifications: [NotificationEvidence],
    diagnostics: inout [Diagnostic]
  ) {
    self.infos = infos.count < 2 ? infos : Self.unique(infos, diagnostics: &diagnostics)
    var latest: Instant?
    var dated = !notifications.isEmpty
    for index in self.infos.indices {
      if self.infos[index].signedDate != nil { dated = true }
      guard let end = self.infos[index].gracePeriodExpiresDate else { continue }
      latest = latest.map { max($0, end) } ?? end
    }
    latestGracePeriodEnd = latest
    hasDatedEvidence = dated
    self.notifications =
      notifications.count < 2
      ? notifications
      : notifications.sorted {
        ($0.originalTransactionID, $0.signedDate, $0.rawType, $0.rawSubtype ?? "")
          < ($1.originalTransactionID, $1.signedDate, $1.rawType, $1.rawSubtype ?? "")
      }
  }

  /// Infos by subscription, then date, one per instant; conflicts reported.
  private static func unique(_ infos: [RenewalInfo], diagnostics: inout [Diagnostic])
    -> [RenewalInfo]
  {
    let sorted = infos.sorted {
      $0.originalTransactionID != $1.originalTransactionID
        ? $0.originalTransactionID < $1.originalTransactionID : RenewalInfo.precedes($0, $1)
    }
    var unique: [RenewalInfo] = []
    unique.reserveCapacity(sorted.count)
    for info in sorted {
      guard let kept = unique.last, kept.originalTransactionID == info.originalTransactionID,
        kept.signedDate == info.signedDate
      else {
        unique.append(info)
        continue
      }
      guard kept != info else { continue }
      if diagnostics.last?.originalTransactionID != info.originalTransactionID
        || diagnostics.last?.kind != .conflictingRenewalInfo
      {
        diagnostics.append(
          rare:
            Diagnostic(
              .conflictingRenewalInfo, originalTransactionID: info.originalTransactionID,
              field: "pending_renewal_info",
              message:
                "several renewal infos of one instant disagree; one was kept. Date each "
                + "(signedDate), or give only the newest"))
      }
    }
    return unique
  }

  /// The subscriptions the renewal infos name, each once, in the infos' order.
  var namedSubscriptions: NamedSubscriptions { NamedSubscriptions(infos: infos) }

  /// The subscriptions a list of infos sorted by subscription names, each once (an iterator,
  /// so that a walk over them allocates nothing).
  struct NamedSubscriptions: Sequence, IteratorProtocol {
    let infos: [RenewalInfo]
    private var position = 0

    init(infos: [RenewalInfo]) { self.infos = infos }

    mutating func next() -> OriginalTransactionID? {
      while position < infos.count {
        defer { position += 1 }
        let subscription = infos[position].originalTransactionID
        if position == 0 || infos[position - 1].originalTransactionID != subscription {
          return subscription
        }
      }
      return nil
    }
  }

  /// Whether there is no renewal info and no notification.
  var isEmpty: Bool { infos.isEmpty && notifications.isEmpty }

  /// The infos of `subscription`, oldest first.
  func infos(of subscription: OriginalTransactionID) -> ArraySlice<RenewalInfo> {
    let low = infos.partitionPoint { $0.originalTransactionID >= subscription }
    let high = infos[low...].partitionPoint { $0.originalTransactionID > subscription }
    return infos[low..<high]
  }

  /// The notifications of `subscription`, oldest first.
  func notifications(of subscription: OriginalTransactionID) -> ArraySlice<NotificationEvidence> {
    let low = notifications.partitionPoint { $0.originalTransactionID >= subscription }
    let high = notifications[low...].partitionPoint { $0.originalTransactionID > subscription }
    return notifications[low..<high]
  }

  /// The newest renewal info of `subscription`: what Apple says of it now.
  func current(_ subscription: OriginalTransactionID) -> RenewalInfo? {
    infos(of: subscription).last
  }

  /// What the evidence about the subscription of `entry`, whose coverage ends where the time
  /// asked about begins, says of that time: ``statement(about:from:before:includingUndated:commitmentSince:)``
  /// from `start` (before `end`), from the first payment among `entries` of the commitment
  /// `entry` is a billing period of, if any, then ``Statement/after(_:)`` of `entry`.
  func statement(
    after entry: ReceiptEntry, in entries: [ReceiptEntry], from start: Instant,
    before end: Instant?, includingUndated: Bool
  ) -> Statement {
    statement(
      about: entry.originalTransactionID, from: start, before: end,
      includingUndated: includingUndated, commitmentSince: entry.commitmentStart(in: entries)
    ).after(entry)
  }

  /// What the evidence about `subscription` signed at or after `start` (and before `end`,
  /// when given) says. Undated renewal info describes the time after the subscription's last
  /// coverage (the old verifyReceipt meaning): it counts when `includingUndated`.
  ///
  /// `commitmentSince`, for the time after a billing period of a commitment, is when that
  /// commitment began: what was said of the commitment's own renewal from then on counts too
  /// (a commitment's renewal is turned off in any of its months), and a renewal status
  /// notification is the commitment's (<doc:Rules>, §5, "Commitments").
  func statement(
    about subscription: OriginalTransactionID, from start: Instant, before end: Instant?,
    includingUndated: Bool, commitmentSince: Instant? = nil
  ) -> Statement {
    // Most histories date nothing (verifyReceipt's renewal info): a lapse the subscription
    // covers after has no statement then, and no list is searched for it.
    guard hasDatedEvidence || includingUndated else {
      return Statement(inCommitment: commitmentSince != nil)
    }
    let earliest = min(start, commitmentSince ?? start)
    // Undated renewal info comes last: it describes the time after the last coverage, the
    // newest statement.
    let infos = infos(of: subscription)
    var statement = Statement(inCommitment: commitmentSince != nil)
    var dated = Dated(infos, notifications(of: subscription), from: earliest, before: end)
    // Before `start`, only what concerns the commitment's own renewal.
    while let next = dated.next() {
      switch next {
      case .info(let index, let date):
        statement.note(infos[index], commitmentOnly: date < start)
      case .notification(let notification):
        statement.note(notification, commitmentOnly: notification.signedDate < start)
      }
    }
    if includingUndated {
      for index in infos.startIndex..<dated.firstDated { statement.note(infos[index]) }
    }
    return statement
  }

  /// What Apple said of `subscription` inside a lapse, as it said it (SPEC §5, "inside an
  /// earlier lapse"): the evidence signed in `gap` is read in order, and when any of it says
  /// the App Store is retrying to charge, the lapse was a billing retry from its start (the
  /// retry began at the expiry; Apple's word on it is signed just after), in grace before the
  /// latest `grace_period_expires_date` stated in it, to `retryEnd` or to the first word that
  /// the retry stopped without a renewal (an `EXPIRED` notification, `is_in_billing_retry_period`
  /// false), expired from there with the reason then stated. `nil` when nothing signed in the
  /// gap says it was retrying.
  func retry(
    of subscription: OriginalTransactionID, inLapse lapse: Int, gap: Interval, retryEnd: Instant,
    product: ProductID
  ) -> LapseRetry? {
    guard hasDatedEvidence else { return nil }
    let infos = infos(of: subscription)
    var dated = Dated(infos, notifications(of: subscription), from: gap.start, before: gap.end)
    var statement = Statement()
    var (retrying, graceEnd, stop) = (false, nil as Instant?, nil as Instant?)
    func stopped(at stop: Instant) -> LapseRetry {
      LapseRetry(
        lapse: lapse, gracePeriodEnd: graceEnd.map { min($0, stop) },
        retryEnd: min(retryEnd, stop), stop: stop, stopReason: statement.reason,
        renewal: PendingRenewal(
          productID: product, willRenew: nil, nextProductID: nil))
    }
    while let next = dated.next() {
      let date: Instant
      switch next {
      case .info(_, let signed): date = signed
      case .notification(let notification): date = notification.signedDate
      }
      // A stop is read once everything signed at its instant is (the notification after the
      // renewal info it carries).
      if let stop, date > stop { return stopped(at: stop) }
      switch next {
      case .info(let index, _):
        statement.note(infos[index])
        if let end = infos[index].gracePeriodExpiresDate, end > gap.start {
          graceEnd = max(graceEnd ?? end, end)
        }
      case .notification(let notification):
        statement.note(notification)
      }
      // Renewal info in grace says it is retrying too; one that says nothing of it, with a
      // grace date, is taken at its word.
      switch statement.inBillingRetry {
      case true?: retrying = true
      case nil where graceEnd != nil: retrying = true
      case false? where retrying && stop == nil: stop = date
      default: break
      }
    }
    guard retrying else { return nil }
    if let stop { return stopped(at: stop) }
    return LapseRetry(
      lapse: lapse, gracePeriodEnd: graceEnd, retryEnd: retryEnd, stop: nil, stopReason: nil,
      renewal: PendingRenewal(
        productID: product, willRenew: nil, nextProductID: nil))
  }

  /// The dated evidence about one subscription signed from one instant and before another,
  /// oldest first: both lists are oldest first (undated infos before dated ones), merged as
  /// they are read, with no list of events made; at one instant, a notification comes after
  /// the renewal info it carries.
  private struct Dated {
    enum Item {
      case info(Int, signed: Instant)
      case notification(NotificationEvidence)
    }

    let infos: ArraySlice<RenewalInfo>
    let notifications: ArraySlice<NotificationEvidence>
    let earliest: Instant
    let end: Instant?
    /// The first dated renewal info: those before it are undated.
    let firstDated: Int
    private var nextInfo: Int
    private var nextNotification: Int

    init(
      _ infos: ArraySlice<RenewalInfo>, _ notifications: ArraySlice<NotificationEvidence>,
      from earliest: Instant, before end: Instant?
    ) {
      (self.infos, self.notifications, self.earliest, self.end) =
        (infos, notifications, earliest, end)
      let firstDated = infos.firstIndex { $0.signedDate != nil } ?? infos.endIndex
      self.firstDated = firstDated
      // Both lists are by date: the window's first of each by search, not by a walk.
      nextInfo = infos[firstDated...].partitionPoint { ($0.signedDate ?? earliest) >= earliest }
      nextNotification = notifications.partitionPoint { $0.signedDate >= earliest }
    }

    private func inWindow(_ date: Instant) -> Bool {
      date >= earliest && end.map { date < $0 } ?? true
    }

    mutating func next() -> Item? {
      // Past the window's end, nothing later is in it.
      if nextInfo < infos.endIndex, let date = infos[nextInfo].signedDate, !inWindow(date) {
        nextInfo = infos.endIndex
      }
      if nextNotification < notifications.endIndex,
        !inWindow(notifications[nextNotification].signedDate)
      {
        nextNotification = notifications.endIndex
      }
      let info = nextInfo < infos.endIndex ? infos[nextInfo].signedDate : nil
      let notification =
        nextNotification < notifications.endIndex
        ? notifications[nextNotification].signedDate : nil
      if let info, notification.map({ info <= $0 }) ?? true {
        defer { nextInfo += 1 }
        return .info(nextInfo, signed: info)
      }
      guard notification != nil else { return nil }
      defer { nextNotification += 1 }
      return .notification(notifications[nextNotification])
    }
  }
}

/// What Apple said of the time inside an earlier lapse when it said the App Store was
/// retrying to charge (SPEC §5, "inside an earlier lapse";
/// ``SubscriptionEvidence/retry(of:inLapse:gap:retryEnd:product:)``): grace before
/// ``gracePeriodEnd``, billing retry before ``retryEnd``, then expired.
struct LapseRetry: Hashable, Sendable {
  /// The index of the lapse.
  let lapse: Int
  /// The end of the grace period stated in the lapse, if any.
  let gracePeriodEnd: Instant?
  /// The end of billing retry: the window's end, or where Apple said it stopped.
  let retryEnd: Instant
  /// Where Apple said the retry stopped without a renewal, if it did.
  let stop: Instant?
  /// The reason then stated.
  let stopReason: ExpiryReason?
  /// The renewal retried: the lapsed subscription's product. Whether it renews, and into
  /// what, is said of the present, not of an earlier lapse: unknown there.
  let renewal: PendingRenewal
}

/// What the evidence of one window says about the time after an expiry (SPEC §5).
struct Statement: Hashable, Sendable {
  /// The newest `expiration_intent`.
  private(set) var expirationIntent: RenewalInfo.ExpirationIntent?
  /// Whether an intent was given at all (a value this version does not know reads as one).
  private(set) var hasIntent = false
  /// The newest `EXPIRED` notification's subtype.
  private(set) var expiredSubtype: NotificationEvidence.Subtype?
  /// The newest word on auto-renew: `false` when turned off.
  private(set) var autoRenews: Bool?
  /// The newest word on billing retry: whether the App Store is still trying to charge.
  private(set) var inBillingRetry: Bool?
  /// Whether billing retry ended without a renewal (`EXPIRED` / `BILLING_RETRY`).
  private(set) var retryExhausted = false
  /// The newest word on a price increase: `price_consent_status`, or a `PRICE_INCREASE`
  /// notification (`PENDING`: not consented yet; `ACCEPTED`).
  private(set) var priceConsent: Bool?
  /// When the newest run of "auto-renew off" began: the first statement of it.
  private(set) var unsubscribeDetectedAt: Instant?
  /// When the newest run of billing trouble began.
  private(set) var billingIssueDetectedAt: Instant?
  /// Whether the statement is about the time after a billing period of a commitment: a
  /// renewal status notification is then the commitment's.
  let inCommitment: Bool
  /// The newest word on a commitment's own renewal (`commitmentAutoRenewStatus`, or, in a
  /// commitment, a renewal status notification): whether anything renews after its last
  /// billing period; `nil` when nothing said.
  private(set) var commitmentRenews: Bool?
  /// When the newest run of "the commitment will not renew" began.
  private(set) var commitmentEndDetectedAt: Instant?

  /// Nothing stated yet; `inCommitment` for the time after a billing period of a commitment.
  init(inCommitment: Bool = false) {
    self.inCommitment = inCommitment
  }

  /// Takes in a renewal info, newer than everything taken in so far; with `commitmentOnly`,
  /// only what it says of a commitment's own renewal.
  mutating func note(_ info: RenewalInfo, commitmentOnly: Bool = false) {
    let date = info.signedDate
    if commitmentOnly {
      if let renews = info.commitment?.autoRenewStatus { noteCommitmentRenews(renews, at: date) }
      return
    }
    if let intent = info.rawExpirationIntent {
      hasIntent = true
      expirationIntent = RenewalInfo.ExpirationIntent(rawValue: intent)
    }
    if let renews = info.autoRenewStatus { noteAutoRenew(renews, at: date) }
    if let retry = info.isInBillingRetryPeriod { noteBillingRetry(retry, at: date) }
    if let consent = info.priceConsentStatus { priceConsent = consent }
    if let renews = info.commitment?.autoRenewStatus { noteCommitmentRenews(renews, at: date) }
  }

  private mutating func noteCommitmentRenews(_ renews: Bool, at date: Instant?) {
    if !renews, commitmentRenews != false { commitmentEndDetectedAt = date }
    if renews { commitmentEndDetectedAt = nil }
    commitmentRenews = renews
  }

  /// The statement about the time after `entry` (<doc:Rules>, §5, "Commitments"): after the
  /// last billing period of a commitment whose own renewal is off, nothing renews, as if
  /// auto-renew were off from when that was first said; billing goes on through the other
  /// periods whatever it says.
  func after(_ entry: ReceiptEntry) -> Statement {
    guard entry.commitment?.isLastBillingPeriod == true, commitmentRenews == false,
      autoRenews != false
    else { return self }
    var ended = self
    ended.autoRenews = false
    ended.unsubscribeDetectedAt = commitmentEndDetectedAt
    return ended
  }

  /// Takes in a notification, newer than everything taken in so far; with `commitmentOnly`,
  /// only what it says of a commitment's own renewal.
  mutating func note(_ notification: NotificationEvidence, commitmentOnly: Bool = false) {
    let date: Instant? = notification.signedDate
    if commitmentOnly, !inCommitment { return }
    switch (notification.type, notification.subtype) {
    // In a commitment, turning renewal off or on is the commitment's: billing goes on.
    case (.didChangeRenewalStatus?, .autoRenewDisabled?) where inCommitment:
      noteCommitmentRenews(false, at: date)
    case (.didChangeRenewalStatus?, .autoRenewEnabled?) where inCommitment:
      noteCommitmentRenews(true, at: date)
    case _ where commitmentOnly: break
    case (.didChangeRenewalStatus?, .autoRenewDisabled?): noteAutoRenew(false, at: date)
    case (.didChangeRenewalStatus?, .autoRenewEnabled?): noteAutoRenew(true, at: date)
    case (.didFailToRenew?, _), (.gracePeriodExpired?, _): noteBillingRetry(true, at: date)
    case (.didRenew?, _), (.subscribed?, _): noteBillingRetry(false, at: date)
    case (.priceIncrease?, .pending?): priceConsent = false
    case (.priceIncrease?, .accepted?): priceConsent = true
    case (.expired?, let subtype):
      expiredSubtype = subtype
      noteBillingRetry(false, at: date)
      if subtype == .billingRetry { retryExhausted = true }
      if subtype == .voluntary { noteAutoRenew(false, at: date) }
    default: break
    }
  }

  private mutating func noteAutoRenew(_ renews: Bool, at date: Instant?) {
    if !renews, autoRenews != false { unsubscribeDetectedAt = date }
    if renews { unsubscribeDetectedAt = nil }
    autoRenews = renews
  }

  private mutating func noteBillingRetry(_ retrying: Bool, at date: Instant?) {
    if retrying, inBillingRetry != true { billingIssueDetectedAt = date }
    if !retrying, !retryExhausted { billingIssueDetectedAt = nil }
    inBillingRetry = retrying
    if retrying { retryExhausted = false }
  }

  /// The cause of a lapse after the expiry, from this evidence alone; `couldBeRecovery`:
  /// whether the lapse is shorter than the billing-retry window (a longer one cannot have been
  /// a billing failure that recovered).
  func cause(couldBeRecovery: Bool) -> LapseCause {
    // A billing failure is the cause only while a recovery could still end the lapse; a
    // longer lapse was not a failure that recovered, and nothing else said is trusted over it.
    if inBillingRetry == true || retryExhausted {
      return couldBeRecovery ? .billingError : .unknown
    }
    switch expirationIntent {
    case .customerCancelled?: return .voluntary
    case .billingError?: return couldBeRecovery ? .billingError : .unknown
    case .customerDidNotConsentToPriceIncrease?: return .priceIncrease
    case .productNotAvailable?: return .productUnavailable
    case .other?: return .unknown
    case nil: break
    }
    switch expiredSubtype {
    case .voluntary?: return .voluntary
    case .billingRetry?: return couldBeRecovery ? .billingError : .unknown
    case .priceIncrease?: return .priceIncrease
    case .productNotForSale?: return .productUnavailable
    default: break
    }
    if priceConsent == false { return .priceIncrease }
    if autoRenews == false { return .voluntary }
    return .unknown
  }

  /// The reason an `expired` status gives after the expiry (SPEC §5, rule 6), the retry
  /// window aside: `expiration_intent`, else the `EXPIRED` subtype, else auto-renew off at the
  /// expiry, else unknown. Billing retry that ended without a renewal is
  /// ``ExpiryReason/billingRetryExhausted``.
  var reason: ExpiryReason {
    if retryExhausted { return .billingRetryExhausted }
    if hasIntent {
      switch expirationIntent {
      case .customerCancelled?: return .voluntary
      case .billingError?: return .billingError
      case .customerDidNotConsentToPriceIncrease?: return .priceIncrease
      case .productNotAvailable?: return .productUnavailable
      case .other?, nil: return .unknown
      }
    }
    switch expiredSubtype {
    case .voluntary?: return .voluntary
    case .priceIncrease?: return .priceIncrease
    case .productNotForSale?: return .productUnavailable
    default: break
    }
    if autoRenews == false { return .voluntary }
    return .unknown
  }
}
