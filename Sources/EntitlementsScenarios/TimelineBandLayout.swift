/// The rows of one entitlement's band in the timeline, top to bottom: a header (name, status
/// beside the marker), dates above the bars, the bars (periods and lapses), a lane for struck
/// purchases (refunds, upgrades) when there are any, dates below, the grace and billing-retry
/// windows when the App Store retries, and the releases with their ids.
///
/// ```swift
/// let layout = TimelineBandLayout(top: 44, hasStruck: false, hasWindows: false, hasReleases: true)
/// layout.barTop     // 86
/// layout.bottom     // 172
/// ```
struct TimelineBandLayout {
  let top: Double
  let headerBaseline: Double
  let aboveBaseline: Double
  let barTop: Double
  let barBottom: Double
  /// The lane of struck purchases, when there are any.
  let struck: (top: Double, bottom: Double)?
  let belowBaseline: Double
  /// The grace and billing-retry row, when drawn.
  let windows: (top: Double, bottom: Double)?
  /// The releases' marks and two rows of labels, when there are releases.
  let releases: (y: Double, label: Double, secondLabel: Double)?
  let bottom: Double

  init(top: Double, hasStruck: Bool, hasWindows: Bool, hasReleases: Bool) {
    self.top = top
    headerBaseline = top + 18
    aboveBaseline = top + 38
    barTop = top + 44
    barBottom = barTop + 24
    var cursor = barBottom
    if hasStruck {
      struck = (cursor + 3, cursor + 13)
      cursor += 13
    } else {
      struck = nil
    }
    belowBaseline = cursor + 14
    cursor = belowBaseline + 6
    if hasWindows {
      windows = (cursor + 2, cursor + 20)
      cursor += 24
    } else {
      windows = nil
    }
    if hasReleases {
      releases = (cursor + 9, cursor + 29, cursor + 43)
      cursor += 48
    } else {
      releases = nil
    }
    bottom = cursor + 8
  }

  /// The baseline of a label centred in the bars.
  var barBaseline: Double { barTop + 16 }
}
