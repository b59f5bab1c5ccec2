import Entitlements
import EntitlementsTesting
import Testing

/// Seeded mutations of realistic documents and of files of several documents: reading never
/// traps, and every document gives a typed error or a document whose problems are diagnostics
/// (SPEC §3: tolerant reading).
@Suite("Robustness: 100 000 mutated documents")
struct RobustnessTests {
  static let seeds: [String] = [
    """
    {"status": 0, "environment": "Sandbox",
     "receipt": {"receipt_creation_date_ms": "1490000000000", "in_app": [
       {"product_id": "m", "transaction_id": "1", "original_transaction_id": "1",
        "purchase_date_ms": "1487577600000", "expires_date_ms": "1487577900000",
        "is_trial_period": "false", "web_order_line_item_id": "9"}]},
     "latest_receipt_info": {"product_id": "m", "transaction_id": "2",
        "purchase_date": "2017-02-20 08:05:00 Etc/GMT", "expires_date": "1487578200000",
        "cancellation_date_ms": "1487577950000", "is_upgraded": true},
     "pending_renewal_info": [{"original_transaction_id": "1", "auto_renew_status": "0",
        "expiration_intent": "1", "grace_period_expires_date_ms": "1487578300000"}]}
    """,
    """
    {"notification_type": "RENEWAL", "environment": "PROD", "auto_renew_status": "true",
     "unified_receipt": {"latest_receipt_info": [{"product_id": "y", "transaction_id": "7",
       "original_transaction_id": "5", "purchase_date_pst": "2018-03-06 14:44:09 America/Los_Angeles",
       "purchase_date": "2018-03-06 22:44:09 Etc/GMT", "expires_date_ms": 1551912249000}],
       "pending_renewal_info": [{"original_transaction_id": "5", "is_in_billing_retry_period": "1"}]}}
    """,
    """
    {"transactionId": "23456", "originalTransactionId": "12345", "productId": "p",
     "purchaseDate": 1698148900000, "expiresDate": 1698149000000.5, "revocationDate": 1698148950000,
     "isUpgraded": true, "offerType": 1, "offerDiscountType": "FREE_TRIAL",
     "environment": "LocalTesting", "signedDate": 1698148900000}
    """,
    """
    {"notificationType": "DID_RENEW", "subtype": "BILLING_RECOVERY", "signedDate": 1759302518835,
     "data": {"status": 1, "environment": "Sandbox",
       "signedTransactionInfo": {"transactionId": "9", "originalTransactionId": "8",
         "productId": "p", "purchaseDate": 1759302552000, "expiresDate": 1759302732000},
       "signedRenewalInfo": {"originalTransactionId": "8", "autoRenewStatus": 1,
         "gracePeriodExpiresDate": 1759302832000}}}
    """,
    // The App Store Server API's responses (SPEC §10), with unsigned JWS.
    #"""
    {"revision": "r1", "hasMore": true, "environment": "Sandbox", "signedTransactions": ["eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDAwMDAwMDAwMiIsIm9yaWdpbmFsVHJhbnNhY3Rpb25JZCI6IjIwMDAwMDAwMDAwMDAwMDEiLCJwcm9kdWN0SWQiOiJwIiwicHVyY2hhc2VEYXRlIjoxNzUwMDAwMDAwMDAwLCJleHBpcmVzRGF0ZSI6MTc1MjU5MjAwMDAwMCwic2lnbmVkRGF0ZSI6MTc1MDAwMDAwMDAwMH0.c2ln", "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDAwMDAwMDAwMiIsIm9yaWdpbmFsVHJhbnNhY3Rpb25JZCI6IjIwMDAwMDAwMDAwMDAwMDEiLCJwcm9kdWN0SWQiOiJwIiwicHVyY2hhc2VEYXRlIjoxNzUwMDAwMDAwMDAwLCJleHBpcmVzRGF0ZSI6MTc1MjU5MjAwMDAwMCwic2lnbmVkRGF0ZSI6MTc1MDAwMDAwMDAwMH0.c2ln"]}
    """#,
    #"""
    {"environment": "Sandbox", "data": [{"subscriptionGroupIdentifier": "g", "lastTransactions": [{"originalTransactionId": "2000000000000001", "status": 2, "signedTransactionInfo": "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDAwMDAwMDAwMiIsIm9yaWdpbmFsVHJhbnNhY3Rpb25JZCI6IjIwMDAwMDAwMDAwMDAwMDEiLCJwcm9kdWN0SWQiOiJwIiwicHVyY2hhc2VEYXRlIjoxNzUwMDAwMDAwMDAwLCJleHBpcmVzRGF0ZSI6MTc1MjU5MjAwMDAwMCwic2lnbmVkRGF0ZSI6MTc1MDAwMDAwMDAwMH0.c2ln", "signedRenewalInfo": "eyJhbGciOiJFUzI1NiJ9.eyJvcmlnaW5hbFRyYW5zYWN0aW9uSWQiOiIyMDAwMDAwMDAwMDAwMDAxIiwiYXV0b1JlbmV3U3RhdHVzIjowLCJleHBpcmF0aW9uSW50ZW50IjoxLCJzaWduZWREYXRlIjoxNzUyNTkyMDAxMDAwfQ.c2ln"}]}]}
    """#,
    #"""
    {"hasMore": false, "notificationHistory": [{"signedPayload": "eyJhbGciOiJFUzI1NiJ9.eyJub3RpZmljYXRpb25UeXBlIjoiRVhQSVJFRCIsInN1YnR5cGUiOiJWT0xVTlRBUlkiLCJzaWduZWREYXRlIjoxNzUyNTkyMDAxMDAwLCJkYXRhIjp7InN0YXR1cyI6MiwiZW52aXJvbm1lbnQiOiJTYW5kYm94Iiwic2lnbmVkVHJhbnNhY3Rpb25JbmZvIjoiZXlKaGJHY2lPaUpGVXpJMU5pSjkuZXlKMGNtRnVjMkZqZEdsdmJrbGtJam9pTWpBd01EQXdNREF3TURBd01EQXdNaUlzSW05eWFXZHBibUZzVkhKaGJuTmhZM1JwYjI1SlpDSTZJakl3TURBd01EQXdNREF3TURBd01ERWlMQ0p3Y205a2RXTjBTV1FpT2lKd0lpd2ljSFZ5WTJoaGMyVkVZWFJsSWpveE56VXdNREF3TURBd01EQXdMQ0psZUhCcGNtVnpSR0YwWlNJNk1UYzFNalU1TWpBd01EQXdNQ3dpYzJsbmJtVmtSR0YwWlNJNk1UYzFNREF3TURBd01EQXdNSDAuYzJsbiIsInNpZ25lZFJlbmV3YWxJbmZvIjoiZXlKaGJHY2lPaUpGVXpJMU5pSjkuZXlKdmNtbG5hVzVoYkZSeVlXNXpZV04wYVc5dVNXUWlPaUl5TURBd01EQXdNREF3TURBd01EQXhJaXdpWVhWMGIxSmxibVYzVTNSaGRIVnpJam93TENKbGVIQnBjbUYwYVc5dVNXNTBaVzUwSWpveExDSnphV2R1WldSRVlYUmxJam94TnpVeU5Ua3lNREF4TURBd2ZRLmMybG4ifX0.c2ln", "sendAttemptResult": "SUCCESS"}]}
    """#,
    // A v2 notification as the App Store POSTs it.
    #"""
    {"signedPayload": "eyJhbGciOiJFUzI1NiJ9.eyJub3RpZmljYXRpb25UeXBlIjoiRVhQSVJFRCIsInN1YnR5cGUiOiJWT0xVTlRBUlkiLCJzaWduZWREYXRlIjoxNzUyNTkyMDAxMDAwLCJkYXRhIjp7InN0YXR1cyI6MiwiZW52aXJvbm1lbnQiOiJTYW5kYm94Iiwic2lnbmVkVHJhbnNhY3Rpb25JbmZvIjoiZXlKaGJHY2lPaUpGVXpJMU5pSjkuZXlKMGNtRnVjMkZqZEdsdmJrbGtJam9pTWpBd01EQXdNREF3TURBd01EQXdNaUlzSW05eWFXZHBibUZzVkhKaGJuTmhZM1JwYjI1SlpDSTZJakl3TURBd01EQXdNREF3TURBd01ERWlMQ0p3Y205a2RXTjBTV1FpT2lKd0lpd2ljSFZ5WTJoaGMyVkVZWFJsSWpveE56VXdNREF3TURBd01EQXdMQ0psZUhCcGNtVnpSR0YwWlNJNk1UYzFNalU1TWpBd01EQXdNQ3dpYzJsbmJtVmtSR0YwWlNJNk1UYzFNREF3TURBd01EQXdNSDAuYzJsbiIsInNpZ25lZFJlbmV3YWxJbmZvIjoiZXlKaGJHY2lPaUpGVXpJMU5pSjkuZXlKdmNtbG5hVzVoYkZSeVlXNXpZV04wYVc5dVNXUWlPaUl5TURBd01EQXdNREF3TURBd01EQXhJaXdpWVhWMGIxSmxibVYzVTNSaGRIVnpJam93TENKbGVIQnBjbUYwYVc5dVNXNTBaVzUwSWpveExDSnphV2R1WldSRVlYUmxJam94TnpVeU5Ua3lNREF4TURBd2ZRLmMybG4ifX0.c2ln"}
    """#,
  ]

  /// Files of several documents, read with ``DocumentReader/readAll(_:verifier:)``: a JSON
  /// array of documents and JWS strings, and one JWS per line.
  static let fileSeeds: [String] = [
    #"""
    ["eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDAwMDAwMDAwMiIsIm9yaWdpbmFsVHJhbnNhY3Rpb25JZCI6IjIwMDAwMDAwMDAwMDAwMDEiLCJwcm9kdWN0SWQiOiJwIiwicHVyY2hhc2VEYXRlIjoxNzUwMDAwMDAwMDAwLCJleHBpcmVzRGF0ZSI6MTc1MjU5MjAwMDAwMCwic2lnbmVkRGF0ZSI6MTc1MDAwMDAwMDAwMH0.c2ln", {"notificationType": "EXPIRED", "subtype": "VOLUNTARY", "signedDate": 1752592001000,
      "data": {"status": 2, "signedTransactionInfo": "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDAwMDAwMDAwMiIsIm9yaWdpbmFsVHJhbnNhY3Rpb25JZCI6IjIwMDAwMDAwMDAwMDAwMDEiLCJwcm9kdWN0SWQiOiJwIiwicHVyY2hhc2VEYXRlIjoxNzUwMDAwMDAwMDAwLCJleHBpcmVzRGF0ZSI6MTc1MjU5MjAwMDAwMCwic2lnbmVkRGF0ZSI6MTc1MDAwMDAwMDAwMH0.c2ln"}},
     {"status": 0, "latest_receipt_info": [{"product_id": "p", "transaction_id": "2000000000000003",
       "original_transaction_id": "2000000000000001", "purchase_date_ms": "1752592000000",
       "expires_date_ms": "1755184000000"}]}]
    """#,
    "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDAwMDAwMDAwMiIsIm9yaWdpbmFsVHJhbnNhY3Rpb25JZCI6IjIwMDAwMDAwMDAwMDAwMDEiLCJwcm9kdWN0SWQiOiJwIiwicHVyY2hhc2VEYXRlIjoxNzUwMDAwMDAwMDAwLCJleHBpcmVzRGF0ZSI6MTc1MjU5MjAwMDAwMCwic2lnbmVkRGF0ZSI6MTc1MDAwMDAwMDAwMH0.c2ln\n\n  eyJhbGciOiJFUzI1NiJ9.eyJvcmlnaW5hbFRyYW5zYWN0aW9uSWQiOiIyMDAwMDAwMDAwMDAwMDAxIiwiYXV0b1JlbmV3U3RhdHVzIjowLCJleHBpcmF0aW9uSW50ZW50IjoxLCJzaWduZWREYXRlIjoxNzUyNTkyMDAxMDAwfQ.c2ln\r\n",
  ]

  enum Mutation: CaseIterable {
    case truncate, flipBytes, swapType, hugeNumber, deepNesting, invalidUTF8
  }

  static func mutate(_ document: [UInt8], _ mutation: Mutation, _ random: inout SeededRandom)
    -> [UInt8]
  {
    var bytes = document
    switch mutation {
    case .truncate:
      bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
    case .flipBytes:
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let index = Int.random(in: 0..<bytes.count, using: &random)
        bytes[index] ^= UInt8.random(in: 1...255, using: &random)
      }
    case .swapType:
      // Replace one quoted value (after a ':') by a value of another JSON type.
      let colons = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") }
      guard let colon = colons.randomElement(using: &random),
        let start = bytes[(colon + 1)...].firstIndex(where: { $0 != 0x20 && $0 != 0x0A })
      else { break }
      var end = start
      var depth = 0
      var inString = false
      while end < bytes.count {
        let byte = bytes[end]
        if inString {
          if byte == UInt8(ascii: "\\") {
            end += 1
          } else if byte == UInt8(ascii: "\"") {
            inString = false
          }
        } else if byte == UInt8(ascii: "\"") {
          inString = true
        } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
          depth += 1
        } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
          if depth == 0 { break }
          depth -= 1
        } else if byte == UInt8(ascii: ","), depth == 0 {
          break
        }
        end += 1
      }
      let replacements = ["null", "true", "[]", "{}", "\"x\"", "-0.5", "[1,{\"a\":null}]", "\"\""]
      let replacement = replacements.randomElement(using: &random) ?? "null"
      bytes.replaceSubrange(start..<end, with: Array(replacement.utf8))
    case .hugeNumber:
      let digits = bytes.indices.filter { bytes[$0] >= 0x31 && bytes[$0] <= 0x39 }
      guard let index = digits.randomElement(using: &random) else { break }
      let huge = String(repeating: "9", count: Int.random(in: 19...400, using: &random))
      bytes.replaceSubrange(index..<index + 1, with: Array(huge.utf8))
    case .deepNesting:
      let depth = Int.random(in: 200...2000, using: &random)
      let open = Array(repeating: UInt8(ascii: "["), count: depth)
      let close = Array(repeating: UInt8(ascii: "]"), count: depth)
      let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") }
      if let colon = quotes.randomElement(using: &random), Bool.random(using: &random) {
        bytes.insert(contentsOf: open + [0x31] + close, at: colon + 1)
        bytes.insert(UInt8(ascii: ","), at: colon + 1 + depth * 2 + 1)
      } else {
        bytes = open + bytes + close
      }
    case .invalidUTF8:
      let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
      guard let quote = quotes.randomElement(using: &random) else { break }
      let bad: [[UInt8]] = [
        [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
      ]
      bytes.insert(contentsOf: bad.randomElement(using: &random) ?? [0xFF], at: quote + 1)
    }
    return bytes
  }

  struct Tally: Sendable {
    var errors = 0
    var documentsWithDiagnostics = 0
    var cleanDocuments = 0
  }

  /// The documents of one seed: read as one document, or as a file of several.
  static func read(_ bytes: [UInt8], file: Bool) throws(ReadError) -> [AppStoreDocument] {
    file ? try DocumentReader.readAllUnverified(bytes) : [try DocumentReader.readUnverified(bytes)]
  }

  /// Whether `error` is one of the errors a mutated document may give: typed, saying what is
  /// wrong and where, and for a verifyReceipt status that carries no receipt (a mutated
  /// `"status": 0`), naming the code.
  static func isExpected(_ error: ReadError) -> Bool {
    let described = error.description
    if case .verifyReceiptStatus(let status) = error {
      return described.hasPrefix("verifyReceipt status \(status.code): ")
    }
    return described.hasPrefix("not JSON: at byte ") || described.hasPrefix("not a JWS: ")
      || described.hasPrefix("unrecognized document: ") || described.contains(": expected ")
  }

  /// The mutation that turns `"status": 0` into another digit: an error naming the status,
  /// never an empty history (the corpus's mutations reach it only for some seeds).
  @Test(arguments: Array("123456789".utf8))
  func aMutatedStatusIsAnErrorNamingTheCode(digit: UInt8) {
    var bytes = Array(Self.seeds[0].utf8)
    guard let zero = bytes.firstIndex(of: UInt8(ascii: "0")) else {
      Issue.record("the verifyReceipt seed has no status 0")
      return
    }
    bytes[zero] = digit
    do {
      let document = try DocumentReader.readUnverified(bytes)
      Issue.record("read as \(document)")
    } catch {
      #expect(error == .verifyReceiptStatus(VerifyReceiptStatusError(code: Int(digit - 48))))
      #expect(Self.isExpected(error), "\(error)")
    }
  }

  @Test(arguments: 0..<10 as Range<UInt64>)
  func tenThousandMutationsPerSeed(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let seeds =
      Self.seeds.map { (Array($0.utf8), false) } + Self.fileSeeds.map { (Array($0.utf8), true) }
    for (original, file) in seeds {
      // The unmutated documents read cleanly: the mutations are what breaks them.
      let documents = try Self.read(original, file: file)
      #expect(documents.count == (file ? (original.first == UInt8(ascii: "[") ? 3 : 2) : 1))
      for document in documents {
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
      }
    }
    var tallies: [Mutation: Tally] = [:]
    for round in 0..<10_000 {
      let mutation = Mutation.allCases[round % Mutation.allCases.count]
      let (original, file) = seeds[Int.random(in: 0..<seeds.count, using: &random)]
      let bytes = Self.mutate(original, mutation, &random)
      do {
        var record = SubscriberRecord()
        let documents = try Self.read(bytes, file: file)
        for document in documents { record.fold(document) }
        let evaluation = Evaluator().evaluate(record.history)
        for entitlement in evaluation.entitlements {
          #expect(entitlement._invariantViolations().isEmpty, "seed \(seed) round \(round)")
          _ = entitlement.status(at: Instant(millisecondsSince1970: 1_500_000_000_000))
        }
        if documents.allSatisfy(\.diagnostics.isEmpty) && evaluation.diagnostics.isEmpty {
          tallies[mutation, default: Tally()].cleanDocuments += 1
        } else {
          tallies[mutation, default: Tally()].documentsWithDiagnostics += 1
        }
      } catch {
        // Typed: ReadError, whose description says what is wrong, and where.
        #expect(Self.isExpected(error), "seed \(seed) round \(round): \(error)")
        tallies[mutation, default: Tally()].errors += 1
      }
    }
    // Each kind of mutation was exercised and broke documents.
    for mutation in Mutation.allCases {
      let tally = tallies[mutation, default: Tally()]
      #expect(tally.errors + tally.documentsWithDiagnostics > 0, "seed \(seed): \(mutation)")
    }
    #expect((tallies[.deepNesting]?.errors ?? 0) > 0)
    #expect((tallies[.invalidUTF8]?.errors ?? 0) > 0)
  }
}
