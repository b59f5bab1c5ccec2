import Entitlements
import Testing

@Suite("Renewal and retry windows (SPEC §6)")
struct RenewalWindowsTests {
  @Test func windowsAroundAnExpiry() {
    let e = instant("2017-04-20T08:00:00Z")
    let windows = RenewalWindows(
      expiresAt: e, billingRetryLimit: .days(60), gracePeriodExpiresDate: e + .days(16))
    #expect(windows.billingCheck == Interval(start: e - .days(10), end: e))
    #expect(windows.renewalAttempts == Interval(start: e - .hours(24), end: e))
    #expect(windows.billingRetry == Interval(start: e, end: instant("2017-06-19T08:00:00Z")))
    #expect(windows.gracePeriod == Interval(start: e, end: e + .days(16)))
    // Half-open: the retry window's end is outside it.
    #expect(windows.billingRetry.contains(e + .days(60) - .milliseconds(1)))
    #expect(!windows.billingRetry.contains(e + .days(60)))
    #expect(!windows.billingCheck.contains(e))
  }

  @Test func aStaleGracePeriodIsIgnored() {
    let e = instant("2017-04-20T08:00:00Z")
    let windows = RenewalWindows(
      expiresAt: e, billingRetryLimit: .days(60), gracePeriodExpiresDate: e)
    #expect(windows.gracePeriod == nil)
  }

  @Test func eachAutoRenewingPeriodHasWindowsAndOnlyTheLastHasGrace() throws {
    let evaluation = try evaluateOne(
      [
        sub("1", "2017-02-20T08:00:00Z", "2017-03-20T08:00:00Z"),
        sub("2", "2017-05-05T08:00:00Z", "2017-06-05T08:00:00Z"),
      ],
      renewalInfo: [
        RenewalInfo(
          originalTransactionID: "1", isInBillingRetryPeriod: true,
          gracePeriodExpiresDate: instant("2017-06-21T08:00:00Z"))
      ])
    #expect(
      evaluation.windows.map(\.expiresAt) == [
        instant("2017-03-20T08:00:00Z"), instant("2017-06-05T08:00:00Z"),
      ])
    try #require(evaluation.windows.count == 2)
    #expect(evaluation.windows[0].gracePeriod == nil)
    #expect(
      evaluation.windows[1].gracePeriod
        == interval("2017-06-05T08:00:00Z", "2017-06-21T08:00:00Z"))
  }
}
