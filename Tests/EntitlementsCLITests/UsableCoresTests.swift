import Foundation
import Testing

@testable import EntitlementsCLI

/// `evaluate`'s default `--jobs`: the cores online, narrowed by the process's CPU affinity and
/// by the CPU quotas of its cgroup and those above it, read from the files Linux shows them in.
struct UsableCoresTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let online: Int
    let files: [String: String]
    let expected: Int
    var testDescription: String { name }

    /// A case on a 64-core machine whose process may run on all of them, in cgroup `path` of
    /// both hierarchies (v2 and v1's `cpu,cpuacct`).
    init(_ name: String, path: String = "/", _ files: [String: String], expected: Int) {
      self.init(
        name, online: 64,
        files: files.merging([
          "/proc/self/status": "Name:\tentitlements\nCpus_allowed_list:\t0-63\n",
          "/proc/self/cgroup": "4:cpu,cpuacct:\(path)\n3:cpuset:/\n1:name=systemd:/\n0::\(path)\n",
        ]) { mine, _ in mine }, expected: expected)
    }

    init(_ name: String, online: Int, files: [String: String], expected: Int) {
      (self.name, self.online, self.files, self.expected) = (name, online, files, expected)
    }
  }

  static let cases: [Case] = [
    .init("nothing readable: the cores online", online: 8, files: [:], expected: 8),
    .init(
      "affinity narrows (taskset, a cpuset)", online: 64,
      files: ["/proc/self/status": "Cpus_allowed:\tf0\nCpus_allowed_list:\t4-7\n"], expected: 4),
    .init(
      "affinity naming offline cores: the cores online", online: 2,
      files: ["/proc/self/status": "Cpus_allowed_list:\t0-7\n"], expected: 2),
    .init(
      "a container's cgroup v2 limit", ["/sys/fs/cgroup/cpu.max": "200000 100000\n"], expected: 2),
    .init(
      "a fractional limit rounds up", ["/sys/fs/cgroup/cpu.max": "150000 100000\n"], expected: 2),
    .init(
      "a limit under one core gives one thread", ["/sys/fs/cgroup/cpu.max": "20000 100000\n"],
      expected: 1),
    .init("no limit (max)", ["/sys/fs/cgroup/cpu.max": "max 100000\n"], expected: 64),
    .init(
      "a cgroup above the process's one limits it", path: "/batch.slice/job-7.scope",
      [
        "/sys/fs/cgroup/batch.slice/cpu.max": "300000 100000\n",
        "/sys/fs/cgroup/batch.slice/job-7.scope/cpu.max": "max 100000\n",
      ],
      expected: 3),
    .init(
      "two limits, the inner one less: the least", path: "/batch.slice/job-7.scope",
      [
        "/sys/fs/cgroup/batch.slice/cpu.max": "300000 100000\n",
        "/sys/fs/cgroup/batch.slice/job-7.scope/cpu.max": "200000 100000\n",
      ],
      expected: 2),
    .init(
      "two limits, the outer one less: the least", path: "/batch.slice/job-7.scope",
      [
        "/sys/fs/cgroup/batch.slice/cpu.max": "200000 100000\n",
        "/sys/fs/cgroup/batch.slice/job-7.scope/cpu.max": "300000 100000\n",
      ],
      expected: 2),
    .init(
      "a cgroup outside the namespace: nothing read", path: "/../elsewhere",
      ["/sys/fs/cgroup/cpu.max": "100000 100000\n"], expected: 64),
    .init(
      "a container named by its host path: the mount's root is its own", path: "/docker/abc",
      ["/sys/fs/cgroup/cpu.max": "300000 100000\n"], expected: 3),
    .init(
      "cgroup v1, cpu,cpuacct", path: "/system.slice/batch.service",
      [
        "/sys/fs/cgroup/cpu,cpuacct/system.slice/batch.service/cpu.cfs_quota_us": "250000\n",
        "/sys/fs/cgroup/cpu,cpuacct/system.slice/batch.service/cpu.cfs_period_us": "100000\n",
      ],
      expected: 3),
    .init(
      "cgroup v1, the cpu mount's root, for a container named by its host path",
      path: "/docker/abc",
      [
        "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "400000\n",
        "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n",
      ],
      expected: 4),
    .init(
      "cgroup v1 without a quota (-1)",
      [
        "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1\n",
        "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n",
      ],
      expected: 64),
    .init(
      "a v1 controller that is not cpu is not read", online: 64,
      files: [
        "/proc/self/cgroup": "3:cpuset:/\n2:cpuacct:/\n",
        "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "100000\n",
        "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n",
      ],
      expected: 64),
    .init(
      "affinity and quota: the lesser", online: 64,
      files: [
        "/proc/self/status": "Cpus_allowed_list:\t0-5\n",
        "/proc/self/cgroup": "0::/\n",
        "/sys/fs/cgroup/cpu.max": "800000 100000\n",
      ],
      expected: 6),
    .init(
      "each hierarchy along its own line", online: 64,
      files: [
        "/proc/self/cgroup":
          "a line that does not read\n3:cpuset:/cs\n0::/v2\n4:cpu,cpuacct:/v1\n",
        "/sys/fs/cgroup/v2/cpu.max": "300000 100000\n",
        "/sys/fs/cgroup/cpu,cpuacct/v1/cpu.cfs_quota_us": "200000\n",
        "/sys/fs/cgroup/cpu,cpuacct/v1/cpu.cfs_period_us": "100000\n",
        // One core wherever a hierarchy would follow another's line.
        "/sys/fs/cgroup/cs/cpu.max": "100000 100000\n",
        "/sys/fs/cgroup/v1/cpu.max": "100000 100000\n",
        "/sys/fs/cgroup/cpu,cpuacct/v2/cpu.cfs_quota_us": "100000\n",
        "/sys/fs/cgroup/cpu,cpuacct/v2/cpu.cfs_period_us": "100000\n",
        "/sys/fs/cgroup/cpu,cpuacct/cs/cpu.cfs_quota_us": "100000\n",
        "/sys/fs/cgroup/cpu,cpuacct/cs/cpu.cfs_period_us": "100000\n",
      ],
      expected: 2),
    .init("no core online still gives one thread", online: 0, files: [:], expected: 1),
  ]

  @Test(arguments: cases)
  func count(_ test: Case) {
    #expect(UsableCores.count(online: test.online) { test.files[$0] } == test.expected)
  }

  @Test(arguments: [
    ("Cpus_allowed_list:\t0-1\n", 2),
    ("Name:\tx\nCpus_allowed_list:\t0-3,8,10-11\nMems_allowed_list:\t0\n", 7),
    ("Cpus_allowed_list:\t5\n", 1),
  ])
  func affinity(ofStatus status: String, is expected: Int) {
    #expect(UsableCores.affinity(status: status) == expected)
  }

  /// A line that does not read narrows nothing rather than guessing.
  @Test(arguments: [
    "Name:\tx\n", "Cpus_allowed_list:\t\n", "Cpus_allowed_list:\ta-b\n",
    "Cpus_allowed_list:\t3-1\n", "Cpus_allowed_list:\t0-3,5-4\n", "Cpus_allowed_list:\t1-2-3\n",
    "Cpus_allowed_list:\t-1\n", "Cpus_allowed_list:\t0-1048576\n",
    "Cpus_allowed_list:\t0-9223372036854775807\n",
  ])
  func affinityThatDoesNotRead(_ status: String) {
    #expect(UsableCores.affinity(status: status) == nil)
  }

  @Test(arguments: [
    ("200000 100000", 2 as Int?), ("100000 100000\n", 1), ("1 100000", 1), ("max 100000", nil),
    ("100000", nil), ("0 100000", nil), ("100000 0", nil), ("-5 100000", nil),
    ("100000 100000 1", nil), ("9223372036854775807 100000", 92_233_720_368_548),
  ])
  func cores(ofCPUMax text: String, are expected: Int?) {
    #expect(UsableCores.quota(cpuMax: text) == expected)
  }

  /// The parser reads the file this system writes (its format is the kernel's, not ours): on
  /// Linux, the affinity line reads, and the count is within it.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
  func thisSystemsFilesRead() throws {
    let status = String(decoding: try FileSystem.read("/proc/self/status"), as: UTF8.self)
    let allowed = try #require(UsableCores.affinity(status: status))
    #expect((1...allowed).contains(UsableCores.here()))
  }
}
