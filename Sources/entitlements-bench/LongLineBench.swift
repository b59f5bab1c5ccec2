// Memory of `entitlements evaluate` on one long line (issue: the tool as trustworthy as the
// library): a subscriber line holding one 128 MiB string document, read whole (under
// `--max-bytes`) and refused (over it), max RSS against the line's length.
//
//   .build/release/entitlements-bench --only long-line

import Foundation

enum LongLineBench {
  static func run() -> Int {
    print("")
    print("(x) evaluate on one long line: max RSS against the line (a 128 MiB string document)")
    let length = 128 << 20
    let file = NSTemporaryDirectory() + "/entitlements-bench-long-line-\(getpid()).jsonl"
    defer { try? FileManager.default.removeItem(atPath: file) }
    var bytes = Array(#"{"subscriber": "long", "documents": ["eyJ"#.utf8)
    bytes.reserveCapacity(length + 200)
    bytes += repeatElement(UInt8(ascii: "A"), count: length)
    bytes += Array(#".e30.AA"]}"#.utf8) + [0x0A]
    bytes += Array(#"{"subscriber": "next", "documents": []}"#.utf8) + [0x0A]
    guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else { return 0 }
    let megabytes = Double(bytes.count) / 1_048_576
    for (name, arguments) in [
      ("read whole (limit 256 MiB)", ["evaluate", file, "--at", "2024-01-01", "--jobs", "1"]),
      (
        "refused (limit 64 MiB)",
        ["evaluate", file, "--at", "2024-01-01", "--jobs", "1", "--max-bytes", "67108864"]
      ),
    ] {
      let measure = WholeProcess.Tool.run(arguments)
      print(
        "    " + name.padding(toLength: 30, withPad: " ", startingAt: 0)
          + String(
            format: "line %6.1f MB  max RSS %7.1f MB  (%.2f x the line)  %5.2f s", megabytes,
            measure.megabytes, measure.megabytes / megabytes, measure.seconds))
    }
    return 1
  }
}
