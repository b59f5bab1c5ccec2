import Entitlements
import EntitlementsScenarios
import EntitlementsVerification
// The command line tool may use full Foundation (directory walking, error descriptions);
// the libraries below it use FoundationEssentials only (DESIGN.md).
import Foundation

/// The `entitlements` command, as a function from arguments to output and an exit status, so
/// that it is tested without a process.
///
/// ```swift
/// let run = EntitlementsTool.run(["check", "Scenarios"])
/// run.status  // 0
/// run.output.split(separator: "\n").last  // "21 passed, 0 failed"
/// ```
public enum EntitlementsTool {
  /// The version `entitlements --version` prints; CHANGELOG.md lists what each one changed.
  public static let version = "0.1.0-dev"

  /// What a run printed and how it ended.
  public struct Run: Sendable {
    /// Standard output.
    public var output = ""
    /// Standard error.
    public var errors = ""
    /// The exit status: 0 success, 1 failed checks (or lines, or signatures), 2 unreadable
    /// input or a refused signature, 64 bad usage.
    public var status: Int32 = 0
  }

  /// Runs the command.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - now: The instant used when `--at` is not given (the tool's clock, never the
  ///     library's).
  /// - Returns: The output and exit status.
  public static func run(_ arguments: [String], now: Instant = Instant(Date())) -> Run {
    var run = Run()
    let command: Command
    do {
      command = try CommandLineArguments.parse(arguments)
    } catch {
      run.errors = error.description + "\n"
      run.status = CommandLineArguments.usageExitStatus
      return run
    }
    // An output that is one of the inputs would overwrite it: refused before anything runs.
    if let (option, output) = overwrittenInput(of: command) {
      run.errors =
        "error: \(output): \(option) would overwrite an input of the command; write it elsewhere\n"
      run.status = CommandLineArguments.usageExitStatus
      return run
    }
    switch command {
    case .help(let subcommand):
      run.output = CommandLineArguments.help(subcommand) + "\n"
    case .version:
      run.output = "entitlements \(version)\n"
    case .verify(let options):
      VerifyCommand.run(options, &run)
    case .check(let paths, let html):
      let sections = check(paths.isEmpty ? ["Scenarios"] : paths, &run)
      if let html {
        let report = HTMLReport(
          title: "Scenario report", subtitle: subtitle(now: now), sections: sections)
        write(report.render(), to: html, &run)
      }
    case .explain(
      let files, let catalog, let at, let json, let html, let verify, let maxBytes, let policy,
      let knownAt):
      var verifier: AppStoreSignatureVerifier?
      if let verify {
        guard let made = VerifyCommand.verifier(verify, &run) else { return run }
        verifier = made
      }
      guard
        let explanation = explanation(
          of: files, catalog: catalog, policy: policy, at: at ?? knownAt ?? now,
          knownAt: knownAt, verifier: verifier,
          maxBytes: maxBytes ?? FileSystem.defaultMaximumBytes, &run)
      else { return run }
      run.output = (json ? explanation.jsonText(indent: 2) : explanation.text) + "\n"
      if let html {
        // The heading names the files; the line under it says where they are.
        let names = files.map { URL(fileURLWithPath: $0).lastPathComponent }
        let section = HTMLReportSection(
          title: names.joined(separator: ", "), file: files.joined(separator: ", "),
          explanation: explanation,
          range: at == nil && knownAt == nil ? .history : .historyAndInstant)
        let report = HTMLReport(
          title: "Explanation", subtitle: subtitle(now: now), sections: [section])
        write(report.render(), to: html, &run)
      }
    case .evaluate(let input, let catalog, let at, let jobs, let maxBytes, let policy, let knownAt):
      // In memory, for tests and small inputs; the process streams (``stream(_:now:)``).
      var output: [UInt8] = []
      var errors: [UInt8] = []
      let stdin = StandardStreams.standardInput()
      run.status = evaluate(
        input: input, catalog: catalog, policy: policy, at: at ?? knownAt ?? now,
        knownAt: knownAt, jobs: jobs ?? 1, maxBytes: maxBytes, standardInput: stdin,
        write: { output += $0 },
        writeError: { errors += $0 },
        showsProgress: false)
      run.output = String(decoding: output, as: UTF8.self)
      run.errors = String(decoding: errors, as: UTF8.self)
    case .timeline(let file, let at, let svg, let from, let to):
      guard let explanation = explanation(of: [file], catalog: nil, at: at ?? now, &run)
      else { return run }
      let range: TimelineRange =
        from != nil || to != nil
        ? .between(from: from, to: to) : at == nil ? .history : .historyAndInstant
      write(
        TimelineSVG(explanation: explanation, range: range).render(), to: svg, announce: false,
        &run)
      if run.status == 0 { run.output = "wrote \(svg)\n" }
    }
    return run
  }

