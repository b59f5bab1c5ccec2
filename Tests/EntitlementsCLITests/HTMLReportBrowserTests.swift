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

/// The HTML report opened in a real browser: its DOM has the summary counts, one section per
/// scenario and every timeline; nothing is logged to the console; and the browser's own
/// measure of every label of every timeline finds no two overlapping and none outside its
/// picture. One test, so that where Chromium is not installed it is skipped with one line.
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

  /// The same page with a probe script: the browser measures every label (getBBox) and looks
  /// for overlaps and labels outside their picture, then logs a line, which shows that the
  /// test above would have seen a console message.
  func theBrowsersOwnMeasureFindsNoOverlapAndTheConsoleIsSeen() throws {
    let (folder, page, _) = try Self.report()
    defer { try? FileManager.default.removeItem(at: folder) }
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
    let probed = folder.appendingPathComponent("probe.html")
    try html.replacingOccurrences(of: "</body>", with: probe + "\n</body>")
      .write(to: probed, atomically: true, encoding: .utf8)
    let (dom, log) = try Self.dumpDOM(probed, profile: folder.appendingPathComponent("profile"))
    let console = Self.consoleLines(log)
    #expect(console.count == 1 && console.first?.contains("geometry probe: ") == true, "\(log)")
    let geometry = try #require(
      dom.components(separatedBy: "<pre id=\"geometry\">").dropFirst().first?
        .components(separatedBy: "</pre>").first)
    let lines = geometry.split(separator: "\n")
    let texts = Int(lines.first?.dropFirst("texts ".count) ?? "") ?? 0
    #expect(texts > 300, "\(geometry)")
    #expect(lines.dropFirst().first == "problems 0", "\(geometry)")
  }
}
