// `--jobs N`: N - 1 worker threads shape and break the document's paragraphs ahead of the paginator, each
// with its own Pango font map and context (Pango's objects are not thread-safe; fontconfig is). A worker lays
// a paragraph out at the column width the paginator last asked for (most paragraphs get it); the paginator
// takes a layout only when it was made at the width it needs now, else it lays the paragraph out itself, as
// with one job. A layout is a function of the paragraph and the width, so the PDF is the same either way.
// Paragraphs whose drawing would read a worker's font caches (see `isCandidate`) are only measured and broken
// on a worker: the paginating thread shapes the planned lines again with its own fonts. Pages are still
// assembled and drawn in order on the paginating thread.

import Foundation
import RTSyntax
import TypesetIR

/// Engines for worker threads, kept for the process (font setup is expensive), one per running worker.
public enum WorkerEngines {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var idle: [LayoutEngine] = []  // guarded by `lock`
    nonisolated(unsafe) private static var taken = 0  // guarded by `lock`

    /// Workers started in this process (tests: counted, never timed).
    public static var workersStarted: Int { lock.withLock { taken } }

    /// An engine for one worker's exclusive use, seeing the fonts `main` has loaded.
    static func take(like main: LayoutEngine) -> LayoutEngine {
        let engine = lock.withLock {
            taken += 1
            return idle.popLast()
        } ?? LayoutEngine()
        engine.lineBreaking = main.lineBreaking
        if engine.fontGeneration != main.fontGeneration {
            engine.reloadFonts()
            engine.fontGeneration = main.fontGeneration
        }
        return engine
    }

    static func give(back engine: LayoutEngine) { lock.withLock { idle.append(engine) } }
}

/// Paragraph layouts made ahead on worker threads for one pagination pass.
///
/// `@unchecked Sendable`: shared between the paginating thread and the workers; every field below `condition`
/// is read and written only while holding it. Each worker uses its own engine and image cache.
final class ParagraphPrefetch: @unchecked Sendable {
    /// What a thread made of a paragraph for the paginator.
    enum Made {
        case layout(ParagraphLayout)
        /// Line breaks only: to lay out on the paginating thread, reporting the worker's `warnings` (made before
        /// shaping: missing glyphs are the paginating thread's to find).
        case plan(PlannedLines, warnings: [Diagnostic])
        /// To lay out again on the paginating thread, reporting the worker's `warnings`.
        case handBack(warnings: [Diagnostic])
    }

    private enum Slot {
        case working
        case done(Made?, width: Double)
        /// Taken by the paginator (laid out there, or handed over).
        case taken

        var isWorking: Bool { if case .working = self { true } else { false } }
    }

    /// Paragraphs the workers may lay out: block index and paragraph, in document order.
    private var work: [WorkItem]
    private var position: [Int: Int]
    /// False while lowering still adds paragraphs (`LayoutFeed`): a worker out of work waits for more.
    private var complete = true
    /// Work from this index on is not started (`adopt` is replacing it).
    private var limit = Int.max
    /// At `adopt`: paragraphs fed that matched the final document, and of those, the ones a worker had taken
    /// on already (`LayoutFeed`; counted for tests).
    private(set) var matched = 0
    private(set) var laidOutEarly = 0
    private let cache: ParagraphCache?
    private let condition = NSCondition()
    private var slots: [Int: Slot] = [:]
    /// Taken slots removed (behind the cursor): still counted by `made`.
    private var dropped = 0
    private var cursor = 0
    /// The paginator's position in `work`, and the width it last asked for.
    private var reached = 0
    private var width: Double
    private var stopped = false
    private var running = 0
    /// Paragraphs laid out ahead at most: bounds memory and wasted work after a width change.
    static let lookahead = 64
    /// Text to share (UTF-8 bytes of the shared paragraphs) below which no worker starts: a worker's thread and
    /// font setup cost more than it saves on a page or two (issue 14, start-up). About two pages of two columns.
    static let minimumText = 8_000
    /// Set while the workers wait for enough text (`startEmpty`): how many, and the engine they copy.
    private var pending: (jobs: Int, engine: () -> LayoutEngine)?
    /// UTF-8 bytes of the paragraphs `add` has taken.
    private var textFed = 0

