import Dispatch
import Entitlements
import EntitlementsScenarios

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `entitlements evaluate`: many subscribers, one JSON line each, evaluated on every core and
/// written back in input order, one JSON line each: a Unix filter for batch jobs and
/// distributed engines (Hadoop Streaming, a Spark task: `Tests/Distributed/spark_pipe.py`).
///
/// Input line: `{"subscriber": "ID", "documents": [DOCUMENT, …]}`. Output line:
///
/// ```json
/// {"diagnostics": 0, "entitlements": [{"entitlement": "premium", "commitment": null,
///   "entitled": true, "expiredAt": null, "expiresAt": "2025-07-15T10:00:00Z",
///   "gracePeriodEndsAt": null, "nextChangeAt": "2025-07-15T10:00:00Z", "nextProductId": null,
///   "productId": "com.example.monthly", "reason": null, "revocationPercentage": null,
///   "revocationType": null, "revokedAt": null, "revokedTransactionId": null,
///   "retryEndsAt": null, "state": "active", "transactionId": "2000000123456789",
///   "willRenew": true}], "subscriber": "ID"}
/// ```
///
/// each entitlement the members of `explain --json`'s `status` object with `entitlement`,
/// the entitlement's id; `diagnostics` counts what reading and evaluation noted; or,
/// for a line that cannot be read, `{"error": "…", "line": N, "subscriber": "ID" or null}`,
/// and the stream goes on. Memory holds at most three buffers of about a batch each (two handed
/// to the threads and one read into, or, while one is read into, one handed over and the buffer
/// of a batch done, kept to be read into again), and per thread one record of up to 1 024 entries
/// and the reader's buffers of decoded payloads up to 1 MB each, whatever the input's length; a
/// line longer than a batch takes up to about twice its length, and that buffer is freed, not
/// kept; a line longer than ``maxLineBytes`` is read and dropped a read at a time, answered by
/// an error line.
struct BatchEvaluation: Sendable {
  /// The evaluator, with the catalog.
  let evaluator: Evaluator
  /// The instant of each status.
  let at: Instant
  /// With `--known-at`: only the documents known then count (``SubscriberRecord/init(knownAt:)``).
  var knownAt: Instant?
  /// About how many bytes of input a batch holds: the memory the command needs is a small
  /// multiple of it, whatever the input's length.
  var batchBytes = 8 << 20
  /// The most bytes a line may hold (`--max-bytes`): a longer line is refused with an error
  /// line, its bytes read and dropped, and the stream goes on. Far more than any real
  /// subscriber's documents; memory stays within a few times the longest line taken.
  var maxLineBytes = 256 << 20

  /// One line's output (without its newline), and whether it is an error.
  typealias Answer = (bytes: [UInt8], failed: Bool)

  /// What one thread keeps from one line to the next, for the whole run: what the document
  /// reader learnt (the order of keys, ids whose `String`s later documents share), and a
  /// record whose memory the next subscriber reuses (``SubscriberRecord/reset()``).
  struct Scratch {
    var memo = DocumentReader.Memo()
    var record: SubscriberRecord

    /// A thread's scratch; its record knows only what was known at `knownAt`, when given.
    init(knownAt: Instant? = nil) {
      record = knownAt.map(SubscriberRecord.init(knownAt:)) ?? SubscriberRecord()
    }
  }

