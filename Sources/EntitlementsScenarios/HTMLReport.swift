import Entitlements

/// One self-contained HTML page for people: a summary (passed, failed), then a section per
/// scenario or document with its name, notes, checks (expected and actual), diagnostics and
/// timeline.
///
/// Self-contained: the style is inline, the timelines are inline SVG, there is no script, no
/// font and no link to fetch, so the page opens the same from a mail attachment, a CI
/// artifact or a document it is pasted into.
///
/// The page has a stable shape for tools: `#summary` carries `data-passed` and `data-failed`,
/// each section is a `section.report-section` with `data-outcome` (`passed`, `failed`,
/// `unreadable`, `explained`), and each timeline is an `svg` inside `figure.timeline`.
///
/// ```swift
/// let results = scenarios.map { ($0, ScenarioRunner.run($0)) }
/// let page = HTMLReport(
///   title: "Scenarios", sections: results.map { HTMLReportSection(scenario: $0, result: $1) }
/// ).render()
/// // "<!DOCTYPE html>…": write it to REPORT.html
/// ```
public struct HTMLReport: Hashable, Sendable {
  /// The page's title.
  public var title: String
  /// A line under the title (the tool's version, when it ran).
  public var subtitle: String?
  /// The sections, in order.
  public var sections: [HTMLReportSection]

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - title: The page's title.
  ///   - subtitle: A line under the title.
  ///   - sections: The sections.
  public init(title: String, subtitle: String? = nil, sections: [HTMLReportSection]) {
    self.title = title
    self.subtitle = subtitle
    self.sections = sections
  }

  /// The sections that passed.
  public var passed: Int { sections.count { $0.outcome == .passed } }
  /// The sections that failed or could not be read.
  public var failed: Int { sections.count { $0.outcome == .failed || $0.outcome == .unreadable } }

  /// The page.
  ///
  /// - Returns: An HTML5 document.
  /// - Complexity: O(n) in the sections, plus their timelines.
  public func render() -> String {
    var html = [
      "<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
      "<title>\(Self.escaped(title))</title>", "<style>", Self.style, "</style>", "</head>",
      "<body>", "<header>", "<h1>\(Self.escaped(title))</h1>",
    ]
    if let subtitle { html.append("<p class=\"subtitle\">\(Self.escaped(subtitle))</p>") }
    html.append(summary)
    let failures = sections.enumerated().filter {
      $0.element.outcome == .failed || $0.element.outcome == .unreadable
    }
    if !failures.isEmpty {
      let links = failures.map { index, section in
        "<a href=\"#section-\(index + 1)\">\(Self.escaped(section.title))</a>"
      }
      html.append("<p class=\"failures\">Failed: " + links.joined(separator: ", ") + "</p>")
    }
    html.append(contents)
    html.append("</header>")
    html.append("<main>")
    for (index, section) in sections.enumerated() {
      html.append(render(section, index: index))
    }
    html += ["</main>", "</body>", "</html>"]
    return html.joined(separator: "\n") + "\n"
  }

  private var summary: String {
    let explained = sections.count { $0.outcome == .explained }
    var parts: [String] = []
    if explained < sections.count || sections.isEmpty {
      parts.append("<span class=\"count passed\">\(passed) passed</span>")
      parts.append("<span class=\"count failed\">\(failed) failed</span>")
    }
    if explained > 0 {
      parts.append(
        "<span class=\"count explained\">\(explained) explained</span>")
    }
    return "<p id=\"summary\" class=\"summary\" data-passed=\"\(passed)\" data-failed=\"\(failed)\""
      + " data-explained=\"\(explained)\">" + parts.joined(separator: ", ") + "</p>"
  }

  private var contents: String {
    guard sections.count > 1 else { return "" }
    let items = sections.enumerated().map { index, section in
      "<li><a href=\"#section-\(index + 1)\"><span class=\"badge \(section.outcome.rawValue)\">"
        + "\(Self.badge(section.outcome))</span> \(Self.escaped(section.title))</a></li>"
    }
    return "<nav><ol>" + items.joined() + "</ol></nav>"
  }