    /// Starts `jobs - 1` workers over the document's paragraphs (nil when there is nothing to share).
    static func start(_ document: TypesetDocument, width: Double, engine: LayoutEngine) -> ParagraphPrefetch? {
        guard engine.jobs > 1 else { return nil }
        let work = workList(document)
        guard work.count > 1, worthSharing(work) else { return nil }
        let prefetch = ParagraphPrefetch(work: work, width: width, cache: engine.paragraphCache)
        prefetch.startWorkers(jobs: engine.jobs, like: engine)
        return prefetch
    }

    /// Takes paragraphs before the document is lowered (`add`, LayoutFeed.swift); its `jobs - 1` workers start
    /// once `minimumText` has come in (or at `adopt`, if the document has that much).
    static func startEmpty(width: Double, jobs: Int, engine: @escaping () -> LayoutEngine) -> ParagraphPrefetch? {
        guard jobs > 1 else { return nil }
        let prefetch = ParagraphPrefetch(work: [], width: width, cache: nil)
        prefetch.complete = false
        prefetch.pending = (jobs, engine)
        return prefetch
    }

    static func worthSharing(_ work: [WorkItem]) -> Bool {
        var text = 0
        for item in work {
            text += item.paragraph.text.utf8.count
            if text >= minimumText { return true }
        }
        return false
    }

    /// Starts the workers `startEmpty` put off. Called holding `condition` (or before anyone else sees `self`).
    private func startPending() {
        guard let (jobs, engine) = pending.take() else { return }
        startWorkers(jobs: jobs, like: engine())
    }

