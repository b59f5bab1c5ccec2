import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension BatchEvaluation {
  /// One line's output (without its newline), and whether it is an error.
  typealias Answer = (bytes: [UInt8], failed: Bool)

  /// A batch handed to the ``Workers``: its lines are claimed a few at a time, and each
  /// output is written to its own place, in one buffer allocated up front, so that no thread
  /// touches another's element or the buffer's owner (a Swift array written from several
  /// threads would be an exclusivity violation).
  final class Pending: @unchecked Sendable {
    // The batch is read by the workers until its last line is answered, and taken by the
    // thread that waits for it only after that (``answers()`` returns then). Each element of
    // `storage` is written by exactly one thread (the one that claimed it), and read after
    // all are answered.
    private var batch: Batch
    private let storage: UnsafeMutableBufferPointer<Answer>
    /// The first index not yet claimed.
    private let claimed = Atomic<Int>(0)
    /// How many lines are answered.
    private let answered = Atomic<Int>(0)
    /// Signalled once, when every line is answered.
    private let done = DispatchSemaphore(value: 0)

    init(_ batch: Batch) {
      self.batch = batch
      storage = .allocate(capacity: batch.lines.count)
      storage.initialize(repeating: (bytes: [], failed: false))
      if batch.lines.isEmpty { done.signal() }
    }

    deinit {
      storage.deinitialize()
      storage.deallocate()
    }

    /// How many claims of `linesPerClaim` lines the batch makes.
    var claims: Int { (storage.count + linesPerClaim - 1) / linesPerClaim }

    /// Whether some line is not yet claimed.
    var hasUnclaimedLines: Bool { claimed.load(ordering: .relaxed) < storage.count }

    /// The next `linesPerClaim` indices (fewer at the end) for the calling thread alone;
    /// `nil` once all are taken.
    func claim() -> Range<Int>? {
      let first = claimed.wrappingAdd(linesPerClaim, ordering: .relaxed).oldValue
      guard first < storage.count else { return nil }
      return first..<min(first + linesPerClaim, storage.count)
    }

    /// Line `index` of the batch, and its number in the input.
    func line(_ index: Int) -> (bytes: ArraySlice<UInt8>, number: Int) {
      (batch.bytes[batch.lines[index]], batch.numbers[index])
    }

    /// Keeps the answers to the claimed `lines`: the answer to the batch's last line wakes
    /// the thread waiting in ``answers()``.
    func answer(_ lines: Range<Int>, with answer: (Int) -> Answer) {
      for index in lines {
        // An answer is never empty: a line answered twice would have been claimed twice.
        assert(storage[index].bytes.isEmpty, "line \(index) of the batch answered twice")
        storage[index] = answer(index)
      }
      // Acquiring and releasing: the last thread to answer sees every other thread's
      // answers, and hands them on through the semaphore.
      let total = answered.wrappingAdd(lines.count, ordering: .acquiringAndReleasing).newValue
      if total == storage.count { done.signal() }
    }

    /// Waits until every line is answered; then the answers in input order, and the batch's
    /// bytes, which nothing else holds any more (a buffer to read into again). Called once.
    func answers() -> (answers: [Answer], bytes: [UInt8]) {
      done.wait()
      let bytes = batch.bytes
      batch.bytes = []
      return (Array(storage), bytes)
    }
  }

  /// How many lines a thread takes at a time: a few, so that threads rarely meet at the
  /// counter and finish a batch within a few lines of each other.
  static let linesPerClaim = 8

  /// The threads of one run, started once and kept until it ends: each takes a few lines at
  /// a time from the oldest batch with lines not yet taken, and goes on to the next batch
  /// without waiting for the other threads to finish theirs. A thread waits only when no
  /// batch has lines left. (Threads started for each batch, and joined at its end, each
  /// began about 1 ms after they were asked for, measured: a sixth of two cores' time.)
  final class Workers: @unchecked Sendable {
    /// Answers one line (its bytes and number), with the scratch of the thread's lines before.
    typealias Evaluate =
      @Sendable (_ line: ArraySlice<UInt8>, _ number: Int, _ scratch: inout Scratch) -> Answer

    private let evaluate: Evaluate
    private let jobs: Int
    private let group = DispatchGroup()
    // `queue`, `started`, `claims` and `closed` are read and written with `mutex` held.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The batches handed over whose lines may not all be taken, oldest first.
    private var queue: [Pending] = []
    /// How many threads are started: one per claim handed over, up to `jobs`, so that a few
    /// lines do not start a thread per core.
    private var started = 0
    private var claims = 0
    private var closed = false

    /// Workers that answer each line with `evaluate`, on up to `jobs` threads.
    init(jobs: Int, evaluate: @escaping Evaluate) {
      self.evaluate = evaluate
      self.jobs = max(1, jobs)
      pthread_mutex_init(mutex, nil)
      pthread_cond_init(condition, nil)
    }

    deinit {
      pthread_cond_destroy(condition)
      pthread_mutex_destroy(mutex)
      condition.deallocate()
      mutex.deallocate()
    }

    /// Hands `batch` to the threads, starting more if it has claims for them.
    func handOver(_ batch: Batch) -> Pending {
      let pending = Pending(batch)
      pthread_mutex_lock(mutex)
      precondition(!closed, "a batch handed to workers that are closed")
      queue.append(pending)
      claims += pending.claims
      while started < min(jobs, claims) {
        started += 1
        // A thread of its own, not one of Dispatch's: a worker waits for batches while it
        // has none, which would hold one of the few threads Dispatch shares among all work.
        group.enter()
        Thread {
          self.work()
          self.group.leave()
        }.start()
      }
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
      return pending
    }

    /// Lets the threads end once no batch has lines left, and waits for them.
    func close() {
      pthread_mutex_lock(mutex)
      closed = true
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
      group.wait()
    }

    /// One thread's work: lines, a few at a time, from one batch after another, until the
    /// workers are closed.
    private func work() {
      var scratch = Scratch()
      while let pending = next() {
        while let lines = pending.claim() {
          pending.answer(lines) { index in
            let line = pending.line(index)
            return evaluate(line.bytes, line.number, &scratch)
          }
        }
      }
    }

    /// The oldest batch with lines not yet taken; waits for one while there is none, and
    /// gives `nil` once the workers are closed and none is left.
    private func next() -> Pending? {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      while true {
        // A batch whose lines are all taken leaves the queue; the thread waiting for it
        // holds it.
        while let oldest = queue.first, !oldest.hasUnclaimedLines { queue.removeFirst() }
        if let oldest = queue.first { return oldest }
        if closed { return nil }
        pthread_cond_wait(condition, mutex)
      }
    }
  }
}