  /// The option and path of an output that names one of the command's inputs, if any.
  static func overwrittenInput(of command: Command) -> (option: String, path: String)? {
    let outputs: [(String, String?)]
    let inputs: [String]
    switch command {
    case .check(let paths, let html):
      guard html != nil else { return nil }
      // The scenario files a folder holds are inputs too (Scenarios/ by default).
      let files = (paths.isEmpty ? ["Scenarios"] : paths).flatMap { path in
        FileSystem.isDirectory(path) ? FileSystem.scenarioFiles(under: path) : [path]
      }
      (outputs, inputs) = ([("--html", html)], files)
    case .explain(let files, let catalog, _, _, let html, let verify, _, let policy, _):
      (outputs, inputs) = (
        [("--html", html)],
        files + [catalog, policy].compactMap { $0 } + (verify?.roots ?? [])
      )
    case .timeline(let file, _, let svg, _, _):
      (outputs, inputs) = ([("--svg", svg)], [file])
    default:
      return nil
    }
    for case (let option, let output?) in outputs
    where inputs.contains(where: { FileSystem.isSameFile($0, output) }) {
      return (option, output)
    }
    return nil
  }

  /// Runs the command as the process does: `evaluate` streams its input and output (its
  /// memory does not grow with the input), every other command is ``run(_:now:)``.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - now: The instant used when `--at` is not given.
  /// - Returns: The exit status.
  public static func stream(_ arguments: [String], now: Instant = Instant(Date())) -> Int32 {
    if case .evaluate(
      let input, let catalog, let at, let jobs, let maxBytes, let policy, let knownAt)? =
      try? CommandLineArguments.parse(arguments)
    {
      return evaluate(
        input: input, catalog: catalog, policy: policy, at: at ?? knownAt ?? now,
        knownAt: knownAt,
        jobs: jobs ?? UsableCores.here(), maxBytes: maxBytes,
        standardInput: StandardStreams.standardInput(),
        standardInputWait: StandardStreams.standardInputWaiter(),
        write: StandardStreams.writeOutput,
        writeError: StandardStreams.writeError, showsProgress: StandardStreams.errorIsTerminal)
    }
    let run = run(arguments, now: now)
    StandardStreams.writeOutput(Array(run.output.utf8))
    StandardStreams.writeError(Array(run.errors.utf8))
    return run.status
  }

  /// `evaluate`: the batch of subscribers from `input` (a file, or standard input for `nil`
  /// or `-`), each line's output written with `write`.
  static func evaluate(
    input: String?, catalog: String?, policy: String? = nil, at: Instant,
    knownAt: Instant? = nil, jobs: Int,
    maxBytes: Int? = nil,
    standardInput: @escaping BatchEvaluation.Read,
    standardInputWait: BatchEvaluation.Wait? = nil, write: ([UInt8]) -> Void,
    writeError: ([UInt8]) -> Void, showsProgress: Bool
  ) -> Int32 {
    var unreadable = false
    /// A configuration file read by `parse`; `nil` when none is given, or when it cannot be
    /// read, its error then written (the file named, escaped).
    func configuration<Value>(
      _ file: String?, _ parse: ([UInt8], String) throws(ScenarioError) -> Value
    ) -> Value? {
      guard let file else { return nil }
      do {
        return try parse(try FileSystem.read(file), file)
      } catch let error as ScenarioError {
        writeError(Array("\(ControlCharacters.escaped(error.description))\n".utf8))
      } catch {
        let name = ControlCharacters.escaped(file)
        writeError(Array("\(name): cannot read: \(error.localizedDescription)\n".utf8))
      }
      unreadable = true
      return nil
    }
    let products = configuration(catalog, Scenario.catalog(json:file:))
    let policies = configuration(policy, Scenario.policy(json:file:))
    guard !unreadable else { return 2 }
    let read: BatchEvaluation.Read
    // Standard input may be a pipe that pauses: the lines read so far are then answered.
    var wait: BatchEvaluation.Wait?
    if let input, input != "-" {
      guard !FileSystem.isDirectory(input) else {
        writeError(Array("\(input): is a folder, not a file of subscriber lines\n".utf8))
        return 2
      }
      guard let file = FileHandle(forReadingAtPath: input) else {
        writeError(Array("\(input): cannot read: no such file, or not readable\n".utf8))
        return 2
      }
      read = StandardStreams.reader(of: file)
      // A named pipe pauses as standard input does; a file never.
      wait = StandardStreams.waiter(of: file)
    } else {
      read = standardInput
      wait = standardInputWait
    }
    let started = DispatchTime.now().uptimeNanoseconds
    var batch = BatchEvaluation(
      evaluator: Evaluator(catalog: products ?? .empty, policy: policies ?? Policy()), at: at,
      knownAt: knownAt)
    if let maxBytes { batch.maxLineBytes = maxBytes }
    let failed: Int
    do {
      failed = try batch.run(jobs: jobs, read: read, wait: wait, write: write) { done in
        guard showsProgress else { return }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let rate = seconds > 0 ? Int(Double(done) / seconds) : 0
        writeError(Array("\r\(done) subscribers, \(rate)/s".utf8))
      }
    } catch {
      if showsProgress { writeError([0x0A]) }
      let name = input.flatMap { $0 == "-" ? nil : $0 } ?? "standard input"
      writeError(Array("\(name): cannot read: \(error.localizedDescription)\n".utf8))
      return 2
    }
    if showsProgress { writeError([0x0A]) }
    return failed > 0 ? 1 : 0
  }

