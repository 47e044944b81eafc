// `--jobs N`: lowering hands each finished top-level block to the shaping workers (ParagraphPrefetch.swift),
// so the second core lays out the first paragraphs while the rest of the document is still being lowered on
// the main thread; the first pagination then takes the workers over (issue 14, both cores). The layouts are
// made at the width the paginator will ask for first and checked against the final document when it takes
// them, so the PDF is the same as without the early start.

import Foundation
import TypesetIR

public final class LayoutFeed: LoweredBlockSink, @unchecked Sendable {
    /// The engine, looked up when first needed: making the shared one waits for fontconfig's set-up, which
    /// runs on its own thread while the document is read, parsed and lowered (issue 14, start-up).
    private let engineSource: () -> LayoutEngine
    private var engine: LayoutEngine { engineSource() }
    /// Whether the first hyphenated paragraph has asked for its patterns (lowering thread only).
    private var patternsAsked = false
    private let jobs: Int
    private let lock = NSLock()
    private var prefetch: ParagraphPrefetch?  // guarded by `lock`
    /// Paragraphs handed to the workers while lowering went on (for tests: counted, never timed).
    public private(set) var paragraphsFed = 0
    /// Paragraphs the workers have laid out so far.
    public var paragraphsMade: Int { lock.withLock { prefetch }?.made ?? 0 }

    /// What the last feed that was closed did: paragraphs fed, fed ones that matched the final document
    /// (their layouts were kept), and of those the ones a worker had taken on before pagination started.
    public struct Record: Sendable, Equatable {
        public var fed = 0, matched = 0, early = 0
    }
    private static let recordLock = NSLock()
    nonisolated(unsafe) private static var record = Record()  // guarded by `recordLock`
    public static var last: Record { recordLock.withLock { record } }

    /// TYPESET_EARLY_LAYOUT=0 turns the early start off (for A/B measurements).
    public static let enabledByEnvironment = getenv("TYPESET_EARLY_LAYOUT").map { String(cString: $0) } != "0"

    public init(engine: @autoclosure @escaping () -> LayoutEngine = LayoutEngine.shared, jobs: Int) {
        self.engineSource = engine
        self.jobs = jobs
    }

    public func begin(_ document: TypesetDocument) -> Bool {
        // Document fonts are loaded when rendering starts: shaping before that would use other fonts.
        guard jobs > 1, document.fontFiles.isEmpty,
              let started = ParagraphPrefetch.startEmpty(width: document.page.columnWidth, jobs: jobs, engine: engineSource)
        else { return false }
        lock.withLock { prefetch = started }
        return true
    }

    public func lowered(_ block: LayoutBlock, at index: Int) {
        guard case .paragraph(let p) = block, let prefetch = lock.withLock({ prefetch }) else { return }
        // The patterns the first hyphenated paragraph needs load while fontconfig is still setting up.
        if !patternsAsked && LazyLoads.hyphenates(p, lineBreaking: LayoutEngine.defaultLineBreaking) {
            patternsAsked = true
            HyphenationDictionaries.preload(p.style.language)
        }
        if ParagraphPrefetch.isShared(p) { paragraphsFed += 1 }
        prefetch.add(block: index, paragraph: p)
    }

    /// Gives the workers to the engine's next pagination. Call holding the engine's lock, before paginating.
    public func handOver() {
        engine.earlyPrefetch = lock.withLock { prefetch }
    }

    /// Takes the workers back from the engine if no pagination took them, so no later build finds them there.
    /// Call holding the engine's lock, after paginating.
    public func withdraw() {
        let mine = lock.withLock { prefetch }
        if let mine, engine.earlyPrefetch === mine { engine.earlyPrefetch = nil }
    }

    /// Stops the workers (a pagination that took them has stopped them already; a failed build had none).
    public func close() {
        if let prefetch = lock.withLock({ prefetch.take() }) {
            prefetch.stop()
            let done = Record(fed: paragraphsFed, matched: prefetch.matched, early: prefetch.laidOutEarly)
            LayoutFeed.recordLock.withLock { LayoutFeed.record = done }
        }
    }
}
