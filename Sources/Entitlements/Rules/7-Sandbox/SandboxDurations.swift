/// The production ↔ sandbox duration tables of SPEC §7, both ways, and the scaling of the
/// guide's production-only windows.
extension SandboxProfile {
  /// The production durations the tables know, in table order.
  public static let productionDurations: [CalendarPeriod] = [
    CalendarPeriod(1, .week), CalendarPeriod(1, .month), CalendarPeriod(2, .month),
    CalendarPeriod(3, .month), CalendarPeriod(6, .month), CalendarPeriod(1, .year),
  ]

  /// Sandbox lengths in seconds, per row of ``productionDurations``.
  private var table: [Int64] {
    switch self {
    case .guide, .renewalRate(.fiveMinutes): [180, 300, 600, 900, 1800, 3600]
    case .renewalRate(.threeMinutes): [180, 180, 360, 540, 1080, 2160]
    case .renewalRate(.fifteenMinutes): [300, 900, 1800, 2700, 5400, 10_800]
    case .renewalRate(.thirtyMinutes): [600, 1800, 3600, 5400, 10_800, 21_600]
    case .renewalRate(.oneHour): [900, 3600, 7200, 10_800, 21_600, 43_200]
    case .testFlight: Array(repeating: 86_400, count: 6)
    }
  }

  /// The sandbox length of a production duration (SPEC §7 tables).
  ///
  /// ```swift
  /// SandboxProfile.guide.length(of: CalendarPeriod(1, .year))  // 1 hour
  /// SandboxProfile.guide.length(of: CalendarPeriod(5, .days))  // nil: not in the table
  /// ```
  ///
  /// - Parameter duration: A production duration.
  /// - Returns: Its sandbox length, or `nil` when the table has no such row.
  public func length(of duration: CalendarPeriod) -> FixedDuration? {
    Self.productionDurations.firstIndex(of: duration.normalized).map { .seconds(table[$0]) }
  }

  /// The production durations an observed sandbox entry length stands for: the rows within
  /// `tolerance` of the observed length, nearest first.
  ///
  /// ```swift
  /// SandboxProfile.guide.productionDuration(forObserved: .seconds(300))   // .recognized(P1M)
  /// SandboxProfile.guide.productionDuration(forObserved: .seconds(240))   // .noMatch
  /// SandboxProfile.renewalRate(.threeMinutes).productionDuration(forObserved: .seconds(180))
  /// // .ambiguous([P1W, P1M]): both last 3 minutes at that rate
  /// ```
  ///
  /// - Parameters:
  ///   - observed: `expires_date − purchase_date` of a sandbox entry.
  ///   - tolerance: How far the observed length may be from a row; 5 seconds by default.
  /// - Returns: The match.
  /// - Complexity: O(1): the table has six rows.
  public func productionDuration(
    forObserved observed: FixedDuration, tolerance: FixedDuration = .seconds(5)
  ) -> SandboxDurationMatch {
    let candidates = zip(Self.productionDurations, table)
      .map { (duration: $0, distance: abs(observed.milliseconds - $1 * 1000)) }
      .filter { $0.distance <= tolerance.milliseconds }
      .sorted { $0.distance < $1.distance }
    switch candidates.count {
    case 0: return .noMatch
    case 1: return .recognized(candidates[0].duration)
    default:
      if candidates[0].distance < candidates[1].distance {
        return .recognized(candidates[0].duration)
      }
      return .ambiguous(candidates.map(\.duration))
    }
  }

  /// How much shorter time runs for a product in this profile: sandbox length ÷ nominal
  /// production length (a week is 7 days, a month 30, a year 365). For 1 month in the guide's
  /// table, 5 minutes ÷ 30 days = 1 : 8 640.
  ///
  /// - Parameter duration: The product's production duration; `nil` or a duration the table
  ///   lacks falls back to the 1-month row (DESIGN.md, "Sandbox windows").
  /// - Returns: The ratio as a fraction, numerator and denominator in milliseconds.
  func ratio(for duration: CalendarPeriod?) -> (sandbox: Int64, production: Int64) {
    let row = duration.flatMap { Self.productionDurations.firstIndex(of: $0.normalized) } ?? 1
    let nominalDays: [Int64] = [7, 30, 60, 90, 180, 365]
    return (table[row] * 1000, nominalDays[row] * 86_400_000)
  }

  /// The guide's production-only windows scaled by the product's ratio (SPEC §7).
  ///
  /// ```swift
  /// SandboxProfile.guide.scaled(.days(60), for: CalendarPeriod(1, .month))  // 10 minutes
  /// ```
  ///
  /// - Parameters:
  ///   - length: A production length (10 days, 24 hours, 60 days).
  ///   - duration: The product's production duration.
  /// - Returns: The sandbox length, rounded down to the millisecond.
  public func scaled(_ length: FixedDuration, for duration: CalendarPeriod?) -> FixedDuration {
    let (sandbox, production) = ratio(for: duration)
    let scaled = length.milliseconds.multipliedFullWidth(by: sandbox)
    let (quotient, _) = production.dividingFullWidth(scaled)
    return .milliseconds(quotient)
  }

  /// How many renewals in a row the profile allows before the subscription stops renewing:
  /// 6 a day (guide), 12 (renewal rates), 6 a week (TestFlight).
  public var maximumRenewals: Int {
    switch self {
    case .guide, .testFlight: 6
    case .renewalRate: 12
    }
  }
}

/// What an observed sandbox entry length stands for in production (SPEC §7).
public enum SandboxDurationMatch: Hashable, Sendable {
  /// One production duration, the nearest within the tolerance.
  case recognized(CalendarPeriod)
  /// Several rows are equally near (at the 3-minute rate, 1 week and 1 month both last 3 min).
  case ambiguous([CalendarPeriod])
  /// No row is within the tolerance.
  case noMatch
}

extension CalendarPeriod {
  /// `P12M` is `P1Y`, `P7D` is `P1W`: the form the tables use.
  var normalized: CalendarPeriod {
    switch unit {
    case .month where count % 12 == 0: CalendarPeriod(count / 12, .year)
    case .day where count % 7 == 0: CalendarPeriod(count / 7, .week)
    default: self
    }
  }
}
