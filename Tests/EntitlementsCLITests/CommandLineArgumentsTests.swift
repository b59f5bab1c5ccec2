import Entitlements
import EntitlementsCLI
import Testing

@Suite("The argument parser of entitlements")
struct CommandLineArgumentsTests {
  struct Good: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var command: Command
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let good: [Good] = [
    .init(arguments: ["check"], command: .check(paths: [], html: nil)),
    .init(
      arguments: ["check", "a.json", "Scenarios/"],
      command: .check(paths: ["a.json", "Scenarios/"], html: nil)),
    .init(
      arguments: ["check", "--", "--odd-name.json"],
      command: .check(paths: ["--odd-name.json"], html: nil)),
    .init(
      arguments: ["explain", "r.json"],
      command: .explain(
        files: ["r.json"], catalog: nil, at: nil, json: false, html: nil, verify: nil)),
    .init(
      arguments: ["explain", "--json", "r.json", "--at", "2017-05-10"],
      command: .explain(
        files: ["r.json"], catalog: nil, at: Instant(millisecondsSince1970: 1_494_374_400_000),
        json: true, html: nil, verify: nil)),
    .init(
      arguments: ["explain", "a.json", "b.jws", "--catalog", "products.json"],
      command: .explain(
        files: ["a.json", "b.jws"], catalog: "products.json", at: nil, json: false, html: nil,
        verify: nil)),
    .init(
      arguments: ["timeline", "s.json", "--svg", "out.svg", "--at", "1494374400000"],
      command: .timeline(
        file: "s.json", at: Instant(millisecondsSince1970: 1_494_374_400_000), svg: "out.svg",
        from: nil, to: nil)),
    .init(
      arguments: ["check", "--html", "report.html", "Scenarios"],
      command: .check(paths: ["Scenarios"], html: "report.html")),
    .init(
      arguments: ["explain", "r.json", "--html", "r.html"],
      command: .explain(
        files: ["r.json"], catalog: nil, at: nil, json: false, html: "r.html", verify: nil)),
    .init(
      arguments: [
        "timeline", "s.json", "--svg", "o.svg", "--from", "2017-02-01", "--to", "2017-08-01",
      ],
      command: .timeline(
        file: "s.json", at: nil, svg: "o.svg",
        from: Instant(millisecondsSince1970: 1_485_907_200_000),
        to: Instant(millisecondsSince1970: 1_501_545_600_000))),
    .init(arguments: ["--version"], command: .version),
    .init(
      arguments: ["explain", "n.json", "--verify", "--bundle-id", "com.example"],
      command: .explain(
        files: ["n.json"], catalog: nil, at: nil, json: false, html: nil,
        verify: VerifyOptions(files: [], bundleId: "com.example"))),
    .init(
      arguments: ["evaluate"], command: .evaluate(input: nil, catalog: nil, at: nil, jobs: nil)),
    .init(
      arguments: ["evaluate", "-", "--jobs", "3", "--catalog", "p.json"],
      command: .evaluate(input: "-", catalog: "p.json", at: nil, jobs: 3)),
    .init(
      arguments: ["evaluate", "subscribers.jsonl", "--at", "1494374400000"],
      command: .evaluate(
        input: "subscribers.jsonl", catalog: nil,
        at: Instant(millisecondsSince1970: 1_494_374_400_000), jobs: nil)),
    .init(arguments: ["--help"], command: .help(subcommand: nil)),
    // --opt=value, as swift-argument-parser and getopt_long accept.
    .init(
      arguments: ["explain", "r.json", "--at=2017-05-10", "--catalog=p.json", "--html=a=b.html"],
      command: .explain(
        files: ["r.json"], catalog: "p.json", at: Instant(millisecondsSince1970: 1_494_374_400_000),
        json: false, html: "a=b.html", verify: nil)),
    .init(
      arguments: ["evaluate", "--jobs=2", "-"],
      command: .evaluate(input: "-", catalog: nil, at: nil, jobs: 2)),
    // A repeatable option gathers its values.
    .init(
      arguments: [
        "verify", "n.jws", "--root", "a.der", "--root=b.pem", "--environment", "sandbox",
      ],
      command: .verify(
        VerifyOptions(files: ["n.jws"], roots: ["a.der", "b.pem"], environment: .sandbox))),
    // --help and --version are flags: anywhere a flag may be, never as an option's value.
    .init(arguments: ["check", "Scenarios", "--version"], command: .version),
    .init(arguments: ["explain", "a.json", "-h"], command: .help(subcommand: "explain")),
    .init(
      arguments: ["explain", "a.json", "--html", "--help"],
      command: .explain(
        files: ["a.json"], catalog: nil, at: nil, json: false, html: "--help", verify: nil)),
    .init(
      arguments: ["check", "--html", "--version"],
      command: .check(paths: [], html: "--version")),
    .init(
      arguments: ["check", "--", "--help"], command: .check(paths: ["--help"], html: nil)),
    .init(arguments: ["help", "explain"], command: .help(subcommand: "explain")),
    .init(arguments: ["check", "--help"], command: .help(subcommand: "check")),
    .init(arguments: ["timeline", "-h"], command: .help(subcommand: "timeline")),
  ]

