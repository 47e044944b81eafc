// The number of cores this process may run on, for `--jobs`' default, without Foundation's ProcessInfo: its
// activeProcessorCount reads the cgroup files through URL and Data, half a million instructions and Foundation
// code that a one-page build otherwise never touches (issue 14, start-up).

#if canImport(Glibc)
import Glibc

enum CoreCount {
    /// The CPUs in the affinity mask (as `taskset` sets it), capped by a cgroup CPU quota (rounded up) as a
    /// container sets.
    static var available: Int {
        var count = affinityCount() ?? Int(sysconf(Int32(truncatingIfNeeded: _SC_NPROCESSORS_ONLN)))
        if let quota = quota() { count = min(count, quota) }
        return max(count, 1)
    }

    /// The bits of `Cpus_allowed` in /proc/self/status ("ff,ffffffff"): sched_getaffinity without _GNU_SOURCE.
    private static func affinityCount() -> Int? {
        guard let status = contents("/proc/self/status", limit: 1 << 14) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed:") {
            var count = 0
            for c in line.dropFirst("Cpus_allowed:".count) {
                if let digit = c.hexDigitValue { count += digit.nonzeroBitCount }
            }
            return count > 0 ? count : nil
        }
        return nil
    }

    /// cgroup v2's `cpu.max` ("QUOTA PERIOD" or "max PERIOD"), else v1's `cfs_quota_us` / `cfs_period_us`;
    /// nil when there is no quota (or no such file).
    private static func quota() -> Int? {
        if let v2 = numbers("/sys/fs/cgroup/cpu.max") {
            return v2.count >= 2 ? cores(v2[0], v2[1]) : nil
        }
        guard let q = numbers("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")?.first,
              let p = numbers("/sys/fs/cgroup/cpu/cpu.cfs_period_us")?.first else { return nil }
        return cores(q, p)
    }

    private static func cores(_ quota: Int?, _ period: Int?) -> Int? {
        guard let quota, let period, quota > 0, period > 0 else { return nil }
        return (quota + period - 1) / period
    }

    /// The whitespace-separated fields of a small file as numbers (nil for "max"); nil when it cannot be read.
    private static func numbers(_ path: String) -> [Int?]? {
        contents(path, limit: 64)?.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { Int($0) }
    }

    /// The first `limit` bytes of a file as text.
    private static func contents(_ path: String, limit: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: limit)
        var got = 0
        while got < limit {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, limit - got) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            got += n
        }
        return got > 0 ? String(decoding: buffer[0..<got], as: UTF8.self) : nil
    }
}

#else
import Foundation

enum CoreCount {
    static var available: Int { max(ProcessInfo.processInfo.activeProcessorCount, 1) }
}
#endif
