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
    case .explain(let file, let at, let json):
      guard let explanation = explanation(of: file, at: at ?? now, &run) else { return run }
      run.output = (json ? explanation.json.jsonText(indent: 2) : explanation.text) + "\n"
    case .verify(let options):
      VerifyCommand.run(options, &run)
    case .timeline(let file, let at, let svg):
      guard let explanation = explanation(of: file, at: at ?? now, &run) else { return run }
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
      }
    }
    run.output += "\(passed) passed, \(failed) failed\n"
    if unreadable || files.isEmpty {
      run.status = 2
    } else if failed > 0, run.status == 0 {
      run.status = 1
    }
  }

  /// Reads FILE as a scenario (it has `expect`) or as any document Apple sends.
  static func explanation(of file: String, at: Instant, _ run: inout Run) -> Explanation? {
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.read(file)
    } catch {
      run.errors = "\(file): cannot read: \(error.localizedDescription)\n"
      run.status = 2
      return nil
    }
    let isScenario = (try? JSONValue(parsing: bytes))?["expect"] != nil
    do {
      if isScenario {
        let scenario = try Scenario(json: bytes, file: file)
        return Explanation(
          evaluation: scenario.evaluate(), releases: scenario.releases, at: at,
          readingDiagnostics: scenario.readingDiagnostics)
      }
      let document = try DocumentReader.read(bytes)
      return Explanation(
        evaluation: Evaluator().evaluate(document.history), releases: [], at: at,
        readingDiagnostics: document.diagnostics)
    } catch let error as ScenarioError {
      run.errors = "\(error)\n"
    } catch {
      run.errors = "\(file): \(error)\n"
    }
    run.status = 2
    return nil
  }
}
