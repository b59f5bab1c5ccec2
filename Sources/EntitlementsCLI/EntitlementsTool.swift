import Entitlements
import EntitlementsScenarios
// The command line tool may use full Foundation (directory walking, error descriptions);
// the libraries below it use FoundationEssentials only (DESIGN.md).
import Foundation

/// The `entitlements` command, as a function from arguments to output and an exit status, so
/// that it is tested without a process.
///
/// ```swift
/// let run = EntitlementsTool.run(["check", "Scenarios"])
/// run.status  // 0
/// run.output.split(separator: "\n").last  // "17 passed, 0 failed"
/// ```
public enum EntitlementsTool {
  /// What a run printed and how it ended.
  public struct Run: Sendable {
    /// Standard output.
    public var output = ""
    /// Standard error.
    public var errors = ""
    /// The exit status: 0 success, 1 failed checks, 2 bad usage or unreadable input.
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
      run.status = 2
      return run
    }
    switch command {
    case .help(let subcommand):
      run.output = CommandLineArguments.help(subcommand) + "\n"
    case .check(let paths):
      check(paths.isEmpty ? ["Scenarios"] : paths, &run)
    case .explain(let files, let catalog, let at, let json):
      guard let explanation = explanation(of: files, catalog: catalog, at: at ?? now, &run)
      else { return run }
      run.output = (json ? explanation.jsonText(indent: 2) : explanation.text) + "\n"
    case .timeline(let file, let at, let svg):
      guard let explanation = explanation(of: [file], catalog: nil, at: at ?? now, &run)
      else { return run }
      do {
        try FileSystem.write(TimelineSVG(explanation: explanation).render(), to: svg)
        run.output = "wrote \(svg)\n"
      } catch {
        run.errors = "\(svg): cannot write: \(error.localizedDescription)\n"
        run.status = 2
      }
    }
    return run
  }

  static func check(_ paths: [String], _ run: inout Run) {
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
        scenario = try Scenario(json: FileSystem.read(file), file: file)
      } catch let error as ScenarioError {
        run.output += "FAIL  \(error)\n"
        failed += 1
        unreadable = true
        continue
      } catch {
        run.output += "FAIL  \(file): cannot read: \(error.localizedDescription)\n"
        failed += 1
        unreadable = true
        continue
      }
      let result = ScenarioRunner.run(scenario)
      if result.passed {
        passed += 1
        run.output += "PASS  \(result.name)  (\(file))\n"
      } else {
        failed += 1
        run.output += "FAIL  \(result.name)  (\(file))\n"
        for failure in result.failures { run.output += "        \(failure.line)\n" }
        if !result.diagnostics.isEmpty {
          run.output += "        the input has \(result.diagnostics.count) problem(s):\n"
          for diagnostic in result.diagnostics { run.output += "          \(diagnostic)\n" }
        }
      }
    }
    run.output += "\(passed) passed, \(failed) failed\n"
    if unreadable || files.isEmpty {
      run.status = 2
    } else if failed > 0, run.status == 0 {
      run.status = 1
    }
  }

  /// Reads FILE as a scenario (it has `expect`), or every FILE as one subscriber's
  /// documents, evaluated with the catalog of `catalog` when given.
  static func explanation(
    of files: [String], catalog: String?, at: Instant, _ run: inout Run
  ) -> Explanation? {
    var contents: [(file: String, bytes: [UInt8])] = []
    for file in files + (catalog.map { [$0] } ?? []) {
      do {
        contents.append((file, try FileSystem.read(file)))
      } catch {
        run.errors = "\(file): cannot read: \(error.localizedDescription)\n"
        run.status = 2
        return nil
      }
    }
    do {
      if files.count == 1, catalog == nil, Scenario.looksLikeScenario(contents[0].bytes) {
        let scenario = try Scenario(json: contents[0].bytes, file: files[0])
        return Explanation(
          evaluation: scenario.evaluate(), releases: scenario.releases, at: at,
          readingDiagnostics: scenario.readingDiagnostics, environment: scenario.environment,
          catalog: scenario.catalog)
      }
      let products = try catalog.map { file throws(ScenarioError) in
        try Scenario.catalog(json: contents[contents.count - 1].bytes, file: file)
      }
      var record = SubscriberRecord()
      for (file, bytes) in contents.prefix(files.count) {
        do {
          for document in try DocumentReader.readAll(bytes) { record.fold(document) }
        } catch {
          run.errors = "\(file): \(error)\n"
          run.status = 2
          return nil
        }
      }
      return Explanation(
        evaluation: Evaluator(catalog: products ?? .empty).evaluate(record.history),
        releases: [], at: at, readingDiagnostics: record.readingDiagnostics,
        environment: record.history.environment, catalog: products ?? .empty)
    } catch {
      run.errors = "\(error)\n"
    }
    run.status = 2
    return nil
  }
}
