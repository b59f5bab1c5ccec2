#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A point in time: UTC, with millisecond precision, as Apple's `*_ms` receipt fields carry it.
///
/// Every date the engine reads becomes an `Instant`, and every rule compares instants, never
/// strings or `Date`s (SPEC §1). Instants are plain integers, so arithmetic is exact and the
/// same on every platform.
///
/// ```swift
/// let purchase = Instant(millisecondsSince1970: 1_487_577_600_000)
/// purchase.description                       // "2017-02-20T08:00:00Z"
/// purchase + .hours(24) > purchase           // true
/// Instant(Date(timeIntervalSince1970: 1.5))  // 1970-01-01T00:00:01.500Z
/// ```
public struct Instant: Hashable, Comparable, Sendable {
  /// Milliseconds since 1970-01-01T00:00:00Z.
  public var millisecondsSince1970: Int64

  /// Creates an instant from milliseconds since 1970-01-01T00:00:00Z.
  ///
  /// - Parameter millisecondsSince1970: The value of an Apple `*_ms` field.
  public init(millisecondsSince1970: Int64) {
    self.millisecondsSince1970 = millisecondsSince1970
  }

  /// Creates an instant from a `Date`, truncating to the millisecond toward the past.
  ///
  /// Apple's Xcode test payloads carry fractional milliseconds (`1697679936049.7297`); like
  /// Apple's own libraries, the fraction is dropped.
  ///
  /// - Parameter date: The date to convert.
  public init(_ date: Date) {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
    self.millisecondsSince1970 =
      Int64(
        exactly: milliseconds.clamped(to: -9.2e18...9.2e18)
      ) ?? 0
  }

  /// The same instant as a `Date`.
  public var date: Date {
    Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000)
  }

  /// The latest representable instant: the end of a coverage that never ends (a
  /// non-consumable is owned from purchase, forever; SPEC §2).
  public static let distantFuture = Instant(millisecondsSince1970: .max)

  /// The earliest representable instant.
  public static let distantPast = Instant(millisecondsSince1970: .min)

  /// Whether this instant is ``distantFuture``, the end of a coverage that never ends.
  public var isDistantFuture: Bool { self == .distantFuture }

  /// Orders instants: the earlier first.
  public static func < (lhs: Instant, rhs: Instant) -> Bool {
    lhs.millisecondsSince1970 < rhs.millisecondsSince1970
  }

  /// The instant a fixed length later. Saturates at ``distantFuture`` and ``distantPast``.
  public static func + (lhs: Instant, rhs: FixedDuration) -> Instant {
    let (sum, overflow) = lhs.millisecondsSince1970.addingReportingOverflow(rhs.milliseconds)
    if overflow { return rhs.milliseconds > 0 ? .distantFuture : .distantPast }
    return Instant(millisecondsSince1970: sum)
  }

  /// The instant a fixed length earlier. Saturates at ``distantFuture`` and ``distantPast``.
  public static func - (lhs: Instant, rhs: FixedDuration) -> Instant {
    if rhs.milliseconds == .min { return lhs + .milliseconds(.max) }
    return lhs + .milliseconds(-rhs.milliseconds)
  }

  /// The fixed length from `rhs` to `lhs`. Saturates instead of overflowing.
  public static func - (lhs: Instant, rhs: Instant) -> FixedDuration {
    let (difference, overflow) = lhs.millisecondsSince1970.subtractingReportingOverflow(
      rhs.millisecondsSince1970)
    if overflow { return .milliseconds(lhs > rhs ? .max : .min) }
    return .milliseconds(difference)
  }
}

extension Double {
  fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
    Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}
