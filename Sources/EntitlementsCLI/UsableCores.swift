import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many threads `entitlements evaluate` starts when `--jobs` is not given: the cores this
/// process may use, not every core of the machine.
///
/// A backend's batch job rarely owns the machine. `taskset`, a container's cpuset and a
/// scheduler's placement narrow the cores a process may run on (its CPU affinity); a
/// container's CPU limit, or systemd's `CPUQuota=`, gives its cgroup a quota of CPU time per
/// period (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us` over `cpu.cfs_period_us`). Threads past
/// either only wait for a core, or are throttled, and each costs its buffers and its address
/// space. The count is the least of the cores online, the affinity's and each quota of the
/// process's cgroup and the cgroups above it, rounded up (a limit of 1.5 CPUs gives 2 threads),
/// and at least 1. What cannot be read (another system, a folder the container does not show)
/// narrows nothing.
///
/// ```swift
/// let jobs = UsableCores.count(online: 64) { path in
///   ["/proc/self/status": "Cpus_allowed_list:\t0-63\n",
///    "/proc/self/cgroup": "0::/\n",
///    "/sys/fs/cgroup/cpu.max": "200000 100000\n"][path]
/// }
/// // jobs == 2: a container limited to 2 CPUs of a 64-core machine
/// ```
package enum UsableCores {
  /// The threads to start: see the type's description.
  ///
  /// - Parameters:
  ///   - online: The cores online.
  ///   - read: A file's text, or `nil` when it cannot be read.
  /// - Returns: The least of `online`, the affinity's cores and the quotas, at least 1.
  static func count(online: Int, read: (String) -> String?) -> Int {
    var count = online
    if let status = read("/proc/self/status"), let allowed = affinity(status: status) {
      count = min(count, allowed)
    }
    if let quota = quota(read: read) { count = min(count, quota) }
    return max(count, 1)
  }

  /// The threads to start on this machine, reading its files.
  ///
  /// - Returns: ``count(online:read:)`` of the cores online, or of the machine's cores if the
  ///   system does not say. Not of Foundation's `activeProcessorCount`, which on Linux already
  ///   reads a cgroup v1 quota at the `cpu` mount's root, else a v1 cpuset's first range only.
  package static func here() -> Int {
    let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    return count(online: online > 0 ? online : ProcessInfo.processInfo.processorCount) { path in
      (try? FileSystem.read(path)).map { String(decoding: $0, as: UTF8.self) }
    }
  }

  /// How many cores the `Cpus_allowed_list` line of `/proc/self/status` names
  /// (`0-3,8,10-11` names 7), or `nil` without a line that reads (Linux numbers fewer than
  /// 2²⁰ cores).
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
      guard ends.count <= 2, let first = Int(ends[0]),
        let last = ends.count == 2 ? Int(ends[1]) : first, last >= first, last < 1 << 20
      else { return nil }
      count += last - first + 1
    }
    return count > 0 ? count : nil
  }

  /// The least CPU quota of the process's cgroup and those above it, rounded up, or `nil`
  /// without one: cgroup v2's `cpu.max` under `/sys/fs/cgroup`, and cgroup v1's
  /// `cpu.cfs_quota_us` under `/sys/fs/cgroup/cpu` or `/sys/fs/cgroup/cpu,cpuacct`.
  ///
  /// In a container, the mount shows the container's own cgroup at its root, while
  /// `/proc/self/cgroup` may name it by its path on the host: the root is read, and the folders
  /// of that path, which are not there, read nothing.
  static func quota(read: (String) -> String?) -> Int? {
    let cgroup = read("/proc/self/cgroup")
    var quotas: [Int] = []
    for folder in folders(of: cgroup, hierarchy: { $0.isEmpty }, under: ["/sys/fs/cgroup"]) {
      if let text = read(folder + "/cpu.max"), let cores = quota(cpuMax: text) {
        quotas.append(cores)
      }
    }
    let v1 = ["/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"]
    for folder in folders(
      of: cgroup, hierarchy: { $0.split(separator: ",").contains("cpu") },
      under: v1)
    {
      if let microseconds = read(folder + "/cpu.cfs_quota_us"),
        let period = read(folder + "/cpu.cfs_period_us"),
        let cores = quota(microseconds: microseconds, per: period)
      {
        quotas.append(cores)
      }
    }
    return quotas.min()
  }

  /// The folders whose quota limits this process in one cgroup hierarchy: under each of
  /// `mounts`, the mount itself and each folder down to the path that `/proc/self/cgroup` (its
  /// text, `cgroup`) gives on the hierarchy's line, `ID:CONTROLLERS:/PATH`, whose controllers
  /// satisfy `hierarchy` (v2's line has none: `0::/PATH`).
  ///
  /// Without such a line, none. A path through `..` (a cgroup outside the process's cgroup
  /// namespace) is not under the mount: the mount's root is then neither the process's cgroup
  /// nor one above it, and nothing is read.
  static func folders(
    of cgroup: String?, hierarchy: (Substring) -> Bool, under mounts: [String]
  ) -> [String] {
    for line in (cgroup ?? "").split(separator: "\n") {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3, hierarchy(fields[1]) else { continue }
      let names = fields[2].split(separator: "/")
      guard !names.contains("..") else { return [] }
      return mounts.flatMap { mount in
        var folders = [mount]
        for name in names { folders.append(folders[folders.count - 1] + "/" + name) }
        return folders
      }
    }
    return []
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
    return quota / period + (quota % period == 0 ? 0 : 1)
  }
}
