// `entitlements verify`, whole process, on 3 000 real v2 notifications (one JWS per line, each
// verified with its nested transaction and renewal info), against Apple's App Store Server
// Library for Python verifying the same file (Benchmarks/verify_peer.py), taken in turn.
//
//   swift build -c release --product entitlements-bench
//   pip install app-store-server-library
//   .build/release/entitlements-bench --only verify-process

import Foundation

enum VerifyProcessBench {
  static func run(rounds: Int) -> Int {
    print("")
    print(
      "(w) entitlements verify, whole process, 3 000 real v2 notifications (JWS lines), against "
        + "Apple's App Store Server Library for Python (Benchmarks/verify_peer.py)")
    guard let (file, distinct) = notificationsFile(count: 3000) else {
      print("    left out: no real notifications (ENTITLEMENTS_FIXTURES or ../shared/fixtures)")
      return 0
    }
    defer { try? FileManager.default.removeItem(atPath: file) }
    print("    \(distinct) distinct real notifications, cycled to 3 000 lines")
    let peerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Benchmarks/verify_peer.py").path
    let hasPeer =
      WholeProcess.spawnDirectly(
        ["/usr/bin/env", "python3", "-c", "import appstoreserverlibrary"], output: "/dev/null"
      ).status == 0
    if !hasPeer { print("    peer left out: pip install app-store-server-library") }
    var times: [String: [Double]] = [:]
    // What each said last ("N verified, M failed"): the figures count only runs that verified.
    var summaries: [String: String] = [:]
    let output = NSTemporaryDirectory() + "/entitlements-bench-verify-output-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: output) }
    func lastLine() -> String {
      ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        .split(separator: "\n").last.map(String.init) ?? "nothing"
    }
    for _ in 0..<rounds {
      for jobs in [2, 1] {
        let measure = WholeProcess.Tool.run(
          ["verify", file, "--jobs", String(jobs)], output: output)
        times["jobs \(jobs)", default: []].append(measure.seconds)
        summaries["jobs \(jobs)"] = lastLine()
      }
      if hasPeer {
        let measure = WholeProcess.spawn(
          ["/usr/bin/env", "python3", peerScript, file], output: output)
        times["peer", default: []].append(measure.seconds)
        summaries["peer"] = lastLine()
      }
    }
    let peer = times["peer"].map(median)
    for name in ["jobs 2", "jobs 1", "peer"] {
      guard let values = times[name] else { continue }
      let seconds = median(values)
      let label = name == "peer" ? "Apple's Python library" : "entitlements verify --\(name)"
      var line =
        "    " + label.padding(toLength: 36, withPad: " ", startingAt: 0)
        + String(format: " %7.2f s  %7.0f notifications/s", seconds, 3000 / seconds)
      if let peer, name != "peer" { line += String(format: "  %5.1fx the peer", peer / seconds) }
      print(line + "  (" + (summaries[name] ?? "") + ")")
    }
    return times.count
  }

  /// A file of `count` real v2 notifications, one JWS per line, cycled from the distinct ones
  /// of the fixtures; its path and how many are distinct.
  static func notificationsFile(count: Int) -> (String, Int)? {
    let fixtures =
      ProcessInfo.processInfo.environment["ENTITLEMENTS_FIXTURES"] ?? "../shared/fixtures"
    var found: [String] = []
    func collect(_ value: Any) {
      if let object = value as? [String: Any] {
        for (key, member) in object.sorted(by: { $0.key < $1.key }) {
          if ["jws", "signedPayload"].contains(key), let text = member as? String,
            text.hasPrefix("eyJ")
          {
            found.append(text)
          } else if key != "apple_receipts" {
            collect(member)
          }
        }
      } else if let array = value as? [Any] {
        array.forEach(collect)
      }
    }
    for name in [
      "geniusparenting-strapi", "session-pro-backend", "soulmate-server", "odeme-entegrasyonu",
    ] {
      let path = "\(fixtures)/notifications_v2/\(name)/documents.json"
      guard let data = FileManager.default.contents(atPath: path),
        let value = try? JSONSerialization.jsonObject(with: data)
      else { continue }
      collect(value)
    }
    var seen = Set<String>()
    let distinct = found.filter { seen.insert($0).inserted }
    guard !distinct.isEmpty else { return nil }
    let lines = (0..<count).map { distinct[$0 % distinct.count] }
    let file = NSTemporaryDirectory() + "/entitlements-bench-notifications-\(getpid()).jws"
    guard
      FileManager.default.createFile(
        atPath: file, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
    else { return nil }
    return (file, distinct.count)
  }
}
