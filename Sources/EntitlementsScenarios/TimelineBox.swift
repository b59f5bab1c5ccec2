/// A rectangle of the timeline picture, in pixels, y downwards: where a label is drawn.
///
/// ```swift
/// let a = TimelineBox(x: 0, y: 0, width: 10, height: 10)
/// a.intersects(TimelineBox(x: 10, y: 0, width: 5, height: 5))  // false: they only touch
/// ```
package struct TimelineBox: Hashable, Sendable {
  /// The left edge.
  package var x: Double
  /// The top edge.
  package var y: Double
  /// The width.
  package var width: Double
  /// The height.
  package var height: Double

  /// Creates a box.
  ///
  /// - Parameters:
  ///   - x: The left edge.
  ///   - y: The top edge.
  ///   - width: The width.
  ///   - height: The height.
  package init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The right edge.
  package var maxX: Double { x + width }
  /// The bottom edge.
  package var maxY: Double { y + height }
  /// The top edge.
  package var minY: Double { y }

  /// Whether the two boxes share any area (touching edges do not count).
  ///
  /// - Parameter other: The other box.
  /// - Returns: `true` when they overlap.
  package func intersects(_ other: TimelineBox) -> Bool {
    x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
  }

  /// Whether `other` lies entirely inside this box.
  ///
  /// - Parameter other: The other box.
  /// - Returns: `true` when every point of `other` is inside.
  package func contains(_ other: TimelineBox) -> Bool {
    other.x >= x && other.maxX <= maxX && other.y >= y && other.maxY <= maxY
  }

  /// The box shrunk by `amount` on every side; a negative amount grows it.
  ///
  /// - Parameter amount: Pixels to take from each side.
  /// - Returns: The smaller (or larger) box.
  package func inset(by amount: Double) -> TimelineBox {
    TimelineBox(
      x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
  }
}
