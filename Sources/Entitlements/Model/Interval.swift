/// A half-open interval of time, `[start, end)`: the instant equal to `end` is outside.
///
/// Half-open intervals let a renewal that begins exactly when the previous entry expires join
/// it with no overlap and no gap, and make "is t inside?" a single comparison on each side
/// (SPEC §1; DESIGN.md, "Half-open intervals").
///
/// ```swift
/// let month = Interval(start: feb20, end: mar20)
/// month.contains(feb20)  // true
/// month.contains(mar20)  // false: the end is outside
/// month.touches(Interval(start: mar20, end: apr20))  // true: they merge
/// ```
public struct Interval: Hashable, Sendable, CustomStringConvertible {
  /// The first instant inside.
  public var start: Instant
  /// The first instant after, outside the interval; ``Instant/distantFuture`` for "forever".
  public var end: Instant

  /// Creates an interval.
  ///
  /// - Parameters:
  ///   - start: The first instant inside.
  ///   - end: The first instant outside. An `end` at or before `start` makes an empty interval.
  public init(start: Instant, end: Instant) {
    self.start = start
    self.end = end
  }

  /// Whether the interval holds no instant (`end <= start`).
  public var isEmpty: Bool { end <= start }

  /// The length of the interval; zero when empty.
  public var length: FixedDuration { isEmpty ? .zero : end - start }

  /// Whether `instant` is inside: `start <= instant < end`.
  ///
  /// - Parameter instant: The instant to test.
  /// - Returns: `true` when the instant is inside.
  public func contains(_ instant: Instant) -> Bool {
    start <= instant && instant < end
  }

  /// Whether the two intervals share an instant or meet end to start, so that their union is
  /// one interval.
  ///
  /// - Parameter other: Another non-empty interval.
  /// - Returns: `true` when the union is a single interval.
  public func touches(_ other: Interval) -> Bool {
    start <= other.end && other.start <= end
  }

  /// The instants in both intervals, or `nil` when they share none.
  ///
  /// - Parameter other: Another interval.
  /// - Returns: The intersection, or `nil`.
  public func intersection(_ other: Interval) -> Interval? {
    let result = Interval(start: max(start, other.start), end: min(end, other.end))
    return result.isEmpty ? nil : result
  }

  /// `[start, end)` in RFC 3339.
  public var description: String { "[\(start), \(end))" }
}