    private func startWorkers(jobs: Int, like engine: LayoutEngine) {
        let prefetch = self
        for _ in 1..<min(jobs, 64) {
            prefetch.running += 1
            let workerEngine = WorkerEngines.take(like: engine)
            let thread = Thread { prefetch.runWorker(engine: workerEngine) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// A paragraph lowering has just made (block `block` of the document), for the workers.
    func add(block: Int, paragraph: AttributedParagraph) {
        guard ParagraphPrefetch.isShared(paragraph) else { return }
        condition.lock()
        defer { condition.unlock() }
        guard !complete else { return }
        position[block] = work.count
        work.append(WorkItem(block: block, held: .paragraph(paragraph)))
        textFed += paragraph.text.utf8.count
        if textFed >= ParagraphPrefetch.minimumText { startPending() }
        condition.broadcast()
    }

    /// Takes the lowered `document` as the whole work list, at the paginator's `width`. Layouts made ahead are
    /// kept only up to the first paragraph that differs from the document's (lowering may change a block after
    /// handing it over); the rest are dropped, so the pages are the same as without the early start.
    func adopt(_ document: TypesetDocument, width: Double) {
        let fresh = ParagraphPrefetch.workList(document)
        condition.lock()
        defer { condition.unlock() }
        // By position in the work list, not block number: a `@toc` inserts its entries (not shared paragraphs)
        // before the paragraphs fed, which moves their block numbers only.
        var same = 0
        while same < min(work.count, fresh.count), work[same].paragraph == fresh[same].paragraph { same += 1 }
        limit = same
        while slots.contains(where: { k, slot in k >= same && slot.isWorking }) { condition.wait() }
        for k in Array(slots.keys) where k >= same { slots[k] = nil }
        matched = same
        laidOutEarly = slots.count
        work = fresh
        position = [:]
        for (k, item) in fresh.enumerated() { position[item.block] = k }
        cursor = min(cursor, same)
        limit = .max
        complete = true
        self.width = width
        if pending != nil, ParagraphPrefetch.worthSharing(work) { startPending() }
        pending = nil
        condition.broadcast()
    }

    /// Paragraphs laid out so far (done, not yet taken by the paginator, or taken).
    var made: Int {
        condition.lock()
        defer { condition.unlock() }
        return slots.values.filter { !$0.isWorking }.count + dropped
    }

    static func workList(_ document: TypesetDocument) -> [WorkItem] {
        var work: [WorkItem] = []
        for (i, block) in document.blocks.enumerated() {
            if case .paragraph(let p) = block, isShared(p) { work.append(WorkItem(block: i, held: block)) }
        }
        return work
    }

    /// A paragraph of the work list, as the document's block (one reference to the IR's: an inline paragraph
    /// per item made the list some 300 bytes a paragraph, 1.2 MB at 350,000 words).
    struct WorkItem {
        let block: Int
        var held: LayoutBlock
        var paragraph: AttributedParagraph {
            if case .paragraph(let p) = held { return p }
            return ParagraphPrefetch.released
        }
    }

    /// Paragraphs a worker can measure and break exactly as the paginator would: no page numbers filled in
    /// later, no inline images (the image cache is the paginator's).
    static func isShared(_ p: AttributedParagraph) -> Bool {
        p.pageReferences.isEmpty && p.attachments.isEmpty && !p.text.isEmpty
    }

    /// Shared paragraphs whose layout a worker may hand over whole: none with runs whose drawing reads glyph
    /// extents or metrics from the font (underline, strike, renderer effects; their lines' extents are not
    /// cached, as justification changed them): a worker's fonts fill those caches while it shapes, and the
    /// drawing thread must not read them meanwhile. Backgrounds are measured with the lines, on the thread
    /// that lays them out (LineBackgrounds.swift).
    static func isCandidate(_ p: AttributedParagraph) -> Bool {
        isShared(p) && !p.runs.contains { run in
            let a = run.attributes
            return a.underline != .none || a.strike != .none || a.hasRenderEffects
        }
    }

    private init(work: [WorkItem], width: Double, cache: ParagraphCache?) {
        self.work = work
        self.width = width
        self.cache = cache
        var position: [Int: Int] = [:]
        for (k, item) in work.enumerated() { position[item.block] = k }
        self.position = position
    }

    /// What a thread made of block `block` at `width`; nil: lay it out yourself. While a worker is still on
    /// it, the caller lays out the next paragraph nobody has taken (with `engine`), so every thread shapes.
    func take(block: Int, width: Double, engine: LayoutEngine, images: ImageCache) -> Made? {
        guard let k = position[block] else { return nil }
        condition.lock()
        defer { condition.unlock() }
        self.width = width
        if k > reached {
            reached = k
            condition.broadcast()
        }
        while true {
            switch slots[k] {
            case nil:
                taken(k)
                return nil
            case .working:
                guard let j = nextFree() else {
                    condition.wait()
                    continue
                }
                layOut(j, engine: engine, images: images, onWorker: false)
            case .done(let made, let madeAt):
                taken(k)
                return madeAt == width ? made : nil
            case .taken:
                return nil
            }
        }
    }

    /// Paragraph `k` is the paginator's now: no worker needs its text again. Behind the workers' cursor its slot
    /// goes too (a slot left behind is never looked at again), so neither grows with the document.
    /// Called holding `condition`.
    private func taken(_ k: Int) {
        if k < cursor {
            slots[k] = nil
            dropped += 1  // `made` counts it as it counted `.taken`
        } else {
            slots[k] = .taken
        }
        work[k].held = .pageBreak
    }

    private static let released = AttributedParagraph(text: "", runs: [], style: ParagraphStyle())

    /// Stops the workers and waits for them (their engines go back to the pool). Drops the paragraphs and the
    /// layouts nobody took: whoever still holds this object (LayoutFeed) must not keep the IR alive after
    /// pagination, when the tagging stage's memory peaks.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        work = []
        position = [:]
        slots = [:]
        condition.unlock()
    }

    private func runWorker(engine: LayoutEngine) {
        let images = ImageCache()
        let releaser = LayoutReleaser()  // the worker's layouts are freed here (see LayoutReleaser)
        engine.releaser = releaser
        condition.lock()
        while !stopped {
            guard let k = nextFree() else {
                if cursor >= work.count && complete { break }
                condition.wait()
                continue
            }
            layOut(k, engine: engine, images: images, onWorker: true)
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
        engine.releaser = nil
        releaser.close()
        WorkerEngines.give(back: engine)
    }

    /// The first paragraph after the paginator's position that nobody has taken, inside the look-ahead.
    /// Called holding `condition`.
    private func nextFree() -> Int? {
        cursor = max(cursor, reached)
        while cursor < work.count, let slot = slots[cursor] {
            if case .taken = slot {  // behind the cursor from now on
                slots[cursor] = nil
                dropped += 1
            }
            cursor += 1
        }
        guard cursor < min(work.count, limit), cursor <= reached + ParagraphPrefetch.lookahead else { return nil }
        return cursor
    }

    /// Lays out paragraph `k` of the work list at the current width. Called holding `condition`, which it
    /// releases while Pango works.
    private func layOut(_ k: Int, engine: LayoutEngine, images: ImageCache, onWorker: Bool) {
        let w = width
        let paragraph = work[k].paragraph  // read holding the lock: `add` and `adopt` change the list
        slots[k] = .working
        condition.unlock()
        if onWorker { engine.releaser?.drain() }
        let made = ParagraphPrefetch.make(paragraph, width: w, engine: engine, images: images,
                                          cache: cache, onWorker: onWorker)
        condition.lock()
        slots[k] = .done(made, width: w)
        condition.broadcast()
    }

    /// A layout in one piece, as the paginator's, or on a worker only its line breaks (see `isCandidate`); nil
    /// for a long paragraph (laid out in pieces as it is placed) and for one the cache already holds.
    private static func make(_ p: AttributedParagraph, width: Double, engine: LayoutEngine, images: ImageCache,
                             cache: ParagraphCache?, onWorker: Bool) -> Made? {
        if let cache, cache.contains(ParagraphKey(p, width: width, maxSpaceFactor: .infinity,
                                                  lineBreaking: engine.lineBreaking)) { return nil }
        guard !ParagraphLayout.needsPieces(p, columnWidth: width) else { return nil }
        var ignored: [Diagnostic] = []  // kept in the layout's `warnings` too; the paginator reports those
        guard !onWorker || isCandidate(p) else {
            // Only the total-fit breaker's plans can be handed over: nothing to do ahead for other paragraphs.
            guard ParagraphLayout.usesTotalFit(p.style, hasTab: false, engine: engine) else { return nil }
            engine.plansOnly = true
            defer {
                engine.plansOnly = false
                engine.recordedLines = nil
            }
            // Thrown away when planned (its text emptied); laid out in full when not broken by the total-fit breaker.
            let layout = ParagraphLayout(single: p, columnWidth: width, engine: engine, images: images,
                                         diagnostics: &ignored)
            return engine.recordedLines.map { .plan($0, warnings: layout.warnings) }
                ?? .handBack(warnings: layout.warnings)
        }
        let layout = ParagraphLayout(single: p, columnWidth: width, engine: engine, images: images,
                                     diagnostics: &ignored)
        // A character without a glyph is drawn as a hex box from data Pango makes lazily in the font that
        // shaped it; the drawing thread must not touch a worker's fonts for it: laid out again there.
        if onWorker && layout.warnings.contains(where: UnknownGlyphs.isUnknownGlyph) {
            return .handBack(warnings: layout.warnings)
        }
        return .layout(layout)
    }
}
