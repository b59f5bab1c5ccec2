import Entitlements
import EntitlementsCLI
import Foundation
import Testing

/// Headless Chromium, where it is installed (the Debian package `chromium`; `.ci/run`
/// installs it), or where `CHROMIUM` points.
let chromium: String? = {
  if let path = ProcessInfo.processInfo.environment["CHROMIUM"],
    FileManager.default.isExecutableFile(atPath: path)
  {
    return path
  }
  let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    .split(separator: ":")
  for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
    for folder in folders {
      let path = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
  }
  return nil
}()

/// The HTML reports opened in a real browser: `check --html` and `explain --html` (Apple's
/// documents of one subscriber). Their DOM has the summary counts, one section per scenario
/// and every timeline; nothing is logged to the console; and the browser's own measure of
/// every label of every timeline (getBBox, with the fonts it really has, where the SVG tests
/// use the same width table as the label placer) finds no two overlapping and none outside
/// its picture: for every shipped scenario (a 36-period sandbox history among them), two
/// entitlements and a refunded-only history. One test, so that where Chromium is not
/// installed it is skipped with one line.
@Suite("The HTML report in headless Chromium")
struct HTMLReportBrowserTests {
  @Test(
    .enabled(
      if: chromium != nil,
      """
      no Chromium (chromium, chromium-browser or google-chrome on PATH, or CHROMIUM): the \
      HTML report's browser test is skipped. To run it: apt-get install chromium.
      """))
  func theReportInHeadlessChromium() throws {
    try theReportLoadsWithItsSummarySectionsAndTimelinesAndLogsNothing()
    try theExplainReportLoadsWithItsEntitlementsAndLogsNothing()
    try theBrowsersOwnMeasureFindsNoOverlapAndTheConsoleIsSeen()
  }

