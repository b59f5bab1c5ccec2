import Entitlements

extension TimelineDrawing {
  /// One entitlement: header, periods and lapses, struck purchases, windows, releases.
  mutating func drawBand(
    _ entitlement: EntitlementEvaluation, layout: TimelineBandLayout, shaded: Bool
  ) {
    shapes.append(
      SVGElements.rect(
        x: 0, y: layout.top, width: width, height: layout.bottom - layout.top,
        fill: shaded ? Palette.band : "white"))
    shapes.append(SVGElements.line(0, layout.top, width, layout.top, stroke: "#e3e6ea"))
    drawHeader(entitlement, layout: layout)
    drawPeriods(entitlement, layout: layout)
    drawLapses(entitlement, layout: layout)
    drawCommitments(entitlement, layout: layout)
    drawStruck(entitlement, layout: layout)
    drawWindows(entitlement, layout: layout)
    drawChanges(entitlement, layout: layout)
    drawReleases(entitlement, layout: layout)
  }

  /// A diamond on the bars' lower edge at each change of the status, in the colour of the
  /// state it starts, its tooltip the instant and the status from it (``StatusChange``).
  private mutating func drawChanges(
    _ entitlement: EntitlementEvaluation, layout: TimelineBandLayout
  ) {
    for change in entitlement.changes where isVisible(change.at) {
      legend.insert(.change)
      let title =
        "\(date(change.at)): \(change.state.rawValue)"
        + (change.reason.map { " (\($0.rawValue))" } ?? "")
        + (change.isEntitled ? ", access" : ", no access")
      front.append(
        Self.changeMark(
          x: x(change.at), y: layout.barBottom, fill: Self.color(of: change.state), title: title))
    }
  }

  /// The colour of a state's change mark.
  static func color(of state: EntitlementState) -> String {
    switch state {
    case .active: Palette.active
    case .gracePeriod: Palette.graceText
    case .billingRetry: Palette.retry
    case .expired, .notSubscribed: Palette.lapse
    case .revoked: Palette.refund
    }
  }

  /// A change mark: a diamond with a white edge, so that it reads on a bar and beside one.
  static func changeMark(x: Double, y: Double, fill: String, title: String? = nil) -> String {
    SVGElements.polygon(
      [(x, y - 4.5), (x + 4.5, y), (x, y + 4.5), (x - 4.5, y)], fill: fill, stroke: "white",
      title: title)
  }

  private mutating func drawHeader(_ entitlement: EntitlementEvaluation, layout: TimelineBandLayout)
  {
    let name = entitlement.id.rawValue
    request(
      1, [name], [.init(x: left, y: layout.headerBaseline)], size: 13, bold: true, halo: true)
    let nameWidth = TextMetrics().width(of: name, size: 13, bold: true)
    let periods = entitlement.periods.count
    let lapses = entitlement.lapses.count
    var counts = periods == 1 ? "1 period" : "\(periods) periods"
    if lapses > 0 { counts += lapses == 1 ? ", 1 lapse" : ", \(lapses) lapses" }
    let products = productSummaries(of: entitlement)
    request(
      4, products.map { "\($0) · \(counts)" } + [counts],
      [.init(x: left + nameWidth + 10, y: layout.headerBaseline)], size: 11,
      fill: Palette.secondary)
  }

  /// "com.example.magazine.monthly, com.example.magazine.yearly", then "2 products".
  private func productSummaries(of entitlement: EntitlementEvaluation) -> [String] {
    var seen = Set<ProductID>()
    let products = entitlement.coverage.map(\.entry.productID).filter { seen.insert($0).inserted }
    let all = products.map(\.rawValue).sorted().joined(separator: ", ")
    return products.count == 1 ? [all] : [all, "\(products.count) products"]
  }

