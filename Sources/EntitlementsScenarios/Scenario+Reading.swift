import Entitlements

extension Scenario {
  static let topKeys: Set<String> = [
    "name", "notes", "environment", "policy", "products", "releases", "receipt", "transactions",
    "pendingRenewalInfo", "notifications", "documents", "expect",
  ]
  static let policyKeys: Set<String> = [
    "cancellation", "minimumLapse", "billingRetryLimit", "nonRenewingStacking", "unlockAtStart",
    "sandboxProfile", "scalesSandboxWindows",
  ]
  static let dateFields = [
    "purchase_date", "original_purchase_date", "expires_date", "cancellation_date",
  ]
  /// SPEC §3 entry fields, their `_ms` and `_pst` spellings, and the other keys Apple writes
  /// in an entry, so that an entry pasted from a receipt is accepted and a typo is not.
  static let transactionKeys: Set<String> = Set(
    [
      "product_id", "transaction_id", "original_transaction_id", "web_order_line_item_id",
      "quantity", "cancellation_reason", "is_trial_period", "is_in_intro_offer_period",
      "is_upgraded", "in_app_ownership_type", "offer_code_ref_name", "promotional_offer_id",
      "expires_date_formatted", "expires_date_formatted_pst", "app_item_id", "bid", "bvrs",
      "item_id", "unique_identifier", "unique_vendor_identifier", "version_external_identifier",
      "subscription_group_identifier", "app_account_token",
    ] + dateFields.flatMap { [$0, "\($0)_ms", "\($0)_pst"] })
  static let renewalKeys: Set<String> = [
    "original_transaction_id", "product_id", "auto_renew_product_id", "auto_renew_status",
    "expiration_intent", "is_in_billing_retry_period", "grace_period_expires_date",
    "grace_period_expires_date_ms", "grace_period_expires_date_pst", "price_consent_status",
    "price_increase_status", "offer_code_ref_name", "promotional_offer_id",
  ]
  static let checkKeys: Set<String> = [
    "entitlement", "periods", "lapses", "at", "state", "entitled", "expiresAt", "retryEndsAt",
    "gracePeriodEndsAt", "reason", "willRenew", "nextProductId", "readable", "diagnostics",
    "commitment", "changes", "knownAt",
  ]

  /// Reads a scenario file strictly. Apple's documents pasted in it are read as
  /// ``DocumentReader/readUnverified(_:)`` reads them: a scenario is a person's file, its JWS
  /// are decoded, **not verified** (`entitlements explain --verify` verifies Apple's files).
  ///
  /// - Parameters:
  ///   - json: The file's bytes.
  ///   - file: Its name, for errors and reports.
  ///   - knownAt: When given, only the documents known then count
  ///     (``SubscriberRecord/init(knownAt:)``): what would have been answered at that instant.
  /// - Throws: ``ScenarioError`` naming the file, the key path and the problem.
  public init(json: [UInt8], file: String, knownAt: Instant? = nil) throws(ScenarioError) {
    let value = try Self.strictJSON(json, file: file)
    let top = try StrictObject(value, path: "", file: file, allowed: Self.topKeys)
    self.file = file
    name = try top.requiredString("name")
    notes = try top.string("notes")
    policy = try Self.policy(top)
    catalog = try Self.catalog(top)
    releases = try Self.releases(top)
    guard let expect = try top.array("expect") else { throw top.fail("expect", "required") }
    let releaseIDs = Set(releases.map(\.id))
    checks = try expect.map { value, path throws(ScenarioError) in
      try Self.check(value, path: path, file: file, releases: releaseIDs)
    }

    var pasted: [AppStoreDocument] = []
    if let receipt = top.value("receipt") {
      do throws(ReadError) {
        let response = try VerifyReceiptResponse(value: receipt, path: "receipt")
        if let error = response.statusError { throw .verifyReceiptStatus(error) }
        pasted.append(.verifyReceipt(response))
      } catch {
        throw ScenarioError(file: file, path: "receipt", message: error.description)
      }
    }
    // Apple's documents, pasted as JSON values or as JWS strings (SPEC §10).
    for key in ["notifications", "documents"] {
      for (document, path) in try top.array(key) ?? [] {
        do {
          if case .string(let compact) = document {
            pasted.append(try DocumentReader.readUnverified(Array(compact.utf8)))
          } else {
            pasted.append(try DocumentReader.read(value: document))
          }
        } catch {
          throw ScenarioError(file: file, path: path, message: error.description)
        }
      }
    }
    var authored = AuthoredDocument()
    for (transaction, path) in try top.array("transactions") ?? [] {
      let object = try StrictObject(
        transaction, path: path, file: file, allowed: Self.transactionKeys)
      try Self.strictDates(object, keys: Self.dateFields + ["expires_date_formatted"])
      let (entry, problems) = ReceiptEntry.read(appleFields: transaction, path: path)
      if let problem = problems.first {
        throw ScenarioError(file: file, path: problem.field, message: problem.message)
      }
      if let entry { authored.entries.append(entry) }
    }
    for (info, path) in try top.array("pendingRenewalInfo") ?? [] {
      let object = try StrictObject(info, path: path, file: file, allowed: Self.renewalKeys)
      try Self.strictDates(object, keys: ["grace_period_expires_date"])
      let (renewal, problems) = RenewalInfo.read(appleFields: info, path: path)
      if let problem = problems.first {
        throw ScenarioError(file: file, path: problem.field, message: problem.message)
      }
      if let renewal { authored.renewalInfo.append(renewal) }
    }
    self.pasted = pasted
    self.authored = authored
    record = Self.record(of: pasted, authored, knownAt: knownAt)
    // The documents' environment applies unless the author sets one (SPEC §10).
    environment = try top.environment("environment") ?? record.environment ?? .production
    // Last, so that a more precise problem elsewhere in the file is reported first.
    if checks.isEmpty {
      throw top.fail(
        "expect", "checks nothing: add at least one check (Scenarios/README.md, \"Checks\")")
    }
  }

