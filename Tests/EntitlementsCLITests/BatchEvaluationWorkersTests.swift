import Dispatch
import Entitlements
import EntitlementsVerification
import Testing

@testable import EntitlementsCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The threads of an `evaluate` run (`BatchEvaluation.Workers`): no more than `--jobs`,
/// started once, going from one batch to the next without waiting for the others, answers
/// kept in input order, and the input's buffers given back unshared.
@Suite("entitlements evaluate: the worker threads")
struct BatchEvaluationWorkersTests {
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

  /// Batches of `count` lines each, numbered on from one batch to the next.
  static func batches(_ batchCount: Int, of count: Int) -> [BatchEvaluation.Batch] {
    (0..<batchCount).map { batch in
      Self.batch((0..<count).map { "line \(batch * count + $0)" }, first: batch * count + 1)
    }
  }

  /// The answer that echoes `line`, marked failed when asked.
  static func echo(_ line: ArraySlice<UInt8>, failed: Bool = false) -> BatchEvaluation.Answer {
    (Array(line), failed)
  }

  /// The answers to `pending`, as `workers.waitForAnswers(of:)` gives them, but waited for
  /// at most a minute: a test that fails does not hang.
  static func answers(
    _ pending: BatchEvaluation.Pending, from workers: BatchEvaluation.Workers,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (answers: [BatchEvaluation.Answer], bytes: [UInt8]) {
    workers.answerIfNoThreadRuns(pending)
    try #require(pending.isAnswered(within: .seconds(60)), sourceLocation: sourceLocation)
    return pending.waitForAnswers()
  }

  /// How many lines are answered at once, at most.
  final class Tally: Sendable {
    private let counts = Locked((running: 0, most: 0))

    /// Records that a line is answered during `body`.
    func answering<T>(_ body: () -> T) -> T {
      counts.withLock { counts in
        counts.running += 1
        counts.most = max(counts.most, counts.running)
      }
      defer { counts.withLock { $0.running -= 1 } }
      return body()
    }

    var mostRunning: Int { counts.withLock { $0.most } }
  }

  /// A thread whose batch's lines are all taken goes on to the next batch while another
  /// thread still answers the older one: the older batch's only line waits for the newer
  /// batch's line to be answered, which happens only if a thread does not wait for the
  /// older batch to end.
  @Test func aThreadGoesOnToTheNextBatchWhileTheOlderIsAnswered() throws {
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
    let olderAnswers = try Self.answers(older, from: workers).answers
    #expect(olderAnswers.map { String(decoding: $0.bytes, as: UTF8.self) } == ["older"])
    #expect(olderAnswers.map(\.failed) == [false], "the older line waited in vain")
    #expect(try Self.answers(newer, from: workers).answers.map(\.bytes) == [Array("newer".utf8)])
  }

  /// However many batches are handed over, `jobs` threads are started, and at most `jobs`
  /// lines are answered at once; each batch's answers come back in its lines' order, with
  /// its bytes.
  @Test(arguments: [1, 2, 3])
  func neverMoreThreadsThanJobs(jobs: Int) throws {
    let tally = Tally()
    let workers = BatchEvaluation.Workers(jobs: jobs) { line, number, _ in
      tally.answering {
        usleep(100)
        return Self.echo(Array("\(number):".utf8)[...] + line)
      }
    }
    defer { workers.close() }
    let batches = Self.batches(12, of: 20)
    let pending = batches.map(workers.handOver)
    for (batch, pending) in zip(batches, pending) {
      let (answers, bytes) = try Self.answers(pending, from: workers)
      #expect(bytes == batch.bytes)
      #expect(
        answers.map { String(decoding: $0.bytes, as: UTF8.self) }
          == zip(batch.numbers, batch.lines).map { number, line in
            "\(number):" + String(decoding: batch.bytes[line], as: UTF8.self)
          })
    }
    #expect(workers.threadCount == jobs)
    #expect(tally.mostRunning <= jobs)
  }

