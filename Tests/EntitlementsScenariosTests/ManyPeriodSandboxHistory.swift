import Entitlements
import EntitlementsScenarios
import EntitlementsTesting
import Foundation
import Testing

/// A sandbox history of many short periods, the shape of a tester's receipt: a monthly plan
/// lasts 5 minutes, renews at most 6 times, and is bought again after gaps of seconds to
/// minutes (now and then hours or days). It is made here, by ``TimelineSimulator``, and
/// committed as `Scenarios/sandbox-36-periods-with-minute-gaps.json`, so that pictures of a
/// many-period history are checked on every clone (real receipts live outside the repository).
enum ManyPeriodSandboxHistory {
  static let fileName = "sandbox-36-periods-with-minute-gaps.json"
  static let product: ProductID = "com.example.pro.monthly"
  /// 2020-03-02T14:00:00Z.
  static let start = Instant(millisecondsSince1970: 1_583_157_600_000)
  /// Entries in each period: the purchase and its renewals (7 when the sandbox stops renewing
  /// by itself after 6, fewer when the tester turns auto-renew off).
  static let entriesPerPeriod = [
    7, 1, 3, 6, 2, 5, 1, 4, 7, 2, 1, 3, 1, 1, 6, 2, 4, 1,
    7, 3, 1, 5, 2, 1, 1, 4, 6, 1, 2, 3, 7, 1, 1, 5, 2, 3,
  ]
  /// The gap before each later period, in seconds: mostly a minute or a few, as a tester buys
  /// again; a few hours and days, as real receipts have between test sessions.
  static let gapSeconds: [Int64] = [
    17, 50, 60, 75, 300, 90, 120, 45, 7_200, 150, 180, 30, 240, 65, 600, 80, 100, 172_800,
    40, 130, 55, 200, 70, 18, 1_200, 260, 110, 32_400, 140, 90, 170, 20, 210, 280, 35,
  ]

  static func simulate() throws -> SimulatedTimeline {
    let catalog = ProductCatalog([
      CatalogProduct(
        id: product, type: .autoRenewable, duration: CalendarPeriod(1, .month),
        entitlement: "pro")
    ])
    let length = FixedDuration.minutes(5)
    var events: [CustomerEvent] = []
    var purchase = start
    for (index, entries) in entriesPerPeriod.enumerated() {
      // Inside the period's last entry, unless the sandbox stops by itself after 6 renewals.
      if entries < 7 {
        events.append(.autoRenewOff(at: purchase + length * Int64(entries - 1) + .minutes(1)))
      }
      let end = purchase + length * Int64(entries)
      if index < gapSeconds.count {
        purchase = end + .seconds(gapSeconds[index])
        events.append(.subscribe(at: purchase))
      } else {
        return try TimelineSimulator(catalog: catalog, environment: .sandbox)
          .simulate(product: product, start: start, events: events, until: end + .hours(1))
      }
    }
    preconditionFailure("one more period than gaps")
  }

  /// The scenario file, with its checks: the periods (the entries merged where they touch,
  /// computed here without the engine), states in a 17-second gap and at the end.
  static func scenarioJSON() throws -> String {
    let timeline = try simulate()
    var periods: [(start: Instant, end: Instant)] = []
    for entry in timeline.entries {
      guard let start = entry.purchaseDate, let end = entry.expiresDate else { continue }
      if let last = periods.last, last.end == start {
        periods[periods.count - 1].end = end
      } else {
        periods.append((start, end))
      }
    }
    func quoted(_ instant: Instant?) -> String { instant.map { "\"\($0)\"" } ?? "null" }
    let transactions = timeline.entries.map { entry in
      #"    {"product_id": "\#(entry.productID)", "transaction_id": "\#(entry.transactionID)", "#
        + #""original_transaction_id": "\#(entry.originalTransactionID)","#
        + "\n     \"purchase_date\": \(quoted(entry.purchaseDate)), "
        + "\"expires_date\": \(quoted(entry.expiresDate))}"
    }
    let expected = periods.map {
      #"      {"start": \#(quoted($0.start)), "end": \#(quoted($0.end))}"#
    }
    let renewal = timeline.renewalInfo
    let gapMiddle = periods[0].end + .milliseconds(8_500)
    return """
      {
        "name": "Sandbox: 36 periods of 5-minute renewals, minutes apart",
        "notes": "A tester's receipt: a monthly plan lasts 5 minutes in the sandbox and renews \
      at most 6 times; the tester turns auto-renew off or lets it stop, and buys again seconds \
      to minutes later (twice after hours, once after two days). Made by TimelineSimulator \
      (Tests/EntitlementsScenariosTests/ManyPeriodSandboxHistory.swift), which checks that \
      this file is what it sends.",
        "environment": "sandbox",
        "products": [
          {"id": "\(product)", "type": "autoRenewable", "duration": "P1M", "entitlement": "pro"}
        ],
        "transactions": [
      \(transactions.joined(separator: ",\n"))
        ],
        "pendingRenewalInfo": [
          {"original_transaction_id": "\(renewal.originalTransactionID)", \
      "auto_renew_status": "\(renewal.autoRenewStatus == true ? 1 : 0)", \
      "expiration_intent": "\(renewal.rawExpirationIntent ?? 0)"}
        ],
        "expect": [
          {"periods": [
      \(expected.joined(separator: ",\n"))
          ]},
          {"at": \(quoted(start + .minutes(2))), "state": "active", \
      "expiresAt": \(quoted(periods[0].end))},
          {"at": \(quoted(gapMiddle)), "state": "expired", "entitled": false},
          {"at": \(quoted(periods[periods.count - 1].end)), "state": "expired", \
      "reason": "voluntary"},
          {"diagnostics": 0}
        ]
      }

      """
  }
}

@Suite("A many-period sandbox history, made by the simulator")
struct ManyPeriodSandboxHistoryTests {
  /// The committed file is the simulator's output: regenerate it rather than edit it.
  @Test func theCommittedFileIsWhatTheSimulatorSends() throws {
    let generated = try ManyPeriodSandboxHistory.scenarioJSON()
    let url = scenariosDirectory.appendingPathComponent(ManyPeriodSandboxHistory.fileName)
    let committed = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    if committed != generated {
      let fresh = FileManager.default.temporaryDirectory
        .appendingPathComponent(ManyPeriodSandboxHistory.fileName)
      try generated.write(to: fresh, atomically: true, encoding: .utf8)
      Issue.record(
        "Scenarios/\(ManyPeriodSandboxHistory.fileName) differs: cp \(fresh.path) Scenarios/")
    }
  }

  @Test func itHasTheShapeOfATestersReceipt() throws {
    let scenario = try Scenario(
      json: Array(try ManyPeriodSandboxHistory.scenarioJSON().utf8), file: "generated")
    let pro = try #require(scenario.evaluate()["pro"])
    #expect(pro.periods.count == ManyPeriodSandboxHistory.entriesPerPeriod.count)
    #expect(pro.periods.count >= 35)
    #expect(scenario.environment == .sandbox)
    let gaps = pro.lapses.map { $0.interval.end - $0.interval.start }
    #expect(gaps.filter { $0 < .minutes(5) }.count >= 25, "mostly minute-long gaps")
    #expect(gaps.contains { $0 >= .days(1) }, "and a long one, which the axis cuts")
  }
}
