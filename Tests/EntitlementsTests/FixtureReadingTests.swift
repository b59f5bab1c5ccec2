import Foundation
import Testing

@testable import Entitlements

/// Every file of shared/fixtures is read here, and what it yields is asserted against its
/// MANIFEST.txt description.
extension RealDocuments {
  @Suite("Reading the real documents of shared/fixtures")
  struct FixtureReadingTests {
    struct Expectation: CustomTestStringConvertible, Sendable {
      var file: String
      /// The reader's type, or "error: …" for the typed error expected.
      var kind: String
      var entries = 0
      var renewalInfos = 0
      var recoveries = 0
      var readingDiagnostics = 0
      var periods: Int? = nil
      var lapses: Int? = nil
      var environment: StoreEnvironment? = nil
      var testDescription: String { file }
    }

    static let expectations: [Expectation] = [
      .init(
        file: "verifyreceipt_v1/aporat__inAppPurchaseResponse_numeric_fields.json",
        kind: "VerifyReceiptResponse", entries: 4, renewalInfos: 1, periods: 0, lapses: 0,
        environment: .sandbox),
      .init(
        file: "verifyreceipt_v1/dollabill-apple__bought_non_consumable.json",
        kind: "VerifyReceiptResponse", entries: 16, renewalInfos: 1, periods: 2, lapses: 1,
        environment: .sandbox),
      .init(
        file: "verifyreceipt_v1/dollabill-apple__exclude_old_transactions.json",
        kind: "VerifyReceiptResponse", entries: 19, renewalInfos: 1, periods: 4, lapses: 3,
        environment: .sandbox),
      .init(
        file: "verifyreceipt_v1/dollabill-apple__subscription_first_time_purchase.json",
        kind: "VerifyReceiptResponse", entries: 4, renewalInfos: 1, periods: 1, lapses: 0,
        environment: .sandbox),
      .init(
        file: "verifyreceipt_v1/dollabill-apple__subscription_multiple_subscription_purchases.json",
        kind: "VerifyReceiptResponse", entries: 14, renewalInfos: 1, periods: 2, lapses: 1,
        environment: .sandbox),
      .init(
        file: "verifyreceipt_v1/dollabill-apple__subscription_renewed.json",
        kind: "VerifyReceiptResponse", entries: 18, renewalInfos: 1, periods: 3, lapses: 2,
        environment: .sandbox),
      // MANIFEST: 12 lapses inside in_app, plus the one before the 2021 re-subscription.
      .init(
        file: "verifyreceipt_v1/imdhemy-appstore-iap__verify_receipt_response.json",
        kind: "VerifyReceiptResponse", entries: 43, renewalInfos: 1, periods: 14, lapses: 13,
        environment: .sandbox),
      .init(
        file: "verifyreceipt_v1/itunes-iap__autorenew_response2_middleage.json",
        kind: "VerifyReceiptResponse", entries: 31, renewalInfos: 1, periods: 8, lapses: 7,
        environment: .sandbox),
      .init(
        file: "verifyreceipt_v1/itunes-iap__autorenew_response_legacy_ios6.json",
        kind: "VerifyReceiptResponse", entries: 2, periods: 1, lapses: 0),
      .init(
        file: "verifyreceipt_v1/monza__cancellation_response.json", kind: "VerifyReceiptResponse",
        entries: 2, periods: 0, lapses: 0, environment: .sandbox),
      .init(
        file: "verifyreceipt_v1/monza__response_trial.json", kind: "VerifyReceiptResponse",
        entries: 4, renewalInfos: 1, periods: 1, lapses: 0, environment: .sandbox),
      .init(
        file: "verifyreceipt_v1/venice__receipt_expired_cancelled_21006_ios6.json",
        kind: "VerifyReceiptResponse", entries: 2, renewalInfos: 1, periods: 1, lapses: 0),
      .init(
        file: "verifyreceipt_v1/venice__receipt_not_expired_cancelled.json",
        kind: "VerifyReceiptResponse", entries: 1, renewalInfos: 1, periods: 1, lapses: 0,
        environment: .production),
      .init(
        file: "notifications_v1/dollabill-apple__server_notification_CANCEL.json",
        kind: "StatusUpdateNotification", entries: 3, renewalInfos: 1, periods: 1, lapses: 0,
        environment: .sandbox),
      // MANIFEST counts 14 lapses from expires vs next purchase; the four is_upgraded one_year
      // entries without cancellation_date end where the upgrade begins (SPEC §4), which opens
      // two more gaps: see upgradeCutsExplainTwoMoreLapses.
      .init(
        file:
          "notifications_v1/imdhemy-appstore-iap__server-notification_DID_CHANGE_RENEWAL_STATUS.json",
        kind: "StatusUpdateNotification", entries: 54, renewalInfos: 1, periods: 17, lapses: 16,
        environment: .production),
      .init(
        file: "notifications_v1/monza__cancel_CANCEL_legacy_dict.json",
        kind: "StatusUpdateNotification", entries: 1, renewalInfos: 1, periods: 0, lapses: 0,
        environment: .production),
      .init(
        file: "notifications_v1/monza__renewal_with_unified_receipt_RENEWAL.json",
        kind: "StatusUpdateNotification", entries: 22, renewalInfos: 1, recoveries: 1, periods: 8,
        lapses: 7, environment: .sandbox),
      .init(
        file: "jws_v2/apple-asl-python__mock_renewalInfo.jws",
        kind: "error: unrecognized document"),
      .init(
        file: "jws_v2/apple-asl-python__mock_transactionInfo.jws",
        kind: "error: unrecognized document"),
      .init(
        file: "jws_v2/apple-asl-python__mock_testNotification.jws", kind: "ServerNotification",
        environment: .sandbox),
      // Apple's synthetic payload carries placeholders where the JWS strings go.
      .init(
        file: "jws_v2/apple-asl-python__signedNotification.json", kind: "ServerNotification",
        readingDiagnostics: 2, environment: .localTesting),
      .init(
        file: "jws_v2/apple-asl-python__signedRenewalInfo.json", kind: "AppStoreRenewalInfo",
        renewalInfos: 1, environment: .localTesting),
      .init(
        file: "jws_v2/apple-asl-python__signedTransaction.json", kind: "AppStoreTransaction",
        entries: 1, periods: 1, lapses: 0, environment: .localTesting),
      .init(
        file: "jws_v2/apple-asl-python__signedTransactionWithRevocation.json",
        kind: "AppStoreTransaction", entries: 1, periods: 1, lapses: 0, environment: .localTesting),
      .init(
        file: "jws_v2/apple-asl-python__xcode-signed-app-transaction.jws",
        kind: "error: unrecognized document"),
      .init(
        file: "jws_v2/apple-asl-python__xcode-signed-renewal-info.jws", kind: "AppStoreRenewalInfo",
        renewalInfos: 1, environment: .xcode),
      .init(
        file: "jws_v2/apple-asl-python__xcode-signed-transaction.jws", kind: "AppStoreTransaction",
        entries: 1, periods: 1, lapses: 0, environment: .xcode),
      .init(
        file:
          "local_receipts/TPInAppReceipt__receipt-sandbox-legacy.DECODED_by_apple-purchase-receipt-verifier.json",
        kind: "VerifyReceiptResponse", entries: 187, periods: 48, lapses: 47, environment: .sandbox),
    ]

