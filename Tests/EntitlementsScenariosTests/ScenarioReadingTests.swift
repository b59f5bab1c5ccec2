import Entitlements
import EntitlementsScenarios
import Testing

@Suite("Scenario files are read strictly")
struct ScenarioReadingTests {
  /// A scenario is told from Apple's documents by a look at its keys, in any collection of
  /// bytes, at any size.
  @Test func aScenarioIsToldByItsKeys() {
    let scenario = Array(#"{"name": "n", "expect": []}"#.utf8)
    #expect(Scenario.looksLikeScenario(scenario))
    #expect(Scenario.looksLikeScenario(scenario.lazy.map { $0 }))
    #expect(!Scenario.looksLikeScenario(Array(#"{"status": 0, "receipt": {}}"#.utf8)))
    // At any size: a megabyte of space before the end is still a scenario.
    let padded =
      Array(scenario.dropLast()) + Array(repeating: UInt8(ascii: " "), count: 1 << 20)
      + [UInt8(ascii: "}")]
    let looks = Scenario.looksLikeScenario(padded)
    #expect(looks)
  }

  struct Bad: CustomTestStringConvertible, Sendable {
    var name: String
    var json: String
    var error: String
    var testDescription: String { name }
  }

  static let bad: [Bad] = [
    .init(
      name: "typo at the top", json: #"{"name": "x", "expectd": []}"#,
      error: #"f.json: expectd: unknown key (did you mean "expect"?)"#),
    .init(name: "no expect", json: #"{"name": "x"}"#, error: "f.json: expect: required"),
    .init(name: "no name", json: #"{"expect": []}"#, error: "f.json: name: required"),
    .init(
      name: "typo in a check",
      json: #"{"name": "x", "expect": [{"at": "2017-01-01", "stat": "active"}]}"#,
      error: #"f.json: expect[0].stat: unknown key (did you mean "state"?)"#),
    .init(
      name: "state without at", json: #"{"name": "x", "expect": [{"state": "active"}]}"#,
      error: #"f.json: expect[0].state: needs "at": the instant it is checked at"#),
    .init(
      name: "unknown state",
      json: #"{"name": "x", "expect": [{"at": "2017-01-01", "state": "on"}]}"#,
      error:
        #"f.json: expect[0].state: "on" is not one of "active", "gracePeriod", "billingRetry", "expired", "revoked", "notSubscribed""#
    ),
    .init(
      name: "impossible date", json: #"{"name": "x", "expect": [{"at": "2017-02-30"}]}"#,
      error: "f.json: expect[0].at: \"2017-02-30\" is not a date"),
    .init(
      name: "typo in a transaction",
      json:
        #"{"name": "x", "transactions": [{"product_id": "p", "transaction_id": "1", "purchase_dat": "2017-01-01"}], "expect": []}"#,
      error: #"f.json: transactions[0].purchase_dat: unknown key (did you mean "purchase_date"?)"#),
    .init(
      name: "unreadable transaction date",
      json:
        #"{"name": "x", "transactions": [{"product_id": "p", "transaction_id": "1", "purchase_date": "soon"}], "expect": []}"#,
      error: "f.json: transactions[0].purchase_date: \"soon\" is not a date"),
    .init(
      name: "transaction without id",
      json: #"{"name": "x", "transactions": [{"product_id": "p"}], "expect": []}"#,
      error: "f.json: transactions[0].transaction_id: missing"),
    .init(
      name: "non-renewing without duration",
      json: #"{"name": "x", "products": [{"id": "p", "type": "nonRenewing"}], "expect": []}"#,
      error: "f.json: products[0].duration: required for a nonRenewing product"),
    .init(
      name: "duration in months for a fixed length",
      json: #"{"name": "x", "policy": {"billingRetryLimit": "P2M"}, "expect": []}"#,
      error: "f.json: policy.billingRetryLimit: \"P2M\" is not a fixed length"),
    .init(
      name: "period without end",
      json: #"{"name": "x", "expect": [{"periods": [{"start": "2017-01-01"}]}]}"#,
      error: "f.json: expect[0].periods[0].end: required (null for a period that never ends)"),
    .init(
      name: "wrong type", json: #"{"name": 7, "expect": []}"#,
      error: "f.json: name: expected a string, found a number"),
    .init(
      name: "not JSON", json: #"{"name": "x",}"#,
      error: "f.json: not JSON: line 1, column 14: expected a member name in quotes"),
    .init(
      name: "not JSON on a later line", json: "{\"name\": \"x\",\n  \"é\": [}",
      error: "f.json: not JSON: line 2, column 9: expected a value"),
    .init(
      name: "repeated key at the top", json: #"{"name": "x", "name": "y", "expect": []}"#,
      error: "f.json: name: repeated key (again at line 1, column 15)"),
    .init(
      name: "repeated key in a check",
      json:
        "{\"name\": \"x\", \"expect\": [\n  {\"at\": \"2017-01-01\", \"state\": \"active\",\n   \"at\": \"2017-02-01\"}]}",
      error: "f.json: expect[0].at: repeated key (again at line 3, column 4)"),
    .init(
      name: "expect checks nothing", json: #"{"name": "x", "expect": []}"#,
      error: "f.json: expect: checks nothing"),
    .init(
      name: "a check that compares nothing",
      json: #"{"name": "x", "expect": [{"diagnostics": 0}, {"at": "2017-01-01"}]}"#,
      error: #"f.json: expect[1]: checks nothing: give at least one of "periods""#),
    .init(
      name: "readable names no release",
      json:
        #"{"name": "x", "releases": [{"id": "2017-02", "date": "2017-02-01"}, {"id": "2017-03", "date": "2017-03-01"}], "expect": [{"readable": ["2017-02", "2017-13"]}]}"#,
      error:
        #"f.json: expect[0].readable[1]: "2017-13" is not the id of a release (releases: 2017-02, 2017-03)"#
    ),
    .init(
      name: "readable without releases", json: #"{"name": "x", "expect": [{"readable": ["a"]}]}"#,
      error:
        #"f.json: expect[0].readable[0]: "a" is not the id of a release (the scenario has no releases)"#
    ),
    .init(
      name: "a change without state",
      json: #"{"name": "x", "expect": [{"changes": [{"at": "2017-01-01"}]}]}"#,
      error: "f.json: expect[0].changes[0].state: required"),
    .init(
      name: "a change without instant",
      json: #"{"name": "x", "expect": [{"changes": [{"state": "active"}]}]}"#,
      error: "f.json: expect[0].changes[0].at: required"),
    .init(
      name: "a change with an unknown reason",
      json:
        #"{"name": "x", "expect": [{"changes": [{"at": "2017-01-01", "state": "expired", "reason": "bored"}]}]}"#,
      error: #"f.json: expect[0].changes[0].reason: "bored" is not one of "voluntary""#),
    .init(
      name: "changes out of order",
      json:
        #"{"name": "x", "expect": [{"changes": [{"at": "2017-02-01", "state": "expired"}, {"at": "2017-01-01", "state": "active"}]}]}"#,
      error:
        "f.json: expect[0].changes[1].at: 2017-01-01T00:00:00Z is not after the change before it"),
    .init(
      name: "notSubscribed as a change",
      json:
        #"{"name": "x", "expect": [{"changes": [{"at": "2017-01-01", "state": "notSubscribed"}]}]}"#,
      error: "f.json: expect[0].changes[0].state: notSubscribed is never a change"),
    .init(
      name: "a reason for an active change",
      json:
        #"{"name": "x", "expect": [{"changes": [{"at": "2017-01-01", "state": "active", "reason": "refund"}]}]}"#,
      error: "f.json: expect[0].changes[0].reason: only an expired or revoked status has a reason"),
    .init(
      name: "access that contradicts the state",
      json:
        #"{"name": "x", "expect": [{"changes": [{"at": "2017-01-01", "state": "billingRetry", "entitled": true}]}]}"#,
      error: "f.json: expect[0].changes[0].entitled: billingRetry is never entitled"),
    .init(
      name: "a millisecond string of fewer than 5 digits",
      json:
        #"{"name": "x", "transactions": [{"product_id": "p", "transaction_id": "1", "purchase_date": "2017"}], "expect": []}"#,
      error: #"f.json: transactions[0].purchase_date: "2017" is not a date"#),
    .init(
      name: "milliseconds with an exponent",
      json:
        #"{"name": "x", "transactions": [{"product_id": "p", "transaction_id": "1", "purchase_date_ms": 1e18}], "expect": []}"#,
      error:
        "f.json: transactions[0].purchase_date_ms: 1e18 is not a millisecond timestamp: expected an integer"
    ),
    .init(
      name: "fractional milliseconds",
      json:
        #"{"name": "x", "transactions": [{"product_id": "p", "transaction_id": "1", "expires_date": 1487577600000.5}], "expect": []}"#,
      error:
        "f.json: transactions[0].expires_date: 1487577600000.5 is not a millisecond timestamp"),
    .init(
      name: "a date where milliseconds are expected",
      json:
        #"{"name": "x", "pendingRenewalInfo": [{"original_transaction_id": "1", "grace_period_expires_date_ms": "2017-02-20"}], "expect": []}"#,
      error:
        #"f.json: pendingRenewalInfo[0].grace_period_expires_date_ms: "2017-02-20" is not milliseconds"#
    ),
    .init(
      name: "a typo in a change",
      json:
        #"{"name": "x", "expect": [{"changes": [{"at": "2017-01-01", "sate": "active"}]}]}"#,
      error: #"f.json: expect[0].changes[0].sate: unknown key (did you mean "state"?)"#),
    .init(
      name: "product listed twice",
      json:
        #"{"name": "x", "products": [{"id": "p", "type": "consumable"}, {"id": "p", "type": "consumable"}], "expect": []}"#,
      error: #"f.json: products[1].id: "p" is listed twice"#),
    .init(
      name: "an unreadable knownAt",
      json: #"{"name": "x", "expect": [{"knownAt": "soon", "state": "active"}]}"#,
      error: #"f.json: expect[0].knownAt: "#),
    .init(
      name: "a product unlocking an empty list",
      json:
        #"{"name": "x", "products": [{"id": "p", "type": "nonConsumable", "entitlements": []}], "expect": []}"#,
      error: #"f.json: products[0].entitlements: expected at least one"#),
    .init(
      name: "a product unlocking a number",
      json:
        #"{"name": "x", "products": [{"id": "p", "type": "nonConsumable", "entitlements": ["a", 2]}], "expect": []}"#,
      error: #"f.json: products[0].entitlements[1]: expected an entitlement id, found a number"#),
  ]

  @Test(arguments: bad)
  func badFilesNameTheFileThePathAndTheProblem(_ test: Bad) {
    do {
      _ = try Scenario(json: Array(test.json.utf8), file: "f.json")
      Issue.record("accepted \(test.json)")
    } catch {
      #expect(error.description.hasPrefix(test.error), "\(error)")
    }
  }

  /// SPEC §10: the documents' environment applies unless the author sets one; a pasted
  /// verifyReceipt response that carries no receipt is an error, not an empty history.
  @Test(arguments: [
    (#""environment": "Sandbox","#, "", StoreEnvironment.sandbox),
    (#""environment": "Sandbox","#, #""environment": "production","#, .production),
    ("", "", .production),
  ])
  func theDocumentsEnvironmentApplies(
    document: String, scenario: String, expected: StoreEnvironment
  )
    throws
  {
    let json = """
      {"name": "x", \(scenario) "documents": [{"transactionId": "2000000000000001",
       "originalTransactionId": "2000000000000001", "productId": "p", \(document)
       "purchaseDate": 1750000000000, "expiresDate": 1750000300000}],
       "expect": [{"diagnostics": 0}]}
      """
    #expect(try Scenario(json: Array(json.utf8), file: "f.json").environment == expected)
  }

  @Test func aPastedReceiptWithAnErrorStatusIsAnError() {
    let json = #"{"name": "x", "receipt": {"status": 21007}, "expect": [{"diagnostics": 0}]}"#
    #expect {
      try Scenario(json: Array(json.utf8), file: "f.json")
    } throws: { error in
      "\(error)".contains("receipt: verifyReceipt status 21007")
    }
  }

  @Test func aByteOrderMarkIsAccepted() throws {
    let json = #"{"name": "with a BOM", "expect": [{"diagnostics": 0}]}"#
    let scenario = try Scenario(json: [0xEF, 0xBB, 0xBF] + Array(json.utf8), file: "f.json")
    #expect(scenario.name == "with a BOM")
    #expect(ScenarioRunner.run(scenario).passed)
  }

  /// A catalog file (`--catalog`) is written by people too: read as strictly as a scenario.
  static let badCatalogs: [Bad] = [
    .init(
      name: "catalog: a repeated id in an array of products",
      json: "[{\"id\": \"a\", \"type\": \"consumable\",\n  \"id\": \"b\"}]",
      error: "p.json: products[0].id: repeated key (again at line 2, column 3): write each key once"
    ),
    .init(
      name: "catalog: a repeated key in an object of products",
      json: #"{"products": [{"id": "a", "type": "consumable", "type": "nonConsumable"}]}"#,
      error: "p.json: products[0].type: repeated key (again at line 1, column 49)"),
    .init(
      name: "catalog: a repeated products key",
      json: #"{"products": [], "products": []}"#,
      error: "p.json: products: repeated key (again at line 1, column 18)"),
    .init(
      name: "catalog: not JSON, with line and column",
      json: "[{\"id\": \"a\",\n  \"type\": consumable}]",
      error: "p.json: not JSON: line 2, column 11: expected a value"),
    .init(
      name: "catalog: an unknown key",
      json: #"[{"id": "a", "type": "consumable", "entitlment": "x"}]"#,
      error: #"p.json: products[0].entitlment: unknown key (did you mean "entitlement"?)"#),
  ]

  @Test(arguments: badCatalogs)
  func badCatalogsNameTheFileThePathAndTheProblem(_ test: Bad) {
    do {
      _ = try Scenario.catalog(json: Array(test.json.utf8), file: "p.json")
      Issue.record("accepted \(test.json)")
    } catch {
      #expect(error.description.hasPrefix(test.error), "\(error)")
    }
  }

  @Test(arguments: [
    #"[{"id": "a", "type": "autoRenewable", "duration": "P1M", "entitlement": "pro"}]"#,
    #"{"products": [{"id": "a", "type": "autoRenewable", "duration": "P1M", "entitlement": "pro"}]}"#,
  ])
  func aCatalogWithAByteOrderMarkIsRead(_ json: String) throws {
    let catalog = try Scenario.catalog(json: [0xEF, 0xBB, 0xBF] + Array(json.utf8), file: "p.json")
    #expect(catalog["a"]?.entitlement == "pro")
  }

  @Test func pastedAppleDocumentsAreReadTolerantly() throws {
    let json = #"""
      {"name": "pasted", "products": [{"id": "m", "type": "autoRenewable"}],
       "receipt": {"status": 0, "unknown_apple_field": 1, "receipt": {"in_app": [
         {"product_id": "m", "transaction_id": "1", "purchase_date_ms": "1487577600000",
          "expires_date_ms": "1490000000000", "is_trial_period": "maybe"}]}},
       "expect": [{"diagnostics": 1}]}
      """#
    let scenario = try Scenario(json: Array(json.utf8), file: "f.json")
    #expect(
      scenario.readingDiagnostics.map(\.field) == ["receipt.receipt.in_app[0].is_trial_period"])
    #expect(ScenarioRunner.run(scenario).passed)
  }

  @Test func aFailingCheckReportsExpectedAndActual() throws {
    let json = #"""
      {"name": "wrong", "transactions": [{"product_id": "m", "transaction_id": "1",
         "purchase_date": "2017-01-01", "expires_date": "2017-02-01"}],
       "expect": [{"at": "2017-01-15", "state": "expired", "entitled": false},
                  {"periods": [{"start": "2017-01-01", "end": null}]}]}
      """#
    let result = ScenarioRunner.run(try Scenario(json: Array(json.utf8), file: "f.json"))
    #expect(
      result.failures.map(\.line) == [
        "expect[0].state: expected expired, got active",
        "expect[0].entitled: expected false, got true",
        "expect[1].periods: expected [2017-01-01T00:00:00Z – never], got "
          + "[2017-01-01T00:00:00Z – 2017-02-01T00:00:00Z]",
      ])
  }

  /// `changes` compares the whole list; `entitled` and `reason` where given (`null`: none).
  @Test(
    arguments: [
      (
        #"[{"at": "2017-01-01", "state": "active"}, {"at": "2017-02-01", "state": "expired"}]"#,
        nil
      ),
      (
        #"[{"at": "2017-01-01", "state": "active", "entitled": true, "reason": null}, {"at": "2017-02-01", "state": "expired", "entitled": false, "reason": "voluntary"}]"#,
        nil
      ),
      (
        #"[{"at": "2017-01-01", "state": "active"}]"#,
        "expect[0].changes: expected [2017-01-01T00:00:00Z active], got "
          + "[2017-01-01T00:00:00Z active, 2017-02-01T00:00:00Z expired (voluntary)]"
      ),
      (
        #"[{"at": "2017-01-01", "state": "active"}, {"at": "2017-02-01", "state": "expired", "reason": "unknown"}]"#,
        "expect[0].changes: expected [2017-01-01T00:00:00Z active, 2017-02-01T00:00:00Z expired "
          + "(unknown)], got [2017-01-01T00:00:00Z active, 2017-02-01T00:00:00Z expired (voluntary)]"
      ),
      (
        #"[{"at": "2017-01-01", "state": "active"}, {"at": "2017-02-01", "state": "expired", "reason": null}]"#,
        "expect[0].changes: expected [2017-01-01T00:00:00Z active, 2017-02-01T00:00:00Z expired "
          + "(no reason)], got [2017-01-01T00:00:00Z active, 2017-02-01T00:00:00Z expired (voluntary)]"
      ),
      (
        #"[{"at": "2017-01-01", "state": "active", "entitled": true}, {"at": "2017-02-01T00:00:00.001Z", "state": "expired"}]"#,
        "expect[0].changes: expected [2017-01-01T00:00:00Z active (entitled), "
          + "2017-02-01T00:00:00.001Z expired], got [2017-01-01T00:00:00Z active (entitled), "
          + "2017-02-01T00:00:00Z expired]"
      ),
    ] as [(String, String?)])
  func changesCompareTheWholeList(changes: String, failure: String?) throws {
    let json = #"""
      {"name": "changes", "transactions": [{"product_id": "m", "transaction_id": "1",
         "purchase_date": "2017-01-01", "expires_date": "2017-02-01"}],
       "pendingRenewalInfo": [{"original_transaction_id": "1", "auto_renew_status": "0",
         "expiration_intent": "1"}],
       "expect": [{"changes": \#(changes)}]}
      """#
    let result = ScenarioRunner.run(try Scenario(json: Array(json.utf8), file: "f.json"))
    #expect(result.failures.map(\.line) == (failure.map { [$0] } ?? []))
  }

  @Test func aCheckWithoutEntitlementNeedsExactlyOne() throws {
    let json = #"""
      {"name": "two", "transactions": [
         {"product_id": "a", "transaction_id": "1", "purchase_date": "2017-01-01", "expires_date": "2017-02-01"},
         {"product_id": "b", "transaction_id": "2", "purchase_date": "2017-01-01", "expires_date": "2017-02-01"}],
       "expect": [{"at": "2017-01-15", "state": "active"},
                  {"entitlement": "2", "at": "2017-01-15", "state": "active"},
                  {"entitlement": "9", "at": "2017-01-15", "state": "active"}]}
      """#
    let result = ScenarioRunner.run(try Scenario(json: Array(json.utf8), file: "f.json"))
    #expect(
      result.failures.map(\.line) == [
        "expect[0].entitlement: expected one entitlement (or name one), got 1, 2",
        "expect[2].entitlement: expected 9, got only 1, 2",
      ])
  }
}

/// A scenario read as known at an instant: hand-written transactions count from their own
/// dates (they have no signing date), pasted documents from theirs.
@Suite("Scenarios as known at an instant")
struct ScenarioKnownAtTests {
  /// January, then February refunded on February 10.
  static let json = #"""
    {"name": "x", "products": [{"id": "m", "type": "autoRenewable", "duration": "P1M",
      "entitlement": "premium"}],
     "transactions": [
       {"product_id": "m", "transaction_id": "1", "original_transaction_id": "1",
        "purchase_date": "2017-01-01", "expires_date": "2017-02-01"},
       {"product_id": "m", "transaction_id": "2", "original_transaction_id": "1",
        "purchase_date": "2017-02-01", "expires_date": "2017-03-01",
        "cancellation_date": "2017-02-10", "cancellation_reason": "0"}],
     "expect": [{"at": "2017-01-15", "state": "active"}]}
    """#

  @Test func handWrittenTransactionsCountFromTheirOwnDates() throws {
    func status(knownAt: String?) throws -> EntitlementStatus? {
      let scenario = try Scenario(
        json: Array(Self.json.utf8), file: "f.json",
        knownAt: try knownAt.map(Instant.init(parsing:)))
      return scenario.evaluate()["premium"]?.status(at: try Instant(parsing: "2017-02-05"))
    }
    // In hindsight the February renewal was refunded: voided, revoked from its purchase on.
    #expect(try status(knownAt: nil)?.state == .revoked)
    // As known on February 5, the refund had not happened: active to March 1.
    #expect(try status(knownAt: "2017-02-05")?.expiresAt == (try Instant(parsing: "2017-03-01")))
    // As known on January 15, the renewal had not been bought: active to February 1.
    let early = try Scenario(
      json: Array(Self.json.utf8), file: "f.json", knownAt: try Instant(parsing: "2017-01-15"))
    #expect(
      early.evaluate()["premium"]?.status(at: try Instant(parsing: "2017-01-15")).expiresAt
        == (try Instant(parsing: "2017-02-01")))
  }

  /// A check with `knownAt` is asked then, and compared with what was known then.
  @Test func aCheckKnownAtAnInstantComparesWithWhatWasKnownThen() throws {
    let checks = [
      (#"{"knownAt": "2017-02-05", "state": "active"}"#, true),
      (#"{"at": "2017-02-05", "state": "active"}"#, false),
      (#"{"knownAt": "2017-02-11", "at": "2017-02-05", "state": "revoked"}"#, true),
    ]
    for (check, passes) in checks {
      let json = Self.json.replacingOccurrences(
        of: #"[{"at": "2017-01-15", "state": "active"}]"#, with: "[\(check)]")
      let scenario = try Scenario(json: Array(json.utf8), file: "f.json")
      #expect(scenario.checks[0].at == (try Instant(parsing: "2017-02-05")))
      #expect(ScenarioRunner.run(scenario).passed == passes, "\(check)")
    }
  }
}
