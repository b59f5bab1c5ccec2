import Entitlements

/// A parsed command line of `entitlements`; each subcommand's options are those its
/// declaration (``CommandLineArguments/usage(_:)``) lists.
///
/// ```swift
/// try CommandLineArguments.parse(["check", "Scenarios/"])  // .check(paths: ["Scenarios/"], html: nil)
/// try CommandLineArguments.parse(["explain", "a.json", "--at", "2017-05-10", "--json"])
/// ```
public enum Command: Hashable, Sendable {
  /// `entitlements check`: the scenario files or folders, and the report to write.
  case check(paths: [String], html: String?)
  /// `entitlements explain`: the files, the catalog, the instant, JSON or text, the report.
  ///
  /// With `--verify`, `verify` holds the roots and expected claims (its `files` are empty) and
  /// every JWS is verified before it is read.
  case explain(
    files: [String], catalog: String?, at: Instant?, json: Bool, html: String?,
    verify: VerifyOptions?, maxBytes: Int? = nil, policy: String? = nil, knownAt: Instant? = nil)
  /// `entitlements evaluate`: `nil` or `-` reads standard input; `maxBytes` bounds a line.
  case evaluate(
    input: String?, catalog: String?, at: Instant?, jobs: Int?, maxBytes: Int? = nil,
    policy: String? = nil, knownAt: Instant? = nil)
  /// `entitlements timeline`: the file, the instant marked, the picture and its range.
  case timeline(file: String, at: Instant?, svg: String, from: Instant?, to: Instant?)
  /// `entitlements verify`: the files, roots and expected claims.
  case verify(VerifyOptions)
  /// `--help`, for the whole tool (`nil`) or one subcommand.
  case help(subcommand: String?)
  /// `--version`.
  case version
}

/// A command line that cannot be understood, with the usage to show (exit status 64, as
/// swift-argument-parser and `sysexits.h`'s `EX_USAGE`).
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

/// Parses `entitlements`' arguments, without any argument-parsing package, by the
/// declarations of ``CommandDeclaration``: an option is `--name VALUE` or `--name=VALUE`, a
/// flag is `--name`; options may come before, between or after the operands; `--` ends them;
/// an option given twice is an error unless it is declared repeatable; `--help` (`-h`) and
/// `--version` are flags, never taken where an option's value is expected.
public enum CommandLineArguments {
  static let subcommands = CommandDeclaration.all.map(\.name)

  /// The exit status of bad usage.
  public static let usageExitStatus: Int32 = 64

