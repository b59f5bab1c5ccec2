import Entitlements

/// A parsed command line of `entitlements`.
///
/// ```swift
/// try CommandLineArguments.parse(["check", "Scenarios/"])  // .check(paths: ["Scenarios/"])
/// try CommandLineArguments.parse(["explain", "a.json", "--at", "2017-05-10", "--json"])
/// ```
public enum Command: Hashable, Sendable {
  /// `entitlements check [PATH ...]`.
  case check(paths: [String])
  /// `entitlements explain FILE [--at INSTANT] [--json]`.
  case explain(file: String, at: Instant?, json: Bool)
  /// `entitlements timeline FILE [--at INSTANT] --svg OUT.svg`.
  case timeline(file: String, at: Instant?, svg: String)
  /// `entitlements verify FILE… [--root DER]… [--bundle-id ID] [--environment ENV]
  /// [--at INSTANT]`.
  case verify(VerifyOptions)
  /// `--help`, for the whole tool (`nil`) or one subcommand.
  case help(subcommand: String?)
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
  static let subcommands = ["check", "explain", "timeline", "verify"]

  /// Parses the arguments after the program name.
  ///
  /// - Parameter arguments: `CommandLine.arguments.dropFirst()`.
  /// - Returns: The command.
  /// - Throws: ``UsageError`` for an unknown subcommand or option, a missing or extra value.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let subcommand = arguments.first else {
      throw UsageError("no subcommand: expected one of \(subcommands.joined(separator: ", "))")
    }
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
    var verify = VerifyOptions(files: [])
    while let argument = rest.popFirst() {
      switch argument {
      case "--at" where subcommand != "check":
        guard let value = rest.popFirst() else {
          throw UsageError("--at needs an instant", subcommand: subcommand)
        }
        do { at = try Instant(parsing: value) } catch {
          throw UsageError("--at: \(error)", subcommand: subcommand)
        }
      case "--json" where subcommand == "explain":
        json = true
      case "--svg" where subcommand == "timeline":
        guard let value = rest.popFirst() else {
          throw UsageError("--svg needs a file name", subcommand: subcommand)
        }
        svg = value
      case "--root" where subcommand == "verify",
        "--bundle-id" where subcommand == "verify",
        "--environment" where subcommand == "verify":
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
      return .check(paths: positional)
    case "explain":
      guard positional.count == 1, let file = positional.first else {
        throw UsageError(
          positional.isEmpty ? "explain needs a FILE" : "explain takes one FILE",
          subcommand: subcommand)
      }
      return .explain(file: file, at: at, json: json)
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
      return .timeline(file: file, at: at, svg: svg)
    }
  }

  /// The one-line usage of a subcommand, or of the tool.
  public static func usage(_ subcommand: String?) -> String {
    switch subcommand {
    case "check": "usage: entitlements check [PATH ...]"
    case "explain": "usage: entitlements explain FILE [--at INSTANT] [--json]"
    case "timeline": "usage: entitlements timeline FILE [--at INSTANT] --svg OUT.svg"
    case "verify":
      "usage: entitlements verify FILE... [--root DER]... [--bundle-id ID] [--environment ENV] "
        + "[--at INSTANT]"
    default:
      "usage: entitlements <check|explain|timeline|verify> [options]  (entitlements --help)"
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
      differs with expected and actual values; the last line is "N passed, M failed".

      Exit status: 0 all passed, 1 a check failed, 2 bad usage or an unreadable file.
      """
    case "explain":
      """
      \(usage("explain"))

      FILE is a scenario or a verifyReceipt response (or any document Apple sends). Prints, per
      entitlement: periods, lapses with causes, renewal, retry and grace windows, the status at
      the instant, readable releases with why, and diagnostics.

        --at INSTANT  the instant for the status (any date spelling: 2017-05-10,
                      2017-05-10T08:00:00Z, milliseconds); default: now
        --json        the same as a JSON object (documented in README.md, "explain --json")

      Exit status: 0, or 2 for bad usage or an unreadable file.
      """
    case "timeline":
      """
      \(usage("timeline"))

      Draws the evaluation of FILE as an SVG picture: a time axis, active periods, lapses,
      billing-retry and grace windows, releases marked readable or not, and the instant.

        --at INSTANT  the instant marked (default: now)
        --svg OUT     the file to write

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

        check [PATH ...]                          run scenario files (default: Scenarios/)
        explain FILE [--at INSTANT] [--json]      explain a scenario or a receipt
        timeline FILE [--at INSTANT] --svg OUT    draw it as an SVG timeline
        verify FILE... [--root DER] [--bundle-id ID] [--environment ENV] [--at INSTANT]
                                                  verify Apple's signed data (JWS)

      'entitlements SUBCOMMAND --help' for more.
      """
    }
  }
}
