import Entitlements

/// Where an instant lies on the timeline's x axis: linear, or compressed where a history is
/// minutes of activity separated by days (a sandbox receipt) or months separated by years.
///
/// The scale is a list of contiguous segments, each mapping a span of time linearly onto a
/// span of pixels. It is linear (one segment) when the shortest active period is at least
/// ``readableWidth`` pixels wide on a linear axis. Otherwise the longest empty gaps between
/// the things drawn are cut out, each replaced by a *break* a few pixels wide (drawn ≈ on the
/// axis with its length written under it), as many as make the shortest period readable, or
/// as many as make it widest when it cannot be. Every linear segment has the same scale, so
/// lengths stay comparable; the map is monotonic, so order is never lost.
///
/// ```swift
/// let scale = TimelineScale(from: lo, to: hi, left: 16, right: 984, busy: spans, shortest: 300_000)
/// scale.x(lo)            // 16 + padding
/// scale.breaks.count     // 0 for guide table 5-1, 30 for a 48-period sandbox receipt
/// ```
struct TimelineScale {
  /// One piece of the axis.
  struct Segment {
    /// The first instant, in milliseconds since 1970.
    var start: Double
    /// The last instant.
    var end: Double
    /// Where `start` is drawn.
    var x0: Double
    /// Where `end` is drawn.
    var x1: Double
    /// Whether the segment is a cut-out gap.
    var isBreak: Bool

    var millisecondsPerPixel: Double { (end - start) / max(x1 - x0, 1e-9) }
  }

  /// The segments, in order, covering `[lo, hi]`.
  let segments: [Segment]
  /// The plot's left and right edges: nothing is drawn beyond them.
  let left: Double
  let right: Double
  /// The milliseconds per pixel of the linear segments.
  let millisecondsPerPixel: Double

  /// The shortest period, in pixels, that the scale tries to reach.
  static let readableWidth = 16.0

  /// Creates a scale.
  ///
  /// - Parameters:
  ///   - lo: The first instant shown (drawn at `left + padding`).
  ///   - hi: The last instant shown (drawn at `right - padding`).
  ///   - left: The plot's left edge.
  ///   - right: The plot's right edge.
  ///   - padding: Pixels kept empty inside each edge.
  ///   - busy: The spans where something is drawn (periods, windows, releases as points).
  ///   - shortest: The length of the shortest period, in milliseconds; `nil` for none.
  init(
    from lo: Instant, to hi: Instant, left: Double, right: Double, padding: Double,
    busy: [(Double, Double)], shortest: Double?
  ) {
    self.left = left
    self.right = right
    let start = Double(lo.millisecondsSince1970)
    let end = max(Double(hi.millisecondsSince1970), start + 1)
    let x0 = left + padding
    let width = max(right - padding - x0, 1)
    let span = end - start
    let gaps = Self.gaps(in: busy, from: start, to: end).sorted { $0.1 - $0.0 > $1.1 - $1.0 }
    var chosen = 0
    var breakWidth = 0.0
    if let shortest, shortest > 0, !gaps.isEmpty {
      var best = shortest * width / span
      var removed = 0.0
      if best < Self.readableWidth {
        for count in 1...gaps.count {
          removed += gaps[count - 1].1 - gaps[count - 1].0
          let candidateWidth = min(24, max(8, 0.3 * width / Double(count)))
          let available = width - Double(count) * candidateWidth
          guard available > width * 0.45, span - removed > 0 else { break }
          let reached = shortest * available / (span - removed)
          if reached > best * 1.000_001 {
            best = reached
            chosen = count
            breakWidth = candidateWidth
          }
          if reached >= Self.readableWidth { break }
        }
      }
    }
    let cut = gaps.prefix(chosen).sorted { $0.0 < $1.0 }
    let linear = span - cut.reduce(0) { $0 + ($1.1 - $1.0) }
    let available = width - Double(cut.count) * breakWidth
    let perPixel = linear / available
    var segments: [Segment] = []
    var cursor = start
    var x = x0
    for (gapStart, gapEnd) in cut {
      let w = (gapStart - cursor) / perPixel
      segments.append(Segment(start: cursor, end: gapStart, x0: x, x1: x + w, isBreak: false))
      x += w
      segments.append(
        Segment(start: gapStart, end: gapEnd, x0: x, x1: x + breakWidth, isBreak: true))
      x += breakWidth
      cursor = gapEnd
    }
    segments.append(
      Segment(start: cursor, end: end, x0: x, x1: x + (end - cursor) / perPixel, isBreak: false))
    self.segments = segments
    millisecondsPerPixel = perPixel
  }

  /// The empty stretches between the merged busy spans, inside `[start, end]`.
  private static func gaps(in busy: [(Double, Double)], from start: Double, to end: Double)
    -> [(Double, Double)]
  {
    let spans = busy.map { (max($0.0, start), min($0.1, end)) }.filter { $0.0 <= $0.1 }
      .sorted { $0.0 < $1.0 }
    var gaps: [(Double, Double)] = []
    var reach: Double?
    for (spanStart, spanEnd) in spans {
      if let last = reach {
        if spanStart > last { gaps.append((last, spanStart)) }
        reach = max(last, spanEnd)
      } else {
        reach = spanEnd
      }
    }
    return gaps
  }

  /// The cut-out gaps.
  var breaks: [Segment] { segments.filter(\.isBreak) }

  /// The first and last instants drawn to scale.
  var start: Double { segments.first?.start ?? 0 }
  var end: Double { segments.last?.end ?? 0 }

  /// The x of an instant; instants outside the range go towards the edges, clamped to them.
  ///
  /// - Parameter instant: The instant.
  /// - Returns: Its x, within `left...right`.
  /// - Complexity: O(log s) in the segments.
  func x(_ instant: Instant) -> Double {
    if instant.isDistantFuture { return right }
    if instant == .distantPast { return left }
    return x(milliseconds: Double(instant.millisecondsSince1970))
  }

  func x(milliseconds value: Double) -> Double {
    guard let first = segments.first, let last = segments.last else { return left }
    if value <= first.start {
      return max(left, first.x0 - (first.start - value) / millisecondsPerPixel)
    }
    if value >= last.end {
      return min(right, last.x1 + (value - last.end) / millisecondsPerPixel)
    }
    var low = 0
    var high = segments.count - 1
    while low < high {
      let middle = (low + high) / 2
      if segments[middle].end < value { low = middle + 1 } else { high = middle }
    }
    let segment = segments[low]
    let fraction = (value - segment.start) / max(segment.end - segment.start, 1e-9)
    return segment.x0 + fraction * (segment.x1 - segment.x0)
  }

  /// The segment drawn at an instant.
  func segment(at instant: Instant) -> Segment? {
    let value = Double(instant.millisecondsSince1970)
    return segments.first { $0.start <= value && value <= $0.end }
  }
}
