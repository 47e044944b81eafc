// `--jobs`: a long paragraph's pieces (ParagraphPieces.swift) laid out in order on a worker thread ahead of the
// paginator, which places, draws and shows pages meanwhile. The worker builds exactly the pieces the paginating
// thread would (a piece depends only on where it starts, and each starts where the one before kept its last
// line), with an engine of its own; the paginator takes them in order. Only paragraphs whose layouts a worker
// may hand over whole (`ParagraphPrefetch.isCandidate`) are shared: the worker's layouts are the ones drawn.

import Foundation
import RTSyntax
import TypesetIR

/// Pieces of one paragraph built ahead on a worker thread.
///
/// `@unchecked Sendable`: the fields below `condition` are read and written only while holding it; `builder`
/// is the worker's alone.
final class PiecePipeline: @unchecked Sendable {
    /// Text of the pieces built and not yet taken, at most (and at least two pieces): their Pango layouts cost
    /// some 50 bytes per byte of text.
    static let aheadBytes = 64 * 1024

    private let builder: PieceBuilder
    private let total: Int
    private let condition = NSCondition()
    private var ready: [BuiltPiece] = []
    private var readyBytes = 0
    private var stopped = false
    private var running = true

    /// Starts a worker that builds the pieces of `builder`'s paragraph from `offset` on, with an engine like
    /// `engine` (taken on this thread: it reads `engine`).
    static func start(_ builder: PieceBuilder, from offset: Int, like engine: LayoutEngine) -> PiecePipeline {
        let workerEngine = WorkerEngines.take(like: engine)
        let pipeline = PiecePipeline(builder.copy(engine: workerEngine, images: ImageCache()))
        let thread = Thread { pipeline.run(from: offset) }
        thread.stackSize = 8 << 20
        thread.start()
        return pipeline
    }

    private init(_ builder: PieceBuilder) {
        self.builder = builder
        total = builder.bytes.count
    }

    /// The next piece, which starts at `offset`, once the worker has built it; nil when the worker stopped.
    func next(from offset: Int) -> BuiltPiece? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && running && !stopped { condition.wait() }
        guard !ready.isEmpty, ready[0].start == offset else { return nil }
        let piece = ready.removeFirst()
        readyBytes -= piece.next - piece.start
        condition.broadcast()
        return piece
    }

    /// Stops the worker after the piece it is building and drops the pieces not taken.
    func stop() {
        condition.lock()
        stopped = true
        ready = []
        condition.broadcast()
        condition.unlock()
    }

    private func run(from start: Int) {
        var offset = start
        var ignored: [Diagnostic] = []  // a paragraph's problems are reported with its first piece
        while offset < total {
            condition.lock()
            while !stopped && ready.count >= 2 && readyBytes >= PiecePipeline.aheadBytes { condition.wait() }
            let stop = stopped
            condition.unlock()
            if stop { break }
            var piece = builder.build(from: offset, diagnostics: &ignored)
            ignored = []
            piece.onWorker = true
            if piece.layout?.warnings.contains(where: UnknownGlyphs.isUnknownGlyph) == true { piece.layout = nil }
            offset = piece.next
            condition.lock()
            if !stopped {
                readyBytes += piece.next - piece.start
                ready.append(piece)
                condition.broadcast()
            }
            condition.unlock()
        }
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
        WorkerEngines.give(back: builder.engine)
    }
}
