import Entitlements
import EntitlementsCLI
import EntitlementsTesting
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The paths a user runs, whole process, against the peer a backend would write instead (a
/// Python + orjson script, `Benchmarks/peer.py`): `entitlements evaluate` on generated
/// subscribers, and `entitlements explain --json` on one large verifyReceipt response.
///
/// The tool is this executable run as `entitlements-bench tool ARGUMENTS`, which calls what
/// `entitlements` calls (`EntitlementsTool.stream`): always the code of this build. Inputs are
/// generated once into `BENCH_DIR` (default: the temporary folder) and reused.
enum WholeProcess {
  /// What one process run took.
  struct Measure {
    var seconds: Double
    /// Max resident set size, in megabytes.
    var megabytes: Double
    var status: Int32
  }

  static func run(quick: Bool) -> Int {
    print("")
    print("(2) whole process, output to /dev/null, against the Python + orjson peer")
    let folder =
      ProcessInfo.processInfo.environment["BENCH_DIR"]
      ?? (NSTemporaryDirectory() + "/entitlements-bench")
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let catalog = folder + "/products.json"
    _ = FileManager.default.createFile(atPath: catalog, contents: Data(Documents.catalogJSON.utf8))
    let at = String(Documents.at.millisecondsSince1970)
    let peer = Peer.find()
    if peer == nil {
      print("    peer left out: python3 with orjson not found (pip install orjson)")
    }
    // The threads the tool starts without --jobs.
    let cores = UsableCores.here()
    let runs = quick ? 1 : 3
    print(
      "    the commands of a row run in turn, round after round, the first one alternating "
        + "(explain: \(quick ? 1 : 7) rounds, evaluate: \(runs), 10⁶: one run of the tool alone);")
    print("    times are medians, ratios the medians of the rounds' ratios")

    // explain --json on one large verifyReceipt response (first: the 10⁶-subscriber file
    // would push it out of the page cache).
    let subscribers = quick ? 400 : 4_000
    let receipt = receiptFile(subscribers: subscribers, folder: folder)
    let size = (try? FileManager.default.attributesOfItem(atPath: receipt)[.size] as? Int) ?? 0
    print(
      "    entitlements explain --json: one verifyReceipt response of \(subscribers) "
        + String(format: "subscriptions' owners x 24 entries (%.1f MB)", Double(size) / 1e6))
    let arguments = ["explain", receipt, "--catalog", catalog, "--at", at, "--json"]
    // A short process: more runs cost little.
    let explainRuns = quick ? 1 : 7
    let explained = inTurn(
      explainRuns,
      [{ Tool.run(arguments) }] + (peer.map { peer in [{ peer.run(arguments) }] } ?? []))
    print("      entitlements: " + describe(median(explained[0]), count: nil, what: ""))
    let explainFailures = failures(explained)
    printFailures(explainFailures)
    if explainFailures.isEmpty, explained.count > 1 {
      print("      peer:         " + describe(median(explained[1]), count: nil, what: ""))
      print(String(format: "      ratio: %.1fx the peer", ratio(explained[1], over: explained[0])))
    }
    // evaluate, on 10⁵ and 10⁶ subscribers, and 4 × 10⁴ of uneven lines (10⁴ each for --quick).
    print(
      "    entitlements evaluate: subscribers of 1 to 40 transactions and their renewal info, "
        + "as decoded payloads (one document each) or as a verifyReceipt response")
    var figures: [Int: Measure] = [:]
    let workloads: [(count: Int, shape: LineShape)] =
      quick
      ? [(10_000, .payloads), (10_000, .verifyReceipt), (10_000, .uneven)]
      : [
        (100_000, .payloads), (100_000, .verifyReceipt), (40_000, .uneven), (1_000_000, .payloads),
      ]
    for (count, shape) in workloads {
      let file = subscribersFile(count: count, shape: shape, folder: folder)
      let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
      let arguments = ["evaluate", file, "--catalog", catalog, "--at", at]
      // At 10⁶, one run of the tool alone: the peer would take minutes and show nothing new
      // (its memory does not grow). Below, the tool on the cores it may use, the peer, and the
      // tool on one core (the peer is one process: the ratio per core compares one core with
      // one core).
      let large = count >= 1_000_000
      var commands = [{ Tool.run(arguments) }]
      if !large {
        if let peer { commands.append { peer.run(arguments) } }
        commands.append { Tool.run(arguments + ["--jobs", "1"]) }
      }
      let measures = inTurn(large ? 1 : runs, commands)
      let ours = median(measures[0])
      var line =
        "      \(format(Double(count))) subscribers, \(shape.rawValue) (\(size / 1_000_000) MB): "
        + describe(ours, count: count, what: "\(cores) jobs")
      let failed = failures(measures)
      let peerMeasures = !large && peer != nil && failed.isEmpty ? measures[1] : nil
      if let peerMeasures {
        line +=
          "\n        peer: " + describe(median(peerMeasures), count: count, what: "one process")
        line += String(
          format: "\n        ratio: %.1fx the peer", ratio(peerMeasures, over: measures[0]))
      }
      print(line)
      printFailures(failed)
      if !large, let single = measures.last {
        print("        --jobs 1: " + describe(median(single), count: count, what: "one core"))
        if let peerMeasures {
          print(
            String(
              format: "        ratio per core: %.1fx the peer", ratio(peerMeasures, over: single)))
        }
      }
      if shape == .payloads { figures[count] = ours }
    }
    if let small = figures[100_000], let large = figures[1_000_000] {
      print(
        String(
          format: "      max RSS 10⁶ / 10⁵: %.2f (%.0f MB / %.0f MB)",
          large.megabytes / small.megabytes, large.megabytes, small.megabytes))
    }
    if let peer {
      agreement(peer: peer, folder: folder, catalog: catalog, at: at)
    }

    return 0
  }

  static func describe(_ measure: Measure, count: Int?, what: String) -> String {
    var text = String(format: "%.2f s", measure.seconds)
    if let count {
      text += " (\(format(Double(count) / measure.seconds)) subscribers/s"
      text += what.isEmpty ? ")" : ", \(what))"
    }
    text += String(format: ", max RSS %.0f MB", measure.megabytes)
    if measure.status != 0 { text += ", exit status \(measure.status)" }
    return text
  }

  /// `runs` rounds, each running every command once, in turn: the measures of each command, round
  /// by round. Runs taken back to back see about the same machine, which on a shared machine
  /// changes speed from one minute to the next.
  /// The first command alternates, so that none always runs right after another row's work.
  static func inTurn(_ runs: Int, _ commands: [() -> Measure]) -> [[Measure]] {
    var measures = Array(repeating: [Measure](), count: commands.count)
    for round in 0..<runs {
      let order = round % 2 == 0 ? Array(commands.indices) : commands.indices.reversed()
      for index in order { measures[index].append(commands[index]()) }
    }
    return measures
  }

  /// The exit statuses other than 0 among the runs of a row.
  static func failures(_ measures: [[Measure]]) -> [Int32] {
    measures.joined().map(\.status).filter { $0 != 0 }
  }

  /// Says that runs of a row failed (`statuses`, from ``failures(_:)``): the row gives no ratio.
  static func printFailures(_ statuses: [Int32]) {
    guard let status = statuses.first else { return }
    print("        \(statuses.count) run(s) failed (exit status \(status)): no ratio")
  }

  /// The run with the median time.
  static func median(_ measures: [Measure]) -> Measure {
    measures.sorted { $0.seconds < $1.seconds }[measures.count / 2]
  }

  /// The median, over rounds of ``inTurn(_:_:)``, of the ratio of `numerator`'s time to
  /// `denominator`'s.
  static func ratio(_ numerator: [Measure], over denominator: [Measure]) -> Double {
    let ratios = zip(numerator, denominator).map { $0.seconds / $1.seconds }.sorted()
    return ratios[ratios.count / 2]
  }

  // MARK: - Inputs

  /// The documents of a subscriber line.
  enum LineShape: String {
    /// Decoded signed transactions and renewal info, one document each.
    case payloads = "decoded payloads"
    /// One verifyReceipt response.
    case verifyReceipt = "verifyReceipt"
    /// Decoded payloads, subscribers of 40 and of 1 transaction in turn: lines of uneven
    /// sizes, so that threads given fixed shares of a batch would wait for each other.
    case uneven = "decoded payloads, 40 and 1 transactions in turn"
  }

  /// `count` subscriber lines of 1 to 40 transactions each (40 and 1 in turn when `.uneven`),
  /// generated once.
  static func subscribersFile(count: Int, shape: LineShape = .payloads, folder: String) -> String {
    let prefix: String
    switch shape {
    case .payloads: prefix = ""
    case .verifyReceipt: prefix = "receipt-"
    case .uneven: prefix = "uneven-"
    }
    let file = folder + "/subscribers-v2-\(prefix)\(count).jsonl"
    guard !FileManager.default.fileExists(atPath: file) else { return file }
    print("      (generating \(file))")
    let partial = file + ".partial"
    _ = FileManager.default.createFile(atPath: partial, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: partial) else {
      fatalError("entitlements-bench: cannot write \(partial)")
    }
    var out = Bytes()
    var random = SeededRandom(seed: 21)
    for index in 0..<count {
      let entries = shape == .uneven ? (index % 2 == 0 ? 40 : 1) : random.int(in: 1...40)
      let subscriber = Documents.subscriber(index, entries: entries, seed: 21)
      switch shape {
      case .payloads, .uneven: Documents.subscriberLine(index, subscriber, &out)
      case .verifyReceipt:
        out.text(#"{"subscriber": "user-"#)
        out.integer(Int64(index))
        out.text(#"", "documents": ["#)
        out.bytes += Documents.verifyReceipt([subscriber])
        out.text("]}\n")
      }
      if out.bytes.count > 8 << 20 {
        handle.write(Data(out.bytes))
        out.bytes.removeAll(keepingCapacity: true)
      }
    }
    handle.write(Data(out.bytes))
    try? handle.close()
    try? FileManager.default.moveItem(atPath: partial, toPath: file)
    return file
  }

  /// One verifyReceipt response holding `subscribers` subscribers' 24 entries each.
  static func receiptFile(subscribers: Int, folder: String) -> String {
    let file = folder + "/receipt-v2-\(subscribers).json"
    guard !FileManager.default.fileExists(atPath: file) else { return file }
    let document = Documents.verifyReceipt(
      (0..<subscribers).map { Documents.subscriber($0, entries: 24, seed: 31) })
    _ = FileManager.default.createFile(atPath: file, contents: Data(document))
    return file
  }

  /// How often the peer's states agree with ours, on the first 10 000 subscribers.
  static func agreement(peer: Peer, folder: String, catalog: String, at: String) {
    let file = subscribersFile(count: 10_000, folder: folder)
    let arguments = ["evaluate", file, "--catalog", catalog, "--at", at]
    let oursFile = folder + "/ours.jsonl"
    let peerFile = folder + "/peer.jsonl"
    _ = Tool.run(arguments, output: oursFile)
    _ = peer.run(arguments, output: peerFile)
    func states(_ path: String) -> [String: String] {
      var states: [String: String] = [:]
      guard let data = FileManager.default.contents(atPath: path) else { return states }
      for line in data.split(separator: 0x0A) {
        guard let value = try? JSONValue(parsing: Array(line)),
          case .string(let subscriber)? = value["subscriber"],
          case .array(let entitlements)? = value["entitlements"]
        else { continue }
        for entitlement in entitlements {
          guard case .string(let id)? = entitlement["entitlement"] else { continue }
          var state = ""
          for key in ["state", "entitled", "expiresAt"] {
            state += "\(entitlement[key].map { "\($0)" } ?? "nil") "
          }
          states[subscriber + "/" + id] = state
        }
      }
      return states
    }
    let ours = states(oursFile)
    let theirs = states(peerFile)
    let same = ours.filter { theirs[$0.key] == $0.value }.count
    print(
      String(
        format: "      the peer gives the same state, entitlement and expiry for %.1f%% "
          + "of %d entitlements (10⁴ subscribers)",
        100 * Double(same) / Double(max(ours.count, 1)), ours.count))
  }

  // MARK: - Processes

  /// This executable, as the `entitlements` tool.
  enum Tool {
    static let path: String = {
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    }()

    static func run(_ arguments: [String], output: String = "/dev/null") -> Measure {
      spawn([path, "tool"] + arguments, output: output)
    }
  }

  /// The Python + orjson peer.
  struct Peer {
    var python: String
    var script: String

    static func find() -> Peer? {
      let script =
        ProcessInfo.processInfo.environment["BENCH_PEER"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Benchmarks/peer.py").path
      guard FileManager.default.fileExists(atPath: script) else { return nil }
      let check = spawnDirectly(
        ["/usr/bin/env", "python3", "-c", "import orjson"], output: "/dev/null")
      guard check.status == 0 else { return nil }
      return Peer(python: "/usr/bin/env", script: script)
    }

    func run(_ arguments: [String], output: String = "/dev/null") -> Measure {
      spawn([python, "python3", script] + arguments, output: output)
    }
  }

  /// Runs `arguments` (the first an absolute path) with standard output to `output`, and
  /// measures its time and its own max RSS.
  ///
  /// The RSS is GNU time's (`/usr/bin/time -f %M`): Linux counts in a child's maximum RSS
  /// the memory of the process it was spawned from (kept across `exec`), so this process,
  /// large after the latency part, cannot measure its children itself. GNU time is small, and
  /// its own child's figure is the command's alone.
  static func spawn(_ arguments: [String], output: String) -> Measure {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else {
      var measure = spawnDirectly(arguments, output: output)
      measure.megabytes = .nan
      return measure
    }
    let report = NSTemporaryDirectory() + "/entitlements-bench-rss-\(getpid())"
    var measure = spawnDirectly([time, "-f", "%M", "-o", report] + arguments, output: output)
    let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
    let kilobytes = text.split(separator: "\n").last.flatMap { Double($0) }
    measure.megabytes = kilobytes.map { $0 / 1024 } ?? .nan
    try? FileManager.default.removeItem(atPath: report)
    return measure
  }

  /// Runs `arguments` with standard output to `output`: its time and exit status.
  static func spawnDirectly(_ arguments: [String], output: String) -> Measure {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard spawned == 0 else {
      fatalError("entitlements-bench: cannot run \(arguments[0]): error \(spawned)")
    }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Measure(seconds: seconds, megabytes: Double(usage.ru_maxrss) / 1024, status: exit)
  }
}
