import Entitlements

/// The work of ``TimelineSVG/render()``: the range and scale, then shapes band by band with
/// the labels each would like, the axis and the legend, then the labels placed in order of
/// importance (``LabelPlacer``), then the document.
struct TimelineDrawing {
  let explanation: Explanation
  let width: Double
  let left = 16.0
  let right: Double
  let scale: TimelineScale
  let low: Instant
  let high: Instant
  let detail: TimelineDateFormat.Detail
  let showsYear: Bool
  var placer: LabelPlacer
  /// Shapes, back to front.
  var shapes: [String] = []
  /// Shapes drawn over everything but text (the marker).
  var front: [String] = []
  var requests: [Request] = []
  var legend: Set<LegendItem> = []

  /// A label waiting to be placed.
  struct Request {
    var priority: Int
    var texts: [String]
    var positions: [LabelPlacer.Position]
    var size: Double
    var bold = false
    var fill = Palette.text
    var halo = false
  }

  /// What the legend explains; only what the picture shows is listed.
  enum LegendItem: Int, CaseIterable, Comparable {
    case active
    case renewal
    case lapse
    case refunded
    case upgraded
    case commitment
    case grace
    case retry
    case change
    case readable
    case missed
    case upcoming
    case instant
    case compressed

    static func < (lhs: LegendItem, rhs: LegendItem) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  enum Palette {
    static let text = "#222222"
    static let commitment = "#6c3483"
    static let secondary = "#5f6368"
    static let active = "#2e8b57"
    static let renewal = "#b4dfc6"
    static let lapseFill = "#fdecea"
    static let lapse = "#c0392b"
    static let lapseText = "#962d22"
    static let refundFill = "#f5b7b1"
    static let refund = "#922b21"
    static let upgradeFill = "#dcd6f0"
    static let upgrade = "#6c3483"
    static let grace = "#f7dc6f"
    static let graceText = "#7d6608"
    static let retryFill = "#fdf2e9"
    static let retry = "#e67e22"
    static let retryText = "#a04000"
    static let upcoming = "#95a5a6"
    static let marker = "#1f4fd1"
    static let axis = "#555555"
    static let band = "#f6f8fa"
    static let sandbox = "#b9770e"
  }

  init(explanation: Explanation, range: TimelineRange, width: Double) {
    self.explanation = explanation
    self.width = width
    right = width - 16
    let (low, high) = Self.range(of: explanation, range)
    self.low = low
    self.high = high
    var padding = 28.0
    if case .between = range { padding = 0 }
    let (busy, shortest) = Self.busySpans(of: explanation)
    scale = TimelineScale(
      from: low, to: high, left: left, right: right, padding: padding, busy: busy,
      shortest: shortest)
    detail = TimelineDateFormat.detail(
      millisecondsPerPixel: scale.millisecondsPerPixel, shortest: shortest)
    showsYear = TimelineDateFormat(low).year != TimelineDateFormat(high).year
    placer = LabelPlacer(bounds: TimelineBox(x: 0, y: 0, width: width, height: 0))
  }

  // MARK: Range

  /// The releases drawn in an entitlement's band.
  static func releases(of entitlement: EntitlementEvaluation, in explanation: Explanation)
    -> [Release]
  {
    explanation.releases.filter { $0.entitlement == nil || $0.entitlement == entitlement.id }
      .sorted { ($0.date, $0.id.rawValue) < ($1.date, $1.id.rawValue) }
  }

  /// Every finite instant the history draws.
  static func instants(of explanation: Explanation) -> [Instant] {
    var instants: [Instant] = []
    for entitlement in explanation.evaluation.entitlements {
      for period in entitlement.periods {
        instants.append(period.interval.start)
        instants.append(period.interval.end)
      }
      for coverage in entitlement.coverage {
        if let date = coverage.entry.purchaseDate { instants.append(date) }
        if let date = coverage.entry.cancellationDate { instants.append(date) }
        if let natural = coverage.naturalInterval {
          instants += [natural.start, natural.end]
        }
      }
      if entitlement.billingRetryCanHappen, let windows = entitlement.windowsAfterLastPeriod {
        instants.append(windows.billingRetry.end)
        if let grace = entitlement.gracePeriod { instants.append(grace.end) }
      }
      instants += releases(of: entitlement, in: explanation).map(\.date)
    }
    return instants.filter { !$0.isDistantFuture && $0 != .distantPast }
  }

