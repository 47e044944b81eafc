// `--jobs` above 1: glibc gives each new thread a malloc arena of its own, up to eight per core. cairo's
// long-lived output state (font subsets, object offsets) then grows in the page writer's arena
// (PageEmitter.swift) beside blocks other threads free: peak memory rose 6% at 350,000 words with the default.
// One arena kept that as with one thread, but a worker laying out one long paragraph's pieces
// (PiecePipeline.swift) and the paginating thread then wait on its lock: in 8 columns the paginator's drawing
// took 1.2 s instead of 0.5. One arena per job measured the same peak as one arena on the 35,000- and
// 350,000-word reports (43 and 55 MB) and 25% less wall time in 8 columns. Set before the first build starts
// threads (Pango's font setup starts one): the limit is read when the first thread asks for an arena.

import Foundation

enum MallocArenas {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var applied = false  // guarded by `lock`

    /// At most one arena per job for the process, once: glibc's `mallopt(M_ARENA_MAX, n)`, looked up at run
    /// time (Swift's Glibc module leaves malloc.h out); nothing where there is no such function.
    static func limit(toJobs jobs: Int) {
        let n = Int32(clamping: max(1, min(jobs, 64)))
        lock.withLock {
            guard !applied else { return }
            applied = true
            apply(n)
        }
    }

    private static func apply(_ n: Int32) {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let arenaMax: Int32 = -8  // M_ARENA_MAX in glibc's malloc.h
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMax, n)
    }
}
