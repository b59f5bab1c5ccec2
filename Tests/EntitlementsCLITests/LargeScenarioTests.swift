import Entitlements
import EntitlementsCLI
import EntitlementsScenarios
import Foundation
import Testing

/// A scenario is told by what it is, at any size (issue: the tool as trustworthy as the
/// library): a customer's history of 320 v2 notifications pasted under `documents`, over 5 MB
/// as Apple's JWS with their certificate chains make it, is checked and explained as a
/// scenario.
@Suite("A scenario of any size")
struct LargeScenarioTests {
  /// Bytes that look random, the same each run (SplitMix64).
  struct Noise {
    var state: UInt64
    mutating func byte() -> UInt8 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }
  }

  static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }

  /// A JWS as Apple signs it: the header carries a chain of three certificates (here random
  /// bytes of their sizes: a scenario does not verify), the signature 64 bytes.
  static func jws(_ payload: String, random: inout Noise) -> String {
    let certificates = [1_960, 1_430, 800].map { size in
      Data((0..<size).map { _ in random.byte() }).base64EncodedString()
    }
    let header = #"{"alg":"ES256","x5c":["\#(certificates.joined(separator: #"",""#))"]}"#
    let signature = (0..<64).map { _ in random.byte() }
    return [base64URL(Array(header.utf8)), base64URL(Array(payload.utf8)), base64URL(signature)]
      .joined(separator: ".")
  }

  /// Monthly renewals of one subscription, each as Apple's DID_RENEW notification.
  static func scenario(months: Int) -> String {
    var random = Noise(state: 46)
    let start: Int64 = 1_577_836_800_000  // 2020-01-01
    let month: Int64 = 2_592_000_000  // 30 days
    let notifications = (0..<months).map { index in
      let from = start + Int64(index) * month
      let transaction = """
        {"transactionId":"\(2_000_000_100_000_000 + index)","originalTransactionId":"2000000100000000",\
        "webOrderLineItemId":"\(2_000_000_900_000_000 + index)","bundleId":"com.example",\
        "productId":"com.example.monthly","purchaseDate":\(from),"originalPurchaseDate":\(start),\
        "expiresDate":\(from + month),"quantity":1,"type":"Auto-Renewable Subscription",\
        "inAppOwnershipType":"PURCHASED","signedDate":\(from + 1000),"environment":"Production",\
        "transactionReason":"RENEWAL","storefront":"USA","price":4990,"currency":"USD"}
        """
      let renewal = """
        {"originalTransactionId":"2000000100000000","autoRenewProductId":"com.example.monthly",\
        "productId":"com.example.monthly","autoRenewStatus":1,"signedDate":\(from + 1000),\
        "environment":"Production","recentSubscriptionStartDate":\(start),\
        "renewalDate":\(from + month)}
        """
      return """
        {"notificationType": "DID_RENEW", "notificationUUID": "uuid-\(index)", "version": "2.0",
         "signedDate": \(from + 2000), "data": {"appAppleId": 1234, "bundleId": "com.example",
         "environment": "Production", "status": 1,
         "signedTransactionInfo": "\(jws(transaction, random: &random))",
         "signedRenewalInfo": "\(jws(renewal, random: &random))"}}
        """
    }
    let end = start + Int64(months) * month
    return """
      {"name": "\(months) renewals pasted as Apple sent them",
       "products": [{"id": "com.example.monthly", "type": "autoRenewable", "duration": "P1M",
         "entitlement": "premium"}],
       "documents": [\(notifications.joined(separator: ",\n"))],
       "expect": [
         {"periods": [{"start": "\(Instant(millisecondsSince1970: start))",
                       "end": "\(Instant(millisecondsSince1970: end))"}]},
         {"at": "\(Instant(millisecondsSince1970: end - 1))", "state": "active",
          "willRenew": true},
         {"changes": [{"at": "\(Instant(millisecondsSince1970: start))", "state": "active"},
                      {"at": "\(Instant(millisecondsSince1970: end))", "state": "expired"}]}]}
      """
  }

  @Test func aScenarioOfFiveMegabytesIsCheckedAndExplained() throws {
    let text = Self.scenario(months: 320)
    let size = text.utf8.count
    #expect(size > 5_000_000, "\(size) bytes")
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("large-scenario-\(UUID().uuidString).json").path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let looks = Scenario.looksLikeScenario(Array(text.utf8))
    #expect(looks)

    let check = EntitlementsTool.run(["check", file])
    #expect(check.status == 0, "\(check.output)\(check.errors)")
    #expect(check.output.contains("PASS  320 renewals pasted as Apple sent them"))

    let explain = EntitlementsTool.run(["explain", file, "--json", "--at", "2020-06-01"])
    #expect(explain.status == 0, "\(explain.errors)")
    let value = try JSONValue(parsing: Array(explain.output.utf8))
    #expect(value["entitlements"]?[0]?["status"]?["state"] == .string("active"))
    #expect(value["entitlements"]?[0]?["periods"]?[0]?["transactions"]?[319] != nil)
  }

  /// Only the top level's keys count: `name` and `expect` inside a value do not make a
  /// scenario, and a file of neither kind says what each lacks.
  @Test(
    arguments: [
      (#"{"name": "n", "expect": []}"#, [String]?.some([])),
      ("\u{FEFF} {\"expect\": [], \"name\": \"n\"}", []),
      (#"{"name": "n", "documents": [{"expect": 1}]}"#, ["expect"]),
      (#"{"data": {"name": "n", "expect": []}, "status": 0}"#, ["name", "expect"]),
      (#"{"a": "x\"expect\":", "b": [{"}": "]"}], "expect": 1, "name": 2}"#, []),
      (#"["name", "expect"]"#, nil),
      ("", nil),
    ] as [(String, [String]?)])
  func onlyTheTopLevelKeysCount(json: String, missing: [String]?) {
    #expect(Scenario.missingScenarioKeys(Array(json.utf8)) == missing)
  }

  @Test func neitherAScenarioNorADocumentSaysWhatEachLacks() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("neither-\(UUID().uuidString).json").path
    try #"{"name": "draft", "transactions": []}"#.write(
      toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["explain", file])
    #expect(run.status == 2)
    #expect(run.errors.contains("unrecognized document: none of notificationType"))
    #expect(run.errors.contains(#"nor a scenario: its top level lacks "expect""#))
  }
}