    /// Files with a test of their own below (their shape is a capture's wrapper, not Apple's).
    static let ownTests = [
      "jws_v2/session-pro-backend__sandbox_v2_notification_sequences.json",
      "notifications_v2/apple-forums-736694/example1_expired_voluntary.derived.json",
      "notifications_v2/geniusparenting-strapi/documents.json",
      "notifications_v2/odeme-entegrasyonu/documents.json",
      "notifications_v2/session-pro-backend/documents.json",
      "notifications_v2/soulmate-server/documents.json",
      "local_receipts/TPInAppReceipt__receipt-sandbox-legacy.DECODED_and_queried_by_TPInAppReceipt.json",
    ]

    /// Every JWS stored in the v2 captures (their `jws` and `signedPayload` fields) reads as a
    /// v2 notification or a transaction, with no diagnostic.
    @Test(arguments: [
      "notifications_v2/geniusparenting-strapi/documents.json",
      "notifications_v2/odeme-entegrasyonu/documents.json",
      "notifications_v2/session-pro-backend/documents.json",
      "notifications_v2/soulmate-server/documents.json",
    ])
    func everyStoredJWSOfTheV2CapturesReads(_ file: String) throws {
      func signed(_ value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
          return members.flatMap { key, value -> [String] in
            if key == "jws" || key == "signedPayload", case .string(let text) = value {
              return [text]
            }
            return signed(value)
          }
        case .array(let elements): return elements.flatMap(signed)
        default: return []
        }
      }
      let jws = signed(try JSONValue(parsing: Array(try fixtureData(file))))
      #expect(!jws.isEmpty)
      for compact in jws {
        let document = try DocumentReader.readUnverified(Array(compact.utf8))
        switch document {
        case .notificationV2, .transaction: break
        default: Issue.record("\(file): a JWS read as \(document)")
        }
        #expect(document.diagnostics.isEmpty, "\(file): \(document.diagnostics)")
      }
    }