  static func subtitle(now: Instant) -> String {
    "entitlements \(version), \(now)"
  }

  /// Writes a file; for a report (`announce`), "wrote FILE" goes to standard error, so that
  /// standard output stays the command's own.
  static func write(_ text: String, to file: String, announce: Bool = true, _ run: inout Run) {
    do {
      try FileSystem.write(text, to: file)
      if announce { run.errors += "wrote \(file)\n" }
    } catch {
      run.errors += "\(file): cannot write: \(error.localizedDescription)\n"
      run.status = 2
    }
  }

  /// Runs the scenario files and returns a report section for each.
  static func check(_ paths: [String], _ run: inout Run) -> [HTMLReportSection] {
    var sections: [HTMLReportSection] = []
    var files: [String] = []
    for path in paths {
      if FileSystem.isDirectory(path) {
        let found = FileSystem.scenarioFiles(under: path)
        if found.isEmpty { run.errors += "\(path): no scenario files (*.json)\n" }
        files += found
      } else if FileSystem.exists(path) {
        files.append(path)
      } else {
        run.errors += "\(path): no such file or folder\n"
        run.status = 2
      }
    }
    var passed = 0
    var failed = 0
    var unreadable = false
    for file in files {
      let scenario: Scenario
      do {
        // A scenario file of any size (a pasted history of a real customer's notifications).
        scenario = try Scenario(json: FileSystem.read(file, limit: 1 << 40), file: file)
      } catch let error as ScenarioError {
        run.output += "FAIL  \(ControlCharacters.escaped(error.description))\n"
        sections.append(HTMLReportSection(file: file, error: error.description))
        failed += 1
        unreadable = true
        continue
      } catch {
        run.output +=
          "FAIL  \(ControlCharacters.escaped(file)): cannot read: \(error.localizedDescription)\n"
        sections.append(
          HTMLReportSection(file: file, error: "cannot read: \(error.localizedDescription)"))
        failed += 1
        unreadable = true
        continue
      }
      let result = ScenarioRunner.run(scenario)
      sections.append(HTMLReportSection(scenario: scenario, result: result))
      // The name, the failures and the diagnostics come from the file: escaped.
      let name = ControlCharacters.escaped(result.name)
      let path = ControlCharacters.escaped(file)
      if result.passed {
        passed += 1
        run.output += "PASS  \(name)  (\(path))\n"
      } else {
        failed += 1
        run.output += "FAIL  \(name)  (\(path))\n"
        for failure in result.failures {
          run.output += "        \(ControlCharacters.escaped(failure.line))\n"
        }
        if !result.diagnostics.isEmpty {
          let count = result.diagnostics.count
          run.output += "        the input has \(count == 1 ? "1 problem" : "\(count) problems"):\n"
          for diagnostic in result.diagnostics {
            run.output += "          \(ControlCharacters.escaped(diagnostic.description))\n"
          }
        }
      }
    }
    run.output += "\(passed) passed, \(failed) failed\n"
    if unreadable || files.isEmpty {
      run.status = 2
    } else if failed > 0, run.status == 0 {
      run.status = 1
    }
    return sections
  }

