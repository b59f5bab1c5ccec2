import Dispatch
import Entitlements
import EntitlementsScenarios

/// `entitlements evaluate`: many subscribers, one JSON line each, evaluated on every core and
/// written back in input order, one JSON line each: a Unix filter for batch jobs and
/// distributed engines (Hadoop Streaming, Spark's `RDD.pipe`).
///
/// Input line: `{"subscriber": "ID", "documents": [DOCUMENT, …]}`. Output line:
///
/// ```json
/// {"diagnostics": 0, "entitlements": [{"entitlement": "premium", "entitled": true,
///   "expiredAt": null, "expiresAt": "2025-07-15T10:00:00Z", "gracePeriodEndsAt": null,
///   "nextProductId": null, "productId": "com.example.monthly", "reason": null,
///   "retryEndsAt": null, "state": "active", "transactionId": "2000000123456789",
///   "willRenew": true}], "subscriber": "ID"}
/// ```
///
/// each entitlement the members of `explain --json`'s `status` object with `entitlement`,
/// the entitlement's id; `diagnostics` counts what reading and evaluation noted; or,
/// for a line that cannot be read, `{"error": "…", "line": N, "subscriber": "ID" or null}`,
/// and the stream goes on. Memory holds one batch of lines at a time, whatever the input's
/// length.
struct BatchEvaluation: Sendable {
  /// The evaluator, with the catalog.
  let evaluator: Evaluator
  /// The instant of each status.
  let at: Instant
  /// About how many bytes of input a batch holds: the memory the command needs is a small
  /// multiple of it, whatever the input's length.
  var batchBytes = 8 << 20

  /// The output line (without its newline) for input line `number` (counted from 1), and
  /// whether it is an error.
  func evaluate(_ line: ArraySlice<UInt8>, number: Int) -> (bytes: [UInt8], failed: Bool) {
    var writer = JSONWriter(indent: 0, capacity: 256)
    let parsed: SubscriberLine
    do {
      parsed = try SubscriberLine(line)
    } catch {
      return (Self.error(error.message, line: number, subscriber: error.subscriber), true)
    }
    var record = SubscriberRecord()
    for (index, document) in parsed.documents.enumerated() {
      do throws(ReadError) {
        switch document {
        case .json(let bytes): record.fold(try DocumentReader.read(bytes))
        case .jws(let compact): record.fold(try DocumentReader.read(Array(compact.utf8)))
        }
      } catch {
        return (
          Self.error("documents[\(index)]: \(error)", line: number, subscriber: parsed.subscriber),
          true
        )
      }
    }
    let history = record.history
    let evaluation = evaluator.evaluate(history)
    writer.beginObject()
    writer.key("diagnostics")
    writer.integer(evaluation.diagnostics.count + record.readingDiagnostics.count)
    writer.key("entitlements")
    writer.beginArray()
    for entitlement in evaluation.entitlements {
      writer.beginObject()
      writer.key("entitlement")
      writer.string(entitlement.id.rawValue)
      Explanation.writeMembers(of: entitlement.status(at: at), to: &writer)
      writer.endObject()
    }
    writer.endArray()
    writer.key("subscriber")
    writer.string(parsed.subscriber)
    writer.endObject()
    return (writer.bytes, false)
  }

  /// The error line for input line `line`.
  static func error(_ message: String, line: Int, subscriber: String?) -> [UInt8] {
    var writer = JSONWriter(indent: 0)
    writer.beginObject()
    writer.key("error")
    writer.string(message)
    writer.key("line")
    writer.integer(line)
    writer.key("subscriber")
    writer.string(subscriber)
    writer.endObject()
    return writer.bytes
  }

  /// Reads lines with `read` (chunks of bytes, `nil` at the end), evaluates them on `jobs`
  /// threads a batch at a time, and writes the output lines in input order with `write`.
  /// `progress` is told how many subscribers are done after each batch.
  ///
  /// - Returns: The number of lines that could not be read or evaluated.
  /// - Throws: What `read` throws; the lines before it are written.
  func run(
    jobs: Int, read: () throws -> [UInt8]?, write: ([UInt8]) -> Void,
    progress: (Int) -> Void = { _ in }
  ) rethrows -> Int {
    var pending: [UInt8] = []
    var lineNumber = 0
    var failed = 0
    var done = 0
    var finished = false
    while !finished {
      // One batch: read until it holds a batch's worth of bytes, then take its whole lines
      // (the last line of the input may have no newline).
      var hasNewline = pending.contains(0x0A)
      while !finished, pending.count < batchBytes || !hasNewline {
        if let chunk = try read() {
          hasNewline = hasNewline || chunk.contains(0x0A)
          pending += chunk
        } else {
          finished = true
        }
      }
      var batch: [(start: Int, end: Int, number: Int)] = []
      var start = 0
      while let newline = pending[start...].firstIndex(of: 0x0A) {
        lineNumber += 1
        batch.append((start, newline, lineNumber))
        start = newline + 1
      }
      if finished, start < pending.count {
        lineNumber += 1
        batch.append((start, pending.count, lineNumber))
        start = pending.count
      }
      // Blank lines carry no subscriber: they are skipped, and keep their numbers.
      batch.removeAll { line in
        pending[line.start..<line.end].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
      }
      let outputs = evaluate(
        batch.map { pending[$0.start..<$0.end] }, numbers: batch.map(\.number), jobs: jobs)
      var bytes: [UInt8] = []
      bytes.reserveCapacity(outputs.reduce(0) { $0 + $1.bytes.count + 1 })
      for output in outputs {
        bytes += output.bytes
        bytes.append(0x0A)
        if output.failed { failed += 1 }
      }
      if !bytes.isEmpty { write(bytes) }
      done += outputs.count
      progress(done)
      pending.removeFirst(start)
    }
    return failed
  }

  /// The output of each line, evaluated on `jobs` threads.
  private func evaluate(_ lines: [ArraySlice<UInt8>], numbers: [Int], jobs: Int)
    -> [(bytes: [UInt8], failed: Bool)]
  {
    guard jobs > 1, lines.count > 1 else {
      return zip(lines, numbers).map { evaluate($0, number: $1) }
    }
    let results = Results(count: lines.count)
    let workers = min(jobs, lines.count)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for index in stride(from: worker, to: lines.count, by: workers) {
        results.set(index, evaluate(lines[index], number: numbers[index]))
      }
    }
    return results.values
  }

  /// The outputs of one batch, written by several threads, each to its own places: one
  /// buffer allocated up front, so that no thread touches another's element or the buffer's
  /// owner (a Swift array written from several threads would be an exclusivity violation).
  private final class Results: @unchecked Sendable {
    // Each index is written by exactly one thread, and read after all have finished
    // (concurrentPerform returns when every iteration has).
    private let storage: UnsafeMutableBufferPointer<(bytes: [UInt8], failed: Bool)>

    init(count: Int) {
      storage = .allocate(capacity: count)
      storage.initialize(repeating: (bytes: [], failed: false))
    }

    deinit {
      storage.deinitialize()
      storage.deallocate()
    }

    func set(_ index: Int, _ value: (bytes: [UInt8], failed: Bool)) {
      storage[index] = value
    }

    var values: [(bytes: [UInt8], failed: Bool)] { Array(storage) }
  }
}
