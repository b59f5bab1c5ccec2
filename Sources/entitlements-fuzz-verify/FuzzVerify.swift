// A fuzz target for the verifier of Apple's signed data (issue 25): its parsers on any bytes,
// and whole JWS through AppStoreSignatureVerifier, past the chain: besides Apple's root it trusts the
// project's generated test root (Tests/EntitlementsVerificationTests/Generated/root.der), so
// the generated JWS seeded into the corpus reach the signature, the validity, the claims and
// the chain cache, and libFuzzer mutates from there.
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

/// The committed outputs of `generate.py`, found from this source file's path (absolute when
/// SwiftPM or `Fuzz/build-verify.sh` compiles it; relative paths are the repository root's).
let generatedFolder: String = {
  let source = #filePath
  let prefix = source.firstRange(of: "Sources/entitlements-fuzz-verify/").map {
    String(source[..<$0.lowerBound])
  }
  return (prefix ?? "") + "Tests/EntitlementsVerificationTests/Generated/"
}()

/// The generated root, trusted beside Apple's.
let generatedRoot: TrustedRoot = {
  let path = generatedFolder + "root.der"
  guard let der = readFile(path), let root = try? TrustedRoot(derRepresentation: der) else {
    fatalError("cannot read the generated root \(path): run from the repository")
  }
  return root
}()

/// Apple's root and the generated one, no claims expected: every step of SPEC §11 runs but
/// the claims' comparisons.
let verifier = AppStoreSignatureVerifier(
  trustedRoots: [.appleRootCAG3, generatedRoot], bundleId: nil, environment: nil)

/// The same roots, expecting the generated production payloads' claims: the comparisons run
/// too (and refuse the sandbox payloads).
let expectingVerifier = AppStoreSignatureVerifier(
  trustedRoots: [.appleRootCAG3, generatedRoot], bundleId: "com.example.app",
  environment: .production, appAppleId: 1234)

/// The seeds that verify: the generated JWS (`jws-cases.json`), and every file of the corpus
/// folders named on the command line, as they are when the target starts (a real Apple JWS
/// among them verifies against Apple's root). Input files named on the command line are not
/// seeds, so a crashing input replays as a crash.
let seedsThatVerify: Set<[UInt8]> = {
  var seeds = generatedJWS()
  for argument in CommandLine.arguments.dropFirst() where !argument.hasPrefix("-") {
    seeds += filesOfFolder(argument)
  }
  return Set(seeds.filter { (try? verifier.verify(String(decoding: $0, as: UTF8.self))) != nil })
}()

/// One input: every parser, then the input as a compact JWS (and as a notification) through
/// both verifiers. None of this may trap, and nothing may verify unless it is byte for byte a
/// seed that verifies: a JWS the fuzzer made cannot carry a valid signature. (ECDSA's
/// `(r, n − s)` also verifies, as Wycheproof says it must; a mutation finding it by chance
/// would be reported here, and that is a negation modulo a 256-bit order, not a byte change.)
func exercise(_ bytes: [UInt8]) {
  AppStoreSignatureVerifier._exerciseParsers(bytes)
  let text = String(decoding: bytes, as: UTF8.self)
  for checking in [verifier, expectingVerifier] {
    let verified = (try? checking.verify(text)) != nil
    if verified, !seedsThatVerify.contains(Array(text.utf8)) {
      preconditionFailure("a JWS verified that is not a seed: \(text.prefix(120))")
    }
    _ = try? checking.verifyNotification(text)
  }
}

/// libFuzzer's entry point: one input, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  exercise(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}

/// The `jws` strings of `jws-cases.json`: base64url and dots, so read without a JSON parser
/// (the target links the verifier alone).
func generatedJWS() -> [[UInt8]] {
  let path = generatedFolder + "jws-cases.json"
  guard let bytes = readFile(path) else {
    fatalError("cannot read the generated JWS \(path): run from the repository")
  }
  let key = Array(#""jws""#.utf8)
  var found: [[UInt8]] = []
  var index = 0
  while index + key.count <= bytes.count {
    guard bytes[index..<index + key.count].elementsEqual(key) else {
      index += 1
      continue
    }
    index += key.count
    while index < bytes.count, [0x20, 0x3A].contains(bytes[index]) { index += 1 }
    guard index < bytes.count, bytes[index] == 0x22 else { continue }
    let start = index + 1
    guard let end = bytes[start...].firstIndex(of: 0x22) else { break }
    found.append(Array(bytes[start..<end]))
    index = end + 1
  }
  guard found.count > 50 else { fatalError("only \(found.count) JWS in \(path)") }
  return found
}

/// The files directly inside a folder; none when `path` is not a folder.
func filesOfFolder(_ path: String) -> [[UInt8]] {
  guard let folder = opendir(path) else { return [] }
  defer { closedir(folder) }
  var files: [[UInt8]] = []
  while let entry = readdir(folder) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    guard name != ".", name != "..", let bytes = readFile(path + "/" + name) else { continue }
    files.append(bytes)
  }
  return files
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