  /// Parses the arguments after the program name.
  ///
  /// - Parameter arguments: `CommandLine.arguments.dropFirst()`.
  /// - Returns: The command.
  /// - Throws: ``UsageError`` for an unknown subcommand or option, a missing, extra, repeated
  ///   or unreadable value.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else {
      throw UsageError("no subcommand: expected one of \(subcommands.joined(separator: ", "))")
    }
    if first == "--version" { return .version }
    if first == "--help" || first == "-h" || first == "help" {
      guard arguments.count > 1 else { return .help(subcommand: nil) }
      guard subcommands.contains(arguments[1]) else {
        throw UsageError(
          "no help for '\(arguments[1])': expected one of \(subcommands.joined(separator: ", "))")
      }
      return .help(subcommand: arguments[1])
    }
    if first.hasPrefix("-") {
      throw UsageError(
        "'\(first)' before the subcommand: options come after it "
          + "(entitlements SUBCOMMAND [options])")
    }
    guard let declaration = CommandDeclaration.named(first) else {
      throw UsageError(
        "unknown subcommand '\(first)': expected one of \(subcommands.joined(separator: ", "))")
    }
    let subcommand = declaration.name
    func fail(_ message: String) -> UsageError { UsageError(message, subcommand: subcommand) }
    var operands: [String] = []
    var values: [String: [String]] = [:]
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
      if argument == "--" {
        operands += rest
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        operands.append(argument)
        continue
      }
      // `--name=value` or `--name value`.
      let equals = argument.firstIndex(of: "=")
      let name = equals.map { String(argument[..<$0]) } ?? argument
      if name == "--help" || name == "-h" || name == "--version" {
        guard equals == nil else { throw fail("\(name) takes no value") }
        return name == "--version" ? .version : .help(subcommand: subcommand)
      }
      guard let option = declaration.option(name) else {
        throw fail("unknown option '\(name)' for \(subcommand)")
      }
      guard option.repeatable || values[name] == nil else {
        throw fail("\(name) is given twice: give it once")
      }
      let value: String
      if option.value == nil {
        guard equals == nil else { throw fail("\(name) takes no value") }
        value = ""
      } else if let equals {
        value = String(argument[argument.index(after: equals)...])
      } else {
        guard let next = rest.popFirst() else {
          throw fail("\(name) needs a value: \(option.label)")
        }
        value = next
      }
      values[name, default: []].append(value)
    }
    for option in declaration.options where option.required && values[option.name] == nil {
      throw fail("\(subcommand) needs \(option.label)")
    }
    return try command(declaration, operands: operands, values: values)
  }

  /// The command of a subcommand from its operands and its options' values. Every option
  /// read here is one of the subcommand's declarations (checked as it is read).
  private static func command(
    _ declaration: CommandDeclaration, operands: [String], values: [String: [String]]
  ) throws(UsageError) -> Command {
    let subcommand = declaration.name
    func fail(_ message: String) -> UsageError { UsageError(message, subcommand: subcommand) }
    func declared(_ name: String) -> String {
      precondition(declaration.option(name) != nil, "\(name) is not declared for \(subcommand)")
      return name
    }
    func string(_ name: String) -> String? { values[declared(name)]?.last }
    func flag(_ name: String) -> Bool { values[declared(name)] != nil }
    func instant(_ name: String) throws(UsageError) -> Instant? {
      guard let text = string(name) else { return nil }
      do { return try Instant(parsing: text) } catch { throw fail("\(name): \(error)") }
    }
    func jobs() throws(UsageError) -> Int? {
      guard let text = string("--jobs") else { return nil }
      guard let count = Int(text), count > 0 else {
        throw fail("--jobs needs a number of threads, 1 or more: '\(text)' is not one")
      }
      return count
    }
    func maxBytes() throws(UsageError) -> Int? {
      guard let text = string("--max-bytes") else { return nil }
      guard let count = Int(text), count > 0 else {
        throw fail("--max-bytes needs a number of bytes, 1 or more: '\(text)' is not one")
      }
      return count
    }
    func nonEmpty(_ name: String) throws(UsageError) -> String? {
      guard let text = string(name) else { return nil }
      guard !text.isEmpty else { throw fail("\(name) needs a value, not an empty one") }
      return text
    }
    switch subcommand {
    case "check":
      return .check(paths: operands, html: try nonEmpty("--html"))
    case "evaluate":
      guard operands.count <= 1 else { throw fail("evaluate reads one FILE, or standard input") }
      return .evaluate(
        input: operands.first, catalog: try nonEmpty("--catalog"), at: try instant("--at"),
        jobs: try jobs(), maxBytes: try maxBytes(), policy: try nonEmpty("--policy"),
        knownAt: try instant("--known-at"))
    case "explain":
      guard !operands.isEmpty else { throw fail("explain needs a FILE") }
      let verifies = flag("--verify")
      if !verifies, let option = ["--root", "--bundle-id", "--environment"].first(where: flag) {
        throw fail("\(option) is for --verify")
      }
      return .explain(
        files: operands, catalog: try nonEmpty("--catalog"), at: try instant("--at"),
        json: flag("--json"), html: try nonEmpty("--html"),
        verify: verifies ? try verifyOptions(values, declaration) : nil, maxBytes: try maxBytes(),
        policy: try nonEmpty("--policy"), knownAt: try instant("--known-at"))
    case "verify":
      guard !operands.isEmpty else { throw fail("verify needs a FILE") }
      var options = try verifyOptions(values, declaration)
      options.files = operands
      options.at = try instant("--at")
      options.jobs = try jobs()
      return .verify(options)
    case "timeline":
      guard operands.count == 1, let file = operands.first else {
        throw fail(operands.isEmpty ? "timeline needs a FILE" : "timeline takes one FILE")
      }
      let svg = try nonEmpty("--svg") ?? ""  // required: checked with the declarations
      let (from, to) = (try instant("--from"), try instant("--to"))
      if let from, let to, from >= to { throw fail("--from must be before --to") }
      return .timeline(file: file, at: try instant("--at"), svg: svg, from: from, to: to)
    default:
      preconditionFailure("\(subcommand) is declared but not parsed")
    }
  }

  /// The roots and claims of `verify` and `explain --verify`.
  private static func verifyOptions(
    _ values: [String: [String]], _ declaration: CommandDeclaration
  ) throws(UsageError) -> VerifyOptions {
    let subcommand = declaration.name
    for name in ["--root", "--bundle-id", "--environment"] {
      precondition(declaration.option(name) != nil, "\(name) is not declared for \(subcommand)")
      if values[name]?.contains("") == true {
        throw UsageError("\(name) needs a value, not an empty one", subcommand: subcommand)
      }
    }
    var options = VerifyOptions(files: [])
    options.roots = values["--root"] ?? []
    options.bundleId = values["--bundle-id"]?.last
    if let value = values["--environment"]?.last {
      guard
        let environment = StoreEnvironment.allCases.first(where: {
          $0.rawValue.lowercased() == value.lowercased()
        })
      else {
        throw UsageError(
          "--environment: '\(value)' is not one of Production, Sandbox, Xcode, LocalTesting",
          subcommand: subcommand)
      }
      options.environment = environment
    }
    return options
  }

  /// The one-line usage of a subcommand, or of the tool, from its declaration.
  public static func usage(_ subcommand: String?) -> String {
    if let declaration = subcommand.flatMap(CommandDeclaration.named) { return declaration.usage }
    return "usage: entitlements <\(subcommands.joined(separator: "|"))> [options]  "
      + "(entitlements --help, --version)"
  }

  /// The help text of a subcommand, or of the tool, from its declaration.
  public static func help(_ subcommand: String?) -> String {
    guard let declaration = subcommand.flatMap(CommandDeclaration.named) else {
      let width = CommandDeclaration.all.map { $0.name.count + 1 + $0.operands.count }.max() ?? 0
      let lines = CommandDeclaration.all.map { declaration in
        let call = "\(declaration.name) \(declaration.operands)"
        return "  " + call.padding(toLength: width + 2, withPad: " ", startingAt: 0)
          + declaration.summary
      }
      return """
        entitlements: what an App Store subscriber is entitled to.

        \(usage(nil))

        \(lines.joined(separator: "\n"))
          --version\(String(repeating: " ", count: width - 7))print the version

        'entitlements SUBCOMMAND --help' for its options.
        """
    }
    // Options in two columns: the label, then the help wrapped beside it (under it when the
    // label is too long for the column).
    let column = 22
    var lines: [String] = []
    for option in declaration.options {
      let label = "  " + option.label
      var words = wrap(option.help, width: 92 - column)
      if label.count + 2 <= column {
        lines.append(
          label.padding(toLength: column, withPad: " ", startingAt: 0) + words.removeFirst())
      } else {
        lines.append(label)
      }
      lines += words.map { String(repeating: " ", count: column) + $0 }
    }
    return """
      \(declaration.usage)

      \(declaration.description)

      \(lines.joined(separator: "\n"))

      \(declaration.epilogue)
      """
  }

  /// `text` in lines of at most `width` characters, broken at spaces.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
