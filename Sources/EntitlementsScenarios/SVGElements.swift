/// Small writers of SVG elements for the timeline: numbers with one decimal, text escaped
/// for XML, tooltips as `<title>` children.
///
/// ```swift
/// SVGElements.rect(x: 1, y: 2, width: 3, height: 4, fill: "#fff", title: "a < b")
/// // <rect x="1.0" y="2.0" width="3.0" height="4.0" fill="#fff"><title>a &lt; b</title></rect>
/// ```
enum SVGElements {
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    return String((value * 10).rounded() / 10)
  }

  static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }

  static func titled(_ element: String, _ attributes: String, title: String?) -> String {
    guard let title else { return "<\(element) \(attributes)/>" }
    return "<\(element) \(attributes)><title>\(escaped(title))</title></\(element)>"
  }

  static func rect(
    x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil,
    strokeWidth: Double = 1, dash: String? = nil, radius: Double = 0, opacity: Double = 1,
    title: String? = nil
  ) -> String {
    var attributes =
      "x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(max(width, 0)))\" "
      + "height=\"\(number(max(height, 0)))\" fill=\"\(fill)\""
    if let stroke {
      attributes += " stroke=\"\(stroke)\" stroke-width=\"\(number(strokeWidth))\""
    }
    if let dash { attributes += " stroke-dasharray=\"\(dash)\"" }
    if radius > 0 { attributes += " rx=\"\(number(radius))\"" }
    if opacity < 1 { attributes += " opacity=\"\(number(opacity))\"" }
    return titled("rect", attributes, title: title)
  }

  static func line(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String,
    width: Double = 1, dash: String? = nil, title: String? = nil
  ) -> String {
    var attributes =
      "x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" "
      + "stroke=\"\(stroke)\" stroke-width=\"\(number(width))\""
    if let dash { attributes += " stroke-dasharray=\"\(dash)\"" }
    return titled("line", attributes, title: title)
  }

  static func circle(
    x: Double, y: Double, radius: Double, fill: String, stroke: String? = nil,
    strokeWidth: Double = 1.5, dash: String? = nil, title: String? = nil
  ) -> String {
    var attributes =
      "cx=\"\(number(x))\" cy=\"\(number(y))\" r=\"\(number(radius))\" fill=\"\(fill)\""
    if let stroke {
      attributes += " stroke=\"\(stroke)\" stroke-width=\"\(number(strokeWidth))\""
    }
    if let dash { attributes += " stroke-dasharray=\"\(dash)\"" }
    return titled("circle", attributes, title: title)
  }

  static func polygon(
    _ points: [(Double, Double)], fill: String, stroke: String? = nil, title: String? = nil
  ) -> String {
    var attributes =
      "points=\"\(points.map { "\(number($0.0)),\(number($0.1))" }.joined(separator: " "))\" "
      + "fill=\"\(fill)\""
    if let stroke { attributes += " stroke=\"\(stroke)\"" }
    return titled("polygon", attributes, title: title)
  }

  /// A group whose tooltip covers every shape in it.
  static func group(_ children: [String], title: String) -> String {
    "<g><title>\(escaped(title))</title>" + children.joined() + "</g>"
  }
}
