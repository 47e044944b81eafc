// CPU seconds of the process per rendering stage, for `--verbose` (issue 14: what a `--watch` rebuild spends
// its time on). Process CPU, not wall time: the bench machine is shared, and in a rebuild the layout workers
// are idle, so the stage that runs is the one that spends. With the page writer on, its CPU counts in the
// stage running meanwhile (`draw`, `layout`), and `show` is only the hand-over; `--jobs 1` splits them exactly.

import Foundation

/// `@unchecked Sendable`: used by the one thread that renders.
public final class RenderClock: @unchecked Sendable {
    /// Stages in the order they first ran, with their CPU seconds.
    public private(set) var stages: [(name: String, seconds: Double)] = []

    public init() {}

    static func cpuNow() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Runs `body`, adding its CPU seconds to stage `name`.
    func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let start = Self.cpuNow()
        defer { add(name, Self.cpuNow() - start) }
        return try body()
    }

    func add(_ name: String, _ seconds: Double) {
        if let i = stages.firstIndex(where: { $0.name == name }) { stages[i].seconds += seconds }
        else { stages.append((name, seconds)) }
    }
}
