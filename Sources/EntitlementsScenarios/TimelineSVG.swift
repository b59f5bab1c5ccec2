import Entitlements

/// Draws an evaluation as an SVG timeline for people: one band per entitlement, stacked over
/// one time axis.
///
/// Each band shows the active periods (green), the lapses between them with their causes,
/// refunded or revoked purchases and upgrades (a struck bar under the periods, and a mark at
/// the cancellation instant), the grace period and billing-retry window after the last period
/// when the App Store retries, and releases: readable (filled), missed (crossed) and not yet
/// released at the instant (hollow). A dashed line marks the instant, with the status in
/// words beside it in each band; a sandbox history says so at the top.
///
/// Text never overlaps and never leaves the picture: dates are written at the axis's scale
/// ("Feb 20", "13:05"), shortened or dropped where there is no room, and every shape keeps the
/// full detail in a `<title>` tooltip. Where a history is short periods separated by long
/// gaps (a sandbox receipt), the long gaps are cut out of the axis (``TimelineScale``).
/// Text is measured with ``TextMetrics`` for the font the picture sets.
///
/// ```swift
/// let svg = TimelineSVG(explanation: explanation, range: .history).render()
/// // "<svg xmlns=…>…</svg>": write it to a file, open it in a browser
/// ```
public struct TimelineSVG: Sendable {
  /// What to draw.
  public var explanation: Explanation
  /// Which instants to span.
  public var range: TimelineRange
  /// The picture's width in pixels (at least 480).
  public var width = 1000

  /// Creates a renderer.
  ///
  /// - Parameters:
  ///   - explanation: The evaluation, releases and instant to draw.
  ///   - range: Which instants to span; by default the history and the instant.
  public init(explanation: Explanation, range: TimelineRange = .historyAndInstant) {
    self.explanation = explanation
    self.range = range
  }

  /// The SVG document.
  ///
  /// - Returns: A standalone SVG document, ending with a newline.
  /// - Complexity: O(n log n) in the periods, entries and releases drawn, plus the labels
  ///   placed times the labels kept.
  public func render() -> String {
    var drawing = TimelineDrawing(
      explanation: explanation, range: range, width: Double(max(width, 480)))
    return drawing.render()
  }
}
