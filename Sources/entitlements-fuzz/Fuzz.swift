// A fuzz target for the reading layer (issue: reading real input).
//
// libFuzzer, coverage-guided (the README gives the command):
//   Fuzz/build.sh        (also writes the seeds: Fuzz/make-seeds.py, every kind of document)
//   mkdir -p .build-fuzz/corpus
//   .build-fuzz/entitlements-fuzz -max_total_time=600 .build-fuzz/corpus .build-fuzz/seeds
// Real documents make good further seeds: add their folders to the command.
//
// Built normally (no -DFUZZING), the same target replays files given as arguments, so a
// crashing input found by libFuzzer can be rerun under a debugger.

import Entitlements

/// Reads one input as any Apple document, evaluates it, and asks for a status: none of this
/// may trap, whatever the bytes. The reader must also refuse as not JSON what the JSON parser
/// refuses, and read a document in place, on a line, as it reads it whole.
func exercise(_ bytes: [UInt8]) {
  if let problem = DocumentReader._consistencyProblem(bytes) {
    preconditionFailure("the reader is inconsistent: \(problem)")
  }
  guard let document = try? DocumentReader.readUnverified(bytes) else { return }
  let evaluation = Evaluator().evaluate(document.history)
  for entitlement in evaluation.entitlements {
    precondition(entitlement._invariantViolations().isEmpty, "invariant broken")
    _ = entitlement.status(at: Instant(millisecondsSince1970: 1_500_000_000_000))
    _ = entitlement.readableReleases([
      Release(id: "r", date: Instant(millisecondsSince1970: 1_500_000_000_000))
    ])
  }
  var record = SubscriberRecord()
  record.fold(document)
  record.fold(document)
  exerciseFile(bytes)
}

/// Reads the input as a file of documents (one, a JSON array, or JWS lines) and folds them
/// all, in order and backwards, as one subscriber: none of this may trap.
func exerciseFile(_ bytes: [UInt8]) {
  guard let documents = try? DocumentReader.readAllUnverified(bytes) else { return }
  var record = SubscriberRecord()
  for document in documents + documents.reversed() { record.fold(document) }
  let evaluation = Evaluator().evaluate(record.history)
  for entitlement in evaluation.entitlements {
    precondition(entitlement._invariantViolations().isEmpty, "invariant broken")
    _ = entitlement.status(at: Instant(millisecondsSince1970: 1_720_000_000_000))
    _ = entitlement.appleAgreement
  }
}

/// libFuzzer's entry point: one input, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  exercise(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}

#if !FUZZING
  @main
  struct Replay {
    static func main() {
      for path in CommandLine.arguments.dropFirst() {
        guard let bytes = readFile(path) else {
          print("cannot read \(path)")
          continue
        }
        exercise(bytes)
        print("ok \(path)")
      }
    }
  }
#endif