  static func range(of explanation: Explanation, _ range: TimelineRange) -> (Instant, Instant) {
    var instants = instants(of: explanation)
    var from: Instant?
    var to: Instant?
    switch range {
    case .history: break
    case .historyAndInstant: instants.append(explanation.at)
    case .between(let start, let end):
      from = start
      to = end
    }
    if instants.isEmpty { instants = [explanation.at] }
    var low = from ?? instants.min() ?? explanation.at
    var high = to ?? instants.max() ?? explanation.at
    // A lifetime purchase runs off the right edge: keep a stretch of it in the picture.
    let lifetimes = explanation.evaluation.entitlements.flatMap(\.periods)
      .filter(\.interval.end.isDistantFuture).map(\.interval.start)
    if to == nil, let latest = lifetimes.max() {
      let stretch = FixedDuration.milliseconds(
        max((max(high, latest) - low).milliseconds / 4, FixedDuration.days(1).milliseconds))
      high = max(high, latest + stretch)
    }
    if high <= low {
      if from != nil, to == nil {
        high = low + .days(1)
      } else if to != nil, from == nil {
        low = high - .days(1)
      } else {
        low = low - .hours(12)
        high = low + .days(1)
      }
    }
    return (low, high)
  }

  /// Where something is drawn, for the scale; and the shortest bar, which it should keep
  /// readable.
  static func busySpans(of explanation: Explanation) -> ([(Double, Double)], Double?) {
    var spans: [(Double, Double)] = []
    var shortest: Double?
    func add(_ interval: Interval, bar: Bool) {
      let start = Double(interval.start.millisecondsSince1970)
      let end =
        interval.end.isDistantFuture ? Double.infinity : Double(interval.end.millisecondsSince1970)
      spans.append((start, end))
      if bar, end.isFinite, end > start { shortest = min(shortest ?? .infinity, end - start) }
    }
    func point(_ instant: Instant) {
      let value = Double(instant.millisecondsSince1970)
      spans.append((value, value))
    }
    for entitlement in explanation.evaluation.entitlements {
      for period in entitlement.periods { add(period.interval, bar: true) }
      for coverage in entitlement.coverage {
        if let natural = coverage.naturalInterval, coverage.interval != natural {
          add(natural, bar: true)
        }
        if let date = coverage.entry.cancellationDate { point(date) }
        if let date = coverage.entry.purchaseDate { point(date) }
      }
      if entitlement.billingRetryCanHappen, let windows = entitlement.windowsAfterLastPeriod {
        add(windows.billingRetry, bar: false)
        if let grace = entitlement.gracePeriod { add(grace, bar: false) }
      }
      for release in releases(of: entitlement, in: explanation) { point(release.date) }
    }
    point(explanation.at)
    return (spans, shortest)
  }

  // MARK: Helpers

  /// A date at the picture's scale, longest first.
  func dates(_ instant: Instant) -> [String] {
    TimelineDateFormat(instant).labels(detail: detail, showsYear: showsYear)
  }

  /// A date at the picture's scale for a label beside a bar: without the year when it shows
  /// the time of day (the axis writes the day and year under it).
  func barDates(_ instant: Instant) -> [String] {
    let all = dates(instant)
    return showsYear && detail <= .minutes ? Array(all.dropFirst()) : all
  }

  /// A date at the picture's scale, as short as it stays unambiguous.
  func date(_ instant: Instant) -> String {
    dates(instant).first ?? instant.description
  }

  /// An interval for a tooltip: "Feb 20, 2017 08:00 UTC – Apr 20, 2017 08:00 UTC (59 days)".
  func span(_ interval: Interval) -> String {
    let start = TimelineDateFormat(interval.start).full
    if interval.end.isDistantFuture { return "since \(start), no end" }
    return "\(start) – \(TimelineDateFormat(interval.end).full) "
      + "(\(TimelineDateFormat.duration(interval.end - interval.start)))"
  }

  func x(_ instant: Instant) -> Double { scale.x(instant) }

  /// Horizontal limits for a label; nothing fits when `upper` is left of `lower`.
  func limits(_ lower: Double, _ upper: Double) -> ClosedRange<Double> {
    lower <= upper ? lower...upper : lower...lower
  }

