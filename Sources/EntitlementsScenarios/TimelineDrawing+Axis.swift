import Entitlements

extension TimelineDrawing {
  /// A tick interval: fixed milliseconds, or calendar months.
  enum TickStep {
    case milliseconds(Int64)
    case months(Int)

    var approximateMilliseconds: Double {
      switch self {
      case .milliseconds(let value): Double(value)
      case .months(let count): Double(count) * 30.44 * 86_400_000
      }
    }
  }

  static let tickSteps: [TickStep] = {
    let second: Int64 = 1000
    let minute = 60 * second
    let hour = 60 * minute
    let day = 24 * hour
    let fixed: [Int64] = [
      second, 5 * second, 15 * second, 30 * second, minute, 5 * minute, 15 * minute,
      30 * minute, hour, 3 * hour, 6 * hour, 12 * hour, day, 2 * day, 7 * day,
    ]
    return fixed.map { TickStep.milliseconds($0) }
      + [1, 2, 3, 6, 12, 24, 60, 120, 240, 600, 1200].map { TickStep.months($0) }
  }()

  /// The axis under the bands: its line (broken with ≈ where the scale cuts a gap out), ticks
  /// and dates at the scale, a second row of context (the day, or the year), and the instant.
  mutating func drawAxis(y: Double, bandsTop: Double) {
    let tickBaseline = y + 17
    let contextBaseline = y + 34
    for segment in scale.segments {
      if segment.isBreak {
        legend.insert(.compressed)
        let middle = (segment.x0 + segment.x1) / 2
        let gap = Interval(
          start: Instant(millisecondsSince1970: Int64(segment.start)),
          end: Instant(millisecondsSince1970: Int64(segment.end)))
        let title = "\(span(gap)) not drawn to scale"
        shapes.append(
          SVGElements.line(
            middle, bandsTop, middle, y, stroke: "#c9ced6", width: 1, dash: "1,3", title: title))
        shapes.append(
          SVGElements.group(
            [
              SVGElements.line(
                segment.x0 - 1, y + 5, segment.x0 + 3, y - 5, stroke: Palette.axis, width: 1.2),
              SVGElements.line(
                segment.x1 - 3, y + 5, segment.x1 + 1, y - 5, stroke: Palette.axis, width: 1.2),
            ], title: title))
        let length = TimelineDateFormat.duration(gap.end - gap.start)
        request(
          7, ["≈\(length)", length], [.init(x: middle, y: tickBaseline, anchor: .middle)], size: 9,
          fill: Palette.secondary)
      } else {
        shapes.append(
          SVGElements.line(segment.x0, y, segment.x1, y, stroke: Palette.axis, width: 1.2))
      }
    }
    let step =
      Self.tickSteps.first { $0.approximateMilliseconds / scale.millisecondsPerPixel >= 64 }
      ?? .months(2400)
    var lastContext: String?
    for segment in scale.segments where !segment.isBreak {
      let ticks = Self.ticks(from: segment.start, to: segment.end, step: step)
      for tick in ticks {
        let tx = x(tick)
        shapes.append(SVGElements.line(tx, y, tx, y + 5, stroke: Palette.axis))
        request(8, [tickLabel(tick, step: step)], [.init(x: tx, y: tickBaseline, anchor: .middle)])
      }
      // Context: where each segment starts, and each new day (or year) inside it.
      let first = Instant(millisecondsSince1970: Int64(segment.start.rounded(.up)))
      var contexts = [first]
      contexts += ticks.filter { isContextBoundary($0, step: step) && $0 != first }
      for (index, instant) in contexts.enumerated() {
        // A segment starting on the day (or year) the previous one wrote needs no repeat.
        guard let text = contextLabel(instant, step: step), text != lastContext else { continue }
        lastContext = text
        let cx = index == 0 ? segment.x0 : x(instant)
        request(7, [text], [.init(x: cx, y: contextBaseline)], size: 10, fill: Palette.secondary)
      }
    }
    drawInstantOnAxis(y: y, tickBaseline: tickBaseline)
  }

