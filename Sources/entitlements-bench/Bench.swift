// The benchmark (issue: performance). Release build:
//   swift run -c release entitlements-bench           full run (a few minutes)
//   swift run -c release entitlements-bench --quick   smoke run (seconds)
// Inputs are seeded; each figure is the median of several timed runs after a warm-up (the
// shapes part: the best of three, at two sizes).

import Entitlements
import EntitlementsCLI
import EntitlementsTesting
import Foundation

func seconds(_ block: () -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  block()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The middle of `times`.
func median(_ times: [Double]) -> Double { times.sorted()[times.count / 2] }

/// Median seconds of `runs` timed runs after one warm-up.
func median(runs: Int, _ block: () -> Void) -> Double {
  block()
  return median((0..<runs).map { _ in seconds(block) })
}

/// Median seconds of `runs` timed runs of each block after one warm-up each, the blocks run
/// in turn: both are timed under the same conditions, so that their ratio does not depend on
/// when the machine was busy.
func interleavedMedians(runs: Int, _ first: () -> Void, _ second: () -> Void) -> (Double, Double) {
  first()
  second()
  var times: ([Double], [Double]) = ([], [])
  for _ in 0..<runs {
    times.0.append(seconds(first))
    times.1.append(seconds(second))
  }
  return (median(times.0), median(times.1))
}

func format(_ value: Double) -> String {
  if value >= 1e6 { return String(format: "%.1f M", value / 1e6) }
  if value >= 1e3 { return String(format: "%.1f k", value / 1e3) }
  return String(format: "%.1f", value)
}

@main
enum Bench {
  static func main() {
    // `entitlements-bench tool ARGUMENTS` is the `entitlements` tool (the whole-process rows
    // run this build's tool this way).
    if CommandLine.arguments.dropFirst().first == "tool" {
      exit(EntitlementsTool.stream(Array(CommandLine.arguments.dropFirst(2))))
    }
    let quick = CommandLine.arguments.contains("--quick")
    let runs = quick ? 3 : 7
    // `--only latency|process|core|end|batch|scale|shapes|verify|verify-process|long-line`
    // runs one part.
    let only = CommandLine.arguments.firstIndex(of: "--only").flatMap {
      CommandLine.arguments.indices.contains($0 + 1) ? CommandLine.arguments[$0 + 1] : nil
    }
    func selected(_ part: String) -> Bool { only == nil || only == part }

    var sink = 0
    print("entitlements-bench\(quick ? " --quick" : ""): median of \(runs) runs after a warm-up")
    if selected("latency") { sink &+= Latency.run(quick: quick) }
    if selected("process") { sink &+= WholeProcess.run(quick: quick) }
    if selected("core") { sink &+= core(quick: quick, runs: runs) }
    if selected("end") { sink &+= endToEnd(runs: runs) }
    if selected("batch") { sink &+= batch(quick: quick, runs: runs) }
    if selected("scale") { sink &+= scale(runs: quick ? 1 : 3) }
    if selected("shapes") { sink &+= Shapes.run(quick: quick) }
    if selected("verify") { sink &+= VerificationBench.run(runs: runs) }
    if selected("verify-process") { sink &+= VerifyProcessBench.run(rounds: quick ? 1 : 3) }
    if selected("long-line") { sink &+= LongLineBench.run() }
    print("")
    print("(checksum \(sink))")
  }

  static let evaluator = Evaluator(catalog: Inputs.catalog)
  static let probe = Instant(millisecondsSince1970: 1_600_000_000_000)

  /// 1 when the first entitlement is entitled at the probe.
  static func entitledAtProbe(_ evaluation: Evaluation) -> Int {
    guard !evaluation.entitlements.isEmpty else { return 0 }
    return evaluation.entitlements[0].status(at: probe).isEntitled ? 1 : 0
  }

  /// (a) evaluate in-memory entries.
  static func core(quick: Bool, runs: Int) -> Int {
    var sink = 0
    print("")
    print("(a) core: evaluate in-memory entries (periods, lapses, windows, status)")
    print("    n           order      time/eval     entries/s")
    var coreTimes: [Int: Double] = [:]
    var sortedHistories: [Int: PurchaseHistory] = [:]
    var shuffledHistories: [Int: PurchaseHistory] = [:]
    let sizes = ProcessInfo.processInfo.environment["BENCH_N"].flatMap { Int($0) }.map { [$0] }
    for n in sizes ?? (quick ? [10, 1000, 100_000] : [10, 1000, 100_000, 1_000_000]) {
      let sorted = Inputs.entries(count: n, seed: 1)
      var random = SeededRandom(seed: 2)
      let shuffled = random.shuffled(sorted)
      let order = ProcessInfo.processInfo.environment["BENCH_ORDER"]
      for (name, entries) in [("sorted", sorted), ("shuffled", shuffled)]
      where order == nil || order == name {
        let repeats =
          ProcessInfo.processInfo.environment["BENCH_REPEATS"].flatMap { Int($0) }
          ?? max(1, 200_000 / n)
        let history = PurchaseHistory(entries: entries)
        let time =
          median(runs: runs) {
            for _ in 0..<repeats {
              let evaluation = evaluator.evaluate(history)
              sink &+= entitledAtProbe(evaluation)
            }
          } / Double(repeats)
        if name == "sorted" {
          coreTimes[n] = time
          if n == 100_000 || n == 1_000_000 { sortedHistories[n] = history }
        } else if n == 100_000 || n == 1_000_000 {
          shuffledHistories[n] = history
        }
        print(
          "    \(String(n).padding(toLength: 11, withPad: " ", startingAt: 0)) "
            + "\(name.padding(toLength: 10, withPad: " ", startingAt: 0)) "
            + "\(String(format: "%10.3f ms", time * 1000))  \(format(Double(n) / time))")
      }
    }
    sink &+= readHistories(runs: runs)
    // Shuffled against sorted input at 10⁵, taken in turn: a figure of the engine, not of the
    // machine's speed at the moment (which moves both by up to 1.9×).
    if let sorted = sortedHistories[100_000], let shuffled = shuffledHistories[100_000] {
      let (sortedTime, shuffledTime) = interleavedMedians(
        runs: max(runs, 9),
        {
          for _ in 0..<5 { sink &+= entitledAtProbe(evaluator.evaluate(sorted)) }
        },
        {
          for _ in 0..<5 { sink &+= entitledAtProbe(evaluator.evaluate(shuffled)) }
        })
      print(
        String(
          format: "    shuffled / sorted at 100 000, taken in turn = %.2f (%.3f ms / %.3f ms)",
          shuffledTime / sortedTime, shuffledTime * 200, sortedTime * 200))
    }
    if let small = coreTimes[100_000], let large = coreTimes[1_000_000] {
      print(String(format: "    t(1 000 000) / t(100 000) = %.1f", large / small))
    }
    // The ratio again, from runs of the two sizes taken in turn: this machine's speed moves by
    // half over seconds (a shared virtual machine), and the table's two figures are timed
    // seconds apart.
    for (order, histories) in [("sorted", sortedHistories), ("shuffled", shuffledHistories)] {
      guard let small = histories[100_000], let large = histories[1_000_000] else { continue }
      let (smallTime, largeTime) = interleavedMedians(
        runs: max(runs, 9),
        {
          for _ in 0..<10 { sink &+= entitledAtProbe(evaluator.evaluate(small)) }
        },
        { sink &+= entitledAtProbe(evaluator.evaluate(large)) })
      print(
        String(
          format: "    t(1 000 000) / t(100 000), %@, taken in turn = %.1f (%.3f ms / %.3f ms)",
          order, largeTime / (smallTime / 10), largeTime * 1000, smallTime * 100))
    }
    return sink
  }

  /// Core rows of histories as a backend has them: 10⁵ entries read from a verifyReceipt
  /// document, with its renewal info (the byte reader shares one string per product and per
  /// subscription), in Apple's order and shuffled. The rows above are built in memory with
  /// literal strings and no renewal info.
  static func readHistories(runs: Int) -> Int {
    guard ProcessInfo.processInfo.environment["BENCH_N"].map({ $0 == "100000" }) ?? true else {
      return 0
    }
    var sink = 0
    let n = 100_000
    let read = Inputs.read(Inputs.verifyReceiptJSON(entries: n, seed: 5))
    var random = SeededRandom(seed: 6)
    var shuffled = read
    shuffled.entries = random.shuffled(read.entries)
    let order = ProcessInfo.processInfo.environment["BENCH_ORDER"]
    for (name, history) in [("sorted", read), ("shuffled", shuffled)]
    where order == nil || order == name {
      let repeats = ProcessInfo.processInfo.environment["BENCH_REPEATS"].flatMap { Int($0) } ?? 2
      let time =
        median(runs: runs) {
          for _ in 0..<repeats { sink &+= entitledAtProbe(evaluator.evaluate(history)) }
        } / Double(repeats)
      print(
        "    \(String(n).padding(toLength: 11, withPad: " ", startingAt: 0)) "
          + "\(name.padding(toLength: 10, withPad: " ", startingAt: 0)) "
          + "\(String(format: "%10.3f ms", time * 1000))  \(format(Double(n) / time))"
          + "  read from a document, with renewal info")
    }
    return sink
  }

  /// (b) verifyReceipt bytes to a full evaluation, against JSONDecoder.
  static func endToEnd(runs: Int) -> Int {
    var sink = 0
    print("")
    print(
      "(b) end to end: verifyReceipt bytes -> full evaluation (periods, status, readable releases)")
    let document = Inputs.verifyReceiptJSON(entries: 500, seed: 3)
    let data = Data(document)
    let releases = Inputs.releases(count: 500)
    let megabytes = Double(document.count) / 1e6
    // The baseline and the engine are timed in turn, so that their ratio compares them under
    // the same conditions.
    var (baselineTime, ourTime) = interleavedMedians(
      runs: runs,
      {
        for _ in 0..<20 { sink &+= Baseline.decode(data) }
      },
      {
        for _ in 0..<20 {
          guard let response = try? VerifyReceiptResponse(unverifiedJSON: document) else {
            continue
          }
          let evaluation = Evaluator(catalog: Inputs.catalog).evaluate(response.history)
          if let premium = evaluation.entitlements.first {
            sink &+= premium.status(at: probe).isEntitled ? 1 : 0
            sink &+= premium.readableReleases(releases).count
          }
        }
      })
    baselineTime /= 20
    ourTime /= 20
    let readTime =
      median(runs: runs) {
        for _ in 0..<20 {
          sink &+= (try? VerifyReceiptResponse(unverifiedJSON: document))?.entries.count ?? 0
        }
      } / 20
    print(String(format: "    document: %d entries, %.0f KB", 500, Double(document.count) / 1000))
    print(
      String(
        format: "    JSONDecoder (decode only)  %8.3f ms  %7.1f MB/s  %@ entries/s",
        baselineTime * 1000,
        megabytes / baselineTime, format(500 / baselineTime)))
    print(
      String(
        format: "    entitlements (read+eval)   %8.3f ms  %7.1f MB/s  %@ entries/s", ourTime * 1000,
        megabytes / ourTime, format(500 / ourTime)))
    print(
      String(
        format: "    of which reading           %8.3f ms  %7.1f MB/s", readTime * 1000,
        megabytes / readTime))
    print(String(format: "    ratio: %.1fx the baseline", baselineTime / ourTime))
    return sink
  }

  /// (c) many small histories, one after another.
  ///
  /// The timed figure evaluates histories from a pool of distinct seeded histories, cycled:
  /// memory stays bounded (the pool does not grow with the number of subscribers), the pool is
  /// larger than the last-level cache (unless `BENCH_POOL` makes it small), and only the
  /// library's work is timed. The second figure also builds each history in the loop (a
  /// template copied and shifted), as earlier runs did: the difference is the benchmark's own
  /// copying and freeing of entries.
  static func batch(quick: Bool, runs: Int) -> Int {
    var sink = 0
    print("")
    let subscribers = quick ? 20_000 : 1_000_000
    let poolSize =
      Int(ProcessInfo.processInfo.environment["BENCH_POOL"] ?? "") ?? (quick ? 2_000 : 10_000)
    guard poolSize > 0 else {
      fatalError("entitlements-bench: BENCH_POOL must be a number of histories, 1 or more")
    }
    print(
      "(c) batch: \(subscribers) subscribers x 24 entries, one core "
        + "(pool of \(poolSize) distinct histories, cycled)")
    let pool = (0..<poolSize).map { index in
      PurchaseHistory(entries: Inputs.entries(count: 24, seed: 1_000 + UInt64(index)))
    }
    // BENCH_BATCH=pool, generated or read runs one of the three loops (for profiling).
    let loops = ProcessInfo.processInfo.environment["BENCH_BATCH"]
    func selectedLoop(_ loop: String) -> Bool { loops == nil || loops == loop }
    /// Median seconds to evaluate `subscribers` histories, cycling through `pool`.
    func cycling(_ pool: [PurchaseHistory]) -> Double {
      median(runs: runs) {
        for subscriber in 0..<subscribers {
          let evaluation = evaluator.evaluate(pool[subscriber % pool.count])
          sink &+= entitledAtProbe(evaluation)
        }
      }
    }
    /// Prints a loop's time and what it is, or that `BENCH_BATCH` left it out.
    func report(_ loop: String, _ time: Double?, _ line: (Double) -> String) {
      print(time.map(line) ?? "    (\(loop) loop left out: BENCH_BATCH=\(loops ?? ""))")
    }
    report("pool", selectedLoop("pool") ? cycling(pool) : nil) { time in
      String(
        format: "    %.2f s  (%@ subscribers/s, %@ entries/s)", time,
        format(Double(subscribers) / time), format(Double(subscribers * 24) / time))
    }

    let template = Inputs.entries(count: 24, seed: 4)
    let generatedTime =
      !selectedLoop("generated")
      ? nil
      : median(runs: runs) {
        for subscriber in 0..<subscribers {
          // Each subscriber's history: the template shifted by a per-subscriber offset.
          let offset = FixedDuration.minutes(Int64(subscriber % 10_000))
          var entries = template
          for index in entries.indices {
            entries[index].purchaseDate = entries[index].purchaseDate.map { $0 + offset }
            entries[index].expiresDate = entries[index].expiresDate.map { $0 + offset }
          }
          let evaluation = evaluator.evaluate(PurchaseHistory(entries: entries))
          sink &+= entitledAtProbe(evaluation)
        }
      }
    report("generated", generatedTime) { time in
      String(
        format: "    %.2f s  with each history built in the loop (template copied and shifted)",
        time)
    }

    // The pool's histories as a backend has them: each read from its own verifyReceipt
    // document, with its renewal info (reading is not timed).
    let readTime =
      selectedLoop("read")
      ? cycling(
        (0..<poolSize).map {
          Inputs.read(Inputs.verifyReceiptJSON(entries: 24, seed: 1_000 + UInt64($0)))
        }) : nil
    report("read", readTime) { time in
      String(format: "    %.2f s  with histories read from documents, with renewal info", time)
    }
    return sink
  }

  /// (d) no quadratic path: a 100 000-entry receipt and 10 000 releases, from bytes (Apple's
  /// order) and from shuffled entries in memory. Each run reads or takes the entries, evaluates
  /// them, and asks every entitlement for its readable releases and its status at each
  /// release.
  static func scale(runs: Int) -> Int {
    var sink = 0
    print("")
    print("(d) scale: a 100 000-entry receipt and 10 000 releases (target: well under a second)")
    let document = Inputs.verifyReceiptJSON(entries: 100_000, seed: 5)
    let releases = Inputs.releases(count: 10_000)
    /// Readable releases and statuses at each release of every entitlement; the periods.
    func ask(_ evaluation: Evaluation) -> (readable: Int, entitled: Int, periods: Int) {
      var answer = (readable: 0, entitled: 0, periods: 0)
      for entitlement in evaluation.entitlements {
        answer.readable += entitlement.readableReleases(releases).count
        answer.periods += entitlement.periods.count
        for release in releases where entitlement.status(at: release.date).isEntitled {
          answer.entitled += 1
        }
      }
      return answer
    }
    func read() -> PurchaseHistory { Inputs.read(document) }
    // The same history, its entries shuffled: the two forms must give the same answers.
    var shuffled = read()
    var random = SeededRandom(seed: 6)
    shuffled.entries = random.shuffled(shuffled.entries)
    var answers: [(readable: Int, entitled: Int, periods: Int)] = []
    let fromBytes = median(runs: runs) {
      answers.append(ask(evaluator.evaluate(read())))
    }
    let fromShuffled = median(runs: runs) {
      answers.append(ask(evaluator.evaluate(shuffled)))
    }
    guard let first = answers.first, answers.allSatisfy({ $0 == first }) else {
      fatalError("entitlements-bench: the two forms of one history disagree: \(answers)")
    }
    sink &+= first.readable &+ first.entitled
    print(
      String(
        format: "    from verifyReceipt bytes (%.0f MB)   %8.1f ms",
        Double(document.count) / 1e6, fromBytes * 1000))
    print(String(format: "    from shuffled entries in memory  %8.1f ms", fromShuffled * 1000))
    print(
      "    \(first.periods) periods, \(first.readable) readable releases, "
        + "entitled at \(first.entitled) of \(releases.count) release dates")
    return sink
  }
}
