// Rewritten page content kept between `--watch` builds. The tagging stage's rewrite of a content stream
// (ContentRewrite) and its compression are a function of cairo's stream, the page's first free MCID and its
// silent MCIDs, so a result kept under exactly those is the bytes a clean build computes; an unchanged page
// costs one comparison of cairo's (still compressed) stream instead of inflating, rewriting and deflating it.

import Foundation

public final class PageStreamMemo: @unchecked Sendable {
    struct Key: Hashable {
        /// cairo's stream as stored in its file (compressed): equal bytes, equal content.
        var raw: Data
        /// How `raw` is encoded (cairo's /Filter).
        var filter: String
        var firstFreeMCID: Int
        var silent: Set<Int>
        /// Sequences written with `/Lang` (a span's language).
        var languages: [Int: String]
    }

    struct Entry {
        var dictionary: String
        var data: Data
        var continuations: [Int: [Int]]
        var nextMCID: Int
    }

    private let lock = NSLock()
    private var entries: [Key: (entry: Entry, build: Int)] = [:]
    private var build = 0
    /// Streams taken from the memo / rewritten anew since it was made (tests count them).
    public private(set) var hits = 0
    public private(set) var rewrites = 0

    public init() {}

    /// Whether an earlier build left streams here: this build is a rebuild.
    var isRebuild: Bool { lock.withLock { !entries.isEmpty } }
    /// Builds whose pages cairo wrote on the page-writer thread (tests check that rebuilds do).
    public private(set) var buildsWithPageWriter = 0

    func notePageWriter() { lock.withLock { buildsWithPageWriter += 1 } }

    /// Called when a build starts: what the build before it did not use is dropped.
    public func beginBuild() {
        lock.withLock {
            let last = build
            entries = entries.filter { $0.value.build == last }
            build += 1
        }
    }

    func entry(for key: Key) -> Entry? {
        lock.withLock {
            guard let kept = entries[key] else { return nil }
            entries[key] = (kept.entry, build)
            hits += 1
            return kept.entry
        }
    }

    func store(_ entry: Entry, for key: Key) {
        lock.withLock {
            entries[key] = (entry, build)
            rewrites += 1
        }
    }
}
