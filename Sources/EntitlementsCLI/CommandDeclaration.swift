/// The tool's subcommands and their options, declared once: ``CommandLineArguments`` parses
/// with these declarations and writes usage and help from them, so the three cannot disagree.
///
/// ```swift
/// let explain = CommandDeclaration.named("explain")!
/// explain.options.map(\.name)  // ["--catalog", "--at", "--json", "--html", "--verify", …]
/// explain.usage                // "usage: entitlements explain FILE... [--catalog FILE] …"
/// ```
struct CommandDeclaration: Sendable {
  /// One option: its name, the placeholder of its value (`nil` for a flag), whether it may be
  /// given more than once, and its help.
  struct Option: Sendable {
    /// `--at`.
    let name: String
    /// `INSTANT`; `nil` for a flag, which takes no value.
    let value: String?
    /// Whether it may be given more than once (`--root`); otherwise twice is an error.
    let repeatable: Bool
    /// Whether the subcommand needs it (`timeline --svg`).
    let required: Bool
    /// What it does, one paragraph (wrapped by ``CommandLineArguments/help(_:)``).
    let help: String

    /// An option that takes a value.
    init(
      _ name: String, _ value: String, repeatable: Bool = false, required: Bool = false,
      _ help: String
    ) {
      self.name = name
      self.value = value
      self.repeatable = repeatable
      self.required = required
      self.help = help
    }

    /// A flag: an option without a value.
    init(flag name: String, _ help: String) {
      self.name = name
      value = nil
      repeatable = false
      required = false
      self.help = help
    }

    /// `--at INSTANT`, `--json`.
    var label: String { value.map { "\(name) \($0)" } ?? name }

    /// `[--at INSTANT]`, `[--root DER]...`, `--svg OUT.svg` when required.
    var usage: String { (required ? label : "[\(label)]") + (repeatable ? "..." : "") }
  }

  /// `explain`.
  let name: String
  /// What comes besides options: `FILE...`, `[PATH ...]`.
  let operands: String
  /// One line for the tool's help.
  let summary: String
  /// The help's paragraphs before the options.
  let description: String
  /// The options, in the order help lists them.
  let options: [Option]
  /// The help's paragraphs after the options (notes and the exit status).
  let epilogue: String

  /// `usage: entitlements explain FILE... [--catalog FILE] …`.
  var usage: String {
    (["usage: entitlements", name, operands] + options.map(\.usage)).filter { !$0.isEmpty }
      .joined(separator: " ")
  }

  /// The declaration of an option of this subcommand.
  func option(_ name: String) -> Option? { options.first { $0.name == name } }

  /// The declaration of a subcommand.
  static func named(_ name: String) -> CommandDeclaration? { all.first { $0.name == name } }

  /// The exit statuses every subcommand shares, after its own.
  static let usageExit = "64 bad usage"

  // MARK: The declarations

  static let at = Option(
    "--at", "INSTANT",
    "the instant for the status (any date spelling: 2017-05-10, 2017-05-10T08:00:00Z, "
      + "milliseconds); default: now")
  static let catalog = Option(
    "--catalog", "FILE",
    "the product catalog: a JSON file of products in the scenario format's \"products\" shape "
      + "(an array, or an object with \"products\")")
  static let roots = Option(
    "--root", "DER", repeatable: true,
    "trust this root certificate (DER or PEM) instead of Apple's; repeatable (Apple's test CA, "
      + "Xcode's certificate)")
  static let bundleID = Option("--bundle-id", "ID", "the bundleId payloads must carry")
  static let environment = Option(
    "--environment", "ENV", "Production, Sandbox, Xcode or LocalTesting")
  static let knownAt = Option(
    "--known-at", "INSTANT",
    "answer as then: only documents signed by INSTANT count (one without a signing date from "
      + "its own dates: an entry from its purchase, its refund from the refund's date); the "
      + "status is at INSTANT unless --at is given")
  static let policy = Option(
    "--policy", "FILE",
    "the policies (SPEC §4–§8): a JSON file of the scenario format's \"policy\" object "
      + "(cancellation, minimumLapse, billingRetryLimit, …); default: the SPEC's")