  /// A document file's reading error as its author can find it: when the file itself is not
  /// JSON, the line and column in the file; otherwise the reader's own words (a JWS payload
  /// that is not JSON has offsets into the payload, not into the file).
  static func fileError(_ error: ReadError, in bytes: some Collection<UInt8>) -> String {
    let first = bytes.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
    guard case .malformedJSON = error,
      first == nil || first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return error.description }
    let bytes = Array(bytes)
    do {
      _ = try JSONValue(parsing: bytes)
    } catch {
      return "not JSON: \(JSONFile.describe(error, in: bytes))"
    }
    return error.description
  }

  /// Reads FILE as a scenario (it has `expect`), or every FILE as one subscriber's
  /// documents, evaluated with the catalog of `catalog` when given.
  static func explanation(
    of files: [String], catalog: String?, policy: String? = nil, at: Instant,
    knownAt: Instant? = nil, verifier: (any SignedPayloadVerifier)? = nil,
    maxBytes: Int = FileSystem.defaultMaximumBytes, _ run: inout Run
  ) -> Explanation? {
    // Mapped, not copied: Apple's documents are read where they lie (FileSystem.mapped).
    var contents: [(file: String, bytes: Data)] = []
    for file in files + (catalog.map { [$0] } ?? []) + (policy.map { [$0] } ?? []) {
      do {
        contents.append((file, try FileSystem.mapped(file, limit: maxBytes)))
      } catch {
        run.errors = "\(file): cannot read: \(error.localizedDescription)\n"
        run.status = 2
        return nil
      }
    }
    do {
      if files.count == 1, catalog == nil,
        contents[0].bytes.withUnsafeBytes({
          // In place: the mapped file is not copied to be looked at.
          Scenario.looksLikeScenario($0.assumingMemoryBound(to: UInt8.self))
        })
      {
        guard policy == nil else {
          run.errors = "\(files[0]): --policy is for Apple's documents: a scenario has its own\n"
          run.status = 2
          return nil
        }
        guard verifier == nil else {
          run.errors = "\(files[0]): --verify verifies Apple's documents, not scenario files\n"
          run.status = 2
          return nil
        }
        let scenario = try Scenario(
          json: Array(contents[0].bytes), file: files[0], knownAt: knownAt)
        return Explanation(
          evaluation: scenario.evaluate(), releases: scenario.releases, at: at,
          readingDiagnostics: scenario.readingDiagnostics, environment: scenario.environment,
          catalog: scenario.catalog)
      }
      let products = try catalog.map { file throws(ScenarioError) in
        try Scenario.catalog(json: Array(contents[files.count].bytes), file: file)
      }
      let policies = try policy.map { file throws(ScenarioError) in
        try Scenario.policy(json: Array(contents[contents.count - 1].bytes), file: file)
      }
      var record = knownAt.map(SubscriberRecord.init(knownAt:)) ?? SubscriberRecord()
      for (file, contents) in contents.prefix(files.count) {
        let bytes = JSONFile.withoutByteOrderMark(contents)
        do {
          for document in try DocumentReader.readAll(bytes, optionalVerifier: verifier) {
            record.fold(document)
          }
        } catch {
          run.errors = ControlCharacters.escaped("\(file): \(fileError(error, in: bytes))")
          // Neither of Apple's documents nor a scenario: say what a scenario lacks too.
          if case .unrecognizedDocument = error, files.count == 1,
            let missing = Scenario.missingScenarioKeys(bytes), !missing.isEmpty
          {
            run.errors +=
              "; nor a scenario: its top level lacks "
              + missing.map { "\"\($0)\"" }.joined(separator: " and ")
          }
          run.errors += "\n"
          run.status = 2
          return nil
        }
      }
      // Built once: a history orders and copies every entry of the record.
      let history = record.history
      return Explanation(
        evaluation: Evaluator(catalog: products ?? .empty, policy: policies ?? Policy())
          .evaluate(history),
        releases: [], at: at, readingDiagnostics: record.readingDiagnostics,
        environment: history.environment, catalog: products ?? .empty)
    } catch {
      run.errors = ControlCharacters.escaped("\(error)") + "\n"
    }
    run.status = 2
    return nil
  }
}
