import Entitlements
import Foundation

/// A second, deliberately naive implementation of coverage, periods and readable releases,
/// written straight from SPEC §4, §5, §6 and §8 with no code shared with the engine: quadratic
/// scans, Foundation's own Gregorian calendar for months, and a sweep over every boundary
/// instant for the union. It assumes what the generator guarantees: unique transaction ids
/// and products from the catalog.
enum NaiveEngine {
  static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
    return calendar
  }()

  static func addMonth(_ instant: Instant) -> Instant {
    let date = Date(timeIntervalSince1970: Double(instant.millisecondsSince1970) / 1000)
    guard let next = calendar.date(byAdding: .month, value: 1, to: date) else { return instant }
    return Instant(millisecondsSince1970: Int64((next.timeIntervalSince1970 * 1000).rounded()))
  }

  /// SPEC §4 and §6: what each entry covers, with the default policy.
  static func coverage(_ entries: [ReceiptEntry], catalog: ProductCatalog) -> [(
    start: Instant, end: Instant
  )] {
    var result: [(Instant, Instant)] = []
    for entry in entries {
      guard let type = catalog[entry.productID]?.type, let purchase = entry.purchaseDate else {
        continue
      }
      let refunded = entry.cancellationDate != nil && !entry.isUpgraded
      if refunded { continue }
      switch type {
      case .autoRenewable:
        guard let expires = entry.expiresDate, expires > purchase else { continue }
        var end = expires
        if entry.isUpgraded {
          if let cancellation = entry.cancellationDate {
            end = max(purchase, min(expires, cancellation))
          } else {
            let successors = entries.filter { other in
              guard other.transactionID != entry.transactionID,
                catalog[other.productID] != nil, let start = other.purchaseDate
              else { return false }
              return start >= purchase && start < expires
            }.compactMap(\.purchaseDate)
            if let first = successors.min() { end = first }
          }
        }
        if end > purchase { result.append((purchase, end)) }
      case .nonConsumable:
        result.append((purchase, .distantFuture))
      case .nonRenewing, .consumable:
        continue
      }
    }
    // Non-renewing: sorted by purchase, each from the later of its purchase and the previous end.
    let passes = entries.filter {
      catalog[$0.productID]?.type == .nonRenewing && $0.purchaseDate != nil
        && $0.cancellationDate == nil
    }.sorted {
      ($0.purchaseDate ?? .distantPast, $0.transactionID.rawValue)
        < ($1.purchaseDate ?? .distantPast, $1.transactionID.rawValue)
    }
    var previousEnd = Instant.distantPast
    for pass in passes {
      guard let purchase = pass.purchaseDate else { continue }
      let start = max(purchase, previousEnd)
      let end = addMonth(start)
      result.append((start, end))
      previousEnd = end
    }
    return result
  }

  /// SPEC §5: the union, by checking every elementary interval between boundaries.
  static func periods(_ coverage: [(start: Instant, end: Instant)]) -> [Interval] {
    let boundaries = Set(coverage.flatMap { [$0.start, $0.end] }).sorted()
    var periods: [Interval] = []
    for (a, b) in zip(boundaries, boundaries.dropFirst()) {
      let covered = coverage.contains { $0.start <= a && a < $0.end }
      guard covered else { continue }
      if let last = periods.last, last.end == a {
        periods[periods.count - 1].end = b
      } else {
        periods.append(Interval(start: a, end: b))
      }
    }
    return periods
  }

  /// SPEC §8, as of the end of time, without grace: released inside a period, or the latest
  /// release at or before a period's start (all releases of that date).
  static func readable(_ releases: [Release], periods: [Interval]) -> Set<ReleaseID> {
    var readable = Set<ReleaseID>()
    for release in releases {
      for period in periods {
        if period.start <= release.date && release.date < period.end { readable.insert(release.id) }
        let latest = releases.filter { $0.date <= period.start }.map(\.date).max()
        if latest == release.date { readable.insert(release.id) }
      }
    }
    return readable
  }
}
