/// Places the timeline's text labels so that no two overlap and none leaves the picture.
///
/// Each label comes with the texts it may show, most detailed first, and the positions it may
/// take, preferred first. The placer tries every position for the first text, then for the
/// next, and keeps the first that fits: inside the picture, inside the label's own limits
/// (a lapse's label stays inside the lapse), and clear of every label placed before. Labels
/// are placed in order of importance, so the status beside the marker wins over a date. A
/// label that fits nowhere is dropped; the shape it describes keeps the detail in its
/// `<title>` tooltip.
///
/// ```swift
/// var placer = LabelPlacer(bounds: TimelineBox(x: 0, y: 0, width: 200, height: 50))
/// placer.place(["Feb 20, 2017", "Feb 20"], at: [.init(x: 10, y: 20)], size: 10)  // true
/// placer.place(["Feb 21"], at: [.init(x: 12, y: 20)], size: 10)                 // false
/// ```
struct LabelPlacer {
  /// One place a label may take: its anchor point and how the text hangs from it.
  struct Position {
    var x: Double
    var y: Double
    var anchor: TextMetrics.Anchor = .start
    /// The horizontal limits the text must stay within, if any.
    var within: ClosedRange<Double>?
  }

  /// A label that was placed.
  struct Label {
    var text: String
    var x: Double
    var y: Double
    var size: Double
    var anchor: TextMetrics.Anchor
    var bold: Bool
    var fill: String
    /// A white outline behind the glyphs, for text drawn over shapes.
    var halo: Bool
    var box: TimelineBox
  }

  let metrics = TextMetrics()
  /// The picture's area; labels keep ``gap`` inside it.
  var bounds: TimelineBox
  /// The labels placed, in order.
  private(set) var labels: [Label] = []
  /// Shapes labels keep clear of (the marker, a refund's mark); they may overlap each other.
  var obstacles: [TimelineBox] = []
  /// Pixels kept between two labels and between a label and the picture's edge.
  let gap = 3.0
  /// Pixels kept between two labels side by side: more than ``gap``, so that two dates on one
  /// row ("14:35", "Mar 2 14:41") read as two labels, not as one.
  let spacing = 8.0
  /// Pixels kept between a label and an obstacle.
  let obstacleClearance = 3.0

  init(bounds: TimelineBox) {
    self.bounds = bounds
  }

  /// Places the first text that fits at the first position where it fits.
  ///
  /// - Parameters:
  ///   - texts: The texts, most detailed first.
  ///   - positions: The positions, preferred first.
  ///   - size: The font size.
  ///   - bold: Whether the text is bold.
  ///   - fill: The text colour.
  ///   - halo: Whether to outline the glyphs in white.
  /// - Returns: The box of the label placed, or `nil` when it was dropped.
  @discardableResult
  mutating func place(
    _ texts: [String], at positions: [Position], size: Double, bold: Bool = false,
    fill: String = "#222222", halo: Bool = false
  ) -> TimelineBox? {
    let inside = bounds.inset(by: gap)
    for text in texts where !text.isEmpty {
      for position in positions {
        let box = metrics.box(
          of: text, x: position.x, y: position.y, size: size, anchor: position.anchor, bold: bold)
        guard inside.contains(box) else { continue }
        if let limits = position.within,
          box.x < limits.lowerBound || box.maxX > limits.upperBound
        {
          continue
        }
        let padded = Self.padded(box, horizontally: spacing / 2, vertically: gap / 2)
        guard
          !labels.contains(where: {
            Self.padded($0.box, horizontally: spacing / 2, vertically: gap / 2).intersects(padded)
          }),
          !obstacles.contains(where: { $0.inset(by: -obstacleClearance).intersects(box) })
        else {
          continue
        }
        labels.append(
          Label(
            text: text, x: position.x, y: position.y, size: size, anchor: position.anchor,
            bold: bold, fill: fill, halo: halo, box: box))
        return box
      }
    }
    return nil
  }

  /// A box grown by different margins across and down.
  static func padded(_ box: TimelineBox, horizontally: Double, vertically: Double) -> TimelineBox {
    TimelineBox(
      x: box.x - horizontally, y: box.y - vertically, width: box.width + 2 * horizontally,
      height: box.height + 2 * vertically)
  }

  /// The labels as SVG `<text>` elements.
  var svg: [String] {
    labels.map { label in
      var attributes =
        "x=\"\(SVGElements.number(label.x))\" y=\"\(SVGElements.number(label.y))\" "
        + "font-size=\"\(SVGElements.number(label.size))\" text-anchor=\"\(label.anchor.rawValue)\" "
        + "fill=\"\(label.fill)\""
      if label.bold { attributes += " font-weight=\"bold\"" }
      if label.halo {
        attributes +=
          " stroke=\"white\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\""
      }
      return "<text \(attributes)>\(SVGElements.escaped(label.text))</text>"
    }
  }
}
