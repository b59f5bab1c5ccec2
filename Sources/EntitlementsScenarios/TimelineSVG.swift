import Entitlements

/// Draws an evaluation as an SVG timeline, like the guide's figure 5-1: a time axis, active
/// periods, lapses with their causes, billing-retry and grace windows after the last period,
/// releases marked readable (filled) or not (crossed), and the instant marker.
///
/// ```swift
/// let svg = TimelineSVG(explanation: explanation).render()
/// // "<svg xmlns=…>…</svg>": write it to a file, open it in a browser
/// ```
public struct TimelineSVG: Sendable {
  /// What to draw.
  public var explanation: Explanation
  /// The picture's width in pixels.
  public var width = 1100

  /// Creates a renderer.
  ///
  /// - Parameter explanation: The evaluation, releases and instant to draw.
  public init(explanation: Explanation) {
    self.explanation = explanation
  }

  private let left = 150.0
  private let right = 40.0
  private let bandHeight = 150.0
  private let top = 60.0

  /// The SVG document.
  public func render() -> String {
    let (start, end) = range()
    let span = Double(max(end.millisecondsSince1970 - start.millisecondsSince1970, 1))
    let plotWidth = Double(width) - left - right
    func x(_ instant: Instant) -> Double {
      let clamped = min(max(instant, start), end)
      return left + Double(clamped.millisecondsSince1970 - start.millisecondsSince1970) / span
        * plotWidth
    }
    let entitlements = explanation.evaluation.entitlements
    let height = Int(top + Double(max(entitlements.count, 1)) * bandHeight + 80)
    var svg: [String] = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
        + "viewBox=\"0 0 \(width) \(height)\" font-family=\"Helvetica, Arial, sans-serif\" "
        + "font-size=\"12\">",
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
      text(left, 24, "Entitlements timeline, as of \(explanation.at)", size: 15, weight: "bold"),
      legend(y: 44),
    ]
    for (index, entitlement) in entitlements.enumerated() {
      let y = top + Double(index) * bandHeight
      svg += band(entitlement, y: y, x: x, axisEnd: end)
    }
    let axisY = top + Double(max(entitlements.count, 1)) * bandHeight + 10
    svg += axis(y: axisY, start: start, end: end, x: x)
    let atX = x(explanation.at)
    svg.append(
      line(atX, top, atX, axisY + 24, stroke: "#1f4fd1", width: 1.5, dash: "5,4"))
    svg.append(text(atX + 4, axisY + 36, "at \(explanation.at)", fill: "#1f4fd1"))
    svg.append("</svg>")
    return svg.joined(separator: "\n") + "\n"
  }

  private func band(
    _ entitlement: EntitlementEvaluation, y: Double, x: (Instant) -> Double, axisEnd: Instant
  ) -> [String] {
    var parts: [String] = []
    let periodY = y + 30
    let windowY = y + 62
    let releaseY = y + 108
    parts.append(text(10, y + 14, "entitlement \(entitlement.id)", size: 13, weight: "bold"))
    parts.append(text(10, periodY + 15, "active periods"))
    parts.append(text(10, windowY + 11, "retry / grace"))
    parts.append(text(10, releaseY + 4, "releases"))
    parts.append(line(left, releaseY, Double(width) - right, releaseY, stroke: "#bbbbbb"))
    for period in entitlement.periods {
      let x0 = x(period.interval.start)
      let x1 = x(period.interval.end)
      parts.append(rect(x0, periodY, max(x1 - x0, 1.5), 22, fill: "#3a9d5d"))
      parts.append(text(x0 + 2, periodY - 4, short(period.interval.start), size: 10))
      if !period.interval.end.isDistantFuture {
        parts.append(
          text(x1 - 2, periodY + 36, short(period.interval.end), size: 10, anchor: "end"))
      } else {
        parts.append(
          text(x1 - 4, periodY + 15, "→ forever", size: 10, anchor: "end", fill: "white"))
      }
    }
    for lapse in entitlement.lapses {
      let x0 = x(lapse.interval.start)
      let x1 = x(lapse.interval.end)
      parts.append(
        rect(x0, periodY + 4, max(x1 - x0, 1), 14, fill: "#f3d6d6", stroke: "#c0392b", dash: "3,2"))
      parts.append(
        text(
          (x0 + x1) / 2, periodY + 15, "lapse: \(lapse.cause.rawValue)", size: 10,
          anchor: "middle", fill: "#c0392b"))
    }
    // Retry and grace are drawn only when the renewal info says Apple is retrying: after a
    // voluntary cancellation there is nothing to retry.
    if let last = entitlement.windows.last,
      last.expiresAt == entitlement.periods.last?.interval.end,
      entitlement.renewalInfo?.isInBillingRetryPeriod == true || last.gracePeriod != nil
    {
      let retry = last.billingRetry
      parts.append(
        rect(
          x(retry.start), windowY, max(x(retry.end) - x(retry.start), 1), 16, fill: "none",
          stroke: "#e67e22", dash: "4,3"))
      parts.append(
        text(
          x(retry.end) - 4, windowY + 12, "billing retry until \(short(retry.end))", size: 10,
          anchor: "end", fill: "#b35900"))
      if let grace = last.gracePeriod {
        parts.append(
          rect(
            x(grace.start), windowY, max(x(grace.end) - x(grace.start), 1), 16, fill: "#f9e79f",
            opacity: 0.8))
        parts.append(
          text(
            x(grace.start) + 3, windowY + 28, "grace until \(short(grace.end))", size: 10,
            fill: "#8a6d00"))
      }
    }
    let releases = explanation.releases
      .filter { $0.entitlement == nil || $0.entitlement == entitlement.id }
      .sorted { ($0.date, $0.id) < ($1.date, $1.id) }
    let readable = Set(
      entitlement.readableReleases(explanation.releases, asOf: explanation.at).map(\.release.id))
    for release in releases {
      let rx = x(release.date)
      if readable.contains(release.id) {
        parts.append("<circle cx=\"\(f(rx))\" cy=\"\(f(releaseY))\" r=\"6\" fill=\"#3a9d5d\"/>")
      } else {
        parts.append(
          "<circle cx=\"\(f(rx))\" cy=\"\(f(releaseY))\" r=\"6\" fill=\"white\" stroke=\"#c0392b\" stroke-width=\"1.5\"/>"
        )
        parts.append(
          line(rx - 4, releaseY - 4, rx + 4, releaseY + 4, stroke: "#c0392b", width: 1.5))
        parts.append(
          line(rx - 4, releaseY + 4, rx + 4, releaseY - 4, stroke: "#c0392b", width: 1.5))
      }
      parts.append(
        text(
          rx, releaseY + 22, release.id.rawValue, size: 10, anchor: "middle",
          fill: readable.contains(release.id) ? "#1e6b3a" : "#c0392b"))
    }
    return parts
  }

  private func legend(y: Double) -> String {
    [
      rect(left, y - 9, 18, 10, fill: "#3a9d5d"), text(left + 24, y, "active"),
      rect(left + 80, y - 9, 18, 10, fill: "#f3d6d6", stroke: "#c0392b", dash: "3,2"),
      text(left + 104, y, "lapse"),
      rect(left + 160, y - 9, 18, 10, fill: "none", stroke: "#e67e22", dash: "4,3"),
      text(left + 184, y, "billing retry"),
      rect(left + 270, y - 9, 18, 10, fill: "#f9e79f"), text(left + 294, y, "grace"),
      "<circle cx=\"\(f(left + 355))\" cy=\"\(f(y - 4))\" r=\"5\" fill=\"#3a9d5d\"/>",
      text(left + 365, y, "readable"),
      "<circle cx=\"\(f(left + 440))\" cy=\"\(f(y - 4))\" r=\"5\" fill=\"white\" stroke=\"#c0392b\"/>",
      text(left + 450, y, "not readable"),
    ].joined(separator: "\n")
  }

  /// The instants to show: everything drawn, with a margin.
  private func range() -> (Instant, Instant) {
    var instants: [Instant] = [explanation.at]
    for entitlement in explanation.evaluation.entitlements {
      for period in entitlement.periods {
        instants.append(period.interval.start)
        if !period.interval.end.isDistantFuture { instants.append(period.interval.end) }
      }
      if let last = entitlement.windows.last {
        instants.append(last.billingRetry.end)
        if let grace = last.gracePeriod { instants.append(grace.end) }
      }
    }
    instants += explanation.releases.map(\.date)
    let low = instants.min() ?? explanation.at
    var high = instants.max() ?? explanation.at
    if high <= low { high = low + .days(1) }
    let margin = FixedDuration.milliseconds(max((high - low).milliseconds / 20, 1000))
    return (low - margin, high + margin)
  }

  private func axis(y: Double, start: Instant, end: Instant, x: (Instant) -> Double) -> [String] {
    var parts = [line(left, y, Double(width) - right, y, stroke: "#333333", width: 1.2)]
    let span = (end - start).milliseconds
    let monthly = span > FixedDuration.days(60).milliseconds
    var ticks: [Instant] = []
    if monthly {
      // First of each month, in UTC.
      let prefix = String(start.description.prefix(7))
      if let first = try? Instant(parsing: prefix + "-01") {
        let months = max(1, Int(span / FixedDuration.days(30).milliseconds) / 14 + 1)
        var n = 0
        while true {
          let tick = CalendarPeriod(months, .month).advance(first, times: n)
          if tick > end { break }
          if tick >= start { ticks.append(tick) }
          n += 1
        }
      }
    } else {
      let steps: [FixedDuration] = [
        .seconds(30), .minutes(1), .minutes(5), .minutes(15), .hours(1), .hours(6), .days(1),
        .days(7),
      ]
      let step = steps.first { span / $0.milliseconds <= 14 } ?? .days(7)
      var tick = Instant(
        millisecondsSince1970: (start.millisecondsSince1970 / step.milliseconds + 1)
          * step.milliseconds)
      while tick <= end {
        ticks.append(tick)
        tick = tick + step
      }
    }
    for tick in ticks {
      let tx = x(tick)
      parts.append(line(tx, y, tx, y + 6, stroke: "#333333"))
      let label =
        monthly
        ? String(tick.description.prefix(7))
        : span > FixedDuration.days(2).milliseconds
          ? String(tick.description.prefix(10)) : String(tick.description.dropFirst(11).prefix(8))
      parts.append(text(tx, y + 20, label, size: 10, anchor: "middle"))
    }
    return parts
  }

  private func short(_ instant: Instant) -> String {
    let text = instant.description
    return text.hasSuffix("T00:00:00Z") ? String(text.prefix(10)) : text
  }

  private func f(_ value: Double) -> String {
    String((value * 10).rounded() / 10)
  }

  private func rect(
    _ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String, stroke: String? = nil,
    dash: String? = nil, opacity: Double = 1
  ) -> String {
    var attributes =
      "x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(w))\" height=\"\(f(h))\" fill=\"\(fill)\""
    if let stroke { attributes += " stroke=\"\(stroke)\"" }
    if let dash { attributes += " stroke-dasharray=\"\(dash)\"" }
    if opacity < 1 { attributes += " opacity=\"\(opacity)\"" }
    return "<rect \(attributes)/>"
  }

  private func line(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1,
    dash: String? = nil
  ) -> String {
    "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(stroke)\" "
      + "stroke-width=\"\(width)\"" + (dash.map { " stroke-dasharray=\"\($0)\"" } ?? "") + "/>"
  }

  private func text(
    _ x: Double, _ y: Double, _ content: String, size: Int = 12, anchor: String = "start",
    fill: String = "#222222", weight: String = "normal"
  ) -> String {
    let escaped = content.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;")
      .replacingAll(">", with: "&gt;")
    return "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor)\" "
      + "fill=\"\(fill)\" font-weight=\"\(weight)\">\(escaped)</text>"
  }
}

extension String {
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
