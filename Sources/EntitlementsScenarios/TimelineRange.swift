import Entitlements

/// Which instants a ``TimelineSVG`` spans.
///
/// Without a chosen range the picture shows the history itself: its purchases, periods,
/// windows and releases, with a margin. The explanation's instant is added to the range only
/// when asked (`entitlements timeline --at`): "now" years after a history would squeeze the
/// history into a sliver; the status at the instant is still written, beside an arrow at the
/// edge.
///
/// ```swift
/// TimelineSVG(explanation: explanation, range: .history)
/// TimelineSVG(explanation: explanation, range: .historyAndInstant)
/// TimelineSVG(explanation: explanation, range: .between(from: feb1, to: nil))  // Feb 1 → end
/// ```
public enum TimelineRange: Hashable, Sendable {
  /// The history's own extent, with a margin.
  case history
  /// The history's extent and the explanation's instant, with a margin.
  case historyAndInstant
  /// From `from` to `to`, exactly; a `nil` end is the history's.
  case between(from: Instant?, to: Instant?)
}
