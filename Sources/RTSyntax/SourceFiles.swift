// The file names source locations point into, each kept once for the process: a location stores its file's
// number, not a 16-byte string, so a syntax tree of millions of nodes is a third smaller (issue 8).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File names by number. Documents name a handful of files (the input, its includes, data files); a name once
/// numbered keeps its number, so `--watch` rebuilds and tests reuse them. Thread-safe: lowering and layout
/// workers read locations on several threads.
enum SourceFiles {
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let made = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(made, nil)
        return made
    }()
    nonisolated(unsafe) private static var names: [String] = [""]  // guarded by `mutex`
    nonisolated(unsafe) private static var numbers: [String: UInt32] = ["": 0]  // guarded by `mutex`

    /// The number of `name`, given one the first time it is seen.
    static func number(_ name: String) -> UInt32 {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let known = numbers[name] { return known }
        // 2^32 distinct names cannot be reached: each one is a file (or `<stdin>`) some document named.
        let made = UInt32(truncatingIfNeeded: names.count)
        names.append(name)
        numbers[name] = made
        return made
    }

    static func name(_ number: UInt32) -> String {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let k = Int(number)
        return k < names.count ? names[k] : ""
    }
}