  @Test(arguments: good)
  func parses(_ test: Good) throws {
    #expect(try CommandLineArguments.parse(test.arguments) == test.command)
  }

  struct Bad: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let bad: [Bad] = [
    .init(
      arguments: [], message: "no subcommand: expected one of check, explain, evaluate, timeline"),
    .init(
      arguments: ["chek"],
      message: "unknown subcommand 'chek': expected one of check, explain, evaluate, timeline"),
    .init(arguments: ["check", "--json"], message: "unknown option '--json' for check"),
    .init(arguments: ["check", "--at", "2017-01-01"], message: "unknown option '--at' for check"),
    .init(arguments: ["explain"], message: "explain needs a FILE"),
    .init(
      arguments: ["explain", "a", "--catalog"], message: "--catalog needs a value: --catalog FILE"),
    .init(arguments: ["explain", "a", "--at"], message: "--at needs a value: --at INSTANT"),
    .init(
      arguments: ["explain", "a", "--at", "yesterday"], message: "--at: \"yesterday\" is not a date"
    ),
    .init(arguments: ["timeline", "a"], message: "timeline needs --svg OUT.svg"),
    .init(arguments: ["timeline", "a", "--svg"], message: "--svg needs a value: --svg OUT.svg"),
    .init(
      arguments: ["explain", "a", "--svg", "x"], message: "unknown option '--svg' for explain"),
    .init(
      arguments: ["evaluate", "a", "b"], message: "evaluate reads one FILE, or standard input"),
    .init(
      arguments: ["evaluate", "--jobs", "0"],
      message: "--jobs needs a number of threads, 1 or more"),
    .init(
      arguments: ["evaluate", "--jobs", "all"],
      message: "--jobs needs a number of threads, 1 or more"),
    .init(arguments: ["evaluate", "--json"], message: "unknown option '--json' for evaluate"),
    .init(
      arguments: ["explain", "-", "--jobs", "2"], message: "unknown option '--jobs' for explain"),
    .init(arguments: ["check", "--html"], message: "--html needs a value: --html REPORT.html"),
    .init(
      arguments: ["explain", "n.json", "--root", "r.der"], message: "--root is for --verify"),
    .init(arguments: ["check", "--verify"], message: "unknown option '--verify' for check"),
    .init(
      arguments: ["timeline", "a", "--html", "x"], message: "unknown option '--html' for timeline"),
    .init(
      arguments: ["timeline", "a", "--svg", "o", "--from", "2017-03-01", "--to", "2017-02-01"],
      message: "--from must be before --to"),
    .init(
      arguments: ["timeline", "a", "--svg", "o", "--to"],
      message: "--to needs a value: --to INSTANT"),
    // A repeated option is an error naming it, unless it is declared repeatable.
    .init(
      arguments: ["explain", "a", "--at", "2017-01-01", "--at=2017-02-01"],
      message: "--at is given twice: give it once"),
    .init(arguments: ["explain", "a", "--json", "--json"], message: "--json is given twice"),
    .init(
      arguments: ["check", "--html", "a.html", "--html", "b.html"],
      message: "--html is given twice"),
    .init(arguments: ["explain", "a", "--json=yes"], message: "--json takes no value"),
    .init(arguments: ["explain", "a", "--help=yes"], message: "--help takes no value"),
    .init(
      arguments: ["verify", "a", "--bundle-id="],
      message: "--bundle-id needs a value, not an empty one"),
    .init(
      arguments: ["verify", "a", "--root", ""], message: "--root needs a value, not an empty one"),
    .init(
      arguments: ["--json", "explain", "a"],
      message: "'--json' before the subcommand: options come after it"),
    .init(arguments: ["help", "bogus"], message: "no help for 'bogus'"),
    .init(arguments: ["check", "--html="], message: "--html needs a value, not an empty one"),
    .init(arguments: ["explain", "a", "--at="], message: "--at: \"\" is not a date"),
    .init(arguments: ["check", "--htm=x"], message: "unknown option '--htm' for check"),
  ]