  /// A thread is started per claim of lines handed over, up to `jobs`: a batch of a few
  /// lines (one claim) starts one thread, whatever `jobs` is, and a batch after it with three
  /// claims starts three more.
  @Test func aThreadPerClaimUpToJobs() throws {
    let workers = BatchEvaluation.Workers(jobs: 8) { line, _, _ in Self.echo(line) }
    defer { workers.close() }
    let few = workers.handOver(Self.batch(["a", "b", "c"]))
    #expect(workers.threadCount == 1)
    #expect(
      try Self.answers(few, from: workers).answers.map(\.bytes)
        == ["a", "b", "c"].map { Array($0.utf8) })
    let more = workers.handOver(Self.batches(1, of: 20)[0])
    #expect(workers.threadCount == 4)
    #expect(try Self.answers(more, from: workers).answers.count == 20)
  }

  /// When the system gives fewer threads than `jobs` (`pthread_create` failing), the threads
  /// running answer every line; with none, the thread waiting for the answers answers them.
  @Test(arguments: [(0, 2), (1, 3)])
  func fewerThreadsThanJobsStillAnswerEveryLine(threadsGiven: Int, jobs: Int) throws {
    let caller = pthread_self()
    let onCaller = Locked(0)
    let tally = Tally()
    let workers = BatchEvaluation.Workers(jobs: jobs) { line, _, _ in
      if pthread_equal(pthread_self(), caller) != 0 {
        onCaller.withLock { $0 += 1 }
      }
      return tally.answering { Self.echo(line) }
    }
    workers.threadStartsAllowed = threadsGiven
    defer { workers.close() }
    let batches = Self.batches(4, of: 20)
    for batch in batches {
      let pending = workers.handOver(batch)
      let answers = try Self.answers(pending, from: workers).answers
      #expect(answers.map(\.bytes) == batch.lines.map { Array(batch.bytes[$0]) })
    }
    #expect(workers.threadCount == threadsGiven)
    #expect(onCaller.withLock { $0 } == (threadsGiven == 0 ? 80 : 0))
    // A batch answered is not kept by the workers, with threads or without: memory stays a
    // few batches.
    weak var released: BatchEvaluation.Pending?
    do {
      let pending = workers.handOver(batches[0])
      released = pending
      _ = try Self.answers(pending, from: workers)
    }
    if threadsGiven > 0 {
      // A thread takes it out of the queue when it looks for lines next: hand it another.
      _ = try Self.answers(workers.handOver(batches[1]), from: workers)
    }
    #expect(released == nil, "an answered batch is still held")
    #expect(tally.mostRunning <= max(threadsGiven, 1))
  }

  /// A batch with no line (blank lines only) is answered at once, alone or among others.
  @Test func aBatchOfNoLinesIsAnsweredAtOnce() throws {
    let workers = BatchEvaluation.Workers(jobs: 2) { line, _, _ in Self.echo(line) }
    defer { workers.close() }
    let empty = workers.handOver(BatchEvaluation.Batch(bytes: Array("\n  \n".utf8)))
    #expect(try Self.answers(empty, from: workers).answers.isEmpty)
    let full = workers.handOver(Self.batch(["a"]))
    let emptyAgain = workers.handOver(BatchEvaluation.Batch(bytes: []))
    #expect(try Self.answers(full, from: workers).answers.map(\.bytes) == [Array("a".utf8)])
    #expect(try Self.answers(emptyAgain, from: workers).answers.isEmpty)
  }

  /// The bytes of a batch answered come back held by nothing else, even while its record
  /// lives on (a worker may still hold it, or the queue): writing into them, as the batcher
  /// reads the next input into them, does not copy them.
  @Test(arguments: [1, 2, 3])
  func theBytesOfABatchAnsweredAreNotShared(jobs: Int) throws {
    let workers = BatchEvaluation.Workers(jobs: jobs) { line, _, _ in Self.echo(line) }
    defer { workers.close() }
    var pending = Self.batches(6, of: 40).map(workers.handOver)
    while !pending.isEmpty {
      let answered = pending.removeFirst()
      var (_, bytes) = try Self.answers(answered, from: workers)
      let before = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
      let written = bytes.withUnsafeMutableBufferPointer { buffer in
        buffer[0] = 0x20
        return UInt(bitPattern: buffer.baseAddress)
      }
      #expect(written == before, "the batch's bytes were copied when written")
      withExtendedLifetime(answered) {}
    }
  }
}
