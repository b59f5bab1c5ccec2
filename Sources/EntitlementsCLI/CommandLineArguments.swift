import Entitlements

/// A parsed command line of `entitlements`.
///
/// ```swift
/// try CommandLineArguments.parse(["check", "Scenarios/"])  // .check(paths: ["Scenarios/"], html: nil)
/// try CommandLineArguments.parse(["explain", "a.json", "--at", "2017-05-10", "--json"])
/// ```
public enum Command: Hashable, Sendable {
  /// `entitlements check [--html REPORT.html] [PATH ...]`.
  case check(paths: [String], html: String?)
  /// `entitlements explain FILE… [--catalog FILE] [--at INSTANT] [--json] [--html REPORT.html]`.
  ///
  /// With `--verify`, `verify` holds the roots and expected claims (its `files` are empty) and
  /// every JWS is verified before it is read.
  case explain(
    files: [String], catalog: String?, at: Instant?, json: Bool, html: String?,
    verify: VerifyOptions?)
  /// `entitlements evaluate [FILE|-] [--at INSTANT] [--catalog FILE] [--jobs N]`: `nil` or
  /// `-` reads standard input.
  case evaluate(input: String?, catalog: String?, at: Instant?, jobs: Int?)
  /// `entitlements timeline FILE --svg OUT.svg [--at INSTANT] [--from INSTANT] [--to INSTANT]`.
  case timeline(file: String, at: Instant?, svg: String, from: Instant?, to: Instant?)
  /// `entitlements verify FILE… [--root DER]… [--bundle-id ID] [--environment ENV]
  /// [--at INSTANT]`.
  case verify(VerifyOptions)
  /// `--help`, for the whole tool (`nil`) or one subcommand.
  case help(subcommand: String?)
  /// `--version`.
  case version
}

/// A command line that cannot be understood, with the usage to show (exit status 2).
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public var message: String
  /// The subcommand whose usage applies, if known.
  public var subcommand: String?

  /// Creates a usage error.
  ///
  /// - Parameters:
  ///   - message: What is wrong.
  ///   - subcommand: The subcommand whose usage applies.
  public init(_ message: String, subcommand: String? = nil) {
    self.message = message
    self.subcommand = subcommand
  }

  /// The message followed by the usage line.
  public var description: String {
    "error: \(message)\n\(CommandLineArguments.usage(subcommand))"
  }
}

/// Parses `entitlements`' arguments, without any argument-parsing package.
public enum CommandLineArguments {
  static let subcommands = ["check", "explain", "evaluate", "timeline", "verify"]

