import Entitlements
import Foundation
import Testing

@testable import EntitlementsCLI

/// `entitlements evaluate`, the batch filter: JSON Lines in, JSON Lines out, in input order.
@Suite("entitlements evaluate")
struct EvaluateCommandTests {
  /// A signed-transaction payload (decoded) of a monthly subscription starting at `start`.
  static func transaction(_ id: Int64, original: Int64, start: Int64) -> String {
    """
    {"transactionId": "\(id)", "originalTransactionId": "\(original)", \
    "productId": "com.example.monthly", "purchaseDate": \(start), \
    "expiresDate": \(start + 2_592_000_000), "signedDate": \(start), "environment": "Production"}
    """
  }

  /// Subscriber `number`'s line: `number % 3 + 1` months from a start that depends on the
  /// number, so each subscriber's expiry is its own.
  static func line(_ number: Int) -> String {
    let original = 2_000_000_000_000_000 + Int64(number) * 100
    let start = 1_700_000_000_000 + Int64(number) * 3_600_000
    let documents = (0...(number % 3)).map { month in
      transaction(
        original + Int64(month), original: original, start: start + Int64(month) * 2_592_000_000)
    }
    return #"{"subscriber": "s\#(number)", "documents": [\#(documents.joined(separator: ", "))]}"#
  }