  /// The dates of a hand-written transaction or renewal info, held to the format's spellings
  /// (Scenarios/README.md, "Dates"), which Apple's tolerant reading of the same fields would
  /// stretch: `X` as any spelling of a date, `X_ms` as milliseconds, a string of at least 5
  /// digits or a JSON integer (no exponent, no fraction). `X_pst` is Apple's and read as such.
  private static func strictDates(_ object: StrictObject, keys: [String]) throws(ScenarioError) {
    for key in keys {
      for name in [key, key + "_ms"] {
        guard let value = object.value(name) else { continue }
        switch value {
        case .string(let text):
          if name.hasSuffix("_ms"), !text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            throw object.fail(name, "\"\(text)\" is not milliseconds: expected digits only")
          }
          _ = try object.instant(name)
        case .number(let text):
          guard text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 45 }) else {
            throw object.fail(
              name,
              "\(text) is not a millisecond timestamp: expected an integer, no exponent or fraction"
            )
          }
          _ = try object.instant(name)
        default:
          throw object.fail(name, "expected a date, found \(value.kindDescription)")
        }
      }
    }
  }

  /// A file as JSON, read strictly: a leading UTF-8 byte order mark is skipped, a repeated
  /// key is an error naming its path, and a syntax error gives its line and column.
  ///
  /// - Parameters:
  ///   - json: The file's bytes.
  ///   - file: Its name, for errors.
  ///   - arrayPath: The name of a top-level array in error paths (a catalog's `products`), so
  ///     that a repeated key reads `products[0].id` as every other problem of that file does.
  /// - Returns: The file's JSON value.
  /// - Throws: ``ScenarioError`` for a syntax error or the first repeated key.
  static func strictJSON(
    _ json: [UInt8], file: String, arrayPath: String = ""
  ) throws(ScenarioError) -> JSONValue {
    let bytes = Array(JSONFile.withoutByteOrderMark(json))
    var repeated: [JSONRepeatedKey] = []
    let value: JSONValue
    do {
      value = try JSONValue(parsing: bytes, repeatedKeys: &repeated)
    } catch {
      throw ScenarioError(
        file: file, path: "", message: "not JSON: \(JSONFile.describe(error, in: bytes))")
    }
    if let first = repeated.first {
      let (line, column) = JSONSyntaxError(offset: first.offset, message: "").position(in: bytes)
      throw ScenarioError(
        file: file, path: first.path.hasPrefix("[") ? arrayPath + first.path : first.path,
        message: "repeated key (again at line \(line), column \(column)): write each key once")
    }
    return value
  }

  /// The record of `pasted` and `authored`, as known at `knownAt` when given.
  static func record(
    of pasted: [AppStoreDocument], _ authored: AuthoredDocument, knownAt: Instant?
  ) -> SubscriberRecord {
    var record = knownAt.map(SubscriberRecord.init(knownAt:)) ?? SubscriberRecord()
    for document in pasted { record.fold(document) }
    record.fold(authored)
    return record
  }

  /// What the scenario's author wrote: newer than any pasted document, so it wins.
  struct AuthoredDocument: PurchaseDocument, Hashable {
    var entries: [ReceiptEntry] = []
    var renewalInfo: [RenewalInfo] = []
    var billingRecoveries: [BillingRecovery] { [] }
    var environment: StoreEnvironment? { nil }
    var timestamp: Instant? { .distantFuture }
    var diagnostics: [Diagnostic] { [] }
  }

  private static func policy(_ top: StrictObject) throws(ScenarioError) -> Policy {
    guard let value = top.value("policy") else { return Policy() }
    return try policy(value, path: "policy", file: top.file)
  }

  /// Reads the policies of a file holding the scenario format's `policy` object (for
  /// `explain --policy` and `evaluate --policy`), as strictly as a scenario: an unknown or
  /// repeated key, or a value no rule can use, is an error naming the file and the key.
  ///
  /// ```swift
  /// try Scenario.policy(json: Array(#"{"cancellation": "endAtCancellation"}"#.utf8),
  ///                     file: "policy.json").cancellation  // .endAtCancellation
  /// ```
  ///
  /// - Parameters:
  ///   - json: The file's bytes: a policy object.
  ///   - file: Its name, for errors.
  /// - Returns: The policies, the SPEC's defaults where the file says nothing.
  /// - Throws: ``ScenarioError`` naming the file, the key and the problem.
  public static func policy(json: [UInt8], file: String) throws(ScenarioError) -> Policy {
    try policy(try strictJSON(json, file: file), path: "", file: file)
  }

  private static func policy(_ value: JSONValue, path: String, file: String)
    throws(ScenarioError) -> Policy
  {
    let object = try StrictObject(value, path: path, file: file, allowed: policyKeys)
    let defaults = Policy()
    var sandboxProfile = defaults.sandboxProfile
    if let profile = try object.string("sandboxProfile") {
      switch profile {
      case "guide": sandboxProfile = .guide
      case "testFlight": sandboxProfile = .testFlight
      default:
        guard let rate = SandboxProfile.RenewalRate(rawValue: profile) else {
          let rates = SandboxProfile.RenewalRate.allCases.map { "\"\($0.rawValue)\"" }
          throw object.fail(
            "sandboxProfile",
            "\"\(profile)\" is not one of \"guide\", \"testFlight\", \(rates.joined(separator: ", "))"
          )
        }
        sandboxProfile = .renewalRate(rate)
      }
    }
    do {
      return try Policy(
        cancellation: try object.oneOf("cancellation", Policy.Cancellation.self)
          ?? defaults.cancellation,
        minimumLapse: try object.fixedDuration("minimumLapse") ?? defaults.minimumLapse,
        billingRetryLimit: try object.fixedDuration("billingRetryLimit")
          ?? defaults.billingRetryLimit,
        nonRenewingStacking: try object.oneOf(
          "nonRenewingStacking", Policy.NonRenewingStacking.self) ?? defaults.nonRenewingStacking,
        unlockAtStart: try object.int("unlockAtStart") ?? defaults.unlockAtStart,
        sandboxProfile: sandboxProfile,
        scalesSandboxWindows: try object.bool("scalesSandboxWindows")
          ?? defaults.scalesSandboxWindows)
    } catch let error as PolicyError {
      throw object.fail(error.field, error.reason)
    } catch let error as ScenarioError {
      throw error
    } catch {
      throw ScenarioError(
        file: file, path: path.isEmpty ? "(top level)" : path, message: "\(error)")
    }
  }

  /// Reads a product catalog from a file of products in the scenario format's `products`
  /// shape: an array of products, or an object whose `products` is one. Read as strictly as
  /// a scenario file: an unknown or repeated key is an error, a syntax error gives its line
  /// and column, and a leading UTF-8 byte order mark is skipped.
  ///
  /// ```swift
  /// try Scenario.catalog(
  ///   json: Array(#"[{"id": "monthly", "type": "autoRenewable", "duration": "P1M"}]"#.utf8),
  ///   file: "catalog.json")["monthly"]?.type  // .autoRenewable
  /// ```
  ///
  /// - Parameters:
  ///   - json: The file's bytes.
  ///   - file: Its name, for errors.
  /// - Returns: The catalog.
  /// - Throws: ``ScenarioError`` naming the file, the key path and the problem.
  public static func catalog(json: [UInt8], file: String) throws(ScenarioError) -> ProductCatalog {
    let value = try strictJSON(json, file: file, arrayPath: "products")
    if case .array = value { return try products((value, "products"), file: file) }
    let top = try StrictObject(value, path: "", file: file, allowed: ["products"])
    return try catalog(top)
  }

  /// Whether the bytes are a scenario file rather than one of Apple's documents: a JSON object
  /// whose top level has the keys `name` and `expect`, at any size. Only the top level's keys
  /// are looked at, in one pass over the bytes, nothing parsed or copied; a key inside a value
  /// (a pasted document's) does not count.
  ///
  /// ```swift
  /// Scenario.looksLikeScenario(Array(#"{"name": "n", "expect": []}"#.utf8))  // true
  /// Scenario.looksLikeScenario(try Data(contentsOf: receiptURL))            // false
  /// ```
  ///
  /// - Parameter bytes: The file's bytes: `[UInt8]`, `Data` or any collection of bytes.
  /// - Returns: Whether the bytes look like a scenario file.
  public static func looksLikeScenario(_ bytes: some Collection<UInt8>) -> Bool {
    // Apple's documents have no key "expect": a search for it answers most files without
    // walking their values.
    let mentionsExpect =
      bytes.withContiguousStorageIfAvailable { TopLevelKeys.mentionsExpect(in: $0) } ?? true
    return mentionsExpect && missingScenarioKeys(bytes)?.isEmpty == true
  }

  /// Which of a scenario's top-level keys (`name`, `expect`) the bytes lack; `nil` when they
  /// are not a JSON object. The bytes are walked once: the top level's keys read, every value
  /// skipped (strings with their escapes, nested arrays and objects by depth).
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Returns: The keys missing, in the order `name`, `expect`; empty for a scenario.
  public static func missingScenarioKeys(_ bytes: some Collection<UInt8>) -> [String]? {
    let found =
      bytes.withContiguousStorageIfAvailable { TopLevelKeys.find(in: $0) }
      ?? Array(bytes).withUnsafeBufferPointer { TopLevelKeys.find(in: $0) }
    guard let found else { return nil }
    return [("name", found.name), ("expect", found.expect)].filter { !$0.1 }.map(\.0)
  }

  private static func catalog(_ top: StrictObject) throws(ScenarioError) -> ProductCatalog {
    guard let value = top.value("products") else { return ProductCatalog() }
    return try products((value, "products"), file: top.file)
  }

  private static func products(_ list: (JSONValue, String), file: String) throws(ScenarioError)
    -> ProductCatalog
  {
    guard case .array(let elements) = list.0 else {
      throw ScenarioError(file: file, path: list.1, message: "expected an array of products")
    }
    var products: [CatalogProduct] = []
    var seen = Set<String>()
    for (index, value) in elements.enumerated() {
      let path = "\(list.1)[\(index)]"
      let object = try StrictObject(
        value, path: path, file: file,
        allowed: ["id", "type", "duration", "entitlement", "entitlements"])
      let id = try object.requiredString("id")
      guard seen.insert(id).inserted else { throw object.fail("id", "\"\(id)\" is listed twice") }
      guard let type = try object.oneOf("type", ProductKind.self) else {
        throw object.fail("type", "required")
      }
      var duration: CalendarPeriod?
      if let text = try object.string("duration") {
        do { duration = try CalendarPeriod(iso8601: text) } catch {
          throw object.fail("duration", error.description)
        }
      }
      if type == .nonRenewing, duration == nil {
        throw object.fail("duration", "required for a nonRenewing product")
      }
      // `entitlement` names its own; `entitlements` (our addition) all it unlocks, its own
      // first; both given, the list follows the one.
      var unlocked = try object.string("entitlement").map { [EntitlementID(rawValue: $0)] } ?? []
      if let list = try object.array("entitlements") {
        guard !list.isEmpty else { throw object.fail("entitlements", "expected at least one") }
        for (element, elementPath) in list {
          guard case .string(let name) = element else {
            throw ScenarioError(
              file: file, path: elementPath,
              message: "expected an entitlement id, found \(element.kindDescription)")
          }
          unlocked.append(EntitlementID(rawValue: name))
        }
      }
      products.append(
        CatalogProduct(
          id: ProductID(id), type: type, duration: duration,
          entitlements: unlocked.isEmpty ? [EntitlementID(id)] : unlocked))
    }
    return ProductCatalog(products)
  }

  private static func releases(_ top: StrictObject) throws(ScenarioError) -> [Release] {
    try (top.array("releases") ?? []).map { value, path throws(ScenarioError) in
      let object = try StrictObject(
        value, path: path, file: top.file, allowed: ["id", "date", "entitlement"])
      guard let date = try object.instant("date") else { throw object.fail("date", "required") }
      return Release(
        id: ReleaseID(try object.requiredString("id")), date: date,
        entitlement: try object.string("entitlement").map(EntitlementID.init(rawValue:)))
    }
  }

  private static func check(
    _ value: JSONValue, path: String, file: String, releases: Set<ReleaseID>
  ) throws(ScenarioError) -> ScenarioCheck {
    let object = try StrictObject(value, path: path, file: file, allowed: checkKeys)
    var check = ScenarioCheck()
    check.entitlement = try object.string("entitlement").map(EntitlementID.init(rawValue:))
    check.periods = try object.array("periods")?.map { value, path throws(ScenarioError) in
      try interval(value, path: path, file: file, extra: [])
    }
    check.lapses = try object.array("lapses")?.map { value, path throws(ScenarioError) in
      let lapse = try StrictObject(
        value, path: path, file: file, allowed: ["start", "end", "cause"])
      return ScenarioCheck.ExpectedLapse(
        interval: try interval(value, path: path, file: file, extra: ["cause"]),
        cause: try lapse.oneOf("cause", LapseCause.self))
    }
    var previous: Instant?
    check.changes = try object.array("changes")?.map { value, path throws(ScenarioError) in
      try Self.change(value, path: path, file: file, after: &previous)
    }
    check.knownAt = try object.instant("knownAt")
    // As known at an instant, the status is asked then unless `at` says otherwise.
    check.at = try object.instant("at") ?? check.knownAt
    check.state = try object.oneOf("state", EntitlementState.self)
    check.entitled = try object.bool("entitled")
    check.expiresAt = try object.instant("expiresAt")
    check.retryEndsAt = try object.instant("retryEndsAt")
    check.gracePeriodEndsAt = try object.instant("gracePeriodEndsAt")
    check.reason = try object.oneOf("reason", ExpiryReason.self)
    check.willRenew = try object.bool("willRenew")
    check.nextProductID = try object.string("nextProductId").map(ProductID.init(rawValue:))
    if let value = object.value("commitment") {
      let commitment = try StrictObject(
        value, path: object.at("commitment"), file: file,
        allowed: ["billingPeriod", "totalBillingPeriods", "endsAt", "willRenew", "renewsInto"])
      var expected = ScenarioCheck.ExpectedCommitment()
      expected.billingPeriod = try commitment.int("billingPeriod")
      expected.totalBillingPeriods = try commitment.int("totalBillingPeriods")
      expected.endsAt = try commitment.instant("endsAt")
      expected.willRenew = try commitment.bool("willRenew")
      expected.renewsInto = try commitment.string("renewsInto").map(ProductID.init(rawValue:))
      check.commitment = expected
    }
    check.readable = try object.array("readable")?.map { value, path throws(ScenarioError) in
      guard case .string(let id) = value else {
        throw ScenarioError(
          file: file, path: path, message: "expected a release id, found \(value.kindDescription)")
      }
      guard releases.contains(ReleaseID(id)) else {
        let known = releases.map { $0.rawValue }.sorted()
        throw ScenarioError(
          file: file, path: path,
          message: "\"\(id)\" is not the id of a release"
            + (known.isEmpty
              ? " (the scenario has no releases)"
              : " (releases: \(known.joined(separator: ", ")))"))
      }
      return ReleaseID(id)
    }
    check.diagnostics = try object.int("diagnostics")
    let needsAt: [(String, Bool)] = [
      ("state", check.state != nil), ("entitled", check.entitled != nil),
      ("expiresAt", check.expiresAt != nil), ("retryEndsAt", check.retryEndsAt != nil),
      ("gracePeriodEndsAt", check.gracePeriodEndsAt != nil), ("reason", check.reason != nil),
      ("willRenew", check.willRenew != nil), ("nextProductId", check.nextProductID != nil),
      ("commitment", check.commitment != nil),
    ]
    if check.at == nil, let (key, _) = needsAt.first(where: \.1) {
      throw object.fail(key, "needs \"at\": the instant it is checked at")
    }
    let compared =
      needsAt.contains(where: \.1) || check.periods != nil || check.lapses != nil
      || check.changes != nil || check.readable != nil || check.diagnostics != nil
    guard compared else {
      throw ScenarioError(
        file: file, path: path,
        message:
          "checks nothing: give at least one of \"periods\", \"lapses\", \"changes\", \"state\", "
          + "\"entitled\", \"readable\", \"diagnostics\" (Scenarios/README.md, \"Checks\")")
    }
    return check
  }

  /// One element of a `changes` check, refused when no status function could have it: out
  /// of order, `notSubscribed` (the status before the first change, never one), a reason
  /// outside `expired` and `revoked`, access that contradicts the state.
  private static func change(
    _ value: JSONValue, path: String, file: String, after previous: inout Instant?
  ) throws(ScenarioError) -> ScenarioCheck.ExpectedChange {
    let change = try StrictObject(
      value, path: path, file: file, allowed: ["at", "state", "entitled", "reason"])
    guard let at = try change.instant("at") else { throw change.fail("at", "required") }
    if let previous, at <= previous {
      throw change.fail("at", "\(at) is not after the change before it (\(previous))")
    }
    previous = at
    guard let state = try change.oneOf("state", EntitlementState.self) else {
      throw change.fail("state", "required")
    }
    guard state != .notSubscribed else {
      throw change.fail(
        "state", "notSubscribed is never a change: it is the status before the first")
    }
    var reason = ScenarioCheck.ExpectedChange.ExpectedReason.notCompared
    if change.members["reason"] == JSONValue.null {
      reason = .noReason
    } else if let given = try change.oneOf("reason", ExpiryReason.self) {
      guard state == .expired || state == .revoked else {
        throw change.fail("reason", "only an expired or revoked status has a reason")
      }
      reason = .reason(given)
    }
    let entitled = try change.bool("entitled")
    if let entitled, entitled != (state == .active || state == .gracePeriod) {
      throw change.fail(
        "entitled", "\(state.rawValue) is \(entitled ? "never" : "always") entitled")
    }
    return ScenarioCheck.ExpectedChange(at: at, state: state, entitled: entitled, reason: reason)
  }

  private static func interval(
    _ value: JSONValue, path: String, file: String, extra: Set<String>
  ) throws(ScenarioError) -> Interval {
    let object = try StrictObject(
      value, path: path, file: file, allowed: Set(["start", "end"]).union(extra))
    guard let start = try object.instant("start") else { throw object.fail("start", "required") }
    guard object.members["end"] != nil else {
      throw object.fail("end", "required (null for a period that never ends)")
    }
    let end = try object.instant("end") ?? .distantFuture
    return Interval(start: start, end: end)
  }
}
