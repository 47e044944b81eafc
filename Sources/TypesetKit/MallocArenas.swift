// `--jobs` above 1: glibc gives each new thread a malloc arena of its own, up to eight per core. cairo's
// long-lived output state (font subsets, object offsets) then grows in the page writer's arena
// (PageEmitter.swift) beside blocks other threads free: peak memory rose 6% at 350,000 words with the default.
// One arena kept that as with one thread, but a worker laying out one long paragraph's pieces
// (PiecePipeline.swift) and the paginating thread then wait on its lock: in 8 columns the paginator's drawing
// took 1.2 s instead of 0.5. One arena per job measured the same peak as one arena on the 35,000- and
// 350,000-word reports (43 and 55 MB) and 25% less wall time in 8 columns. Set before the first build starts
// threads (Pango's font setup starts one): the limit is read when the first thread asks for an arena.
// Also here: the fixed thresholds at which freed memory goes back to the system (`fixThresholds`).

import CMalloc
import Foundation

enum MallocArenas {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var applied = false  // guarded by `lock`
    nonisolated(unsafe) private static var thresholdsFixed = false  // guarded by `lock`

    /// At most one arena per job for the process, once: glibc's `mallopt(M_ARENA_MAX, n)` (Sources/CMalloc).
    static func limit(toJobs jobs: Int) {
        let n = Int32(clamping: max(1, min(jobs, 64)))
        lock.withLock {
            guard !applied else { return }
            applied = true
            apply(n)
        }
    }

    /// Fixed thresholds for returning memory, set once per process (with or without more jobs).
    /// glibc serves a block of 128 KB or more with mmap, then raises that threshold to the largest such block
    /// freed (cairo's and the tagging stage's buffers reach megabytes) and keeps free memory at the heap's top
    /// up to twice it: later large buffers come from the heap and what they leave free is never returned. Fixed
    /// at 256 KB, peak memory on the 350,000-word report fell by 1.3-2 MB (of 51) for about 1% more page
    /// faults' time; the 35,000-word report was unchanged.
    static func fixThresholds() {
        lock.withLock {
            guard !thresholdsFixed else { return }
            thresholdsFixed = true
            let mmapThreshold: Int32 = -3, trimThreshold: Int32 = -1  // M_MMAP_THRESHOLD, M_TRIM_THRESHOLD
            mallopt(mmapThreshold, 256 << 10)
            mallopt(trimThreshold, 256 << 10)
        }
    }

    /// Gives back to the system the free pages inside the heap, not only at its top (glibc's `malloc_trim(0)`).
    /// Called once the syntax tree is gone: a paragraph's tree is millions of small blocks, freed while the IR
    /// made between them lives on, so the heap keeps its size though most of it is free (`*a* ` x 2,000,000:
    /// 288 MB during layout). Called directly: looked up with dlsym, it waited for libqpdf's loading to end.
    static func trim() {
        _ = typeset_malloc_trim()
    }

    private static func apply(_ n: Int32) {
        let arenaMax: Int32 = -8  // M_ARENA_MAX in glibc's malloc.h
        mallopt(arenaMax, n)
    }

    private static func mallopt(_ option: Int32, _ value: Int32) {
        _ = typeset_mallopt(option, value)
    }
}