  @Test(arguments: bad)
  func refuses(_ test: Bad) {
    do {
      let command = try CommandLineArguments.parse(test.arguments)
      Issue.record("parsed as \(command)")
    } catch {
      #expect(error.message.hasPrefix(test.message), "\(error.message)")
      #expect(error.description.contains("usage: entitlements"))
    }
  }

  @Test(arguments: [nil, "check", "explain", "evaluate", "timeline", "verify"] as [String?])
  func everySubcommandHasHelp(_ subcommand: String?) {
    let help = CommandLineArguments.help(subcommand)
    #expect(help.contains(CommandLineArguments.usage(subcommand)))
    #expect(help.contains("Exit status") || subcommand == nil)
    #expect(help.contains("64 bad usage") || subcommand == nil)
  }

  /// The options written once: what usage and help list is what parsing accepts. Each
  /// subcommand's usage names exactly these options, its help has one entry for each, in this
  /// order, and parsing accepts each (and refuses the others' options).
  @Test(
    arguments: [
      ("check", ["--html REPORT.html"]),
      (
        "explain",
        [
          "--catalog FILE", "--at INSTANT", "--json", "--html REPORT.html", "--verify",
          "--root DER", "--bundle-id ID", "--environment ENV", "--max-bytes N",
          "--policy FILE", "--known-at INSTANT",
        ]
      ),
      (
        "evaluate",
        [
          "--at INSTANT", "--catalog FILE", "--jobs N", "--max-bytes N", "--policy FILE",
          "--known-at INSTANT",
        ]
      ),
      ("timeline", ["--svg OUT.svg", "--at INSTANT", "--from INSTANT", "--to INSTANT"]),
      (
        "verify", ["--root DER", "--bundle-id ID", "--environment ENV", "--at INSTANT", "--jobs N"]
      ),
    ] as [(String, [String])])
  func usageHelpAndParsingListTheSameOptions(subcommand: String, options: [String]) throws {
    let usage = CommandLineArguments.usage(subcommand)
    let inUsage = usage.split(separator: "[").dropFirst().map {
      String($0.prefix { $0 != "]" })
    }.filter { $0.hasPrefix("--") }
    let required = subcommand == "timeline" ? ["--svg OUT.svg"] : []
    #expect(required + inUsage == options)
    let help = CommandLineArguments.help(subcommand).split(separator: "\n")
    #expect(help.filter { $0.hasPrefix("  --") }.count == options.count)
    for option in options {
      #expect(
        help.contains { $0.hasPrefix("  \(option)") }, "help of \(subcommand) lacks \(option)")
    }
    // Each is accepted: a value that reads for each.
    let values = [
      "INSTANT": "2017-05-10", "N": "2", "ENV": "Sandbox", "FILE": "f.json",
      "REPORT.html": "r.html", "OUT.svg": "o.svg", "DER": "r.der", "ID": "com.example",
    ]
    let operand = subcommand == "evaluate" ? "-" : "a.json"
    for option in options {
      let parts = option.split(separator: " ").map(String.init)
      var arguments = [subcommand, operand] + parts.prefix(1)
      if let placeholder = parts.dropFirst().first { arguments.append(values[placeholder] ?? "x") }
      if subcommand == "timeline", parts[0] != "--svg" { arguments += ["--svg", "o.svg"] }
      if subcommand == "explain", ["--root", "--bundle-id", "--environment"].contains(parts[0]) {
        arguments.append("--verify")
      }
      // Each reaches the command: with it, the command differs from the one without it.
      var without = [subcommand, operand]
      if subcommand == "timeline", parts[0] != "--svg" { without += ["--svg", "o.svg"] }
      if subcommand == "explain", ["--root", "--bundle-id", "--environment"].contains(parts[0]) {
        without.append("--verify")
      }
      if subcommand == "timeline", parts[0] == "--svg" {
        // --svg is required: another file instead.
        without += ["--svg", "other.svg"]
      }
      #expect(
        try CommandLineArguments.parse(arguments) != CommandLineArguments.parse(without),
        "\(option) does not reach the command")
    }
  }
}
