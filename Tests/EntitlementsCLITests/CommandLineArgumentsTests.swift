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
    .init(arguments: ["explain", "a", "--catalog"], message: "--catalog needs a products file"),
    .init(arguments: ["explain", "a", "--at"], message: "--at needs an instant"),
    .init(
      arguments: ["explain", "a", "--at", "yesterday"], message: "--at: \"yesterday\" is not a date"
    ),
    .init(arguments: ["timeline", "a"], message: "timeline needs --svg OUT.svg"),
    .init(arguments: ["timeline", "a", "--svg"], message: "--svg needs a file name"),
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
    .init(arguments: ["check", "--html"], message: "--html needs a file name"),
    .init(
      arguments: ["explain", "n.json", "--root", "r.der"], message: "--root is for --verify"),
    .init(arguments: ["check", "--verify"], message: "unknown option '--verify' for check"),
    .init(
      arguments: ["timeline", "a", "--html", "x"], message: "unknown option '--html' for timeline"),
    .init(
      arguments: ["timeline", "a", "--svg", "o", "--from", "2017-03-01", "--to", "2017-02-01"],
      message: "--from must be before --to"),
    .init(arguments: ["timeline", "a", "--svg", "o", "--to"], message: "--to needs an instant"),
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

  @Test(arguments: [nil, "check", "explain", "evaluate", "timeline"] as [String?])
  func everySubcommandHasHelp(_ subcommand: String?) {
    let help = CommandLineArguments.help(subcommand)
    #expect(help.contains(CommandLineArguments.usage(subcommand)))
    #expect(help.contains("Exit status") || subcommand == nil)
  }
}
