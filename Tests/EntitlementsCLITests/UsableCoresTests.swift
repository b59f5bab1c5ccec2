import Foundation
import Testing

@testable import EntitlementsCLI

/// `evaluate`'s default `--jobs`: the machine's cores, narrowed by the process's CPU affinity
/// and its cgroup's CPU quota, read from the files Linux shows them in.
struct UsableCoresTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let machine: Int
    let files: [String: String]
    let expected: Int
    var testDescription: String { name }
  }

  static let allowed64 = ["/proc/self/status": "Name:\tentitlements\nCpus_allowed_list:\t0-63\n"]

  static let cases: [Case] = [
    .init(name: "nothing readable: the machine's", machine: 8, files: [:], expected: 8),
    .init(
      name: "affinity narrows (taskset, a cpuset)", machine: 64,
      files: ["/proc/self/status": "Cpus_allowed:\tf0\nCpus_allowed_list:\t4-7\n"], expected: 4),
    .init(
      name: "a container's cgroup v2 limit, at the root of its namespace", machine: 64,
      files: allowed64.merging(["/sys/fs/cgroup/cpu.max": "200000 100000\n"]) { $1 },
      expected: 2),
    .init(
      name: "a fractional limit rounds up", machine: 64,
      files: allowed64.merging(["/sys/fs/cgroup/cpu.max": "150000 100000\n"]) { $1 },
      expected: 2),
    .init(
      name: "a limit under one core gives one thread", machine: 64,
      files: allowed64.merging(["/sys/fs/cgroup/cpu.max": "20000 100000\n"]) { $1 },
      expected: 1),
    .init(
      name: "no limit (max)", machine: 64,
      files: allowed64.merging(["/sys/fs/cgroup/cpu.max": "max 100000\n"]) { $1 },
      expected: 64),
    .init(
      name: "the process's own cgroup and the one above it: the least", machine: 64,
      files: allowed64.merging([
        "/proc/self/cgroup": "0::/batch.slice/job-7.scope\n",
        "/sys/fs/cgroup/batch.slice/cpu.max": "300000 100000\n",
        "/sys/fs/cgroup/batch.slice/job-7.scope/cpu.max": "max 100000\n",
      ]) { $1 },
      expected: 3),
    .init(
      name: "a cgroup outside the namespace: only the root is read", machine: 64,
      files: allowed64.merging([
        "/proc/self/cgroup": "0::/../elsewhere\n",
        "/sys/fs/cgroup/elsewhere/cpu.max": "100000 100000\n",
        "/sys/fs/cgroup/cpu.max": "400000 100000\n",
      ]) { $1 },
      expected: 4),
    .init(
      name: "cgroup v1 quota", machine: 64,
      files: allowed64.merging([
        "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "250000\n",
        "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
      ]) { $1 },
      expected: 3),
    .init(
      name: "cgroup v1 without a quota (-1)", machine: 64,
      files: allowed64.merging([
        "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1\n",
        "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n",
      ]) { $1 },
      expected: 64),
    .init(
      name: "affinity and quota: the lesser", machine: 64,
      files: [
        "/proc/self/status": "Cpus_allowed_list:\t0-5\n",
        "/sys/fs/cgroup/cpu.max": "800000 100000\n",
      ],
      expected: 6),
    .init(
      name: "a machine count of 0 still gives one thread", machine: 0, files: [:], expected: 1),
  ]

  @Test(arguments: cases)
  func count(_ test: Case) {
    #expect(UsableCores.count(machine: test.machine) { test.files[$0] } == test.expected)
  }

  @Test(arguments: [
    ("Cpus_allowed_list:\t0-1\n", 2),
    ("Name:\tx\nCpus_allowed_list:\t0-3,8,10-11\nMems_allowed_list:\t0\n", 7),
    ("Cpus_allowed_list:\t5\n", 1),
  ])
  func affinity(_ status: String, _ expected: Int) {
    #expect(UsableCores.affinity(status: status) == expected)
  }

  /// A line that does not read narrows nothing rather than guessing.
  @Test(arguments: [
    "Name:\tx\n", "Cpus_allowed_list:\t\n", "Cpus_allowed_list:\ta-b\n",
    "Cpus_allowed_list:\t3-1\n", "Cpus_allowed_list:\t1-2-3\n", "Cpus_allowed_list:\t-1\n",
  ])
  func affinityThatDoesNotRead(_ status: String) {
    #expect(UsableCores.affinity(status: status) == nil)
  }

  @Test(arguments: [
    ("200000 100000", 2 as Int?), ("100000 100000\n", 1), ("1 100000", 1), ("max 100000", nil),
    ("100000", nil), ("0 100000", nil), ("100000 0", nil), ("-5 100000", nil),
    ("100000 100000 1", nil),
  ])
  func cpuMax(_ text: String, _ expected: Int?) {
    #expect(UsableCores.quota(cpuMax: text) == expected)
  }

  @Test(arguments: [
    (nil as String?, ["/sys/fs/cgroup"]),
    ("0::/\n", ["/sys/fs/cgroup"]),
    ("12:cpu,cpuacct:/docker/abc\n", ["/sys/fs/cgroup"]),
    ("1:name=systemd:/\n0::/a/b\n", ["/sys/fs/cgroup", "/sys/fs/cgroup/a", "/sys/fs/cgroup/a/b"]),
    ("0::/../x\n", ["/sys/fs/cgroup"]),
  ])
  func cgroupFolders(_ cgroup: String?, _ expected: [String]) {
    #expect(UsableCores.cgroupFolders(cgroup) == expected)
  }

  /// The parser reads the file this system writes (the files' format is the kernel's, not
  /// ours): on Linux, the affinity line reads, and the count is within the machine's.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
  func thisSystemsFilesRead() throws {
    let status = String(decoding: try FileSystem.read("/proc/self/status"), as: UTF8.self)
    let allowed = try #require(UsableCores.affinity(status: status))
    let machine = ProcessInfo.processInfo.activeProcessorCount
    #expect((1...machine).contains(allowed))
    #expect((1...allowed).contains(UsableCores.here()))
  }
}