  private mutating func drawPeriods(
    _ entitlement: EntitlementEvaluation, layout: TimelineBandLayout
  ) {
    let periods = entitlement.periods
    guard !periods.isEmpty else {
      request(
        5, ["no active period: nothing bought gave access", "no active period"],
        [.init(x: (left + right) / 2, y: layout.barBaseline, anchor: .middle)],
        fill: Palette.secondary)
      return
    }
    legend.insert(.active)
    let height = layout.barBottom - layout.barTop
    let ticks = renewalTicks(entitlement, layout: layout)
    defer { shapes += ticks }
    for (index, period) in periods.enumerated() where isVisible(period.interval) {
      let x0 = x(period.interval.start)
      let x1 = x(period.interval.end)
      let lifetime = period.interval.end.isDistantFuture
      var notes = [period.start == .firstPurchase ? "first purchase" : "restart"]
      if period.beganWithTrial { notes.append("free trial") }
      if period.beganWithIntroOffer { notes.append("introductory offer") }
      notes.append(TimelineWords.transactions(period.transactionIDs))
      let title =
        (lifetime ? "Owned " : "Active ") + span(period.interval) + "\n"
        + notes.joined(separator: " · ")
      shapes.append(
        SVGElements.rect(
          x: x0, y: layout.barTop, width: max(x1 - x0, 1.5), height: height,
          fill: Palette.active, title: title))
      if lifetime {
        shapes.append(
          SVGElements.polygon(
            [
              (right - 1, layout.barTop - 3), (right + 9, layout.barTop + height / 2),
              (right - 1, layout.barBottom + 3),
            ], fill: Palette.active, title: "Owned: no end"))
      }
      // Dates: the first start and the last end first, then the others, as room allows.
      let important = index == 0 || index == periods.count - 1
      let startDates = barDates(period.interval.start)
      request(
        important ? 6 : 8, startDates,
        [
          .init(x: x0, y: layout.aboveBaseline),
          .init(x: x0, y: layout.belowBaseline),
        ])
      if !lifetime {
        request(
          important ? 6 : 8, barDates(period.interval.end),
          [
            .init(x: x1, y: layout.belowBaseline, anchor: .end),
            .init(x: x1, y: layout.aboveBaseline, anchor: .end),
          ])
      }
      let length =
        lifetime ? nil : TimelineDateFormat.duration(period.interval.end - period.interval.start)
      let inside: [String] =
        lifetime
        ? ["owned since \(date(period.interval.start)), lifetime", "owned", ""]
        : ["active · \(length ?? "")", "active", length ?? ""]
      request(
        9, inside, self.inside(x0, min(x1, right), baseline: layout.barBaseline), fill: "white")
    }
  }

  /// A thin white tick where a purchase inside a period begins: each renewal of a period
  /// (every 5 minutes in the sandbox), an upgrade, a new product. Labels inside the bars keep
  /// clear of them.
  private mutating func renewalTicks(
    _ entitlement: EntitlementEvaluation, layout: TimelineBandLayout
  ) -> [String] {
    let periods = entitlement.periods
    var ticks: [String] = []
    var lastX = -Double.infinity
    for coverage in entitlement.coverage {
      guard let interval = coverage.interval, isVisible(interval.start) else { continue }
      let start = interval.start
      // The first period starting after the purchase, by binary search.
      var low = 0
      var high = periods.count
      while low < high {
        let middle = (low + high) / 2
        if periods[middle].interval.start > start { high = middle } else { low = middle + 1 }
      }
      let after = low
      guard after > 0, periods[after - 1].interval.start < start,
        periods[after - 1].interval.end > start
      else { continue }
      let tx = x(start)
      guard tx - lastX >= 2 else { continue }
      lastX = tx
      placer.obstacles.append(
        TimelineBox(
          x: tx - 0.5, y: layout.barTop, width: 1, height: layout.barBottom - layout.barTop))
      ticks.append(
        SVGElements.line(
          tx, layout.barTop + 3, tx, layout.barBottom - 3, stroke: Palette.renewal, width: 1,
          title:
            "Renewed: transaction \(coverage.entry.transactionID) "
            + "(\(coverage.entry.productID)), \(TimelineDateFormat(start).full)"))
    }
    if !ticks.isEmpty { legend.insert(.renewal) }
    return ticks
  }

