/// How much room a line of text takes in the timeline's font, without asking a browser: a
/// per-character advance table that is an upper bound for the fonts the picture names.
///
/// The SVG sets `font-family` to ``fontFamily``. The table holds, for each printable ASCII
/// character, the larger advance of DejaVu Sans (the Linux default, as wide as Verdana) and
/// Liberation Sans (metrically Arial and Helvetica), in thousandths of an em, read from the
/// fonts' `hmtx` tables; any other character counts as a full em. ``width(of:size:bold:)``
/// adds ``margin`` on top, so a label measured here is at least as wide as any of those fonts
/// draws it. The vertical extent is the fonts' ascent and descent (0.93 and 0.24 em).
///
/// ```swift
/// let metrics = TextMetrics()
/// metrics.width(of: "May 10, 2017", size: 12)  // 86.7: DejaVu Sans draws it 82.1 wide
/// metrics.box(of: "May 10", x: 100, y: 50, size: 12, anchor: .middle).minY  // 38.84
/// ```
package struct TextMetrics: Sendable {
  /// The fonts the table bounds, in the order the picture asks for them.
  package static let fontFamily = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

  /// Extra width on top of the table, as a fraction (fonts the table does not know).
  package var margin = 0.05

  /// Creates the metrics.
  package init() {}

  /// Where a text's x lies relative to it: SVG's `text-anchor`.
  package enum Anchor: String, Sendable {
    /// x is the left edge.
    case start
    /// x is the centre.
    case middle
    /// x is the right edge.
    case end
  }

  /// The width of a line of text, in pixels.
  ///
  /// - Parameters:
  ///   - text: One line.
  ///   - size: The font size in pixels.
  ///   - bold: Whether the text is bold.
  /// - Returns: An upper bound of the advance width.
  /// - Complexity: O(n) in the characters of `text`.
  package func width(of text: String, size: Double, bold: Bool = false) -> Double {
    let table = bold ? Self.bold : Self.regular
    let specials = bold ? Self.boldSpecials : Self.regularSpecials
    var thousandths = 0
    for scalar in text.unicodeScalars {
      let value = Int(scalar.value)
      if value >= 32, value < 127 {
        thousandths += table[value - 32]
      } else {
        thousandths += specials[scalar] ?? 1000
      }
    }
    return Double(thousandths) / 1000 * size * (1 + margin)
  }

  /// The box a text occupies when drawn at (x, y) with its baseline at y.
  ///
  /// - Parameters:
  ///   - text: One line.
  ///   - x: The anchor's x.
  ///   - y: The baseline.
  ///   - size: The font size in pixels.
  ///   - anchor: Where x lies.
  ///   - bold: Whether the text is bold.
  /// - Returns: The box, from ascent to descent.
  package func box(
    of text: String, x: Double, y: Double, size: Double, anchor: Anchor, bold: Bool = false
  ) -> TimelineBox {
    let width = width(of: text, size: size, bold: bold)
    let left: Double
    switch anchor {
    case .start: left = x
    case .middle: left = x - width / 2
    case .end: left = x - width
    }
    return TimelineBox(
      x: left, y: y - Self.ascent * size, width: width, height: (Self.ascent + Self.descent) * size)
  }

  /// The fonts' ascent above the baseline, in ems.
  package static let ascent = 0.93
  /// The fonts' descent below the baseline, in ems.
  package static let descent = 0.24

  // Advances of the characters 32...126, in thousandths of an em: the larger of DejaVu Sans
  // and Liberation Sans (regular), DejaVu Sans Bold and Liberation Sans Bold (bold).
  private static let regular: [Int] = [
    318, 401, 460, 838, 637, 951, 780, 275, 391, 391, 500, 838, 318, 361, 318, 337, 637, 637,
    637, 637, 637, 637, 637, 637, 637, 637, 337, 337, 838, 838, 838, 557, 1016, 685, 687, 723,
    771, 667, 611, 778, 752, 295, 500, 667, 558, 863, 749, 788, 667, 788, 723, 667, 611, 732,
    685, 989, 686, 667, 686, 391, 337, 391, 838, 557, 500, 613, 635, 550, 635, 616, 353, 635,
    634, 278, 278, 580, 278, 975, 634, 612, 635, 635, 412, 521, 393, 634, 592, 818, 592, 592,
    525, 637, 337, 637, 838,
  ]
  private static let bold: [Int] = [
    349, 457, 521, 838, 696, 1002, 873, 307, 458, 458, 523, 838, 380, 416, 380, 366, 696, 696,
    696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 611, 1000, 774, 763, 734,
    831, 684, 684, 821, 837, 373, 557, 775, 638, 996, 837, 851, 733, 851, 771, 721, 683, 813,
    774, 1104, 771, 725, 726, 458, 366, 458, 838, 557, 500, 675, 716, 593, 716, 679, 436, 716,
    712, 343, 343, 666, 343, 1042, 712, 688, 716, 716, 494, 596, 479, 712, 652, 924, 646, 652,
    583, 712, 366, 712, 838,
  ]
  private static let regularSpecials: [Unicode.Scalar: Int] = [
    "–": 557, "—": 1000, "…": 1000, "·": 318, "→": 1000, "←": 1000, "×": 838, "≈": 838,
    "•": 590,
  ]
  private static let boldSpecials: [Unicode.Scalar: Int] = [
    "–": 557, "—": 1000, "…": 1000, "·": 380, "→": 1000, "←": 1000, "×": 838, "≈": 838,
    "•": 640,
  ]
}