  static func badge(_ outcome: HTMLReportSection.Outcome) -> String {
    switch outcome {
    case .passed: "PASS"
    case .failed: "FAIL"
    case .unreadable: "UNREADABLE"
    case .explained: "EXPLAINED"
    }
  }

  private func render(_ section: HTMLReportSection, index: Int) -> String {
    var html = [
      "<section class=\"report-section \(section.outcome.rawValue)\" id=\"section-\(index + 1)\" "
        + "data-outcome=\"\(section.outcome.rawValue)\">",
      "<h2><span class=\"badge \(section.outcome.rawValue)\">\(Self.badge(section.outcome))</span> "
        + "\(Self.escaped(section.title))</h2>",
      "<p class=\"file\">\(Self.escaped(section.file))"
        + (section.environment == .production
          ? "" : " <span class=\"environment\">\(section.environment.rawValue)</span>") + "</p>",
    ]
    if let notes = section.notes { html.append("<p class=\"notes\">\(Self.escaped(notes))</p>") }
    if let error = section.error {
      html.append("<p class=\"error\">\(Self.escaped(error))</p>")
    }
    if !section.statuses.isEmpty {
      html.append(
        "<ul class=\"statuses\">"
          + section.statuses.map { "<li>\(Self.escaped($0))</li>" }.joined() + "</ul>")
    }
    if let timeline = section.timeline {
      html.append("<figure class=\"timeline\">\(timeline)</figure>")
    }
    if !section.comparisons.isEmpty { html.append(checks(section)) }
    if !section.diagnostics.isEmpty {
      html.append(
        "<div class=\"diagnostics\"><h3>Problems in the input "
          + "(\(section.diagnostics.count))</h3><ul>"
          + section.diagnostics.map { "<li>\(Self.escaped($0))</li>" }.joined() + "</ul></div>")
    }
    if let text = section.explanationText {
      html.append(
        "<details><summary>Explanation as text</summary><pre>\(Self.escaped(text))</pre>"
          + "</details>")
    }
    html.append("</section>")
    return html.joined(separator: "\n")
  }

  private func checks(_ section: HTMLReportSection) -> String {
    var rows: [String] = []
    let byCheck = Dictionary(grouping: section.comparisons, by: \.check)
    for check in byCheck.keys.sorted() {
      let comparisons = byCheck[check] ?? []
      let at = section.checkInstants[check].map { Self.escaped($0.description) } ?? "—"
      for (position, comparison) in comparisons.enumerated() {
        let outcome = comparison.passed ? "passed" : "failed"
        let first = position == 0
        var cells = ""
        if first {
          cells +=
            "<td class=\"check\" rowspan=\"\(comparisons.count)\">expect[\(check)]</td>"
            + "<td class=\"at\" rowspan=\"\(comparisons.count)\">\(at)</td>"
        }
        cells +=
          "<td class=\"key\">\(Self.escaped(comparison.key))</td>"
          + "<td>\(Self.escaped(comparison.expected))</td>"
          + "<td>\(comparison.passed ? "<span class=\"same\">as expected</span>" : Self.escaped(comparison.actual))</td>"
          + "<td class=\"result\"><span class=\"badge \(outcome)\">"
          + "\(comparison.passed ? "pass" : "fail")</span></td>"
        rows.append("<tr class=\"\(outcome)\">\(cells)</tr>")
      }
    }
    return "<table class=\"checks\"><thead><tr><th>check</th><th>at</th><th>key</th>"
      + "<th>expected</th><th>actual</th><th></th></tr></thead><tbody>"
      + rows.joined(separator: "\n") + "</tbody></table>"
  }

  static func escaped(_ text: String) -> String { SVGElements.escaped(text) }
}