  private mutating func drawLapses(
    _ entitlement: EntitlementEvaluation, layout: TimelineBandLayout
  ) {
    for lapse in entitlement.lapses where isVisible(lapse.interval) {
      legend.insert(.lapse)
      let x0 = x(lapse.interval.start)
      let x1 = x(lapse.interval.end)
      let cause = TimelineWords.words(lapse.cause)
      let length = TimelineDateFormat.duration(lapse.interval.end - lapse.interval.start)
      shapes.append(
        SVGElements.rect(
          x: x0, y: layout.barTop + 4, width: max(x1 - x0, 1),
          height: layout.barBottom - layout.barTop - 8,
          fill: Palette.lapseFill, stroke: Palette.lapse, dash: "3,2",
          title: "Lapse \(span(lapse.interval)): \(cause)"))
      guard x1 - x0 > 12 else { continue }
      request(
        5, ["lapse \(length) · \(cause)", "lapse · \(cause)", cause, "lapse"],
        inside(x0, x1, baseline: layout.barBaseline), fill: Palette.lapseText)
    }
  }

  /// Each commitment (a one-year product paid monthly): a bracket over the bar from its first
  /// payment to its end, and how many payments it has.
  private mutating func drawCommitments(
    _ entitlement: EntitlementEvaluation, layout: TimelineBandLayout
  ) {
    // One commitment per subscription and end: its span from its earliest payment.
    var spans: [String: (start: Instant, end: Instant, total: Int, paid: Int)] = [:]
    for coverage in entitlement.coverage {
      let entry = coverage.entry
      guard let commitment = entry.commitment, let end = commitment.expiresDate,
        let start = entry.purchaseDate
      else { continue }
      let key = "\(entry.originalTransactionID) \(end.millisecondsSince1970)"
      let known = spans[key]
      spans[key] = (
        min(known?.start ?? start, start), end, commitment.totalBillingPeriods,
        max(known?.paid ?? 0, commitment.billingPeriodNumber)
      )
    }
    for span in spans.values.sorted(by: { $0.start < $1.start }) {
      let interval = Interval(start: span.start, end: span.end)
      guard isVisible(interval) else { continue }
      legend.insert(.commitment)
      let (x0, x1) = (x(span.start), x(span.end))
      let y = layout.barTop - 2
      let title =
        "Commitment \(self.span(interval)): \(span.total) monthly payments, "
        + "\(span.paid) of them made"
      shapes.append(
        SVGElements.group(
          [
            SVGElements.line(x0, y, x1, y, stroke: Palette.commitment, width: 2),
            SVGElements.line(x0, y, x0, y + 4, stroke: Palette.commitment, width: 2),
            SVGElements.line(x1, y, x1, y + 4, stroke: Palette.commitment, width: 2),
          ], title: title))
      let until = date(span.end)
      request(
        5,
        [
          "commitment: \(span.total) payments, until \(until)", "commitment until \(until)",
          "commitment",
        ], inside(x0, min(x1, right), baseline: layout.aboveBaseline - 1),
        fill: Palette.commitment)
    }
  }

