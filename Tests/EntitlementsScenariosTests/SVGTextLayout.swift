import EntitlementsScenarios
import Foundation

/// The text of an SVG document as drawn: every `<text>` element read back from the document
/// itself (not from the code that wrote it), measured with the timeline's metrics, and
/// checked: no two boxes overlap and every box lies inside the picture.
///
/// ```swift
/// let layout = try SVGTextLayout(svg)
/// layout.problems  // [] when the picture is clean
/// ```
struct SVGTextLayout {
  struct Text: CustomStringConvertible {
    var content: String
    var box: TimelineBox
    var description: String {
      "\"\(content)\" at (\(Int(box.x)), \(Int(box.y)), \(Int(box.width))×\(Int(box.height)))"
    }
  }

  struct ParseError: Error, CustomStringConvertible {
    var description: String
  }

  var width: Double
  var height: Double
  var texts: [Text]

  /// Pixels added on every side of each box before comparing: the checker is stricter than the
  /// placer needs to be by this much.
  static let margin = 1.0

  init(_ svg: String, metrics: TextMetrics = TextMetrics()) throws {
    guard let root = Self.elements(named: "svg", in: svg).first else {
      throw ParseError(description: "no <svg> element")
    }
    guard let width = root.attributes["width"].flatMap(Double.init),
      let height = root.attributes["height"].flatMap(Double.init)
    else { throw ParseError(description: "the <svg> element has no numeric width and height") }
    self.width = width
    self.height = height
    let rootSize = root.attributes["font-size"].flatMap(Double.init) ?? 16
    texts = try Self.elements(named: "text", in: svg).map { element in
      guard let x = element.attributes["x"].flatMap(Double.init),
        let y = element.attributes["y"].flatMap(Double.init)
      else { throw ParseError(description: "a <text> without x and y: \(element.content)") }
      let size = element.attributes["font-size"].flatMap(Double.init) ?? rootSize
      let anchor =
        element.attributes["text-anchor"].flatMap(TextMetrics.Anchor.init(rawValue:)) ?? .start
      let bold = element.attributes["font-weight"] == "bold"
      let content = Self.unescaped(element.content)
      let box = metrics.box(of: content, x: x, y: y, size: size, anchor: anchor, bold: bold)
      return Text(content: content, box: box.inset(by: -Self.margin))
    }
  }

  /// Every pair that overlaps and every text that leaves the picture, in words.
  var problems: [String] {
    var problems: [String] = []
    let picture = TimelineBox(x: 0, y: 0, width: width, height: height)
    for text in texts where !picture.contains(text.box) {
      problems.append("outside the \(Int(width))×\(Int(height)) picture: \(text)")
    }
    // Sorted by left edge, each box is compared with the ones that start before it ends.
    let sorted = texts.sorted { $0.box.x < $1.box.x }
    for (index, text) in sorted.enumerated() {
      for other in sorted[(index + 1)...] {
        if other.box.x >= text.box.maxX { break }
        if text.box.intersects(other.box) { problems.append("overlap: \(text) and \(other)") }
      }
    }
    return problems
  }

  struct Element {
    var attributes: [String: String]
    var content: String
  }

  /// The elements `<name …>content</name>` (or `<name …/>`), not nested in one another.
  static func elements(named name: String, in document: String) -> [Element] {
    var elements: [Element] = []
    var rest = document[...]
    while let open = rest.range(of: "<\(name)") {
      let afterName = rest[open.upperBound...]
      guard let first = afterName.first, first == " " || first == ">" || first == "/" else {
        rest = afterName
        continue
      }
      guard let close = afterName.firstIndex(of: ">") else { break }
      let tag = afterName[..<close]
      let attributes = Self.attributes(String(tag))
      var content = ""
      var next = afterName[afterName.index(after: close)...]
      if !tag.hasSuffix("/"), let end = next.range(of: "</\(name)>") {
        content = String(next[..<end.lowerBound])
        if name == "svg" { content = "" }
        next = name == "svg" ? next : next[end.upperBound...]
      }
      elements.append(Element(attributes: attributes, content: content))
      rest = next
    }
    return elements
  }

  static func attributes(_ tag: String) -> [String: String] {
    var attributes: [String: String] = [:]
    var rest = tag[...]
    while let equals = rest.firstIndex(of: "=") {
      let name = rest[..<equals].split(separator: " ").last.map(String.init) ?? ""
      let afterEquals = rest[rest.index(after: equals)...]
      guard let quote = afterEquals.first, quote == "\"" || quote == "'" else { break }
      let valueStart = afterEquals.index(after: afterEquals.startIndex)
      guard let valueEnd = afterEquals[valueStart...].firstIndex(of: quote) else { break }
      attributes[name] = String(afterEquals[valueStart..<valueEnd])
      rest = afterEquals[afterEquals.index(after: valueEnd)...]
    }
    return attributes
  }

  static func unescaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
  }
}