  /// Every subcommand, in the order the tool's help lists them.
  static let all: [CommandDeclaration] = [
    CommandDeclaration(
      name: "check", operands: "[PATH ...]",
      summary: "run scenario files (default: Scenarios/)",
      description: """
        Runs every scenario file (*.json, except *.schema.json) under the given files or folders,
        Scenarios/ by default. Prints one line per scenario and, for a failure, each check that
        differs with expected and actual values, then the problems found in the input (a product
        missing from the catalog, an unreadable field); the last line is "N passed, M failed".
        """,
      options: [
        Option(
          "--html", "REPORT.html",
          "also write one self-contained page: the summary, then each scenario with its notes, "
            + "checks (expected and actual) and timeline")
      ],
      epilogue: """
        Exit status: 0 all passed, 1 a check failed, 2 an unreadable file, \(usageExit).
        """),
    CommandDeclaration(
      name: "explain", operands: "FILE...",
      summary: "explain a scenario or Apple's documents, in words, JSON or a page",
      description: """
        FILE is a scenario, or any documents Apple sends: verifyReceipt responses, v1 and v2
        notifications, App Store Server API responses, transactions and renewal info, as JSON or
        as JWS. Several files, a JSON array of documents, or one JWS per line are all folded as
        one subscriber's documents. Prints, per entitlement: the status at the instant and when
        it next changes, every change of the status, periods, lapses with causes, renewal, retry
        and grace windows, readable releases with why, whether it agrees with Apple's own
        statuses, and diagnostics.
        """,
      options: [
        catalog, at,
        Option(flag: "--json", "the same as a JSON object (documented on Explanation)"),
        Option(
          "--html", "REPORT.html",
          "also write one self-contained page with the explanation and its timeline (spanning "
            + "the history, and the instant when --at is given)"),
        Option(
          flag: "--verify",
          "verify every JWS before it is read (Apple Root CA - G3 unless --root is given); only "
            + "signed documents are read, and a refusal names the JWS and the failed step"),
        Option(
          "--root", "DER", repeatable: true, "with --verify: as for entitlements verify"),
        Option("--bundle-id", "ID", "with --verify: as for entitlements verify"),
        Option("--environment", "ENV", "with --verify: as for entitlements verify"),
        Option(
          "--max-bytes", "N",
          "the most bytes a file may hold (default 268435456, 256 MiB): a larger one is "
            + "refused, not read"),
        policy, knownAt,
      ],
      epilogue: """
        Without --verify, JWS are decoded, not verified.

        Exit status: 0, 2 an unreadable file or a refused signature (a verifyReceipt status
        other than 0 and 21006 is unreadable: the message names the code and what to do),
        \(usageExit).
        """),
    CommandDeclaration(
      name: "evaluate", operands: "[FILE|-]",
      summary: "many subscribers, JSON Lines in and out",
      description: """
        Evaluates many subscribers, one per line of JSON (JSON Lines), from FILE or standard
        input, and writes one line of JSON per input line, in input order:

          in:   {"subscriber": "ID", "documents": [DOCUMENT, ...]}
          out:  {"diagnostics": N, "entitlements": [{"entitlement": "premium",
                 "entitled": ..., "state": ..., "expiresAt": ..., "nextChangeAt": ...,
                 and the other keys of explain --json's "status"}], "subscriber": "ID"}

        Each DOCUMENT is any document Apple sends, as a JSON value or a JWS string (decoded, not
        verified: give it what your backend verified on arrival). A line that cannot be read
        gives {"error": "...", "line": N, "subscriber": "ID" or null} and the stream goes on. N
        counts entries the reader dropped and what evaluation noted: explain shows them. Memory
        does not grow with the number of subscribers.
        """,
      options: [
        Option("--at", "INSTANT", "the instant of each status; default: now"),
        Option("--catalog", "FILE", "the product catalog (the scenario format's \"products\")"),
        Option(
          "--jobs", "N",
          "threads; default: the cores this process may use (its CPU affinity, within its "
            + "cgroup's CPU quota: a container's limit)"),
        Option(
          "--max-bytes", "N",
          "the most bytes a line may hold (default 268435456, 256 MiB): a longer line gets an "
            + "error line, its bytes dropped unread, and the stream goes on"),
        policy, knownAt,
      ],
      epilogue: """
        A progress line goes to standard error when it is a terminal.

        Exit status: 0 every line evaluated, 1 a line failed, 2 unreadable input or output that
        cannot be written, \(usageExit).
        """),
    CommandDeclaration(
      name: "timeline", operands: "FILE",
      summary: "draw it as an SVG timeline",
      description: """
        Draws the evaluation of FILE as an SVG picture: one band per entitlement with its active
        periods, lapses and their causes, refunds and upgrades (struck), grace and billing-retry
        windows, each change of the status, releases (readable, missed, not yet released), and
        the status at the instant in words. Long empty gaps are cut out of the axis (marked ≈
        with their length).
        """,
      options: [
        Option("--svg", "OUT.svg", required: true, "the file to write"),
        Option(
          "--at", "INSTANT",
          "the instant marked, and included in the range (default: now, and the range is the "
            + "history's own, the status written at the edge)"),
        Option("--from", "INSTANT", "where the picture starts (default: the history's start)"),
        Option("--to", "INSTANT", "where it ends (default: the history's end)"),
      ],
      epilogue: """
        Exit status: 0, 2 an unreadable file, \(usageExit).
        """),
    CommandDeclaration(
      name: "verify", operands: "FILE...",
      summary: "verify Apple's signed data (JWS)",
      description: """
        Verifies every JWS Apple signed in the files (SPEC §11): the algorithm, the x5c chain to
        Apple Root CA - G3 (pinned), Apple's certificate OIDs, validity at each payload's
        signedDate, the ES256 signature, and the claims asked for. A file holds one JWS, JWS
        lines, or a JSON document whose JWS strings are found wherever they nest, payloads of
        JWS included. Prints one line per JWS: "verified" or the failed step, with the file and
        the JWS's JSON path; the last line is "N verified, M failed". Revocation (OCSP) is not
        checked.
        """,
      options: [
        roots, bundleID, environment,
        Option(
          "--at", "INSTANT", "check certificates at this instant, not at each signedDate"),
        Option(
          "--jobs", "N",
          "threads; default: the cores this process may use (as for entitlements evaluate)"),
      ],
      epilogue: """
        Exit status: 0 all verified, 1 one failed or none found, 2 an unreadable file,
        \(usageExit).
        """),
  ]
}