  static let catalog = #"""
    {"products": [{"id": "com.example.monthly", "type": "autoRenewable", "duration": "P1M",
      "entitlement": "premium"}]}
    """#

  static func temporary(_ name: String, _ text: String) throws -> String {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("evaluate-\(UUID().uuidString)-\(name)")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// The built tool, run as a process with `input` on standard input.
  static func run(_ arguments: [String], input: String) throws -> (
    output: String, errors: String, status: Int32
  ) {
    let executable = try #require(EndToEndTests.executable, "build the entitlements product first")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let standardInput = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = standardInput
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Write from another thread: the tool writes while it reads, and pipes are small.
    let writer = Thread {
      standardInput.fileHandleForWriting.write(Data(input.utf8))
      try? standardInput.fileHandleForWriting.close()
    }
    writer.start()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self),
      process.terminationStatus
    )
  }

  static func lines(_ output: String) throws -> [JSONValue] {
    try output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
      try JSONValue(parsing: Array($0.utf8))
    }
  }

  /// 500 subscribers on 4 threads, through standard input (`-`): one line each, in input
  /// order, each with its own expiry; the same bytes as one thread reading the file.
  @Test func manySubscribersKeepTheirOrder() throws {
    let input = (0..<500).map(Self.line).joined(separator: "\n") + "\n"
    let catalog = try Self.temporary("products.json", Self.catalog)
    defer { try? FileManager.default.removeItem(atPath: catalog) }
    let at = "1700000000000"
    let piped = try Self.run(
      ["evaluate", "-", "--jobs", "4", "--catalog", catalog, "--at", at], input: input)
    #expect(piped.status == 0, "\(piped.errors)")
    #expect(piped.errors.isEmpty, "no progress line when standard error is not a terminal")
    let values = try Self.lines(piped.output)
    try #require(values.count == 500)
    for (number, value) in values.enumerated() {
      #expect(value["subscriber"] == .string("s\(number)"))
      #expect(value["diagnostics"] == .number("0"))
      let premium = value["entitlements"]?[0]
      #expect(premium?["entitlement"] == .string("premium"))
      // At `at`, subscriber 0 has just started; every later one starts after `at`.
      #expect(premium?["state"] == .string(number == 0 ? "active" : "notSubscribed"))
    }
    let file = try Self.temporary("subscribers.jsonl", input)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let fromFile = EntitlementsTool.run(
      ["evaluate", file, "--jobs", "1", "--catalog", catalog, "--at", at])
    #expect(fromFile.output == piped.output)
    #expect(fromFile.status == 0)
  }

  /// A state that depends on each subscriber's history: at a late instant, each is expired
  /// at the end of its own months.
  @Test func eachLineHasItsOwnStatus() throws {
    let input = (0..<6).map(Self.line).joined(separator: "\n")
    let file = try Self.temporary("subscribers.jsonl", input)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["evaluate", file, "--at", "1800000000000"])
    #expect(run.status == 0, "\(run.errors)")
    let values = try Self.lines(run.output)
    try #require(values.count == 6, "the last line has no newline, and is read")
    for (number, value) in values.enumerated() {
      let start = 1_700_000_000_000 + Int64(number) * 3_600_000
      let end = Instant(
        millisecondsSince1970: start + Int64(number % 3 + 1) * 2_592_000_000)
      let status = value["entitlements"]?[0]
      #expect(status?["state"] == .string("expired"))
      #expect(status?["expiredAt"] == .string(end.description))
      #expect(status?["entitled"] == .bool(false))
    }
  }

  /// Each entitlement says when its status will next change (issue: the whole status
  /// function): inside the period, at its end; once expired with nothing after, never (`null`).
  @Test(arguments: [(1_700_000_000_000 + 86_400_000, true), (1_800_000_000_000, false)])
  func eachEntitlementSaysWhenItWillNextChange(at: Int64, inside: Bool) throws {
    let file = try Self.temporary("subscriber.jsonl", Self.line(1))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["evaluate", file, "--at", String(at)])
    #expect(run.status == 0, "\(run.errors)")
    let status = try Self.lines(run.output).first?["entitlements"]?[0]
    // Subscriber 1: two months from 1 700 003 600 000, 30 days each.
    let end = Instant(millisecondsSince1970: 1_700_003_600_000 + 2 * 2_592_000_000)
    #expect(status?["state"] == .string(inside ? "active" : "expired"))
    #expect(status?["nextChangeAt"] == (inside ? .string(end.description) : .null))
  }

  /// Bad lines give an error line naming the line (and the subscriber when it could be read),
  /// the stream goes on, blank lines are skipped and keep their numbers, and the exit status
  /// is 1. An entry the reader drops is counted in `diagnostics`, not an error.
  @Test func aBadLineIsReportedAndSkipped() throws {
    let input = [
      Self.line(0),
      "not json",
      "",
      #"{"subscriber": "s3", "documents": [{"status": 21007}]}"#,
      #"{"subscriber": "s4", "documents": [{"transactionId": 12}]}"#,
      #"{"subscriber": "s5"}"#,
      #"{"subscriber": "s6", "documents": [], "extra": 1}"#,
      Self.line(7),
    ].joined(separator: "\n")
    let (output, errors, status) = try Self.run(["evaluate", "--jobs", "2"], input: input)
    #expect(status == 1)
    #expect(errors.isEmpty)
    let values = try Self.lines(output)
    try #require(values.count == 7)
    #expect(values[0]["subscriber"] == .string("s0"))
    #expect(values[0]["error"] == nil)
    #expect(values[1]["line"] == .number("2"))
    #expect(values[1]["subscriber"] == .null)
    #expect(values[1]["error"] == .string("expected '{' (at byte 0)"))
    #expect(values[2]["line"] == .number("4"))
    #expect(values[2]["subscriber"] == .string("s3"))
    guard case .string(let receipt)? = values[2]["error"] else {
      Issue.record("no error for line 4")
      return
    }
    #expect(receipt.hasPrefix("documents[0]: verifyReceipt status 21007"), "\(receipt)")
    // A document that reads with a dropped entry is not an error: the entry is counted.
    #expect(values[3]["subscriber"] == .string("s4"))
    #expect(values[3]["error"] == nil)
    #expect(values[3]["diagnostics"] != .number("0"))
    #expect(values[3]["entitlements"] == .array([]))
    #expect(values[4]["error"] == .string("missing \"documents\""))
    #expect(values[4]["subscriber"] == .string("s5"))
    #expect(values[5]["line"] == .number("7"))
    guard case .string(let extra)? = values[5]["error"] else {
      Issue.record("no error for line 7")
      return
    }
    #expect(extra.hasPrefix("unknown key \"extra\""), "\(extra)")
    #expect(values[6]["subscriber"] == .string("s7"))
    #expect(values[6]["error"] == nil)
  }

  @Test func emptyInputGivesNoLinesAndSucceeds() throws {
    let (output, errors, status) = try Self.run(["evaluate"], input: "")
    #expect(status == 0)
    #expect(output.isEmpty)
    #expect(errors.isEmpty)
    let blank = try Self.run(["evaluate", "-"], input: "\n  \n")
    #expect(blank.status == 0)
    #expect(blank.output.isEmpty)
  }

  @Test func unreadableInputOrCatalogExitsWithTwo() throws {
    let missing = EntitlementsTool.run(["evaluate", "/nonexistent/subscribers.jsonl"])
    #expect(missing.status == 2)
    #expect(
      missing.errors
        == "/nonexistent/subscribers.jsonl: cannot read: no such file, or not readable\n")
    let catalog = try Self.temporary("products.json", #"{"products": [{"id": 1}]}"#)
    defer { try? FileManager.default.removeItem(atPath: catalog) }
    let file = try Self.temporary("subscribers.jsonl", Self.line(0))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let badCatalog = EntitlementsTool.run(["evaluate", file, "--catalog", catalog])
    #expect(badCatalog.status == 2)
    #expect(badCatalog.errors.hasPrefix(catalog), "\(badCatalog.errors)")
    #expect(badCatalog.output.isEmpty)
  }

  /// The line scanner finds each document's end by brackets outside strings: brackets and
  /// escaped quotes inside strings do not end it; an unclosed or too deep document is an
  /// error naming the byte.
  @Test func documentsAreDelimitedOutsideStrings() throws {
    let tricky = #"{"a": "}]\"{", "b": [1, {"c": "\\"}]}"#
    let (line, _) = try Self.scan(
      Array(#"{"documents": [\#(tricky), "x.y.z"], "subscriber": "q\"1\n"}"#.utf8)[...])
    #expect(line.subscriber == "q\"1\n")
    try #require(line.documents.count == 2)
    guard case .json(let bytes) = line.documents[0], case .jws(let jws) = line.documents[1]
    else {
      Issue.record("documents: \(line.documents)")
      return
    }
    #expect(String(decoding: bytes, as: UTF8.self) == tricky)
    #expect(jws == "x.y.z")
    let deep = String(repeating: "[", count: JSONValue.maximumDepth + 1)
    for (text, message) in [
      (#"{"subscriber": "a", "documents": [{"x": [1}"#, "a document is not closed"),
      (#"{"subscriber": "a", "documents": [\#(deep)]}"#, "nested too deeply"),
      (#"{"subscriber": "a", "documents": [{}] "#, "expected ','"),
    ] {
      #expect(throws: SubscriberLine.Problem.self) { try Self.scan(Array(text.utf8)[...]) }
      do {
        _ = try Self.scan(Array(text.utf8)[...])
      } catch {
        #expect(error.message.hasPrefix(message), "\(text): \(error.message)")
        #expect(error.subscriber == "a")
      }
    }
  }

  /// The deepest document the readers take, in a line evaluated on the command's threads
  /// (their stacks are smaller than the main thread's): the line is answered, with an error
  /// (no document has that shape), and the lines around it too.
  @Test func theDeepestDocumentIsReadOnAWorkerThread() throws {
    let depth = JSONValue.maximumDepth - 2
    let deep =
      #"{"x": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
    let input = [Self.line(0), #"{"subscriber": "deep", "documents": [\#(deep)]}"#, Self.line(2)]
      .joined(separator: "\n")
    var written: [UInt8] = []
    let failed = try BatchEvaluation(
      evaluator: Evaluator(catalog: .empty), at: Instant(millisecondsSince1970: 1_750_000_000_000)
    ).run(jobs: 2, read: Self.reader(of: Array(input.utf8)), write: { written += $0 })
    let lines = try Self.lines(String(decoding: written, as: UTF8.self))
    #expect(lines.map { $0["subscriber"] } == [.string("s0"), .string("deep"), .string("s2")])
    #expect(failed == 1)
    #expect(lines[1]["error"] != nil)
  }

  /// A line scanned into a record of its own, with nothing learnt before.
  static func scan(_ bytes: ArraySlice<UInt8>) throws(SubscriberLine.Problem) -> (
    SubscriberLine, SubscriberRecord
  ) {
    var record = SubscriberRecord()
    var memo = DocumentReader.Memo()
    let line = try SubscriberLine(bytes, into: &record, memo: &memo)
    return (line, record)
  }

  /// Documents are read where they lie, on a line that is a slice of a larger batch, folded
  /// (an irregular one with its diagnostic), and the scan goes on just past each; a document
  /// of no kind is kept as its bytes, for its error, and a refused one as its error.
  @Test func documentsAreReadInPlace() throws {
    let first = Self.transaction(2_000_000_000_000_001, original: 1, start: 1_700_000_000_000)
    let last = Self.transaction(2_000_000_000_000_002, original: 1, start: 1_702_592_000_000)
    let irregular = #"{"transactionId": 12}"#
    let unrecognized = #"{"transactionIdentifier": 12}"#
    let batch = Array(
      #"{"subscriber": "before"}\#n{"subscriber": "r", "documents": [\#(first),"x.y.z" , \#(irregular), \#(unrecognized),{"status": 21007},\#(last)]}"#
        .utf8)
    let start = try #require(batch.firstIndex(of: 0x0A)) + 1
    let (line, record) = try Self.scan(batch[start...])
    #expect(line.subscriber == "r")
    try #require(line.documents.count == 6)
    // The irregular transaction has no product: folded, with its diagnostic.
    #expect(
      record.history.entries.map(\.transactionID.rawValue)
        == ["12", "2000000000000001", "2000000000000002"])
    #expect(record.readingDiagnostics.map(\.field) == ["productId"])
    guard case .folded = line.documents[0], case .jws("x.y.z") = line.documents[1],
      case .folded = line.documents[2], case .json(let bytes) = line.documents[3],
      case .refused(.verifyReceiptStatus) = line.documents[4], case .folded = line.documents[5]
    else {
      Issue.record("documents: \(line.documents)")
      return
    }
    #expect(String(decoding: bytes, as: UTF8.self) == unrecognized)
  }

  /// Reading fails part-way: every whole line read before the failure is answered, in order,
  /// and the failure is reported; the unfinished line after them is not a line.
  @Test(arguments: [(1 << 30, 1), (64, 3)])
  func linesReadBeforeAFailureAreAnswered(batch: Int, jobs: Int) throws {
    let input = Array(((0..<10).map(Self.line).joined(separator: "\n") + "\n").utf8)
    let failAt = input.count - 30  // inside the last line
    var evaluation = BatchEvaluation(
      evaluator: Evaluator(catalog: .empty), at: Instant(millisecondsSince1970: 1_750_000_000_000))
    evaluation.batchBytes = batch
    var written: [UInt8] = []
    #expect(throws: ReadFailure.self) {
      _ = try evaluation.run(
        jobs: jobs, read: Self.reader(of: input, chunk: 40, failingAt: failAt),
        write: { written += $0 })
    }
    let lines = written.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    #expect(lines.count == 9)
    #expect(lines.allSatisfy { $0.contains(#""entitlements""#) })
    #expect(lines.map { $0.contains(#""subscriber":"s"#) } == Array(repeating: true, count: 9))
    #expect(
      lines.enumerated().allSatisfy { index, line in line.hasSuffix(#""subscriber":"s\#(index)"}"#)
      },
      "\(lines)")
  }

  /// A line's error is its first document that cannot be read, in line order, however it was
  /// refused: a document refused where it was read in place (a verifyReceipt status with no
  /// receipt) and one read again for its error (invalid JSON), in both orders.
  @Test(arguments: [
    (#"[{"status": 0, "x": tru}, {"status": 21007}]"#, "documents[0]: ", "21007"),
    (
      #"[{"status": 21007}, {"status": 0, "x": tru}]"#, "documents[0]: verifyReceipt status 21007",
      ""
    ),
    (#"[{"status": 21007}, "not.a.jws"]"#, "documents[0]: verifyReceipt status 21007", ""),
    (#"["not.a.jws", {"status": 21007}]"#, "documents[0]: ", "21007"),
  ])
  func theFirstDocumentThatCannotBeReadIsTheLinesError(
    documents: String, prefix: String, notContaining: String
  ) throws {
    let evaluation = BatchEvaluation(
      evaluator: Evaluator(catalog: .empty), at: Instant(millisecondsSince1970: 1_750_000_000_000))
    var scratch = BatchEvaluation.Scratch()
    let line = Array(#"{"subscriber": "s", "documents": \#(documents)}"#.utf8)
    let (bytes, failed) = evaluation.evaluate(line[...], number: 1, scratch: &scratch)
    #expect(failed)
    let value = try JSONValue(parsing: bytes)
    guard case .string(let error)? = value["error"] else {
      Issue.record("no error: \(String(decoding: bytes, as: UTF8.self))")
      return
    }
    #expect(error.hasPrefix(prefix), "\(error)")
    if !notContaining.isEmpty { #expect(!error.contains(notContaining), "\(error)") }
  }

  /// A thread's scratch keeps its buffers from line to line, but a line whose signed payload
  /// grew them past their bound does not leave them grown for the next line.
  @Test func aLargePayloadDoesNotHoldItsBufferForTheNextLine() throws {
    let evaluation = BatchEvaluation(
      evaluator: Evaluator(catalog: .empty), at: Instant(millisecondsSince1970: 1_750_000_000_000))
    var scratch = BatchEvaluation.Scratch()
    func line(padding: Int) -> [UInt8] {
      let payload = #"""
        {"transactionId": "2000000000000001", "originalTransactionId": "2000000000000001", \#
        "productId": "com.example.monthly", "purchaseDate": 1700000000000, \#
        "expiresDate": 1702592000000, "padding": "\#(String(repeating: "x", count: padding))"}
        """#
      let page =
        #"{"signedTransactions": ["\#(AppleDocuments.jws(payload))"], "hasMore": false}"#
      return Array(#"{"subscriber": "s", "documents": [\#(page)]}"#.utf8)
    }
    let large = evaluation.evaluate(
      line(padding: DocumentReader.Memo.bytesKept)[...], number: 1, scratch: &scratch)
    #expect(!large.failed, "\(String(decoding: large.bytes.prefix(200), as: UTF8.self))")
    #expect(scratch.memo.bufferCapacities.payloads > DocumentReader.Memo.bytesKept)
    let small = evaluation.evaluate(line(padding: 10)[...], number: 2, scratch: &scratch)
    #expect(!small.failed)
    #expect(scratch.memo.bufferCapacities.payloads <= DocumentReader.Memo.bytesKept)
    #expect(scratch.memo.bufferCapacities.payloads > 0)
  }

  /// A read that stops at `failAt`: what comes after it cannot be read.
  struct ReadFailure: Error {}

  /// A reader of `input` for ``BatchEvaluation/run(jobs:read:write:progress:)``: each read
  /// gives the next bytes, at most `chunk`; a read at `failAt` throws ``ReadFailure``.
  static func reader(of input: [UInt8], chunk: Int = .max, failingAt failAt: Int? = nil)
    -> BatchEvaluation.Read
  {
    var offset = 0
    return { buffer in
      if let failAt, offset >= failAt { throw ReadFailure() }
      let count = min(chunk, (failAt ?? input.count) - offset, buffer.count)
      _ = buffer.update(fromContentsOf: input[offset..<offset + count])
      offset += count
      return count
    }
  }

  /// The most bytes one read of the command asks for.
  static var readSize: Int {
    BatchEvaluation(evaluator: Evaluator(), at: Instant(millisecondsSince1970: 0)).readSize
  }

  /// A file whose lines cross reads, one line longer than two reads (`readSize`): every line
  /// is answered, in order.
  @Test func aLineLongerThanAReadIsReadWhole() throws {
    let documents = (0..<(2 * Self.readSize / 200 + 1_000)).map { month in
      Self.transaction(
        3_000_000_000_000_000 + Int64(month), original: 3_000_000_000_000_000,
        start: 1_000_000_000_000 + Int64(month) * 2_592_000_000)
    }
    let long = #"{"subscriber": "long", "documents": [\#(documents.joined(separator: ", "))]}"#
    try #require(long.utf8.count > 2 * Self.readSize)
    let file = try Self.temporary(
      "long.jsonl", [Self.line(0), long, Self.line(2)].joined(separator: "\n") + "\n")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let catalog = try Self.temporary("products.json", Self.catalog)
    defer { try? FileManager.default.removeItem(atPath: catalog) }
    let run = EntitlementsTool.run([
      "evaluate", file, "--catalog", catalog, "--at", "2026-01-01T00:00:00Z", "--jobs", "2",
    ])
    #expect(run.status == 0, "\(run.errors)")
    let values = try Self.lines(run.output)
    try #require(values.count == 3)
    #expect(values.map { $0["subscriber"] } == [.string("s0"), .string("long"), .string("s2")])
    guard case .array(let entitlements)? = values[1]["entitlements"],
      case .object(let premium)? = entitlements.first
    else {
      Issue.record("no entitlement for the long line: \(values[1])")
      return
    }
    // A line cut where a read ended would be an error line; this one is a subscriber.
    #expect(premium["state"] == .string("active"))
  }

  /// Lines cut across reads of any size, and batches of any size, give the same output.
  @Test(arguments: [(1, 1), (7, 64), (4096, 1 << 20)])
  func chunksAndBatchesDoNotChangeTheOutput(chunk: Int, batch: Int) throws {
    let input = Array(((0..<40).map(Self.line).joined(separator: "\n") + "\n").utf8)
    func output(chunk: Int, batchBytes: Int, jobs: Int) throws -> ([UInt8], Int, [Int]) {
      var evaluation = BatchEvaluation(
        evaluator: Evaluator(catalog: .empty),
        at: Instant(
          millisecondsSince1970: 1_750_000_000_000))
      evaluation.batchBytes = batchBytes
      var written: [UInt8] = []
      var progress: [Int] = []
      let failed = try evaluation.run(
        jobs: jobs, read: Self.reader(of: input, chunk: chunk),
        write: { written += $0 }, progress: { progress.append($0) })
      return (written, failed, progress)
    }
    let whole = try output(chunk: input.count, batchBytes: 1 << 30, jobs: 1)
    let cut = try output(chunk: chunk, batchBytes: batch, jobs: 3)
    #expect(cut.0 == whole.0)
    #expect(cut.1 == 0)
    #expect(whole.0.filter { $0 == 0x0A }.count == 40)
    #expect(cut.2.last == 40)
    if batch < 1 << 20 { #expect(cut.2.count > 1, "several batches") }
  }

  /// Input read from a pipe, a little at a time (reads of 16 bytes, and what a pipe gives),
  /// in batches of any size, with a blank line among the lines and no newline after the
  /// last: the same output as one read of the whole input.
  @Test(arguments: [(16, 64), (16, 512), (16, 4096), (1 << 20, 64), (1 << 20, 1 << 30)])
  func pipedInputInManyBatchesGivesTheSameOutput(readSize: Int, batchBytes: Int) throws {
    let lines = (0..<80).map { $0 == 40 ? "  " : Self.line($0) }
    let input = Array(lines.joined(separator: "\n").utf8)
    func output(_ read: BatchEvaluation.Read, readSize: Int, batchBytes: Int) throws -> [UInt8] {
      var evaluation = BatchEvaluation(
        evaluator: Evaluator(catalog: .empty), at: Instant(millisecondsSince1970: 1_750_000_000_000)
      )
      evaluation.readSize = readSize
      evaluation.batchBytes = batchBytes
      var written: [UInt8] = []
      _ = try evaluation.run(jobs: 3, read: read, write: { written += $0 })
      return written
    }
    let whole = try output(
      Self.reader(of: input), readSize: input.count, batchBytes: 1 << 30)
    #expect(whole.filter { $0 == 0x0A }.count == 79)
    // The whole input fits a pipe's buffer (64 KB): written, and the writing end closed,
    // first, with no thread.
    try #require(input.count < 60_000)
    let pipe = Pipe()
    try pipe.fileHandleForWriting.write(contentsOf: input)
    try pipe.fileHandleForWriting.close()
    let piped = try output(
      StandardStreams.reader(of: pipe.fileHandleForReading), readSize: readSize,
      batchBytes: batchBytes)
    #expect(piped == whole)
  }

  /// The buffer of a batch that is done is read into again, not copied or allocated anew: the
  /// second batch read after it is given back (the fourth) holds the same storage (the command
  /// reads gigabytes through a few buffers). A buffer grown past two batches and a read by a
  /// long line is not kept.
  @Test func aBufferGivenBackIsReadIntoAgain() throws {
    let input = Array(((0..<64).map(Self.line).joined(separator: "\n") + "\n").utf8)
    let read = Self.reader(of: input)
    func storage(_ bytes: [UInt8]) -> UInt {
      bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }
    var batcher = BatchEvaluation.Batcher(batchBytes: 512, readSize: 64)
    var batches: [BatchEvaluation.Batch?] = []
    for _ in 0..<2 { batches.append(try batcher.next(read)) }
    let firstStorage = storage(try #require(batches[0]).bytes)
    // The first batch is done: its buffer is given back, and nothing else holds it.
    batcher.recycle(try #require(batches[0]).bytes)
    batches[0] = nil
    #expect(storage(batcher.spare) == firstStorage)
    for _ in 0..<2 { batches.append(try batcher.next(read)) }
    let fourth = try #require(batches[3])
    #expect(storage(fourth.bytes) == firstStorage)
    #expect(!fourth.lines.isEmpty)
    // Every line of the batch is one of the input's, whole.
    for line in fourth.lines {
      #expect(fourth.bytes[line].first == UInt8(ascii: "{"))
      #expect(fourth.bytes[line].last == UInt8(ascii: "}"))
    }

    var long = BatchEvaluation.Batcher(batchBytes: 8, readSize: 4)
    long.recycle(Array(repeating: 0, count: 2 * 8 + 4 + 1))
    #expect(long.spare.isEmpty, "a buffer grown past two batches and a read kept")
    long.recycle(Array(repeating: 0, count: 2 * 8 + 4))
    #expect(long.spare.count == 2 * 8 + 4)
  }
}

/// Lines and files past the limit (`--max-bytes`): refused with an error that names them, the
/// stream going on (issue: the tool as trustworthy as the library).
@Suite("Limits on lines and files")
struct InputLimitTests {
  /// A line longer than the limit and than several reads is dropped unread; one read whole
  /// but over the limit is refused the same way; the lines around them are answered.
  @Test(arguments: [(2_000_000, 3_000_000), (40, 60)])
  func aLineOverTheLimitIsRefusedAndTheStreamGoesOn(limit: Int, length: Int) throws {
    let padding = String(repeating: "x", count: length)
    let long = #"{"subscriber": "long", "documents": ["\#(padding)"]}"#
    let lines = [
      #"{"subscriber": "a", "documents": []}"#, long, #"{"subscriber": "b", "documents": []}"#,
    ]
    let file = try EvaluateCommandTests.temporary("limits.jsonl", lines.joined(separator: "\n"))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run([
      "evaluate", file, "--at", "2024-01-01", "--max-bytes", String(limit),
    ])
    #expect(run.status == 1)
    let answers = try EvaluateCommandTests.lines(run.output)
    #expect(answers.count == 3)
    #expect(answers.map { $0["subscriber"] } == ["a", "long", "b"].map { .string($0) })
    #expect(answers[1]["line"] == .number("2"))
    #expect(
      answers[1]["error"]
        == .string(
          "longer than \(limit) bytes, the most a line may hold (--max-bytes): not read"))
  }

  /// Lines longer than the limit and than many reads, first, in the middle and last without
  /// a newline, each dropped a read at a time (never held whole): an error line each, in
  /// input order, the short lines around them answered, with small reads and batches.
  @Test(arguments: [(16, 64), (64, 256), (7, 1 << 20)])
  func longLinesAreDroppedAReadAtATime(readSize: Int, batchBytes: Int) throws {
    let padding = String(repeating: "x", count: 3000)
    func long(_ name: String) -> String {
      #"{"subscriber": "\#(name)", "documents": ["\#(padding)"]}"#
    }
    let lines = [
      long("first"), EvaluateCommandTests.line(1), long("middle"), EvaluateCommandTests.line(2),
      long("last"),
    ]
    let input = Array(lines.joined(separator: "\n").utf8)
    var evaluation = BatchEvaluation(
      evaluator: Evaluator(catalog: .empty), at: Instant(millisecondsSince1970: 1_750_000_000_000))
    evaluation.readSize = readSize
    evaluation.batchBytes = batchBytes
    evaluation.maxLineBytes = 800
    var written: [UInt8] = []
    let failed = try evaluation.run(
      jobs: 2, read: EvaluateCommandTests.reader(of: input, chunk: readSize),
      write: { written += $0 })
    #expect(failed == 3)
    let answers = try EvaluateCommandTests.lines(String(decoding: written, as: UTF8.self))
    #expect(
      answers.map { $0["subscriber"] }
        == ["first", "s1", "middle", "s2", "last"].map { .string($0) })
    #expect(
      answers.map { $0["line"] } == [.number("1"), nil, .number("3"), nil, .number("5")])
    #expect(
      answers.filter { $0["error"] != nil }.allSatisfy {
        $0["error"]
          == .string("longer than 800 bytes, the most a line may hold (--max-bytes): not read")
      })
  }

  @Test func aFileOverTheLimitIsRefusedUnread() throws {
    let file = try EvaluateCommandTests.temporary(
      "receipt.json", #"{"status": 0, "receipt": {"in_app": []}}"#)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = EntitlementsTool.run(["explain", file, "--max-bytes", "10"])
    #expect(run.status == 2)
    #expect(
      run.errors
        == "\(file): cannot read: larger than 10 bytes, the most a file may hold\n")
    #expect(EntitlementsTool.run(["explain", file, "--max-bytes", "100"]).status == 0)
  }

  /// A pipe past a small limit is refused too (its size is not known before it is read).
  @Test func aPipePastTheLimitIsRefused() throws {
    let fifo = FileManager.default.temporaryDirectory
      .appendingPathComponent("limit-\(UUID().uuidString).fifo").path
    guard mkfifo(fifo, 0o600) == 0 else { return }
    defer { try? FileManager.default.removeItem(atPath: fifo) }
    let writer = Thread {
      if let handle = FileHandle(forWritingAtPath: fifo) {
        handle.write(Data(repeating: UInt8(ascii: "x"), count: 100))
        try? handle.close()
      }
    }
    writer.start()
    #expect(throws: FileSystem.Failure.self) { try FileSystem.read(fifo, limit: 10) }
  }

  /// An input with no end (`/dev/zero`) is refused at the limit, not read until memory runs
  /// out.
  @Test func anEndlessInputIsRefusedAtTheLimit() throws {
    guard FileManager.default.fileExists(atPath: "/dev/zero") else { return }
    #expect(throws: FileSystem.Failure.self) {
      try FileSystem.read("/dev/zero", limit: 1 << 20)
    }
    let run = EntitlementsTool.run(["explain", "/dev/zero", "--max-bytes", "1048576"])
    #expect(run.status == 2)
    #expect(run.errors.hasPrefix("/dev/zero: cannot read: larger than 1048576 bytes"))
  }
}