  /// The output line (without its newline) for input line `number` (counted from 1), and
  /// whether it is an error, with the `scratch` of the lines before.
  func evaluate(
    _ line: ArraySlice<UInt8>, number: Int, scratch: inout Scratch
  ) -> Answer {
    var writer = JSONWriter(indent: 0, capacity: 256)
    // The record of the line before is emptied here, not as that line ends: by now nothing
    // else holds its buffers, which are then reused in place. Buffers grown past their bound
    // by a large line are freed.
    scratch.record.reset()
    scratch.memo.trim()
    // A line read whole but past the limit is refused as one never read whole is.
    guard line.count <= maxLineBytes else {
      return (
        Self.tooLong(
          maxLineBytes, line: number, subscriber: Batcher.subscriber(in: line.prefix(4096))), true
      )
    }
    let parsed: SubscriberLine
    do {
      parsed = try SubscriberLine(line, into: &scratch.record, memo: &scratch.memo)
    } catch {
      return (Self.error(error.message, line: number, subscriber: error.subscriber), true)
    }
    // The documents not folded in place (JWS strings, and objects that could not be read,
    // read again for their error) are read and folded now; the first document that cannot be
    // read, in line order, is the line's error.
    for (index, document) in parsed.documents.enumerated() {
      do throws(ReadError) {
        switch document {
        case .folded: continue
        case .refused(let error): throw error
        case .json(let bytes):
          scratch.record.fold(try DocumentReader.readUnverified(bytes))
        case .jws(let compact):
          // Read where the string lies: a long JWS is not copied again.
          scratch.record.fold(try DocumentReader.readUnverified(compact.utf8))
        }
      } catch {
        return (
          Self.error("documents[\(index)]: \(error)", line: number, subscriber: parsed.subscriber),
          true
        )
      }
    }
    let history = scratch.record.history
    let evaluation = evaluator.evaluate(history)
    writer.beginObject()
    writer.key("diagnostics")
    writer.integer(evaluation.diagnostics.count + scratch.record.readingDiagnostics.count)
    writer.key("entitlements")
    writer.beginArray()
    for entitlement in evaluation.entitlements {
      writer.beginObject()
      writer.key("entitlement")
      writer.string(entitlement.id.rawValue)
      Explanation.writeMembers(of: entitlement, at: at, to: &writer)
      writer.endObject()
    }
    writer.endArray()
    writer.key("purchaseEvents")
    Explanation.write(evaluation.purchaseEvents, to: &writer)
    writer.key("subscriber")
    writer.string(parsed.subscriber)
    writer.endObject()
    return (writer.bytes, false)
  }

