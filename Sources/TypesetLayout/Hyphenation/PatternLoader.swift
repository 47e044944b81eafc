// A thread that reads hyphenation patterns for the build, started with it (issue 14, start-up). The first
// hyphenated paragraph is known while the document is lowered, when libqpdf may be being relocated on another
// thread: glibc starts no thread meanwhile, so lowering would wait to start one. This thread exists by then
// and only needs to be told the language.

import Foundation

enum PatternLoader {
    private static let condition = NSCondition()
    nonisolated(unsafe) private static var started = false  // guarded by `condition`
    nonisolated(unsafe) private static var queue: [String] = []  // guarded by `condition`

    /// Starts the thread (once per process).
    static func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !started else { return }
        started = true
        Thread.detachNewThread { run() }
    }

    /// Hands `key` to the thread; false when no thread was started.
    static func enqueue(_ key: String) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard started else { return false }
        queue.append(key)
        condition.signal()
        return true
    }

    private static func run() {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let key = queue.removeFirst()
            condition.unlock()
            HyphenationDictionaries.load(key)
        }
    }
}
