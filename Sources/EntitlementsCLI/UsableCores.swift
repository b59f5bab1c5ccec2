import Foundation

/// How many threads `entitlements evaluate` starts when `--jobs` is not given: the cores this
/// process may use, not every core of the machine.
///
/// A backend's batch job rarely owns the machine. `taskset`, a container's cpuset and a
/// scheduler's placement narrow the cores a process may run on (its CPU affinity); a
/// container's CPU limit gives it a quota of CPU time per period (cgroup v2 `cpu.max`, v1
/// `cpu.cfs_quota_us` over `cpu.cfs_period_us`). Threads past either only wait for a core, or
/// are throttled, and each costs its buffers. The count is the least of the machine's cores,
/// the affinity's and the quota rounded up (a limit of 1.5 CPUs gives 2 threads), and at least
/// 1. What cannot be read (another system, a file that is not there) narrows nothing.
///
/// ```swift
/// let jobs = UsableCores.count(machine: 64) { path in
///   ["/proc/self/status": "Cpus_allowed_list:\t0-63\n",
///    "/sys/fs/cgroup/cpu.max": "200000 100000\n"][path]
/// }
/// // jobs == 2: a container limited to 2 CPUs of a 64-core machine
/// ```
enum UsableCores {
  /// The threads to start: see the type's description. `read` gives a file's text, or `nil`
  /// when it cannot be read.
  static func count(machine: Int, read: (String) -> String?) -> Int {
    var count = machine
    if let status = read("/proc/self/status"), let allowed = affinity(status: status) {
      count = min(count, allowed)
    }
    if let quota = quota(read: read) { count = min(count, quota) }
    return max(count, 1)
  }

  /// The threads to start on this machine, reading its files.
  static func here() -> Int {
    count(machine: ProcessInfo.processInfo.activeProcessorCount) { path in
      (try? FileSystem.read(path)).map { String(decoding: $0, as: UTF8.self) }
    }
  }

  /// How many cores the `Cpus_allowed_list` line of `/proc/self/status` names
  /// (`0-3,8,10-11` names 7), or `nil` without a line that reads.
  static func affinity(status: String) -> Int? {
    guard
      let line = status.split(separator: "\n").first(where: {
        $0.hasPrefix("Cpus_allowed_list:")
      })
    else { return nil }
    var count = 0
    let list = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
    for range in list.split(separator: ",") {
      let ends = range.split(separator: "-", omittingEmptySubsequences: false)
      guard let first = Int(ends[0]), let last = ends.count == 2 ? Int(ends[1]) : first,
        ends.count <= 2, first >= 0, last >= first
      else { return nil }
      count += last - first + 1
    }
    return count > 0 ? count : nil
  }

  /// The CPU quota that applies to this process, rounded up, or `nil` without one: the least of
  /// cgroup v2's `cpu.max` in the process's cgroup and each above it, and cgroup v1's
  /// `cpu.cfs_quota_us` at the hierarchy's root (a container's own, in its namespace).
  static func quota(read: (String) -> String?) -> Int? {
    var quotas: [Int] = []
    for folder in cgroupFolders(read("/proc/self/cgroup")) {
      if let text = read(folder + "/cpu.max"), let cores = quota(cpuMax: text) {
        quotas.append(cores)
      }
    }
    for folder in ["/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"] {
      if let microseconds = read(folder + "/cpu.cfs_quota_us"),
        let period = read(folder + "/cpu.cfs_period_us"),
        let cores = quota(microseconds: microseconds, per: period)
      {
        quotas.append(cores)
      }
    }
    return quotas.min()
  }

  /// The folders whose `cpu.max` limits this process: its cgroup v2 folder, named by the
  /// `0::` line of `/proc/self/cgroup`, and every folder above it up to `/sys/fs/cgroup`. A
  /// cgroup outside the process's namespace (a path through `..`) is not mounted where it
  /// could be read: only the root is.
  static func cgroupFolders(_ cgroup: String?) -> [String] {
    let root = "/sys/fs/cgroup"
    guard
      let line = cgroup?.split(separator: "\n").first(where: { $0.hasPrefix("0::/") })
    else { return [root] }
    let names = line.dropFirst("0::/".count).split(separator: "/")
    guard !names.contains("..") else { return [root] }
    var folders = [root]
    for name in names { folders.append(folders[folders.count - 1] + "/" + name) }
    return folders
  }

  /// Cores from cgroup v2's `cpu.max` (`QUOTA PERIOD` in microseconds, or `max PERIOD` for
  /// none), rounded up.
  static func quota(cpuMax: String) -> Int? {
    let fields = cpuMax.split(whereSeparator: \.isWhitespace)
    guard fields.count == 2 else { return nil }
    return quota(microseconds: String(fields[0]), per: String(fields[1]))
  }

  /// Cores from a quota and a period in microseconds (cgroup v1 writes `-1` for no quota),
  /// rounded up.
  static func quota(microseconds quota: String, per period: String) -> Int? {
    guard let quota = Int(quota.trimmingCharacters(in: .whitespacesAndNewlines)),
      let period = Int(period.trimmingCharacters(in: .whitespacesAndNewlines)),
      quota > 0, period > 0
    else { return nil }
    return (quota + period - 1) / period
  }
}