  /// The error line of a line longer than `limit`.
  static func tooLong(_ limit: Int, line: Int, subscriber: String?) -> [UInt8] {
    error(
      "longer than \(limit) bytes, the most a line may hold (--max-bytes): not read",
      line: line, subscriber: subscriber)
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

  /// Reads input into `buffer` and says how many bytes came, from 0 to `buffer.count`; 0 only
  /// at the end of the input (`buffer` is never empty). `buffer` is valid during the call only.
  typealias Read = (_ buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int

  /// Waits up to `milliseconds` for input to read (or its end) and says whether it came: a
  /// pipe that pauses (a queue consumer, `tail -f`) answers false, a file always true.
  typealias Wait = (_ milliseconds: Int32) -> Bool

  /// How long input may pause before the lines read so far are answered and written: well
  /// under the 100 ms a line's answer may take after it came.
  static let pauseMilliseconds: Int32 = 20

  /// How long a whole line read from a stream may wait for more input before it is answered,
  /// however steadily the input flows (a line every 10 ms never pauses 20 ms): its answer then
  /// comes within this and the time to evaluate the batch.
  static let lineWaitNanoseconds: UInt64 = 50_000_000

  /// The most bytes one read asks for.
  var readSize = 1 << 20

  /// One batch of input: its bytes, and the ranges and numbers of its whole lines (blank
  /// lines left out).
  struct Batch: Sendable {
    var bytes: [UInt8]
    var lines: [Range<Int>] = []
    var numbers: [Int] = []
    /// Lines before these refused for their length: their numbers and subscribers.
    var refused: [(number: Int, subscriber: String?)] = []

    /// Adds line `number`, unless it is blank: a blank line carries no subscriber, and is
    /// skipped, keeping its number.
    mutating func append(_ line: Range<Int>, number: Int) {
      guard !bytes[line].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return }
      lines.append(line)
      numbers.append(number)
    }
  }

  /// Cuts the input read with `read` into batches of whole lines.
  ///
  /// Input is read straight into a buffer that a batch then takes whole, and the buffer of a
  /// batch already evaluated is given back (``recycle(_:)``) and read into again: the command
  /// reads gigabytes through a few buffers of about a batch's size, rather than through fresh
  /// memory for every read and every batch, which cost a page fault per 4 KB (a fifth of the
  /// command's time on 10⁵ verifyReceipt responses).
  struct Batcher {
    let batchBytes: Int
    let readSize: Int
    var maxLineBytes = Int.max
    /// Lines refused for their length since the last batch.
    var refused: [(number: Int, subscriber: String?)] = []
    /// The buffer read into: bytes `0 ..< filled` are input not yet cut into a batch, the rest
    /// is room for the reads after.
    var buffer: [UInt8] = []
    var filled = 0
    /// The buffer of a batch that is done, for the next batch's bytes.
    var spare: [UInt8] = []
    var lineNumber = 0
    var finished = false
    /// Whether the last batch was cut because the input paused: its answers are awaited now.
    var paused = false

    /// The next batch, or `nil` once the input is used up.
    ///
    /// - Parameters:
    ///   - read: Reads input.
    ///   - wait: Says whether input comes within a time; `nil` never waits (a file). When it
    ///     pauses, the whole lines read so far are the batch (``paused``), and before the read
    ///     blocks, `idle` is told, so that answers waiting for more input are written.
    ///   - idle: Called when the input pauses with no whole line read.
    /// - Returns: The batch, or `nil` at the end of the input.
    mutating func next(
      _ read: Read, wait: Wait? = nil, idle: () -> Void = {}
    ) rethrows -> Batch? {
      paused = false
      // Read until the batch holds a batch's worth of bytes and a newline (the last line of
      // the input may have none).
      var hasNewline = Self.newline(in: buffer[0..<filled]) != nil
      // From a stream: when the first whole line of this batch was read.
      var lineSince: UInt64? =
        wait != nil && hasNewline ? DispatchTime.now().uptimeNanoseconds : nil
      while !finished, filled < batchBytes || !hasNewline {
        if !hasNewline, filled > maxLineBytes {
          // The one line the buffer holds is too long: refused, and dropped to its end.
          lineNumber += 1
          refused.append((lineNumber, Self.subscriber(in: buffer[0..<min(filled, 4096)])))
          try skipLine(read)
          hasNewline = Self.newline(in: buffer[0..<filled]) != nil
          // The refused line's answer waits as a whole line's does.
          if wait != nil, lineSince == nil { lineSince = DispatchTime.now().uptimeNanoseconds }
          continue
        }
        // Answers are owed: whole lines read, or a refused line's error.
        let owed = hasNewline || !refused.isEmpty
        if let wait {
          // A whole line waited long enough: answered now, whatever comes after it.
          var timeout = BatchEvaluation.pauseMilliseconds
          if let since = lineSince {
            let waited = DispatchTime.now().uptimeNanoseconds - since
            guard waited < BatchEvaluation.lineWaitNanoseconds else {
              // A trickle: its few lines answered now. Input that merely flows slower than a
              // batch a read (a megabyte or more in the wait) keeps the pipeline instead.
              paused = filled < batchBytes / 8
              break
            }
            let left = Int32((BatchEvaluation.lineWaitNanoseconds - waited) / 1_000_000)
            timeout = min(timeout, max(left, 0))
          }
          if !wait(timeout) {
            if owed {
              paused = true
              break
            }
            idle()
          }
        }
        if filled == buffer.count { grow() }
        let start = filled
        let end = min(buffer.count, start + readSize)
        let count = try buffer.withUnsafeMutableBufferPointer { buffer in
          try read(UnsafeMutableBufferPointer(rebasing: buffer[start..<end]))
        }
        precondition((0...end - start).contains(count), "a read gave \(count) bytes")
        if count == 0 {
          finished = true
        } else {
          filled += count
          if !hasNewline, Self.newline(in: buffer[start..<filled]) != nil {
            hasNewline = true
            if wait != nil { lineSince = DispatchTime.now().uptimeNanoseconds }
          }
        }
      }
      if finished, filled == 0 {
        guard !refused.isEmpty else { return nil }
        // Only refused lines were left: a batch of none, to say so.
        var batch = Batch(bytes: [])
        swap(&batch.refused, &refused)
        return batch
      }
      var batch = cut(includingUnfinished: finished)
      swap(&batch.refused, &refused)
      return batch
    }

    /// More room in the buffer, twice as much (a buffer given back keeps it). The bytes read
    /// so far are copied; the room after them is not written before a read fills it, so a
    /// long line costs the memory it fills, not twice its buffer.
    private mutating func grow() {
      let count = buffer.count + max(readSize, buffer.count)
      let filled = self.filled
      let old = buffer
      buffer = [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
        old.withUnsafeBufferPointer { bytes in
          if let from = bytes.baseAddress, let to = storage.baseAddress, filled > 0 {
            to.initialize(from: from, count: filled)
          }
        }
        // Bytes of no meaning until a read writes them; only `0 ..< filled` is read.
        initialized = count
      }
    }

    /// Reads and drops the rest of the line the buffer holds, to its newline (or the end of
    /// the input); the bytes after the newline stay, in a buffer of a read's size.
    private mutating func skipLine(_ read: Read) rethrows {
      buffer = spare.count >= readSize ? spare : [UInt8](repeating: 0, count: readSize)
      spare = []
      filled = 0
      while true {
        let count = try buffer.withUnsafeMutableBufferPointer { buffer in
          try read(UnsafeMutableBufferPointer(rebasing: buffer[0..<readSize]))
        }
        if count == 0 {
          finished = true
          return
        }
        if let newline = Self.newline(in: buffer[0..<count]) {
          let rest = buffer[(newline + 1)..<count]
          buffer.replaceSubrange(0..<rest.count, with: Array(rest))
          filled = rest.count
          return
        }
      }
    }

    /// The subscriber a line's first bytes name (`"subscriber": "ID"`), for the error line of
    /// a line too long to read.
    static func subscriber(in bytes: ArraySlice<UInt8>) -> String? {
      let key = Array(#""subscriber""#.utf8)
      guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: key) }) else {
        return nil
      }
      var index = start + key.count
      func skipSpace() {
        while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
          index += 1
        }
      }
      skipSpace()
      guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      skipSpace()
      guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else { return nil }
      let from = index + 1
      guard let end = bytes[from...].firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == 0x5C })
      else { return nil }
      guard bytes[end] == UInt8(ascii: "\"") else { return nil }
      return String(decoding: bytes[from..<end], as: UTF8.self)
    }

    /// Gives back the bytes of a batch that is done, to be read into again; a buffer grown
    /// past two batches and a read by a long line is freed instead, so that one long line does
    /// not hold its memory for the rest of the input.
    mutating func recycle(_ bytes: consuming [UInt8]) {
      if bytes.count <= 2 * batchBytes + readSize { spare = bytes }
    }

    /// The whole lines read so far, once reading failed: they are evaluated and written
    /// before the error is reported (the unfinished last line is not a line); `nil` when
    /// there are none.
    mutating func completeLines() -> Batch? {
      var batch = cut(includingUnfinished: false)
      swap(&batch.refused, &refused)
      return batch.lines.isEmpty && batch.refused.isEmpty ? nil : batch
    }

    /// The lines read so far as a batch, the unfinished last one too when asked; the bytes
    /// after them start the next batch, in the spare buffer.
    private mutating func cut(includingUnfinished: Bool) -> Batch {
      var batch = Batch(bytes: buffer)
      var start = 0
      while let newline = Self.newline(in: batch.bytes[start..<filled]) {
        lineNumber += 1
        batch.append(start..<newline, number: lineNumber)
        start = newline + 1
      }
      if includingUnfinished, start < filled {
        lineNumber += 1
        batch.append(start..<filled, number: lineNumber)
        start = filled
      }
      let rest = batch.bytes[start..<filled]
      buffer = spare
      spare = []
      buffer.replaceSubrange(0..<min(buffer.count, rest.count), with: rest)
      filled = rest.count
      return batch
    }

    /// The index of the first newline in `bytes` (found with `memchr`), or `nil`.
    static func newline(in bytes: ArraySlice<UInt8>) -> Int? {
      bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress,
          let found = memchr(base, 0x0A, buffer.count)
        else { return nil }
        return bytes.startIndex + base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      }
    }
  }

  /// Reads lines with `read`, evaluates them in batches on `jobs` threads kept for the run
  /// (``Workers``), and writes the output lines in input order with `write`. `progress` is
  /// told how many subscribers are done after each batch.
  ///
  /// A pipeline: while the threads evaluate one batch, and go on to the next once its lines
  /// are all taken, this thread writes the output of the batch before and reads the batch
  /// after, so that reading and writing overlap the evaluation (memory: at most three buffers
  /// of about a batch each, see the type).
  ///
  /// - Returns: The number of lines that could not be read or evaluated.
  /// - Throws: What `read` throws; the lines before it are written.
  func run(
    jobs: Int, read: Read, wait: Wait? = nil, write: ([UInt8]) -> Void,
    progress: (Int) -> Void = { _ in }
  ) rethrows -> Int {
    precondition(readSize > 0, "reads of \(readSize) bytes")
    var batcher = Batcher(batchBytes: batchBytes, readSize: readSize, maxLineBytes: maxLineBytes)
    let workers = Workers(jobs: jobs, knownAt: knownAt) { line, number, scratch in
      evaluate(line, number: number, scratch: &scratch)
    }
    defer { workers.close() }
    var failed = 0
    var done = 0
    // The output of a batch, in one buffer used for every batch.
    var output: [UInt8] = []
    // At most two batches handed over: the one the threads evaluate, and the one they go on
    // to; this thread waits for the older one only when it has read the newer.
    var handedOver: [(pending: Pending, refused: [(number: Int, subscriber: String?)])] = []
    // Buffers of batches finished while the batcher reads (the input paused), given back
    // after its read.
    var finishedBuffers: [[UInt8]] = []
    /// Waits for the oldest batch handed over, writes its outputs, and gives its buffer back
    /// (later, when the batcher is reading).
    func finishOldest(whileReading: Bool = false) {
      let (pending, refused) = handedOver.removeFirst()
      let (answers, bytes) = workers.waitForAnswers(of: pending)
      output.removeAll(keepingCapacity: true)
      // Lines refused for their length come before the batch's lines.
      for line in refused {
        output += Self.tooLong(maxLineBytes, line: line.number, subscriber: line.subscriber)
        output.append(0x0A)
        failed += 1
      }
      for answer in answers {
        output += answer.bytes
        output.append(0x0A)
        if answer.failed { failed += 1 }
      }
      if !output.isEmpty { write(output) }
      done += answers.count
      progress(done)
      if whileReading { finishedBuffers.append(bytes) } else { batcher.recycle(bytes) }
    }
    do {
      while let batch = try batcher.next(
        read, wait: wait,
        idle: { while !handedOver.isEmpty { finishOldest(whileReading: true) } })
      {
        for bytes in finishedBuffers { batcher.recycle(bytes) }
        finishedBuffers.removeAll()
        handedOver.append((workers.handOver(batch), batch.refused))
        // When the input pauses, every line read so far is answered now.
        if batcher.paused {
          while !handedOver.isEmpty { finishOldest() }
        } else if handedOver.count == 2 {
          finishOldest()
        }
      }
    } catch {
      // The whole lines read before the failure are answered, then it is reported.
      while !handedOver.isEmpty { finishOldest() }
      if let lines = batcher.completeLines() {
        handedOver.append((workers.handOver(lines), lines.refused))
        finishOldest()
      }
      throw error
    }
    while !handedOver.isEmpty { finishOldest() }
    return failed
  }
}