  /// A folder with the report of every shipped scenario, a failing one and an unreadable one.
  static func report() throws -> (folder: URL, page: URL, scenarios: Int) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("report-\(UInt64.random(in: 0...UInt64.max))")
    let extra = folder.appendingPathComponent("extra")
    try FileManager.default.createDirectory(at: extra, withIntermediateDirectories: true)
    let failing = #"""
      {"name": "A misspelt product id <fails>", "notes": "Shows the diagnostics & the failure.",
       "products": [{"id": "com.example.monthly", "type": "autoRenewable", "duration": "P1M"}],
       "transactions": [{"product_id": "com.example.monthyl", "transaction_id": "1",
         "purchase_date": "2017-01-01", "expires_date": "2017-02-01"}],
       "expect": [{"at": "2017-01-15", "state": "active"}, {"diagnostics": 0}]}
      """#
    try failing.write(
      to: extra.appendingPathComponent("failing.json"), atomically: true, encoding: .utf8)
    try #"{"name": "typo", "expect": [{"at": "2017-01-01", "stat": "active"}]}"#.write(
      to: extra.appendingPathComponent("unreadable.json"), atomically: true, encoding: .utf8)
    let page = folder.appendingPathComponent("report.html")
    let run = EntitlementsTool.run(["check", "--html", page.path, path("Scenarios"), extra.path])
    #expect(run.status == 2, "an unreadable file makes check exit 2")
    #expect(run.errors.contains("wrote \(page.path)"))
    let shipped =
      try FileManager.default.contentsOfDirectory(atPath: path("Scenarios"))
      .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.count
    return (folder, page, shipped + 2)
  }

  /// Runs headless Chromium on a page: the DOM after load, and what it logged.
  static func dumpDOM(_ page: URL, profile: URL) throws -> (dom: String, log: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(chromium))
    process.arguments = [
      "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
      "--disable-dev-shm-usage", "--user-data-dir=\(profile.path)", "--enable-logging=stderr",
      "--v=0", "--virtual-time-budget=5000", "--dump-dom", page.absoluteString,
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read both pipes while the browser runs, so that neither fills up and blocks it.
    nonisolated(unsafe) var log = Data()
    let reader = Thread { log = errors.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let dom = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
    #expect(process.terminationStatus == 0, "\(String(decoding: log, as: UTF8.self))")
    return (String(decoding: dom, as: UTF8.self), String(decoding: log, as: UTF8.self))
  }

  static func consoleLines(_ log: String) -> [Substring] {
    log.split(separator: "\n").filter { $0.contains(":CONSOLE") }
  }

  static func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  func theReportLoadsWithItsSummarySectionsAndTimelinesAndLogsNothing() throws {
    let (folder, page, scenarios) = try Self.report()
    defer { try? FileManager.default.removeItem(at: folder) }
    let html = try String(contentsOf: page, encoding: .utf8)
    // Self-contained: nothing to fetch, nothing to run.
    for reference in ["<script", "<link", "src=", "url(", "@import", "https://"] {
      #expect(!html.contains(reference), "\(reference)")
    }
    let (dom, log) = try Self.dumpDOM(page, profile: folder.appendingPathComponent("profile"))
    #expect(Self.consoleLines(log).isEmpty, "\(Self.consoleLines(log))")
    #expect(dom.contains("id=\"summary\""))
    #expect(dom.contains("data-passed=\"\(scenarios - 2)\" data-failed=\"2\""))
    #expect(dom.contains("\(scenarios - 2) passed</span>"))
    #expect(Self.count("<section class=\"report-section", in: dom) == scenarios)
    #expect(Self.count("data-outcome=\"failed\"", in: dom) == 1)
    #expect(Self.count("data-outcome=\"unreadable\"", in: dom) == 1)
    // Every readable scenario has its timeline, an SVG the browser parsed.
    #expect(Self.count("<figure class=\"timeline\"><svg", in: dom) == scenarios - 1)
    #expect(Self.count("</svg>", in: dom) == scenarios - 1)
    // Escaped text reads back as written.
    #expect(dom.contains("A misspelt product id &lt;fails&gt;"))
    #expect(dom.contains("transaction 1: product_id: product com.example.monthyl"))
  }

  /// `explain --html` of one subscriber's documents, as a backend stores them: a verifyReceipt
  /// response, a v2 notification as Apple POSTs it (JWS inside JWS) and a catalog. Two
  /// entitlements: a magazine with a lapse, now in its grace period, and a video plan
  /// refunded a week after it was bought.
  func theExplainReportLoadsWithItsEntitlementsAndLogsNothing() throws {
    let (folder, pages) = try Self.explainReports()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (dom, log) = try Self.dumpDOM(
      pages.twoEntitlements, profile: folder.appendingPathComponent("profile"))
    #expect(Self.consoleLines(log).isEmpty, "\(Self.consoleLines(log))")
    #expect(dom.contains("id=\"summary\""))
    #expect(Self.count("<section class=\"report-section", in: dom) == 1)
    #expect(Self.count("data-outcome=\"explained\"", in: dom) == 1)
    #expect(Self.count("<figure class=\"timeline\"><svg", in: dom) == 1)
    // The heading names the files, the line under it their folder.
    #expect(dom.contains("</span> receipt.json, refund-notification.json</h2>"))
    #expect(dom.contains("\(folder.path)/receipt.json, \(folder.path)/refund-notification.json"))
    for text in [
      "magazine", "video", "Grace period until Oct 7", "Revoked: refunded Mar 18",
      "com.example.video.yearly",
    ] {
      #expect(dom.contains(text), "\(text)")
    }
  }

  /// The documents of one subscriber and a catalog, written to a folder, and the reports
  /// `explain --html` makes of them: all of them (two entitlements), and the refund's
  /// notification alone (a refunded-only history).
  static func explainReports() throws -> (
    folder: URL, pages: (twoEntitlements: URL, refundedOnly: URL)
  ) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("explain-report-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let documents = try AppleDocuments()
    var files: [String: String] = [:]
    for (name, text) in [
      ("receipt.json", documents.receipt), ("refund-notification.json", documents.notification),
      ("products.json", AppleDocuments.catalog),
    ] {
      let url = folder.appendingPathComponent(name)
      try text.write(to: url, atomically: true, encoding: .utf8)
      files[name] = url.path
    }
    func explain(_ names: [String], to page: String) throws -> URL {
      let output = folder.appendingPathComponent(page)
      let run = EntitlementsTool.run(
        ["explain"] + names.compactMap { files[$0] } + [
          "--catalog", files["products.json"] ?? "", "--at", "2024-09-25T12:00:00Z", "--html",
          output.path,
        ])
      #expect(run.status == 0, "\(run.errors)")
      // REPORT_PAGES=folder keeps the pages and their documents, to look at them.
      if let keep = ProcessInfo.processInfo.environment["REPORT_PAGES"] {
        for name in [page] + files.keys.sorted() {
          let copy = URL(fileURLWithPath: keep).appendingPathComponent(name)
          try? FileManager.default.removeItem(at: copy)
          try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: copy)
        }
      }
      return output
    }
    return (
      folder,
      (
        try explain(["receipt.json", "refund-notification.json"], to: "two-entitlements.html"),
        try explain(["refund-notification.json"], to: "refunded-only.html")
      )
    )
  }

  /// Each page with a probe script: the browser measures every label (getBBox) and looks
  /// for overlaps and labels outside their picture, then logs a line, which shows that the
  /// tests above would have seen a console message.
  func theBrowsersOwnMeasureFindsNoOverlapAndTheConsoleIsSeen() throws {
    let (folder, page, _) = try Self.report()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (explainFolder, explained) = try Self.explainReports()
    defer { try? FileManager.default.removeItem(at: explainFolder) }
    for (name, page, minimum) in [
      ("check report", page, 300), ("two entitlements", explained.twoEntitlements, 30),
      ("refunded only", explained.refundedOnly, 8),
    ] {
      let (texts, problems) = try Self.measure(page, in: folder)
      #expect(texts >= minimum, "\(name): \(texts) texts")
      #expect(problems.isEmpty, "\(name): \(problems.joined(separator: "\n"))")
    }
  }

  /// Every label of every timeline of a page, measured by the browser: how many, and the
  /// overlaps and labels outside their picture it finds.
  static func measure(_ page: URL, in folder: URL) throws -> (texts: Int, problems: [String]) {
    let probe = #"""
      <pre id="geometry"></pre>
      <script>
      let texts = 0, problems = [];
      for (const svg of document.querySelectorAll("figure.timeline svg")) {
        const width = svg.width.baseVal.value, height = svg.height.baseVal.value;
        const boxes = [...svg.querySelectorAll("text")].map(t => [t.textContent, t.getBBox()]);
        texts += boxes.length;
        for (const [text, b] of boxes) {
          if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > width + 0.5 || b.y + b.height > height + 0.5)
            problems.push("outside: " + text);
        }
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
          const [p, a] = boxes[i], [q, b] = boxes[j];
          if (a.x + 0.5 < b.x + b.width && b.x + 0.5 < a.x + a.width &&
              a.y + 0.5 < b.y + b.height && b.y + 0.5 < a.y + a.height)
            problems.push("overlap: " + p + " / " + q);
        }
      }
      document.getElementById("geometry").textContent =
        "texts " + texts + "\nproblems " + problems.length + "\n" + problems.join("\n");
      console.log("geometry probe: " + texts + " texts measured");
      </script>
      """#
    let html = try String(contentsOf: page, encoding: .utf8)
    let probed = folder.appendingPathComponent("probe-\(page.lastPathComponent)")
    try html.replacingOccurrences(of: "</body>", with: probe + "\n</body>")
      .write(to: probed, atomically: true, encoding: .utf8)
    let (dom, log) = try dumpDOM(probed, profile: folder.appendingPathComponent("profile"))
    let console = consoleLines(log)
    #expect(console.count == 1 && console.first?.contains("geometry probe: ") == true, "\(log)")
    let geometry = try #require(
      dom.components(separatedBy: "<pre id=\"geometry\">").dropFirst().first?
        .components(separatedBy: "</pre>").first)
    let lines = geometry.split(separator: "\n").map(String.init)
    let texts = Int(lines.first?.dropFirst("texts ".count) ?? "") ?? 0
    #expect(lines.dropFirst().first?.hasPrefix("problems ") == true, "\(geometry)")
    return (texts, Array(lines.dropFirst(2)))
  }
}

/// One subscriber's documents as Apple sends them, made here: a verifyReceipt response (a
/// monthly magazine bought in January, a lapse in May and June, in billing retry with a grace
/// period since September 21; a yearly video plan refunded) and the refund's v2
/// notification, a JWS whose payload holds the transaction's JWS. Signatures are not real:
/// `explain` without `--verify` decodes only.
struct AppleDocuments {
  static let catalog = #"""
    {"products": [
      {"id": "com.example.magazine.monthly", "type": "autoRenewable", "duration": "P1M",
       "entitlement": "magazine"},
      {"id": "com.example.video.yearly", "type": "autoRenewable", "duration": "P1Y",
       "entitlement": "video"}]}
    """#

  let receipt: String
  let notification: String

  init() throws {
    let magazine = "com.example.magazine.monthly"
    let video = "com.example.video.yearly"
    let months = [
      ("530001234567801", "2024-01-05T09:12:44Z", "2024-02-05T09:12:44Z"),
      ("530001236011245", "2024-02-05T09:12:44Z", "2024-03-05T09:12:44Z"),
      ("530001238220917", "2024-03-05T09:12:44Z", "2024-04-05T09:12:44Z"),
      ("530001240501388", "2024-04-05T09:12:44Z", "2024-05-05T09:12:44Z"),
      ("530001249930712", "2024-06-21T18:03:10Z", "2024-07-21T18:03:10Z"),
      ("530001252716604", "2024-07-21T18:03:10Z", "2024-08-21T18:03:10Z"),
      ("530001255080219", "2024-08-21T18:03:10Z", "2024-09-21T18:03:10Z"),
    ]
    var entries: [String] = []
    for (index, (id, purchase, expires)) in months.enumerated() {
      entries.append(
        try Self.entry(
          magazine, id: id, original: "530001234567801", webOrder: "53000081\(index)447210",
          purchase: purchase, expires: expires,
          extra: #""is_trial_period": "\#(index == 0)", "is_in_intro_offer_period": "false""#))
    }
    let refunded = try Self.entry(
      video, id: "530001298765432", original: "530001298765432", webOrder: "530000876543210",
      purchase: "2024-03-10T20:41:05Z", expires: "2025-03-10T20:41:05Z",
      extra: try
        #""is_trial_period": "false", \#(Self.date("cancellation_date", "2024-03-18T07:30:00Z")), "cancellation_reason": "0""#
    )
    entries.insert(refunded, at: 3)
    receipt = """
      {"status": 0, "environment": "Production",
       "receipt": {"receipt_type": "Production", "adam_id": 1234567890, "app_item_id": 1234567890,
        "bundle_id": "com.example.reader", "application_version": "42",
        \(try Self.date("receipt_creation_date", "2024-09-25T10:00:00Z")),
        \(try Self.date("request_date", "2024-09-25T10:00:00Z")),
        "original_application_version": "38", "in_app": [\(entries[entries.count - 1])]},
       "latest_receipt_info": [\(entries.reversed().joined(separator: ",\n  "))],
       "latest_receipt": "MIIUVQYJKoZIhvcNAQcCoIIURjCCFEICAQExCzAJBgUrDgMCGgUAMIIDq==",
       "pending_renewal_info": [
        {"auto_renew_product_id": "\(magazine)", "product_id": "\(magazine)",
         "original_transaction_id": "530001234567801", "auto_renew_status": "1",
         "expiration_intent": "2", "is_in_billing_retry_period": "1",
         \(try Self.date("grace_period_expires_date", "2024-10-07T18:03:10Z"))},
        {"auto_renew_product_id": "\(video)", "product_id": "\(video)",
         "original_transaction_id": "530001298765432", "auto_renew_status": "0"}]}
      """
    let transaction = """
      {"transactionId": "530001298765432", "originalTransactionId": "530001298765432",
       "webOrderLineItemId": "530000876543210", "bundleId": "com.example.reader",
       "productId": "\(video)", "subscriptionGroupIdentifier": "21345678",
       "purchaseDate": \(try Self.milliseconds("2024-03-10T20:41:05Z")),
       "originalPurchaseDate": \(try Self.milliseconds("2024-03-10T20:41:05Z")),
       "expiresDate": \(try Self.milliseconds("2025-03-10T20:41:05Z")), "quantity": 1,
       "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
       "signedDate": \(try Self.milliseconds("2024-03-18T07:30:12Z")),
       "revocationReason": 0, "revocationDate": \(try Self.milliseconds("2024-03-18T07:30:00Z")),
       "environment": "Production", "transactionReason": "PURCHASE", "storefront": "USA",
       "storefrontId": "143441", "price": 49990, "currency": "USD"}
      """
    let payload = """
      {"notificationType": "REFUND", "notificationUUID": "7c1d3c1e-5b8a-4d0e-9b0f-2a1f6f0c9e11",
       "data": {"appAppleId": 1234567890, "bundleId": "com.example.reader",
        "bundleVersion": "42", "environment": "Production",
        "signedTransactionInfo": "\(Self.jws(transaction))", "status": 5},
       "version": "2.0", "signedDate": \(try Self.milliseconds("2024-03-18T07:30:12Z"))}
      """
    notification = #"{"signedPayload": "\#(Self.jws(payload))"}"# + "\n"
  }

  static func milliseconds(_ rfc3339: String) throws -> Int64 {
    try Instant(parsing: rfc3339).millisecondsSince1970
  }

  /// A date in a receipt's three spellings: `2024-01-05 09:12:44 Etc/GMT`, milliseconds, and
  /// Pacific time (standard or daylight, as on that day).
  static func date(_ key: String, _ rfc3339: String) throws -> String {
    let instant = try Instant(parsing: rfc3339)
    let utc = rfc3339.replacingOccurrences(of: "T", with: " ")
      .replacingOccurrences(of: "Z", with: " Etc/GMT")
    var pacific = Calendar(identifier: .gregorian)
    pacific.timeZone = TimeZone(identifier: "America/Los_Angeles") ?? .gmt
    let parts = pacific.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: instant.date)
    let pst = String(
      format: "%04d-%02d-%02d %02d:%02d:%02d America/Los_Angeles", parts.year ?? 0,
      parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    return #""\#(key)": "\#(utc)", "\#(key)_ms": "\#(instant.millisecondsSince1970)", "#
      + #""\#(key)_pst": "\#(pst)""#
  }

  static func entry(
    _ product: String, id: String, original: String, webOrder: String, purchase: String,
    expires: String, extra: String
  ) throws -> String {
    """
    {"quantity": "1", "product_id": "\(product)", "transaction_id": "\(id)",
       "original_transaction_id": "\(original)", \(try date("purchase_date", purchase)),
       \(try date("original_purchase_date", original == id ? purchase : "2024-01-05T09:12:44Z")),
       \(try date("expires_date", expires)), "web_order_line_item_id": "\(webOrder)",
       \(extra), "in_app_ownership_type": "PURCHASED",
       "subscription_group_identifier": "21345678"}
    """
  }

  /// A compact JWS of `payload`, with an ES256 header and a signature that is not real.
  static func jws(_ payload: String) -> String {
    func base64URL(_ bytes: some Sequence<UInt8>) -> String {
      Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    let header =
      #"{"alg":"ES256","x5c":["MIIEMDCCA7agAwIBAgIQaPoPldvpSoEH0lBrjDPv9jAKBggqhkjOPQQDAzB1"]}"#
    let signature = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    return "\(base64URL(header.utf8)).\(base64URL(payload.utf8)).\(base64URL(signature))"
  }
}
