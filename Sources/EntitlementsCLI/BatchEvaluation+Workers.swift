import Dispatch
import Entitlements
import EntitlementsVerification

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension BatchEvaluation {
  /// A batch handed to the ``Workers``: its lines are claimed a few at a time, and each
  /// output is written to its own place, in one buffer allocated up front, so that no thread
  /// touches another's element or the buffer's owner (a Swift array written from several
  /// threads would be an exclusivity violation).
  final class Pending: @unchecked Sendable {
    // The batch is read by the workers until its last line is answered, and taken by the
    // thread that waits for it only after that (``waitForAnswers()`` returns then). Each element of
    // `storage` is written by exactly one thread (the one that claimed it), and read after
    // all are answered.
    private var batch: Batch
    private let storage: UnsafeMutableBufferPointer<Answer>
    /// The first index not yet claimed. (A lock, not an atomic: the standard library's
    /// atomics need macOS 15 / iOS 18; a claim is taken once per few lines.)
    private let claimed = Locked(0)
    /// How many lines are answered.
    private let answered = Locked(0)
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
    var hasUnclaimedLines: Bool { claimed.withLock { $0 } < storage.count }

    /// The next `linesPerClaim` indices (fewer at the end) for the calling thread alone;
    /// `nil` once all are taken.
    func claim() -> Range<Int>? {
      let first = claimed.withLock { first in
        defer { first += linesPerClaim }
        return first
      }
      guard first < storage.count else { return nil }
      return first..<min(first + linesPerClaim, storage.count)
    }

    /// Line `index` of the batch, and its number in the input.
    func line(_ index: Int) -> (bytes: ArraySlice<UInt8>, number: Int) {
      (batch.bytes[batch.lines[index]], batch.numbers[index])
    }

    /// Keeps the answers to the claimed `lines`: the answer to the batch's last line wakes
    /// the thread waiting in ``waitForAnswers()``.
    func answer(_ lines: Range<Int>, with answer: (Int) -> Answer) {
      for index in lines {
        // An answer is never empty: a line answered twice would have been claimed twice.
        assert(storage[index].bytes.isEmpty, "line \(index) of the batch answered twice")
        storage[index] = answer(index)
      }
      // Under the lock: the last thread to answer sees every other thread's answers, and
      // hands them on through the semaphore.
      let total = answered.withLock { total in
        total += lines.count
        return total
      }
      if total == storage.count { done.signal() }
    }

    /// Waits until every line is answered. Called once.
    ///
    /// - Returns: The answers in input order, and the batch's bytes, which nothing else holds
    ///   any more (a buffer to read into again).
    func waitForAnswers() -> (answers: [Answer], bytes: [UInt8]) {
      done.wait()
      let bytes = batch.bytes
      batch.bytes = []
      return (Array(storage), bytes)
    }

    /// Whether every line is answered within `timeout` (for the tests, which must not wait
    /// for ever); ``waitForAnswers()`` then returns at once.
    func isAnswered(within timeout: DispatchTimeInterval) -> Bool {
      guard done.wait(timeout: .now() + timeout) == .success else { return false }
      done.signal()
      return true
    }
  }

  /// How many lines a thread takes at a time: a few, so that threads rarely meet at the
  /// counter and finish a batch within a few lines of each other.
  fileprivate static let linesPerClaim = 8

  /// The threads of one run, started once and kept until it ends: each takes a few lines at
  /// a time from the oldest batch with lines not yet taken, and goes on to the next batch
  /// without waiting for the other threads to finish theirs. A thread waits only when no
  /// batch has lines left. (Threads that waited at each batch's end for the slowest line,
  /// and for threads started for the next batch, left a sixth of two cores' time idle.)
  ///
  /// ``handOver(_:)``, ``waitForAnswers(of:)`` and ``close()`` are called from one thread,
  /// the one that reads and writes; ``close()`` is called before the workers are released.
  final class Workers: @unchecked Sendable {
    /// Answers one line (its bytes and number), with the scratch of the thread's lines before.
    typealias Evaluate =
      @Sendable (_ line: ArraySlice<UInt8>, _ number: Int, _ scratch: inout Scratch) -> Answer

    private let evaluate: Evaluate
    /// How many threads may answer lines: `jobs`, lowered to the threads already running when
    /// another cannot be started.
    private var limit: Int
    /// How many more threads may be started: `Int.max`, lowered by the tests to stand for the
    /// system refusing a thread (`pthread_create` failing).
    var threadStartsAllowed = Int.max
    // Read and written by the thread that hands batches over only.
    private var threads: [pthread_t] = []
    private var claims = 0
    /// What the calling thread keeps from line to line when it answers lines itself (when no
    /// thread could be started).
    private var callerScratch: Scratch?
    // `queue` and `closed` are read and written with `mutex` held.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The batches handed over whose lines may not all be taken, oldest first.
    private var queue: [Pending] = []
    private var closed = false

    /// What each thread's scratch knows up to (``Scratch/init(knownAt:)``).
    private let knownAt: Instant?

    /// Workers that answer each line with `evaluate`, on up to `jobs` threads, each with a
    /// scratch whose record knows up to `knownAt`.
    init(jobs: Int, knownAt: Instant? = nil, evaluate: @escaping Evaluate) {
      self.evaluate = evaluate
      self.knownAt = knownAt
      limit = max(1, jobs)
      pthread_mutex_init(mutex, nil)
      pthread_cond_init(condition, nil)
    }

    deinit {
      // Each thread holds the workers until ``close()`` ends it: workers released with a
      // thread started never get here (its thread waits for ever). This catches the rest.
      assert(threads.isEmpty, "workers released before they were closed")
      pthread_cond_destroy(condition)
      pthread_mutex_destroy(mutex)
      condition.deallocate()
      mutex.deallocate()
    }

    /// How many threads are started (for the tests).
    var threadCount: Int { threads.count }

    /// Hands `batch` to the threads, and starts more when it has claims for them: one thread
    /// per claim handed over, up to `jobs`, so that a few lines do not start a thread per core.
    func handOver(_ batch: Batch) -> Pending {
      let pending = Pending(batch)
      pthread_mutex_lock(mutex)
      precondition(!closed, "a batch handed to workers that are closed")
      queue.append(pending)
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
      claims += pending.claims
      while threads.count < min(limit, claims) {
        guard let thread = startThread() else {
          // The system gives no more threads: those running answer every line (or, with
          // none, the thread that waits for the answers).
          limit = threads.count
          break
        }
        threads.append(thread)
      }
      return pending
    }

    /// Waits until every line of `pending` is answered, answering them on this thread when no
    /// thread could be started; see ``Pending/waitForAnswers()``.
    func waitForAnswers(of pending: Pending) -> (answers: [Answer], bytes: [UInt8]) {
      answerIfNoThreadRuns(pending)
      return pending.waitForAnswers()
    }

    /// Answers the lines of `pending` on this thread when no thread could be started (else
    /// nothing): what ``waitForAnswers(of:)`` does before it waits.
    func answerIfNoThreadRuns(_ pending: Pending) {
      guard threads.isEmpty else { return }
      var scratch = callerScratch.take() ?? Scratch(knownAt: knownAt)
      answer(pending, scratch: &scratch)
      callerScratch = scratch
      // No thread takes it out of the queue (``next()`` does, for the threads).
      pthread_mutex_lock(mutex)
      queue.removeAll { $0 === pending }
      pthread_mutex_unlock(mutex)
    }

    /// Lets the threads end once no batch has lines left, and waits for them.
    func close() {
      pthread_mutex_lock(mutex)
      closed = true
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
      for thread in threads { pthread_join(thread, nil) }
      threads = []
    }

    /// The stack of each thread: room for the deepest document the readers take
    /// (`JSONValue.maximumDepth`) in a debug build, and a quarter of the usual 8 MB, so that
    /// many jobs fit where address space is limited (a container's virtual memory).
    static let stackSize = 2 << 20

    /// A thread of its own that runs ``work()`` (not one of Dispatch's, which it would hold
    /// while it waits for batches), or `nil` when the system gives none.
    private func startThread() -> pthread_t? {
      guard threadStartsAllowed > 0 else { return nil }
      threadStartsAllowed -= 1
      var attributes = pthread_attr_t()
      pthread_attr_init(&attributes)
      defer { pthread_attr_destroy(&attributes) }
      let sized = pthread_attr_setstacksize(&attributes, Self.stackSize)
      precondition(sized == 0, "a thread stack of \(Self.stackSize) bytes refused")
      // The thread holds the workers until its work ends.
      let context = Unmanaged.passRetained(self).toOpaque()
      #if canImport(Darwin)
        var thread: pthread_t?
        let result = pthread_create(
          &thread, &attributes,
          { context in
            Unmanaged<Workers>.fromOpaque(context).takeRetainedValue().work()
            return nil
          }, context)
        guard result == 0, let thread else {
          Unmanaged<Workers>.fromOpaque(context).release()
          return nil
        }
        return thread
      #else
        var thread = pthread_t()
        let result = pthread_create(
          &thread, &attributes,
          { context in
            guard let context else { return nil }
            Unmanaged<Workers>.fromOpaque(context).takeRetainedValue().work()
            return nil
          }, context)
        guard result == 0 else {
          Unmanaged<Workers>.fromOpaque(context).release()
          return nil
        }
        return thread
      #endif
    }

    /// One thread's work: lines, a few at a time, from one batch after another, until the
    /// workers are closed.
    private func work() {
      var scratch = Scratch(knownAt: knownAt)
      while let pending = next() { answer(pending, scratch: &scratch) }
    }

    /// Answers lines of `pending`, a few at a time, until none is left to take.
    private func answer(_ pending: Pending, scratch: inout Scratch) {
      while let lines = pending.claim() {
        pending.answer(lines) { index in
          let line = pending.line(index)
          return evaluate(line.bytes, line.number, &scratch)
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
