import Testing

@testable import Entitlements

/// "What would we have answered then" (issue 47): a record made with
/// ``SubscriberRecord/init(knownAt:)`` takes in only what was known at its instant.
@Suite("As known at an instant")
struct KnownAtTests {
  typealias Documents = NotificationEffectTests
  static let day = Documents.day
  static let (start, expiry) = (Documents.start, Documents.expiry)

  /// The third month refunded on day 70, the refund reversed on day 75; a renewal on day 90.
  static let refund = Documents.notification(
    "REFUND", signed: start + 70 * day, status: 5,
    transaction: Documents.transaction(
      2_000_000_000_000_202, purchase: start + 60 * day, expires: expiry,
      signed: start + 70 * day,
      fields: #", "revocationDate": \#(start + 70 * day), "revocationReason": 0"#))
  static let reversal = Documents.notification(
    "REFUND_REVERSED", signed: start + 75 * day, status: 1,
    transaction: Documents.transaction(
      2_000_000_000_000_202, purchase: start + 60 * day, expires: expiry,
      signed: start + 75 * day))
  static let renewal = Documents.notification(
    "DID_RENEW", signed: expiry + 1_000, status: 1,
    transaction: Documents.transaction(
      2_000_000_000_000_203, purchase: expiry, expires: expiry + 30 * day),
    renewal: Documents.renewal(signed: expiry + 1_000))

  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    let documents: [String]
    /// Days after the start: what the record knows, and when the status is asked.
    let knownAt: Int64
    let state: EntitlementState
    /// The latest expiry any entry states.
    let latestExpiry: Int64
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "before the refund was signed: active, as then", documents: [refund, reversal],
      knownAt: 69, state: .active, latestExpiry: expiry),
    Row(
      name: "the refund known, its reversal not yet: revoked", documents: [reversal, refund],
      knownAt: 72, state: .revoked, latestExpiry: expiry),
    Row(
      name: "both known: active again", documents: [refund, reversal], knownAt: 76,
      state: .active, latestExpiry: expiry),
    Row(
      name: "a renewal signed later is not known: the period ends at the third month's end",
      documents: [renewal], knownAt: 89, state: .active, latestExpiry: expiry),
    Row(
      name: "the renewal known once signed", documents: [renewal], knownAt: 91,
      state: .active, latestExpiry: expiry + 30 * day),
  ]

  @Test(arguments: rows)
  func onlyWhatWasSignedByThenCounts(_ row: Row) throws {
    let instant = Instant(millisecondsSince1970: Self.start + row.knownAt * Self.day)
    var record = SubscriberRecord(knownAt: instant)
    for text in Documents.history(months: 3) + row.documents {
      record.fold(try DocumentReader.readUnverified(Array(text.utf8)))
    }
    let evaluation = Evaluator(catalog: Documents.catalog).evaluate(record.history)
    let premium = try #require(evaluation["premium"])
    #expect(premium.status(at: instant).state == row.state)
    let latest = record.history.entries.compactMap(\.expiresDate).max()
    #expect(latest?.millisecondsSince1970 == row.latestExpiry)
  }

  /// A history page: each transaction by its own `signedDate`, not the page's newest.
  @Test func aHistoryPageCountsEachTransactionByItsOwnDate() throws {
    let page = """
      {"signedTransactions": ["\(Documents.month(0))", "\(Documents.month(1))", "\(Documents.month(2))"],
       "hasMore": false, "bundleId": "com.example", "environment": "Production"}
      """
    var record = SubscriberRecord(
      knownAt: Instant(millisecondsSince1970: Self.start + 45 * Self.day))
    record.fold(try DocumentReader.readUnverified(Array(page.utf8)))
    #expect(
      record.history.entries.map(\.transactionID) == ["2000000000000200", "2000000000000201"])
  }

  /// A document with no signing date counts from its own dates: an entry from its purchase,
  /// its refund from the refund's date; its undated renewal info once all of it is known.
  @Test func anUndatedDocumentCountsFromItsOwnDates() throws {
    let entries = [
      sub("1", "2026-01-01", "2026-02-01"),
      sub("2", "2026-02-01", "2026-03-01", cancelled: "2026-02-10"),
      sub("3", "2026-03-01", "2026-04-01"),
    ]
    let info = RenewalInfo(originalTransactionID: "1", autoRenewStatus: false)
    func known(at text: String) -> PurchaseHistory {
      var record = SubscriberRecord(knownAt: instant(text))
      record.fold(Undated(entries: entries, renewalInfo: [info]))
      return record.history
    }
    let early = known(at: "2026-02-05")
    #expect(early.entries.map(\.transactionID) == ["1", "2"])
    #expect(early.entries.allSatisfy { $0.cancellationDate == nil })
    #expect(early.renewalInfo.isEmpty)
    let refunded = known(at: "2026-02-10")
    #expect(refunded.entries.last?.cancellationDate == instant("2026-02-10"))
    let all = known(at: "2026-03-01")
    #expect(all.entries.count == 3)
    #expect(all.renewalInfo == [info])
    // Without an instant, everything.
    var everything = SubscriberRecord()
    everything.fold(Undated(entries: entries, renewalInfo: [info]))
    #expect(everything.history.entries.count == 3)
  }

  /// A receipt created before the instant but verified after it: its later entries and the
  /// renewal info of when it was verified are not known then.
  @Test func aLateVerifiedReceiptCountsFromItsEntriesDates() throws {
    var receipt = Undated(
      entries: [sub("1", "2026-01-01", "2026-02-01"), sub("2", "2026-02-01", "2026-03-01")],
      renewalInfo: [RenewalInfo(originalTransactionID: "1", autoRenewStatus: false)])
    receipt.timestamp = instant("2026-01-02")
    var record = SubscriberRecord(knownAt: instant("2026-01-15"))
    record.fold(receipt)
    #expect(record.history.entries.map(\.transactionID) == ["1"])
    #expect(record.history.renewalInfo.isEmpty)
    var later = SubscriberRecord(knownAt: instant("2026-02-15"))
    later.fold(receipt)
    #expect(later.history.renewalInfo.count == 1)
  }

  /// A page's diagnostics hold its parts': counted once, known at an instant or not.
  @Test(arguments: [nil, "2030-01-01"] as [String?])
  func aPagesDiagnosticsCountOnce(knownAt: String?) throws {
    let bad = APIResponseTests.jws(
      """
      {"transactionId": "2000000000000900", "originalTransactionId": "2000000000000900",
       "productId": "m", "purchaseDate": 1767225600000, "expiresDate": 1769904000000,
       "quantity": "three", "signedDate": 1767225600000}
      """)
    let page = #"{"signedTransactions": ["\#(bad)"], "hasMore": false}"#
    var record = knownAt.map { SubscriberRecord(knownAt: instant($0)) } ?? SubscriberRecord()
    let document = try DocumentReader.readUnverified(Array(page.utf8))
    #expect(document.diagnostics.count == 1)
    record.fold(document)
    #expect(record.readingDiagnostics.count == 1, "\(record.readingDiagnostics)")
  }

  /// A document with no signing date (as a hand-written list is).
  struct Undated: PurchaseDocument {
    var entries: [ReceiptEntry]
    var renewalInfo: [RenewalInfo]
    var billingRecoveries: [BillingRecovery] { [] }
    var environment: StoreEnvironment? { nil }
    var timestamp: Instant? = nil
    var diagnostics: [Diagnostic] { [] }
  }
}
