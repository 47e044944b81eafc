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

    /// What the worker has for the paginator.
    enum Poll {
        case piece(BuiltPiece)
        /// Not yet: the worker is building it.
        case building
        /// Nothing will come without a word from the paginator (paused, or the worker stopped).
        case idle
    }

    private let builder: PieceBuilder
    private let total: Int
    private let condition = NSCondition()
    private var ready: [BuiltPiece] = []
    private var readyBytes = 0
    /// Where the worker's next piece starts; it starts none at `pauseAt` or later.
    private var position: Int
    private var pauseAt = Int.max
    /// Counts redirections: a piece built before the last one is dropped.
    private var generation = 0
    private var stopped = false
    private var running = true

    /// Starts a worker that builds the pieces of `builder`'s paragraph from `offset` on, with an engine like
    /// `engine` (taken on this thread: it reads `engine`).
    static func start(_ builder: PieceBuilder, from offset: Int, like engine: LayoutEngine) -> PiecePipeline {
        let workerEngine = WorkerEngines.take(like: engine)
        let pipeline = PiecePipeline(builder.copy(engine: workerEngine, images: ImageCache()), from: offset)
        let thread = Thread { pipeline.run() }
        thread.stackSize = 8 << 20
        thread.start()
        return pipeline
    }

    private init(_ builder: PieceBuilder, from offset: Int) {
        self.builder = builder
        total = builder.bytes.count
        position = offset
    }

    /// The next piece, which starts at `offset`, if the worker has built it.
    func poll(from offset: Int) -> Poll {
        condition.lock()
        defer { condition.unlock() }
        return pollLocked(from: offset)
    }

    /// The next piece, which starts at `offset`, once the worker has built it; nil when none will come.
    func next(from offset: Int) -> BuiltPiece? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch pollLocked(from: offset) {
            case .piece(let piece): return piece
            case .building: condition.wait()
            case .idle: return nil
            }
        }
    }

    private func pollLocked(from offset: Int) -> Poll {
        if let first = ready.first {
            guard first.start == offset else { return .idle }
            ready.removeFirst()
            readyBytes -= first.next - first.start
            condition.broadcast()
            return .piece(first)
        }
        return running && !stopped && position < pauseAt && position < total ? .building : .idle
    }

    /// Where the worker's next piece starts.
    var progress: Int { condition.withLock { position } }

    /// Has the worker start no piece at `offset` or later (false when it has passed it already).
    func pause(at offset: Int) -> Bool {
        condition.withLock {
            guard position < offset else { return false }
            pauseAt = offset
            condition.broadcast()  // a later pause lets the worker go on
            return true
        }
    }

    func resume() {
        condition.withLock {
            pauseAt = .max
            condition.broadcast()
        }
    }

    /// Drops the pieces not taken and has the worker go on from `offset` (false when it has stopped).
    func redirect(to offset: Int) -> Bool {
        condition.withLock {
            guard running && !stopped else { return false }
            ready = []
            readyBytes = 0
            position = offset
            pauseAt = .max
            generation += 1
            condition.broadcast()
            return true
        }
    }

    /// Stops the worker after the piece it is building and drops the pieces not taken.
    func stop() {
        condition.withLock {
            stopped = true
            ready = []
            condition.broadcast()
        }
    }

    private func run() {
        var ignored: [Diagnostic] = []  // a paragraph's problems are reported with its first piece
        let releaser = LayoutReleaser()
        builder.engine.releaser = releaser
        condition.lock()
        while !stopped && position < total {
            condition.unlock()
            releaser.drain()
            condition.lock()
            guard !stopped && position < total else { break }
            if position >= pauseAt || (ready.count >= 2 && readyBytes >= PiecePipeline.aheadBytes) {
                condition.wait()
                continue
            }
            let from = position, mine = generation
            condition.unlock()
            var piece = builder.build(from: from, diagnostics: &ignored)
            ignored = []
            piece.onWorker = true
            if piece.layout?.warnings.contains(where: UnknownGlyphs.isUnknownGlyph) == true { piece.layout = nil }
            condition.lock()
            if generation == mine && !stopped {
                position = piece.next
                readyBytes += piece.next - piece.start
                ready.append(piece)
                condition.broadcast()
            }
        }
        running = false
        condition.broadcast()
        condition.unlock()
        builder.engine.releaser = nil
        releaser.close()
        WorkerEngines.give(back: builder.engine)
    }
}
