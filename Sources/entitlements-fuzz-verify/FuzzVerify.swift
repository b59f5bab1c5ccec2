// A fuzz target for the verifier of Apple's signed data (issue 25): its parsers on any bytes,
// and whole JWS through SignedDataVerifier.
//
// libFuzzer, coverage-guided:
//   Fuzz/build-verify.sh
//   .build-fuzz/entitlements-fuzz-verify -max_total_time=600 .build-fuzz/corpus-verify
//
// Built normally (no -DFUZZING), the same target replays files given as arguments, so a
// crashing input found by libFuzzer can be rerun under a debugger.

import EntitlementsVerification

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Apple's root, and no expectations: every step of SPEC §11 but the claims runs.
let verifier = SignedDataVerifier(bundleId: nil, environment: nil)

/// One input: every parser, then the input as a compact JWS (and as a notification). None of
/// this may trap; a JWS made by the fuzzer must never verify (it cannot chain to Apple's root
/// with a valid signature).
func exercise(_ bytes: [UInt8]) {
  SignedDataVerifier._exerciseParsers(bytes)
  let text = String(decoding: bytes, as: UTF8.self)
  if (try? verifier.verify(text)) != nil, !isSeed(text) {
    preconditionFailure("a fuzzed JWS verified against Apple's root")
  }
  _ = try? verifier.verifyNotification(text)
}

/// Real Apple JWS given as seeds do verify; only what the fuzzer made must not.
func isSeed(_ text: String) -> Bool { text.hasPrefix("eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlF") }

/// libFuzzer's entry point: one input, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  exercise(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}

/// The bytes of a file, with the C library (the fuzz target needs no Foundation).
func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count <= 0 { break }
    bytes += buffer[0..<count]
  }
  return bytes
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
