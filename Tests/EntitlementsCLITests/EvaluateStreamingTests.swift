import Dispatch
import Foundation
import Testing

@testable import EntitlementsCLI

/// `evaluate` answers as lines come (issue: the tool as trustworthy as the library): when the
/// input pauses, every line read so far is answered and written, as a queue consumer or
/// `tail -f` of a webhook log needs. The process reads a pipe; each line's answer is timed
/// from the moment the line was written.
@Suite("entitlements evaluate: answers as lines come")
struct EvaluateStreamingTests {
  /// When each answer came, shared with the thread that reads them.
  final class Arrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Double] = []
    func append(_ time: Double) { lock.withLock { times.append(time) } }
    var values: [Double] { lock.withLock { times } }
  }

  static func seconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  /// Runs `entitlements evaluate` on a pipe, writes `lines` with `pause` seconds after each,
  /// and times each answer from the moment its line was written.
  ///
  /// - Returns: How many answers came before the input ended, and each line's latency in ms.
  static func stream(_ lines: [String], pause: Double) throws -> (
    beforeEnd: Int, latencies: [Double], status: Int32
  ) {
    let executable = try #require(EndToEndTests.executable, "build the entitlements product first")
    let process = Process()
    process.executableURL = executable
    process.arguments = ["evaluate", "--at", "1800000000000", "--jobs", "2"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let answered = Arrivals()
    let reading = DispatchSemaphore(value: 0)
    let started = DispatchTime.now().uptimeNanoseconds
    let count = lines.count
    // Answers are read as they come, each timed.
    let reader = Thread {
      var pending: [UInt8] = []
      let handle = output.fileHandleForReading
      while answered.values.count < count {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        pending += chunk
        while let newline = pending.firstIndex(of: 0x0A) {
          answered.append(Self.seconds(since: started))
          pending.removeSubrange(...newline)
        }
      }
      reading.signal()
    }
    reader.start()
    var written: [Double] = []
    for line in lines {
      written.append(Self.seconds(since: started))
      input.fileHandleForWriting.write(Data((line + "\n").utf8))
      Thread.sleep(forTimeInterval: pause)
    }
    let beforeEnd = answered.values.count
    try input.fileHandleForWriting.close()
    reading.wait()
    process.waitUntilExit()
    let latencies = zip(answered.values, written).map { ($0 - $1) * 1000 }
    return (beforeEnd, latencies, process.terminationStatus)
  }

  @Test func eachLineIsAnsweredBeforeTheNextComes() throws {
    let lines = (0..<4).map(EvaluateCommandTests.line)
    let pause = 0.5
    let run = try Self.stream(lines, pause: pause)
    // Every answer came while the input paused, before the next line (and before the end).
    #expect(
      run.beforeEnd == lines.count, "answered \(run.beforeEnd) of \(lines.count) before the end")
    for (index, latency) in run.latencies.enumerated() {
      #expect(latency < pause * 1000, "line \(index + 1) answered after \(Int(latency)) ms")
    }
    // Within 100 ms as a rule (the median: the first line also pays the process's start).
    let median = run.latencies.sorted()[run.latencies.count / 2]
    #expect(median < 100, "answers came after \(run.latencies.map { Int($0) }) ms")
    print("evaluate answered paused lines after \(run.latencies.map { Int($0) }) ms")
    #expect(run.status == 0)
  }

  /// A steady trickle, a line every 10 ms, never pausing 20 ms: each line is still answered
  /// within about 50 ms and the evaluation, not when a batch fills or the input ends.
  @Test func aSteadyTrickleIsAnsweredAsItComes() throws {
    let lines = (0..<60).map(EvaluateCommandTests.line)
    let run = try Self.stream(lines, pause: 0.01)
    // Most answers came while lines were still coming (the last ones within the cap after).
    #expect(run.beforeEnd >= lines.count / 2, "answered \(run.beforeEnd) before the end")
    let sorted = run.latencies.sorted()
    #expect(sorted[sorted.count / 2] < 100, "median \(Int(sorted[sorted.count / 2])) ms")
    print(
      "evaluate answered a 10 ms trickle: median \(Int(sorted[sorted.count / 2])) ms, "
        + "max \(Int(sorted.last ?? 0)) ms")
    #expect(run.status == 0)
  }
}