    @Test func everyFixtureFileIsCovered() throws {
      let files = try FileManager.default.subpathsOfDirectory(atPath: fixturesDirectory.path)
        .filter { $0.hasSuffix(".json") || $0.hasSuffix(".jws") }
      #expect(!files.isEmpty)
      let covered = Set(Self.expectations.map(\.file) + Self.ownTests)
      #expect(Set(files).subtracting(covered).sorted() == [])
    }

    @Test(arguments: expectations)
    func readsAndEvaluates(_ expected: Expectation) throws {
      let bytes = Array(try fixtureData(expected.file))
      let document: AppStoreDocument
      do {
        document = try DocumentReader.readUnverified(bytes)
      } catch {
        #expect("error: \(error)".hasPrefix(expected.kind), "\(error)")
        return
      }
      #expect("\(type(of: document.document))" == expected.kind)
      #expect(document.entries.count == expected.entries)
      #expect(document.renewalInfo.count == expected.renewalInfos)
      #expect(document.billingRecoveries.count == expected.recoveries)
      #expect(document.diagnostics.count == expected.readingDiagnostics, "\(document.diagnostics)")
      #expect(document.environment == expected.environment)
      let evaluation = Evaluator().evaluate(document.history)
      for entitlement in evaluation.entitlements {
        #expect(entitlement._invariantViolations().isEmpty)
      }
      if let periods = expected.periods {
        #expect(evaluation.entitlements.map(\.periods.count).reduce(0, +) == periods)
      }
      if let lapses = expected.lapses {
        #expect(evaluation.entitlements.map(\.lapses.count).reduce(0, +) == lapses)
      }
    }

    static func evaluate(_ file: String) throws -> (any PurchaseDocument, Evaluation) {
      let document = try DocumentReader.readUnverified(Array(try fixtureData(file)))
      return (document, Evaluator().evaluate(document.history))
    }