  private mutating func drawInstantOnAxis(y: Double, tickBaseline: Double) {
    let at = explanation.at
    let format = TimelineDateFormat(at)
    if instantIsShown {
      let ax = x(at)
      front.append(
        SVGElements.polygon(
          [(ax, y - 1), (ax - 5, y + 7), (ax + 5, y + 7)], fill: Palette.marker,
          title: "The instant: \(format.full)"))
      request(
        3, dates(at),
        [
          .init(x: ax, y: tickBaseline + 1, anchor: .middle),
          .init(x: ax + 7, y: tickBaseline + 1),
          .init(x: ax - 7, y: tickBaseline + 1, anchor: .end),
        ], size: 11, bold: true, fill: Palette.marker, halo: true)
    } else if at > high {
      request(
        3, ["\(format.dayYear) →", "→"], [.init(x: right, y: tickBaseline + 1, anchor: .end)],
        size: 11, bold: true, fill: Palette.marker, halo: true)
    } else {
      request(
        3, ["← \(format.dayYear)", "←"], [.init(x: left, y: tickBaseline + 1)], size: 11,
        bold: true, fill: Palette.marker, halo: true)
    }
  }

  /// The ticks of a step inside `[start, end]` (milliseconds), at most 400.
  static func ticks(from start: Double, to end: Double, step: TickStep) -> [Instant] {
    var ticks: [Instant] = []
    switch step {
    case .milliseconds(let length):
      // Weeks start on Monday (1970-01-05), everything else at multiples from 1970.
      let offset: Int64 = length >= 7 * 86_400_000 ? 4 * 86_400_000 : 0
      var tick =
        (Int64(start.rounded(.up)) - offset + length - 1).floorDivided(by: length) * length
        + offset
      while Double(tick) <= end, ticks.count < 400 {
        ticks.append(Instant(millisecondsSince1970: tick))
        tick += length
      }
    case .months(let count):
      let startDate = TimelineDateFormat(Instant(millisecondsSince1970: Int64(start)))
      var monthIndex = startDate.year * 12 + startDate.month - 1
      monthIndex -= monthIndex % count
      var guardCount = 0
      while ticks.count < 400, guardCount < 2000 {
        guardCount += 1
        let year = monthIndex / 12
        let month = monthIndex % 12 + 1
        let text =
          "\(String(repeating: "0", count: max(0, 4 - String(year).count)))\(year)-"
          + (month < 10 ? "0\(month)" : "\(month)") + "-01"
        monthIndex += count
        guard let tick = try? Instant(parsing: text) else { continue }
        if Double(tick.millisecondsSince1970) > end { break }
        if Double(tick.millisecondsSince1970) >= start { ticks.append(tick) }
      }
    }
    return ticks
  }

  private func tickLabel(_ tick: Instant, step: TickStep) -> String {
    let format = TimelineDateFormat(tick)
    switch step {
    case .milliseconds(let length) where length < 60_000: return format.timeWithSeconds
    case .milliseconds(let length) where length < 86_400_000: return format.time
    case .milliseconds: return format.day
    case .months(let count) where count < 12: return format.monthText
    case .months: return format.yearText
    }
  }

  /// Whether a tick starts a new day (for sub-day ticks) or a new year (for day and month
  /// ticks): where the context row writes the coarser date again.
  private func isContextBoundary(_ tick: Instant, step: TickStep) -> Bool {
    let format = TimelineDateFormat(tick)
    switch step {
    case .milliseconds(let length) where length < 86_400_000: return format.isMidnight
    case .milliseconds, .months(1), .months(2), .months(3), .months(6):
      return format.month == 1 && format.dayOfMonth == 1 && format.isMidnight
    case .months: return false
    }
  }

  private func contextLabel(_ instant: Instant, step: TickStep) -> String? {
    let format = TimelineDateFormat(instant)
    switch step {
    case .milliseconds(let length) where length < 86_400_000:
      return showsYear ? format.dayYear : format.day
    case .milliseconds, .months(1), .months(2), .months(3), .months(6):
      return format.yearText
    case .months: return nil
    }
  }
}

extension Int64 {
  fileprivate func floorDivided(by divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
