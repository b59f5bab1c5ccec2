extension TimelineDrawing {
  /// The legend under the axis: a swatch and a word for each kind of mark the picture shows,
  /// flowing onto as many rows as the width needs.
  ///
  /// - Parameter top: The top of the legend.
  /// - Returns: The picture's height, the legend included.
  mutating func drawLegend(top: Double) -> Double {
    let metrics = TextMetrics()
    let size = 11.0
    var x = left
    var baseline = top + 12
    for item in legend.sorted() {
      let text = Self.legendText(item)
      let itemWidth = 22 + metrics.width(of: text, size: size) + 18
      if x + itemWidth > right, x > left {
        x = left
        baseline += 20
      }
      shapes.append(swatch(item, x: x, centerY: baseline - 4))
      request(0, [text], [.init(x: x + 22, y: baseline)], size: size, fill: Palette.secondary)
      x += itemWidth
    }
    return baseline + 12
  }

  static func legendText(_ item: LegendItem) -> String {
    switch item {
    case .active: "active"
    case .renewal: "renewal or new purchase"
    case .lapse: "lapse (cause written inside)"
    case .refunded: "refunded or revoked: struck"
    case .upgraded: "ended by an upgrade: struck"
    case .commitment: "a commitment's monthly payments"
    case .grace: "grace period (access)"
    case .retry: "billing retry (no access)"
    case .change: "status change (its state's colour)"
    case .readable: "release readable"
    case .missed: "release missed"
    case .upcoming: "not yet released"
    case .instant: "the instant and the status then"
    case .compressed: "≈ gap not to scale"
    }
  }

  private func swatch(_ item: LegendItem, x: Double, centerY y: Double) -> String {
    switch item {
    case .active:
      return SVGElements.rect(x: x, y: y - 5, width: 16, height: 10, fill: Palette.active)
    case .renewal:
      return SVGElements.rect(x: x, y: y - 5, width: 16, height: 10, fill: Palette.active)
        + SVGElements.line(x + 8, y - 3, x + 8, y + 3, stroke: Palette.renewal)
    case .lapse:
      return SVGElements.rect(
        x: x, y: y - 5, width: 16, height: 10, fill: Palette.lapseFill, stroke: Palette.lapse,
        dash: "3,2")
    case .refunded, .upgraded:
      let fill = item == .refunded ? Palette.refundFill : Palette.upgradeFill
      let stroke = item == .refunded ? Palette.refund : Palette.upgrade
      return SVGElements.rect(x: x, y: y - 4, width: 16, height: 8, fill: fill)
        + SVGElements.line(x, y, x + 16, y, stroke: stroke, width: 1.5)
        + SVGElements.polygon(
          [(x + 8, y - 7), (x + 11, y - 4), (x + 8, y - 1), (x + 5, y - 4)], fill: stroke)
    case .commitment:
      return SVGElements.line(x, y - 3, x + 16, y - 3, stroke: Palette.commitment, width: 2)
        + SVGElements.line(x, y - 3, x, y + 3, stroke: Palette.commitment, width: 2)
        + SVGElements.line(x + 16, y - 3, x + 16, y + 3, stroke: Palette.commitment, width: 2)
    case .grace:
      return SVGElements.rect(x: x, y: y - 5, width: 16, height: 10, fill: Palette.grace)
    case .retry:
      return SVGElements.rect(
        x: x, y: y - 5, width: 16, height: 10, fill: Palette.retryFill, stroke: Palette.retry,
        strokeWidth: 1.2, dash: "4,3")
    case .readable:
      return SVGElements.circle(x: x + 8, y: y, radius: 5, fill: Palette.active)
    case .missed:
      return SVGElements.circle(x: x + 8, y: y, radius: 5, fill: Palette.lapse)
        + SVGElements.line(x + 5.5, y - 2.5, x + 10.5, y + 2.5, stroke: "white", width: 1.5)
        + SVGElements.line(x + 5.5, y + 2.5, x + 10.5, y - 2.5, stroke: "white", width: 1.5)
    case .change:
      return TimelineDrawing.changeMark(x: x + 8, y: y, fill: Palette.lapse)
    case .upcoming:
      return SVGElements.circle(
        x: x + 8, y: y, radius: 5, fill: "white", stroke: Palette.upcoming, dash: "2,1.5")
    case .instant:
      return SVGElements.line(
        x + 8, y - 7, x + 8, y + 7, stroke: Palette.marker, width: 1.5, dash: "3,2")
    case .compressed:
      return SVGElements.line(x + 3, y + 5, x + 7, y - 5, stroke: Palette.axis, width: 1.2)
        + SVGElements.line(x + 9, y + 5, x + 13, y - 5, stroke: Palette.axis, width: 1.2)
    }
  }
}
