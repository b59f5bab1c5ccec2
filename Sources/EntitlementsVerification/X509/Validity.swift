import Entitlements

/// A certificate's validity period, `notBefore` through `notAfter` inclusive, in whole seconds
/// (RFC 5280 §4.1.2.5).
struct Validity: Hashable, Sendable {
  /// Seconds since 1970.
  var notBefore: Int64
  /// Seconds since 1970, the last valid second.
  var notAfter: Int64

  /// Whether the certificate is valid at `instant`: its second lies in the period, as OpenSSL
  /// compares (so 999 ms after `notAfter` is still valid).
  func contains(_ instant: Instant) -> Bool {
    let milliseconds = instant.millisecondsSince1970
    let second = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    return notBefore <= second && second <= notAfter
  }

  /// The period's ends as instants.
  var instants: (notBefore: Instant, notAfter: Instant) {
    (Self.instant(notBefore), Self.instant(notAfter))
  }

  private static func instant(_ seconds: Int64) -> Instant {
    let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    return overflow
      ? (seconds < 0 ? .distantPast : .distantFuture)
      : Instant(millisecondsSince1970: milliseconds)
  }
}