    @Test func upgradeCutsExplainTwoMoreLapses() throws {
      let file =
        "notifications_v1/imdhemy-appstore-iap__server-notification_DID_CHANGE_RENEWAL_STATUS.json"
      let (document, evaluation) = try Self.evaluate(file)
      let subscription = try #require(evaluation.entitlements.first)
      #expect(subscription.coverage.filter(\.isUpgradeCut).count == 4)
      var naive = document.history
      naive.entries = naive.entries.map { entry in
        var copy = entry
        copy.isUpgraded = false
        return copy
      }
      #expect(Evaluator().evaluate(naive).entitlements.first?.lapses.count == 14)
      // MANIFEST: auto-renew turned off; the last period ends 2020-11-25 08:31:02.
      #expect(subscription.periods.last?.interval.end == instant("2020-11-25T08:31:02Z"))
      #expect(
        subscription.status(at: instant("2020-11-25T08:31:02Z"))
          == .expired(expiredAt: instant("2020-11-25T08:31:02Z"), reason: .voluntary))
    }

    @Test func dollabillAnswersMatchTheirOwnTests() throws {
      // subscription_first_time_purchase: one subscription with three transactions.
      let (_, first) = try Self.evaluate(
        "verifyreceipt_v1/dollabill-apple__subscription_first_time_purchase.json")
      #expect(first.entitlements.count == 1)
      #expect(first.entitlements.first?.coverage.count == 3)
      // multiple_subscription_purchases: current product test_sub2, will auto-renew.
      let (_, multiple) = try Self.evaluate(
        "verifyreceipt_v1/dollabill-apple__subscription_multiple_subscription_purchases.json")
      #expect(multiple.entitlements.first?.renewalInfo?.autoRenewProductID == "test_sub2")
      #expect(multiple.entitlements.first?.renewalInfo?.autoRenewStatus == true)
      // bought_non_consumable: voluntary cancel, expired 2020-11-13T01:34:30Z, one product
      // purchase (nonconsumable_test).
      let (document, bought) = try Self.evaluate(
        "verifyreceipt_v1/dollabill-apple__bought_non_consumable.json")
      let subscription = try #require(bought.entitlements.first)
      #expect(
        subscription.status(at: try #require(document.timestamp))
          == .expired(expiredAt: instant("2020-11-13T01:34:30Z"), reason: .voluntary))
      #expect(bought.purchaseEvents.map(\.productID) == ["nonconsumable_test"])
    }

    @Test func itunesIAPMiddleAgeLastEntries() throws {
      let bytes = Array(
        try fixtureData("verifyreceipt_v1/itunes-iap__autorenew_response2_middleage.json"))
      let response = try VerifyReceiptResponse(unverifiedJSON: bytes)
      // Their test: the last in_app entry by original_purchase_date, then document order.
      let lastInApp = try #require(
        response.inApp.enumerated().max { a, b in
          (a.element.originalPurchaseDate ?? .distantPast, a.offset)
            < (b.element.originalPurchaseDate ?? .distantPast, b.offset)
        }?.element)
      #expect(lastInApp.transactionID == "1000000318407192")
      #expect(lastInApp.purchaseDate?.millisecondsSince1970 == 1_500_973_279_000)
      #expect(lastInApp.expiresDate?.millisecondsSince1970 == 1_500_973_579_000)
      let lastLatest = try #require(response.latestReceiptInfo.last)
      #expect(lastLatest.transactionID == "1000000318420598")
      #expect(lastLatest.purchaseDate?.millisecondsSince1970 == 1_500_974_910_000)
      #expect(lastLatest.expiresDate?.millisecondsSince1970 == 1_500_975_210_000)
      #expect(lastLatest.webOrderLineItemID == "1000000035725368")
      // The 2017 pending_renewal_info has no original_transaction_id: with one subscription in
      // the receipt it can only describe that one.
      #expect(response.renewalInfo.first?.originalTransactionID == "1000000318012065")
    }

    @Test func legacyAndCancelledDocuments() throws {
      // Refunded mid-period (CANCEL, legacy object): revoked from the purchase on.
      let (_, cancel) = try Self.evaluate("notifications_v1/monza__cancel_CANCEL_legacy_dict.json")
      let yearly = try #require(cancel.entitlements.first)
      #expect(
        yearly.coverage.first?.entry.cancellationDate?.millisecondsSince1970 == 1_521_757_701_000)
      #expect(yearly.status(at: instant("2018-03-10")).state == .revoked)
      // Trial refunded after it expired: still void.
      let (_, trial) = try Self.evaluate("verifyreceipt_v1/monza__cancellation_response.json")
      #expect(
        trial.entitlements.first?.status(at: instant("2016-06-17T01:30:00Z")).state == .revoked)
      // 21006: expired iOS 6 receipt, still read; the status is no error to throw.
      let response = try VerifyReceiptResponse(
        unverifiedJSON: Array(
          try fixtureData("verifyreceipt_v1/venice__receipt_expired_cancelled_21006_ios6.json")))
      #expect(response.status == 21006)
      #expect(response.statusError == nil)
      let expired = try #require(Evaluator().evaluate(response.history).entitlements.first)
      #expect(expired.periods.first?.interval.end.millisecondsSince1970 == 1_550_386_188_000)
      #expect(expired.status(at: instant("2019-03-01")).reason == .voluntary)
      // expires_date only as "2014-06-28 14:47:53 Etc/GMT"; placeholder renewal info reported.
      let (_, notExpired) = try Self.evaluate(
        "verifyreceipt_v1/venice__receipt_not_expired_cancelled.json")
      #expect(
        notExpired.entitlements.first?.periods.first?.interval.end
          == instant("2014-06-28T14:47:53Z"))
      #expect(notExpired.diagnostics.map(\.kind) == [.renewalInfoWithoutEntries])
      // Numbers where strings are usual, purchase after expiry: diagnostics, no crash.
      let (_, numeric) = try Self.evaluate(
        "verifyreceipt_v1/aporat__inAppPurchaseResponse_numeric_fields.json")
      #expect(numeric.diagnostics.filter { $0.kind == .expiresNotAfterPurchase }.count == 2)
      #expect(
        numeric.diagnostics.contains { $0.originalTransactionID == "original_transaction_id_value" }
      )
    }

    @Test func monzaRenewalNotificationIsRecoveryEvidence() throws {
      let (document, evaluation) = try Self.evaluate(
        "notifications_v1/monza__renewal_with_unified_receipt_RENEWAL.json")
      let subscription = try #require(evaluation.entitlements.first)
      #expect(subscription.periods.last?.interval.end.millisecondsSince1970 == 1_594_910_502_000)
      #expect(
        document.billingRecoveries.first?.renewedAt == subscription.periods.last?.interval.start)
      // The 4-second lapse before the renewal is shorter than the sandbox retry window (10 min).
      #expect(subscription.lapses.last?.cause == .billingError)
      #expect(subscription.lapses.dropLast().allSatisfy { $0.cause == .unknown })
    }

    @Test func xcodeFractionalMillisecondsAreTruncated() throws {
      let transaction = try #require(
        try DocumentReader.readUnverified(
          Array(try fixtureData("jws_v2/apple-asl-python__xcode-signed-transaction.jws"))
        ).document as? AppStoreTransaction)
      #expect(transaction.entry?.purchaseDate?.millisecondsSince1970 == 1_697_679_936_049)
      #expect(transaction.entry?.expiresDate?.millisecondsSince1970 == 1_700_358_336_049)
      #expect(transaction.timestamp?.millisecondsSince1970 == 1_697_679_936_056)
      #expect(transaction.entry?.isInIntroOfferPeriod == true)
    }

    @Test func appleSyntheticRenewalInfo() throws {
      let info = try #require(
        try DocumentReader.readUnverified(
          Array(try fixtureData("jws_v2/apple-asl-python__signedRenewalInfo.json"))
        )
        .renewalInfo.first)
      #expect(info.isInBillingRetryPeriod == true)
      #expect(info.gracePeriodExpiresDate?.millisecondsSince1970 == 1_698_148_900_000)
      #expect(info.expirationIntent == .customerCancelled)
      #expect(info.autoRenewProductID == "com.example.product.2")
      #expect(info.productID == "com.example.product")
    }
  }
}

extension EntryCoverage {
  var isUpgradeCut: Bool {
    if case .endedByUpgrade = disposition { return true }
    return false
  }
}