  /// Positions for a label centred inside `[x0, x1]`: in the whole span, then in each part
  /// the obstacles crossing the row leave, widest first.
  func inside(_ x0: Double, _ x1: Double, baseline: Double) -> [LabelPlacer.Position] {
    let row = TimelineBox(x: x0, y: baseline - 10, width: max(x1 - x0, 0), height: 12)
    let cuts = placer.obstacles.filter { $0.intersects(row) }.sorted { $0.x < $1.x }
    var parts: [(Double, Double)] = []
    var start = x0
    for cut in cuts {
      if cut.x > start { parts.append((start, cut.x)) }
      start = max(start, cut.maxX)
    }
    if start < x1 { parts.append((start, x1)) }
    if cuts.isEmpty { parts = [] }
    let spans = [(x0, x1)] + parts.sorted { $0.1 - $0.0 > $1.1 - $1.0 }
    return spans.map { span in
      LabelPlacer.Position(
        x: (span.0 + span.1) / 2, y: baseline, anchor: .middle,
        within: limits(span.0 + 3, span.1 - 3))
    }
  }

  /// Whether any of the interval lies inside the range drawn.
  func isVisible(_ interval: Interval) -> Bool { interval.end > low && interval.start < high }

  /// Whether the instant lies inside the range drawn.
  func isVisible(_ instant: Instant) -> Bool { instant >= low && instant <= high }

  /// Whether the instant lies inside the range drawn (the marker is drawn).
  var instantIsShown: Bool { explanation.at >= low && explanation.at <= high }

  mutating func request(
    _ priority: Int, _ texts: [String], _ positions: [LabelPlacer.Position], size: Double = 10,
    bold: Bool = false, fill: String = Palette.text, halo: Bool = false
  ) {
    requests.append(
      Request(
        priority: priority, texts: texts, positions: positions, size: size, bold: bold,
        fill: fill, halo: halo))
  }

  // MARK: Document

