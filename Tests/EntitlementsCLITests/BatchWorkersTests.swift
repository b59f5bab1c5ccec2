import Dispatch
import Entitlements
import Synchronization
import Testing

@testable import EntitlementsCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The threads of an `evaluate` run: no more than `--jobs`, started once, going from one
/// batch to the next without waiting for the others, answers kept in input order.
@Suite("entitlements evaluate: the worker threads")
struct BatchWorkersTests {
  /// A batch of `lines`, numbered from `first`.
  static func batch(_ lines: [String], first: Int = 1) -> BatchEvaluation.Batch {
    var batch = BatchEvaluation.Batch(bytes: Array(lines.joined(separator: "\n").utf8))
    var start = 0
    for (offset, line) in lines.enumerated() {
      batch.append(start..<start + line.utf8.count, number: first + offset)
      start += line.utf8.count + 1
    }
    return batch
  }

  /// What the threads did: which threads answered lines, and the most that did at once.
  final class Tally: Sendable {
    private let running = Atomic<Int>(0)
    private let mostRunningAtomic = Atomic<Int>(0)
    private let threadsSeen = Mutex<Set<UInt>>([])

    /// Records that the calling thread answers a line during `body`.
    func answering<T>(_ body: () -> T) -> T {
      let now = running.wrappingAdd(1, ordering: .relaxed).newValue
      mostRunningAtomic.max(now, ordering: .relaxed)
      #if canImport(Darwin)
        let thread = UInt(bitPattern: pthread_self())
      #else
        let thread = UInt(pthread_self())
      #endif
      threadsSeen.withLock { _ = $0.insert(thread) }
      defer { running.wrappingSubtract(1, ordering: .relaxed) }
      return body()
    }

    var mostRunning: Int { mostRunningAtomic.load(ordering: .relaxed) }
    var threads: Int { threadsSeen.withLock { $0.count } }
  }

  /// The answer that echoes `line`, marked failed when asked.
  static func echo(_ line: ArraySlice<UInt8>, failed: Bool = false) -> BatchEvaluation.Answer {
    (Array(line), failed)
  }

  /// A thread whose batch's lines are all taken goes on to the next batch while another
  /// thread still answers the older one: the older batch's only line waits for the newer
  /// batch's line to be answered, which happens only if a thread does not wait for the
  /// older batch to end.
  @Test func aThreadGoesOnToTheNextBatchWhileTheOlderIsAnswered() {
    let newerAnswered = DispatchSemaphore(value: 0)
    let workers = BatchEvaluation.Workers(jobs: 2) { line, _, _ in
      if line.elementsEqual("older".utf8) {
        let waited = newerAnswered.wait(timeout: .now() + 20)
        return Self.echo(line, failed: waited == .timedOut)
      }
      newerAnswered.signal()
      return Self.echo(line)
    }
    defer { workers.close() }
    let older = workers.handOver(Self.batch(["older"]))
    let newer = workers.handOver(Self.batch(["newer"], first: 2))
    let olderAnswers = older.answers().answers
    #expect(olderAnswers.map { String(decoding: $0.bytes, as: UTF8.self) } == ["older"])
    #expect(olderAnswers.map(\.failed) == [false], "the older line waited in vain")
    #expect(newer.answers().answers.map(\.bytes) == [Array("newer".utf8)])
  }

  /// However many batches are handed over, at most `jobs` threads answer lines, and at most
  /// `jobs` at once; each batch's answers come back in its lines' order, with its bytes.
  @Test(arguments: [1, 2, 3])
  func neverMoreThreadsThanJobs(jobs: Int) {
    let tally = Tally()
    let workers = BatchEvaluation.Workers(jobs: jobs) { line, number, _ in
      tally.answering {
        usleep(100)
        return Self.echo(Array("\(number):".utf8)[...] + line)
      }
    }
    let batches = (0..<12).map { batch in
      Self.batch((0..<20).map { "line \(batch * 20 + $0)" }, first: batch * 20 + 1)
    }
    let pending = batches.map(workers.handOver)
    for (batch, pending) in zip(batches, pending) {
      let (answers, bytes) = pending.answers()
      #expect(bytes == batch.bytes)
      #expect(
        answers.map { String(decoding: $0.bytes, as: UTF8.self) }
          == zip(batch.numbers, batch.lines).map { number, line in
            "\(number):" + String(decoding: batch.bytes[line], as: UTF8.self)
          })
    }
    workers.close()
    #expect(tally.mostRunning <= jobs)
    #expect(tally.threads <= jobs)
    // Lines that sleep overlap when there are threads to overlap on.
    #expect(tally.mostRunning == jobs)
  }

  /// A batch of a few lines is one thread's work: with many jobs, one thread starts.
  @Test func aFewLinesStartOneThread() {
    let tally = Tally()
    let workers = BatchEvaluation.Workers(jobs: 8) { line, _, _ in
      tally.answering {
        usleep(1_000)
        return Self.echo(line)
      }
    }
    let answers = workers.handOver(Self.batch(["a", "b", "c"])).answers().answers
    workers.close()
    #expect(answers.map(\.bytes) == ["a", "b", "c"].map { Array($0.utf8) })
    #expect(tally.threads == 1)
  }

  /// A batch with no line (blank lines only) is answered at once, alone or among others.
  @Test(.timeLimit(.minutes(1)))
  func aBatchOfNoLinesIsAnsweredAtOnce() throws {
    let workers = BatchEvaluation.Workers(jobs: 2) { line, _, _ in Self.echo(line) }
    defer { workers.close() }
    let empty = workers.handOver(BatchEvaluation.Batch(bytes: Array("\n  \n".utf8)))
    #expect(empty.answers().answers.isEmpty)
    let full = workers.handOver(Self.batch(["a"]))
    let emptyAgain = workers.handOver(BatchEvaluation.Batch(bytes: []))
    #expect(full.answers().answers.map(\.bytes) == [Array("a".utf8)])
    #expect(emptyAgain.answers().answers.isEmpty)

    var evaluation = BatchEvaluation(
      evaluator: Evaluator(catalog: .empty), at: Instant(millisecondsSince1970: 0))
    evaluation.batchBytes = 2
    var written: [UInt8] = []
    let failed = try evaluation.run(
      jobs: 2, read: EvaluateCommandTests.reader(of: Array("\n \n\t\n\n".utf8)),
      write: { written += $0 })
    #expect(failed == 0)
    #expect(written.isEmpty)
  }
}