  /// Refunded, revoked and upgraded purchases: what they would have covered, struck, in a lane
  /// under the bars, and a mark at the cancellation instant.
  private mutating func drawStruck(
    _ entitlement: EntitlementEvaluation, layout: TimelineBandLayout
  ) {
    guard let lane = layout.struck else { return }
    for coverage in entitlement.coverage {
      let entry = coverage.entry
      let natural = coverage.naturalInterval ?? coverage.interval
      let kind: (word: String, fill: String, stroke: String, item: LegendItem)
      let cut: Instant?
      let struck: Interval?
      let revocation = TimelineWords.revocation(of: entry)
      switch coverage.disposition {
      case .refundVoided:
        kind = (revocation, Palette.refundFill, Palette.refund, .refunded)
        cut = entry.cancellationDate
        struck = natural
      case .refundEndedAt(let at):
        kind = (revocation, Palette.refundFill, Palette.refund, .refunded)
        cut = at
        struck = natural.map { Interval(start: max($0.start, at), end: $0.end) }
      case .endedByUpgrade(let at):
        kind = ("upgraded", Palette.upgradeFill, Palette.upgrade, .upgraded)
        cut = at
        struck = natural.map { Interval(start: max($0.start, at), end: $0.end) }
      case .covers, .invalid:
        continue
      }
      let struckIsVisible = struck.map(isVisible) ?? false
      let cutIsVisible = cut.map(isVisible) ?? false
      guard struckIsVisible || cutIsVisible else { continue }
      legend.insert(kind.item)
      let product = entry.productID.rawValue
      let what =
        kind.item == .upgraded
        ? "ended by an upgrade: the rest of its time is covered by the new product"
        : "treated as never bought for the time after the cancellation"
      if let struck, struck.end > struck.start, struckIsVisible {
        let x0 = x(struck.start)
        let x1 = x(struck.end)
        let from = date(struck.start)
        let to = struck.end.isDistantFuture ? "no end" : date(struck.end)
        request(
          6,
          [
            "\(kind.word): would have covered \(from) – \(to)",
            "would have covered \(from) – \(to)", "\(from) – \(to)",
          ], inside(x0, min(x1, right), baseline: layout.belowBaseline), fill: kind.stroke)
        let middle = (lane.top + lane.bottom) / 2
        shapes.append(
          SVGElements.group(
            [
              SVGElements.rect(
                x: x0, y: lane.top, width: max(x1 - x0, 1.5), height: lane.bottom - lane.top,
                fill: kind.fill),
              SVGElements.line(
                x0, middle, max(x1, x0 + 1.5), middle, stroke: kind.stroke, width: 1.5),
            ],
            title:
              "Transaction \(entry.transactionID) (\(product)) \(kind.word): would have covered "
              + span(struck) + "; \(what)"))
      }
      if let cut, cutIsVisible {
        let cx = x(cut)
        let when = TimelineDateFormat(cut)
        shapes.append(
          SVGElements.group(
            [
              SVGElements.line(
                cx, layout.barTop - 4, cx, lane.bottom, stroke: kind.stroke, width: 2),
              SVGElements.polygon(
                [
                  (cx, layout.barTop - 9), (cx + 4, layout.barTop - 4), (cx, layout.barTop + 1),
                  (cx - 4, layout.barTop - 4),
                ],
                fill: kind.stroke),
            ],
            title: "Transaction \(entry.transactionID) (\(product)) \(kind.word) at \(when.full)"))
        let texts = barDates(cut).map { "\(kind.word) \($0)" } + [kind.word]
        request(
          4, texts,
          [
            .init(x: cx + 6, y: layout.aboveBaseline),
            .init(x: cx - 6, y: layout.aboveBaseline, anchor: .end),
            .init(x: cx + 6, y: layout.belowBaseline),
            .init(x: cx - 6, y: layout.belowBaseline, anchor: .end),
          ], fill: kind.stroke, halo: true)
      }
    }
  }

