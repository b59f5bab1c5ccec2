import Foundation
import Testing

@testable import Entitlements

extension RealDocuments {
  /// Apple's own verdicts (SPEC §10): for every real v2 notification that states Apple's
  /// status (`data.status`), the documents of its source signed at or before it, folded, give
  /// our status at its `signedDate`; ours must be Apple's.
  @Suite("Agreement with Apple's own statuses in real notifications")
  struct AppleAgreementTests {
    /// The sources of real notifications, each one subscriber's documents. `jws_v2/` is left
    /// out: its session-pro-backend notifications are 14 of the 15 in
    /// `notifications_v2/session-pro-backend` (the same JWS strings), and its apple-asl-python
    /// notifications are Apple's synthetic test payloads (a `LocalTesting` one with placeholder
    /// JWS, a `TEST` signed by Apple's test CA), no subscriber's history (MANIFEST.txt).
    static let sources = [
      "notifications_v2/geniusparenting-strapi/documents.json",
      "notifications_v2/session-pro-backend/documents.json",
      "notifications_v2/soulmate-server/documents.json",
      "notifications_v2/odeme-entegrasyonu/documents.json",
      "notifications_v2/apple-forums-736694/example1_expired_voluntary.derived.json",
    ]

    /// Every document a source holds: its JWS strings (`jws`, `signedPayload`) and decoded
    /// notifications (`notification`), read; duplicates (a notification stored twice) are
    /// documents too, as a backend would have them.
    static func documents(of file: String) throws -> [AppStoreDocument] {
      func collect(_ value: JSONValue) -> [JSONValue] {
        switch value {
        case .object(let members):
          if members["notificationType"] != nil { return [value] }
          return members.sorted { $0.key < $1.key }.flatMap { key, value -> [JSONValue] in
            if key == "jws" || key == "signedPayload", case .string = value { return [value] }
            return collect(value)
          }
        case .array(let elements): return elements.flatMap(collect)
        default: return []
        }
      }
      return try collect(try JSONValue(parsing: Array(try fixtureData(file)))).map { value in
        if case .string(let compact) = value {
          return try DocumentReader.readUnverified(Array(compact.utf8))
        }
        return try DocumentReader.read(value: value)
      }
    }

    /// Our status against Apple's at each notification of a source that states one: how many
    /// notifications were compared, the distinct statuses among them (a notification stored
    /// twice states one status twice), and the disagreements, described.
    static func disagreements(in file: String) throws -> (
      compared: Int, distinct: Set<AppleStatusReport>, disagreements: [String]
    ) {
      let documents = try Self.documents(of: file)
      var compared = 0
      var distinct: Set<AppleStatusReport> = []
      var disagreements: [String] = []
      for document in documents {
        guard case .notificationV2(let notification) = document,
          let report = notification.appleStatuses.first
        else { continue }
        var record = SubscriberRecord()
        for other in documents where (other.timestamp ?? .distantPast) <= report.at {
          record.fold(other)
        }
        let evaluation = Evaluator().evaluate(record.history)
        let entitlement = evaluation.entitlements.first {
          $0.appleAgreement.contains { $0.report == report }
        }
        compared += 1
        distinct.insert(report)
        guard let agreement = entitlement?.appleAgreement.first(where: { $0.report == report })
        else {
          disagreements.append("\(file): no entitlement for \(report)")
          continue
        }
        if !agreement.agrees {
          disagreements.append(
            "\(file): \(notification.rawNotificationType ?? "?")/\(notification.rawSubtype ?? "-") "
              + "\(agreement)")
        }
      }
      return (compared, distinct, disagreements)
    }

    /// The notifications where the source demonstrably lacks the history Apple had (MANIFEST
    /// lists the gaps): a `DID_RENEW` signed before its own renewal's purchase date says the
    /// renewed period is still active, and that period's transaction is not in the source.
    static let lacksHistory: [String: Set<String>] = [
      // The source's earliest document: a renewal signed 33 s before its own purchase date.
      // The transaction it renewed, which covered that instant, is in no document of the
      // source (OracleFixtureTests says the same of the jws_v2 copy).
      "notifications_v2/session-pro-backend/documents.json": [
        "DID_RENEW/- at 2025-10-01T07:08:38.835Z Apple says active, we say notSubscribed"
      ],
      "notifications_v2/geniusparenting-strapi/documents.json": [
        // Nothing before 1753689933000 but one monthly transaction: signed 21 s before it.
        "DID_RENEW/- at 2025-07-28T08:05:12.307Z Apple says active, we say expired",
        // Inside the missing yearly renewals [1753834623000, 1753838943000).
        "DID_RENEW/- at 2025-07-30T01:28:20.320Z Apple says active, we say expired",
      ],
    ]

    @Test(arguments: sources)
    func ourStatusIsApplesAtEverySignedDate(_ file: String) throws {
      let (compared, distinct, disagreements) = try Self.disagreements(in: file)
      print(
        "\(file): Apple's status compared at \(compared) notifications (\(distinct.count) "
          + "distinct statuses), \(disagreements.count) disagree where the source lacks history")
      #expect(compared > 0)
      // Exactly the known gaps: a new disagreement fails, and so does a known one that went.
      #expect(
        Set(disagreements) == Set((Self.lacksHistory[file] ?? []).map { "\(file): \($0)" }),
        "\(disagreements)")
    }

    /// The count the issue asks for: every status-bearing notification of the fixtures.
    @Test func everyStatusOfTheFixturesIsCompared() throws {
      let results = try Self.sources.map { try Self.disagreements(in: $0) }
      let total = results.map(\.compared).reduce(0, +)
      let distinct = results.map(\.distinct.count).reduce(0, +)
      print(
        "Apple's own status compared at \(total) real notifications, \(distinct) distinct "
          + "statuses (the others are notifications stored twice)")
      #expect(total == 173)
      // geniusparenting stores 155 rows carrying a status, of 110 distinct notifications.
      #expect(distinct == 128)
    }

    /// The production notification of the forums thread, whose renewal info omits
    /// `expirationIntent`: its subtype and auto-renew off say voluntary (SPEC §5).
    @Test func aProductionExpiryWithoutIntentIsVoluntary() throws {
      var record = SubscriberRecord()
      for document in try Self.documents(
        of: "notifications_v2/apple-forums-736694/example1_expired_voluntary.derived.json")
      {
        record.fold(document)
      }
      let history = record.history
      #expect(history.environment == .production)
      #expect(history.renewalInfo.allSatisfy { $0.rawExpirationIntent == nil })
      let evaluation = try #require(Evaluator().evaluate(history).entitlements.first)
      let signed = Instant(millisecondsSince1970: 1_693_479_743_603)
      #expect(evaluation.status(at: signed).reason == .voluntary)
      #expect(evaluation.status(at: signed).state == .expired)
    }
  }
}