  mutating func render() -> String {
    let entitlements = explanation.evaluation.entitlements
    let bandsTop = 46.0
    var layouts: [TimelineBandLayout] = []
    var cursor = bandsTop
    for entitlement in entitlements {
      let layout = TimelineBandLayout(
        top: cursor, hasStruck: Self.hasStruck(entitlement),
        hasWindows: entitlement.billingRetryCanHappen,
        hasReleases: !Self.releases(of: entitlement, in: explanation).isEmpty)
      layouts.append(layout)
      cursor = layout.bottom
    }
    if entitlements.isEmpty {
      request(1, ["No entitlement: nothing was bought"], [.init(x: left, y: cursor + 24)], size: 12)
      cursor += 36
    }
    drawTitle()
    let axisY = cursor + 10
    // Labels keep clear of the marker and of refund and upgrade marks, below the headers
    // (the headers hold the names and the status, which may cross the marker's line).
    for (entitlement, layout) in zip(entitlements, layouts) {
      let rows = layout.aboveBaseline - 11
      if instantIsShown {
        placer.obstacles.append(
          TimelineBox(
            x: x(explanation.at) - 1.5, y: rows, width: 3, height: layout.bottom - rows))
      }
      for coverage in entitlement.coverage {
        let cut: Instant?
        switch coverage.disposition {
        case .refundVoided: cut = coverage.entry.cancellationDate
        case .refundEndedAt(let at), .endedByUpgrade(let at): cut = at
        case .covers, .invalid: cut = nil
        }
        if let cut {
          placer.obstacles.append(
            TimelineBox(x: x(cut) - 2, y: rows, width: 4, height: layout.bottom - rows))
        }
      }
    }
    for (entitlement, layout) in zip(entitlements, layouts) {
      drawBand(entitlement, layout: layout, shaded: layout.top != bandsTop && layouts.count > 1)
    }
    drawMarker(from: bandsTop, to: axisY + 5, layouts: layouts, entitlements: entitlements)
    drawAxis(y: axisY, bandsTop: bandsTop)
    let height = drawLegend(top: axisY + 48)
    placer.bounds = TimelineBox(x: 0, y: 0, width: width, height: height)
    let ordered = requests.enumerated().sorted {
      ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset)
    }
    for (_, request) in ordered {
      placer.place(
        request.texts, at: request.positions, size: request.size, bold: request.bold,
        fill: request.fill, halo: request.halo)
    }
    let w = SVGElements.number(width)
    let h = SVGElements.number(height)
    let summary = "Entitlement timeline as of \(TimelineDateFormat(explanation.at).full)"
    var lines = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" "
        + "viewBox=\"0 0 \(w) \(h)\" font-family=\"\(TextMetrics.fontFamily)\" "
        + "role=\"img\" aria-label=\"\(SVGElements.escaped(summary))\">",
      "<title>\(SVGElements.escaped(summary))</title>",
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
    ]
    lines += shapes
    lines += front
    lines += placer.svg
    lines.append("</svg>")
    return lines.joined(separator: "\n") + "\n"
  }

  static func hasStruck(_ entitlement: EntitlementEvaluation) -> Bool {
    entitlement.coverage.contains { coverage in
      switch coverage.disposition {
      case .refundVoided, .refundEndedAt, .endedByUpgrade: true
      case .covers, .invalid: false
      }
    }
  }

  /// The title, and the environment's badge when it is not production. The badge is a shape
  /// around its text, so the two are chosen together here, not by the placer: the longest
  /// title and badge that fit side by side (a badge drawn without its text would cover the
  /// title); in a picture too narrow for both, the title alone.
  mutating func drawTitle() {
    let at = TimelineDateFormat(explanation.at)
    let titles = ["Entitlements as of \(at.full)", "As of \(at.dayYear)"]
    guard let environment = explanation.environment, environment != .production else {
      request(0, titles, [.init(x: left, y: 26)], size: 15, bold: true)
      return
    }
    let badges: [String] =
      environment == .sandbox
      ? ["SANDBOX · accelerated time", "SANDBOX"] : [environment.rawValue.uppercased()]
    let metrics = TextMetrics()
    let pairs = titles.flatMap { title in badges.map { (title, $0) } }
    let fitting = pairs.first { title, badge in
      left + metrics.width(of: title, size: 15, bold: true) + 12
        <= right - metrics.width(of: badge, size: 11, bold: true) - 16
    }
    guard let (title, badge) = fitting else {
      request(0, titles, [.init(x: left, y: 26)], size: 15, bold: true)
      return
    }
    request(0, [title], [.init(x: left, y: 26)], size: 15, bold: true)
    let textWidth = metrics.width(of: badge, size: 11, bold: true)
    shapes.append(
      SVGElements.rect(
        x: right - textWidth - 16, y: 10, width: textWidth + 16, height: 22,
        fill: Palette.sandbox, radius: 11,
        title: environment.acceleratesTime
          ? "A sandbox history: the App Store renews in minutes what takes months in production"
          : "A history from \(environment.rawValue), not production"))
    request(
      0, [badge], [.init(x: right - 8, y: 25.5, anchor: .end)], size: 11, bold: true,
      fill: "white")
  }

  mutating func drawMarker(
    from top: Double, to bottom: Double, layouts: [TimelineBandLayout],
    entitlements: [EntitlementEvaluation]
  ) {
    let at = explanation.at
    let markerX = x(at)
    if instantIsShown {
      legend.insert(.instant)
      front.append(
        SVGElements.line(
          markerX, top, markerX, bottom, stroke: Palette.marker, width: 1.5, dash: "5,4",
          title: "The instant: \(TimelineDateFormat(at).full)"))
    }
    for (entitlement, layout) in zip(entitlements, layouts) {
      let status = entitlement.status(at: at)
      // Outside the picture, the instant may be years after the history: dates say the year.
      let shown = instantIsShown
      var texts = TimelineWords.status(status) { instant in
        shown
          ? date(instant) : TimelineDateFormat(instant).labels(detail: detail, showsYear: true)[0]
      }
      var positions: [LabelPlacer.Position]
      if instantIsShown {
        positions = [
          .init(x: markerX + 6, y: layout.headerBaseline),
          .init(x: markerX - 6, y: layout.headerBaseline, anchor: .end),
          .init(x: markerX + 6, y: layout.aboveBaseline),
          .init(x: markerX - 6, y: layout.aboveBaseline, anchor: .end),
          .init(x: right, y: layout.headerBaseline, anchor: .end),
        ]
      } else {
        let when = TimelineDateFormat(at).dayYear
        texts = texts.map { "\(when): \($0)" } + texts
        positions = [
          .init(x: right, y: layout.headerBaseline, anchor: .end),
          .init(x: right, y: layout.aboveBaseline, anchor: .end),
        ]
      }
      request(2, texts, positions, size: 12, bold: true, fill: Palette.marker, halo: true)
    }
  }
}
