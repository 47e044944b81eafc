// `--jobs` above 1: glibc gives each new thread a malloc arena of its own. cairo's long-lived output state (font
// subsets, object offsets) then grows in the page writer's arena (PageEmitter.swift) beside blocks other threads
// free: peak memory rose 6% at 350,000 words. With one arena it stays as with one thread; small blocks go through
// per-thread caches without the arena's lock (CPU time measured the same). Set before the first build starts
// threads (Pango's font setup starts one): arenas made already stay.

import Foundation

enum MallocArenas {
    private static let once: Void = apply(1)

    /// One arena for the process, once: glibc's `mallopt(M_ARENA_MAX, 1)`, looked up at run time (Swift's Glibc
    /// module leaves malloc.h out); nothing where there is no such function.
    static func limitToOne() { _ = once }

    private static func apply(_ n: Int32) {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let arenaMax: Int32 = -8  // M_ARENA_MAX in glibc's malloc.h
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMax, n)
    }
}