  /// Parses the arguments after the program name.
  ///
  /// - Parameter arguments: `CommandLine.arguments.dropFirst()`.
  /// - Returns: The command.
  /// - Throws: ``UsageError`` for an unknown subcommand or option, a missing or extra value.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let subcommand = arguments.first else {
      throw UsageError("no subcommand: expected one of \(subcommands.joined(separator: ", "))")
    }
    if subcommand == "--version" { return .version }
    if subcommand == "--help" || subcommand == "-h" || subcommand == "help" {
      if arguments.count > 1, subcommands.contains(arguments[1]) {
        return .help(subcommand: arguments[1])
      }
      return .help(subcommand: nil)
    }
    guard subcommands.contains(subcommand) else {
      throw UsageError(
        "unknown subcommand '\(subcommand)': expected one of \(subcommands.joined(separator: ", "))"
      )
    }
    var rest = Array(arguments.dropFirst())[...]
    if rest.contains("--help") || rest.contains("-h") { return .help(subcommand: subcommand) }
    var positional: [String] = []
    var at: Instant?
    var json = false
    var svg: String?
    var catalog: String?
    var jobs: Int?
    var html: String?
    var from: Instant?
    var to: Instant?
    func instant(_ option: String) throws(UsageError) -> Instant {
      guard let value = rest.popFirst() else {
        throw UsageError("\(option) needs an instant", subcommand: subcommand)
      }
      do { return try Instant(parsing: value) } catch {
        throw UsageError("\(option): \(error)", subcommand: subcommand)
      }
    }
    var verify = VerifyOptions(files: [])
    var verifies = false
    var verifierOptions: [String] = []
    while let argument = rest.popFirst() {
      switch argument {
      case "--at" where subcommand != "check":
        at = try instant("--at")
      case "--from" where subcommand == "timeline":
        from = try instant("--from")
      case "--to" where subcommand == "timeline":
        to = try instant("--to")
      case "--json" where subcommand == "explain":
        json = true
      case "--jobs" where subcommand == "evaluate":
        guard let value = rest.popFirst(), let count = Int(value), count > 0 else {
          throw UsageError("--jobs needs a number of threads, 1 or more", subcommand: subcommand)
        }
        jobs = count
      case "-" where subcommand == "evaluate":
        positional.append(argument)
      case "--catalog" where subcommand == "explain" || subcommand == "evaluate":
        guard let value = rest.popFirst() else {
          throw UsageError("--catalog needs a products file", subcommand: subcommand)
        }
        catalog = value
      case "--svg" where subcommand == "timeline":
        guard let value = rest.popFirst() else {
          throw UsageError("--svg needs a file name", subcommand: subcommand)
        }
        svg = value
      case "--html" where subcommand == "check" || subcommand == "explain":
        guard let value = rest.popFirst() else {
          throw UsageError("--html needs a file name", subcommand: subcommand)
        }
        html = value
      case "--verify" where subcommand == "explain":
        verifies = true
      case "--root" where subcommand == "verify" || subcommand == "explain",
        "--bundle-id" where subcommand == "verify" || subcommand == "explain",
        "--environment" where subcommand == "verify" || subcommand == "explain":
        verifierOptions.append(argument)
        guard let value = rest.popFirst() else {
          throw UsageError("\(argument) needs a value", subcommand: subcommand)
        }
        switch argument {
        case "--root": verify.roots.append(value)
        case "--bundle-id": verify.bundleId = value
        default:
          guard
            let environment = StoreEnvironment.allCases.first(where: {
              $0.rawValue.lowercased() == value.lowercased()
            })
          else {
            throw UsageError(
              "--environment: '\(value)' is not one of Production, Sandbox, Xcode, LocalTesting",
              subcommand: subcommand)
          }
          verify.environment = environment
        }
      case "--":
        positional += rest
        rest = []
      default:
        if argument.hasPrefix("-") && argument.count > 1 {
          throw UsageError("unknown option '\(argument)' for \(subcommand)", subcommand: subcommand)
        }
        positional.append(argument)
      }
    }
    switch subcommand {
    case "check":
      return .check(paths: positional, html: html)
    case "evaluate":
      guard positional.count <= 1 else {
        throw UsageError("evaluate reads one FILE, or standard input", subcommand: subcommand)
      }
      return .evaluate(input: positional.first, catalog: catalog, at: at, jobs: jobs)
    case "explain":
      guard !positional.isEmpty else {
        throw UsageError("explain needs a FILE", subcommand: subcommand)
      }
      if !verifies, let option = verifierOptions.first {
        throw UsageError("\(option) is for --verify", subcommand: subcommand)
      }
      return .explain(
        files: positional, catalog: catalog, at: at, json: json, html: html,
        verify: verifies ? verify : nil)
    case "verify":
      guard !positional.isEmpty else {
        throw UsageError("verify needs a FILE", subcommand: subcommand)
      }
      verify.files = positional
      verify.at = at
      return .verify(verify)
    default:
      guard positional.count == 1, let file = positional.first else {
        throw UsageError(
          positional.isEmpty ? "timeline needs a FILE" : "timeline takes one FILE",
          subcommand: subcommand)
      }
      guard let svg else {
        throw UsageError("timeline needs --svg OUT.svg", subcommand: subcommand)
      }
      if let from, let to, from >= to {
        throw UsageError("--from must be before --to", subcommand: subcommand)
      }
      return .timeline(file: file, at: at, svg: svg, from: from, to: to)
    }
  }

  /// The one-line usage of a subcommand, or of the tool.
  public static func usage(_ subcommand: String?) -> String {
    switch subcommand {
    case "check": "usage: entitlements check [--html REPORT.html] [PATH ...]"
    case "explain":
      "usage: entitlements explain FILE... [--catalog FILE] [--at INSTANT] [--json] "
        + "[--html REPORT.html] [--verify [--root DER]... [--bundle-id ID] [--environment ENV]]"
    case "evaluate":
      "usage: entitlements evaluate [FILE|-] [--at INSTANT] [--catalog FILE] [--jobs N]"
    case "timeline":
      "usage: entitlements timeline FILE --svg OUT.svg [--at INSTANT] [--from INSTANT] [--to INSTANT]"
    case "verify":
      "usage: entitlements verify FILE... [--root DER]... [--bundle-id ID] [--environment ENV] "
        + "[--at INSTANT]"
    default:
      "usage: entitlements <check|explain|evaluate|timeline|verify> [options]  "
        + "(entitlements --help, --version)"
    }
  }

  /// The help text of a subcommand, or of the tool.
  public static func help(_ subcommand: String?) -> String {
    switch subcommand {
    case "check":
      """
      \(usage("check"))

      Runs every scenario file (*.json, except *.schema.json) under the given files or folders,
      Scenarios/ by default. Prints one line per scenario and, for a failure, each check that
      differs with expected and actual values, then the problems found in the input (a product
      missing from the catalog, an unreadable field); the last line is "N passed, M failed".

        --html REPORT.html  also write one self-contained page: the summary, then each
                            scenario with its notes, checks (expected and actual) and timeline

      Exit status: 0 all passed, 1 a check failed, 2 bad usage or an unreadable file.
      """
    case "explain":
      """
      \(usage("explain"))

      FILE is a scenario, or any documents Apple sends: verifyReceipt responses, v1 and v2
      notifications, App Store Server API responses, transactions and renewal info, as JSON or
      as JWS. Several files, a JSON array of documents, or one JWS per line are all folded as
      one subscriber's documents. Prints, per entitlement: periods, lapses with causes, renewal,
      retry and grace windows, the status at the instant, readable releases with why, whether
      it agrees with Apple's own statuses, and diagnostics.

        --catalog FILE  the product catalog: a JSON file of products in the scenario format's
                        "products" shape (an array, or an object with "products")
        --at INSTANT    the instant for the status (any date spelling: 2017-05-10,
                        2017-05-10T08:00:00Z, milliseconds); default: now
        --json          the same as a JSON object (documented on Explanation)
        --html REPORT.html
                        also write one self-contained page with the explanation and its
                        timeline (spanning the history, and the instant when --at is given)
        --verify        verify every JWS before it is read (Apple Root CA - G3 unless
                        --root is given); only signed documents are read, and a refusal
                        names the JWS and the failed step
        --root DER, --bundle-id ID, --environment ENV
                        with --verify: as for entitlements verify

      Without --verify, JWS are decoded, not verified.

      Exit status: 0, or 2 for bad usage, an unreadable file or a refused signature (a
      verifyReceipt status other than 0 and 21006 is unreadable: the message names the code
      and what to do).
      """
    case "evaluate":
      """
      \(usage("evaluate"))

      Evaluates many subscribers, one per line of JSON (JSON Lines), from FILE or standard
      input, and writes one line of JSON per input line, in input order:

        in:   {"subscriber": "ID", "documents": [DOCUMENT, ...]}
        out:  {"diagnostics": N, "entitlements": [{"entitlement": "premium",
               "entitled": ..., "state": ..., "expiresAt": ..., "reason": ..., "willRenew": ...,
               and the other keys of explain --json's "status"}], "subscriber": "ID"}

      Each DOCUMENT is any document Apple sends, as a JSON value or a JWS string (decoded, not
      verified: give it what your backend verified on arrival). A line that
      cannot be read gives {"error": "...", "line": N, "subscriber": "ID" or null} and the
      stream goes on. N counts entries the reader dropped and what evaluation noted: explain
      shows them. Memory does not grow with the number of subscribers.

        --at INSTANT    the instant of each status; default: now
        --catalog FILE  the product catalog (the scenario format's "products")
        --jobs N        threads; default: the cores this process may use (its CPU
                        affinity, within its cgroup's CPU quota: a container's limit)

      A progress line goes to standard error when it is a terminal.

      Exit status: 0 every line evaluated, 1 a line failed, 2 bad usage, unreadable input or
      output that cannot be written.
      """
    case "timeline":
      """
      \(usage("timeline"))

      Draws the evaluation of FILE as an SVG picture: one band per entitlement with its active
      periods, lapses and their causes, refunds and upgrades (struck), grace and billing-retry
      windows, releases (readable, missed, not yet released), and the status at the instant in
      words. Long empty gaps are cut out of the axis (marked ≈ with their length).

        --svg OUT       the file to write
        --at INSTANT    the instant marked, and included in the range (default: now, and the
                        range is the history's own, the status written at the edge)
        --from INSTANT  where the picture starts (default: the history's start)
        --to INSTANT    where it ends (default: the history's end)

      Exit status: 0, or 2 for bad usage or an unreadable file.
      """
    case "verify":
      """
      \(usage("verify"))

      Verifies every JWS Apple signed in the files (SPEC §11): the algorithm, the x5c chain to
      Apple Root CA - G3 (pinned), Apple's certificate OIDs, validity at each payload's
      signedDate, the ES256 signature, and the claims asked for. A file holds one JWS, JWS
      lines, or a JSON document whose JWS strings are found wherever they nest, payloads of
      JWS included. Prints one line per JWS: "verified" or the failed step, with the file and
      the JWS's JSON path; the last line is "N verified, M failed". Revocation (OCSP) is not
      checked.

        --root DER         trust this root certificate (DER or PEM) instead of Apple's;
                           repeatable (Apple's test CA, Xcode's certificate)
        --bundle-id ID     the bundleId payloads must carry
        --environment ENV  Production, Sandbox, Xcode or LocalTesting
        --at INSTANT       check certificates at this instant, not at each signedDate

      Exit status: 0 all verified, 1 one failed or none found, 2 bad usage or an unreadable
      file.
      """
    default:
      """
      entitlements: what an App Store subscriber is entitled to.

      \(usage(nil))

        check [--html OUT] [PATH ...]             run scenario files (default: Scenarios/)
        explain FILE... [--catalog FILE] [--at INSTANT] [--json] [--html OUT] [--verify]
                                                  explain a scenario or documents
        evaluate [FILE|-] [--at INSTANT] [--catalog FILE] [--jobs N]
                                                  many subscribers, JSON Lines in and out
        timeline FILE --svg OUT [--at|--from|--to INSTANT]
                                                  draw it as an SVG timeline
        verify FILE... [--root DER] [--bundle-id ID] [--environment ENV] [--at INSTANT]
                                                  verify Apple's signed data (JWS)
        --version                                 print the version

      'entitlements SUBCOMMAND --help' for more.
      """
    }
  }
}