  /// The grace period and the billing-retry window after the last period, when the App Store
  /// retries (not after a voluntary cancellation).
  private mutating func drawWindows(
    _ entitlement: EntitlementEvaluation, layout: TimelineBandLayout
  ) {
    guard let row = layout.windows, entitlement.billingRetryCanHappen,
      let windows = entitlement.windowsAfterLastPeriod, isVisible(windows.billingRetry)
    else { return }
    legend.insert(.retry)
    let retry = windows.billingRetry
    let r0 = x(retry.start)
    let r1 = x(retry.end)
    let baseline = row.top + 13
    shapes.append(
      SVGElements.rect(
        x: r0, y: row.top, width: max(r1 - r0, 1.5), height: row.bottom - row.top,
        fill: Palette.retryFill, stroke: Palette.retry, strokeWidth: 1.2, dash: "4,3",
        title:
          "Billing retry \(span(retry)): the App Store retries the payment; no access "
          + "(outside a grace period)"))
    var retryStart = r0
    if let grace = entitlement.gracePeriod {
      legend.insert(.grace)
      let g0 = x(grace.start)
      let g1 = x(grace.end)
      retryStart = g1
      shapes.append(
        SVGElements.rect(
          x: g0, y: row.top, width: max(g1 - g0, 1.5), height: row.bottom - row.top,
          fill: Palette.grace,
          title: "Grace period \(span(grace)): access continues while billing is retried"))
      let until = date(grace.end)
      request(
        5, ["grace period until \(until)", "grace until \(until)", "grace"],
        inside(g0, g1, baseline: baseline), fill: Palette.graceText)
    }
    let until = date(retry.end)
    request(
      5, ["billing retry until \(until)", "retry until \(until)", "billing retry", "retry"],
      inside(retryStart, r1, baseline: baseline) + [
        .init(x: r1 + 5, y: baseline),
        .init(x: r0 - 5, y: baseline, anchor: .end),
      ], fill: Palette.retryText)
  }

  /// Releases: readable (filled), missed (crossed), not yet released at the instant (hollow).
  private mutating func drawReleases(
    _ entitlement: EntitlementEvaluation, layout: TimelineBandLayout
  ) {
    guard let row = layout.releases else { return }
    let releases = Self.releases(of: entitlement, in: explanation)
    let readable = Dictionary(
      entitlement.readableReleases(explanation.releases, asOf: explanation.at).map {
        ($0.release.id, $0.reason)
      }, uniquingKeysWith: { first, _ in first })
    shapes.append(
      SVGElements.line(left, row.y, right, row.y, stroke: "#d5d8dc", dash: "2,3"))
    for release in releases where isVisible(release.date) {
      let rx = x(release.date)
      let id = release.id.rawValue
      let when = TimelineDateFormat(release.date).full
      let fill: String
      if release.date > explanation.at {
        legend.insert(.upcoming)
        fill = Palette.upcoming
        shapes.append(
          SVGElements.circle(
            x: rx, y: row.y, radius: 5, fill: "white", stroke: Palette.upcoming, dash: "2,1.5",
            title:
              "Release \(id), \(when): not yet released at \(TimelineDateFormat(explanation.at).full)"
          ))
      } else if let reason = readable[release.id] {
        legend.insert(.readable)
        fill = Palette.active
        shapes.append(
          SVGElements.circle(
            x: rx, y: row.y, radius: 5.5, fill: Palette.active,
            title: "Release \(id), \(when): readable, \(Explanation.describe(reason).1)"))
      } else {
        legend.insert(.missed)
        fill = Palette.lapse
        shapes.append(
          SVGElements.group(
            [
              SVGElements.circle(x: rx, y: row.y, radius: 5.5, fill: Palette.lapse),
              SVGElements.line(rx - 3, row.y - 3, rx + 3, row.y + 3, stroke: "white", width: 1.6),
              SVGElements.line(rx - 3, row.y + 3, rx + 3, row.y - 3, stroke: "white", width: 1.6),
            ],
            title: "Release \(id), \(when): missed, not subscribed when it was released"))
      }
      request(
        9, [id],
        [
          .init(x: rx, y: row.label, anchor: .middle),
          .init(x: rx, y: row.secondLabel, anchor: .middle),
          .init(x: rx - 3, y: row.label),
          .init(x: rx + 3, y: row.label, anchor: .end),
          .init(x: rx - 3, y: row.secondLabel),
          .init(x: rx + 3, y: row.secondLabel, anchor: .end),
        ], fill: fill)
    }
  }
}
