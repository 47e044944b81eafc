// Long paragraphs are laid out in pieces of bounded size. Pango keeps positions and widths in int Pango
// units (1/1024 pt): a paragraph measured as one line (what total-fit breaking does) or stacked as one
// layout overflows past about 2.1 million points (some 72,000 words at 10pt, or 1,800 words at 1000pt), and
// the text after that was lost. Pango's breaking of an overlong word also costs time quadratic in its item.
//
// Each piece is laid out alone; all its lines but the last are kept, and the next piece starts where that
// last line started, so every kept line was broken exactly as in a layout of the whole text from that
// point (the last line of a cut piece would change). The pieces' lines make the paragraph's lines.

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR

/// Work counters for tests of complexity (no wall clock): text bytes handed to Pango layouts, and the
/// largest single layout, and Pango layouts made for paragraphs (a cache test counts them). Worker threads
/// (`--jobs`) lay out too: the counters have their own lock.
public enum LayoutWork {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var bytes = 0  // guarded by `lock`
    nonisolated(unsafe) private static var largest = 0  // guarded by `lock`
    nonisolated(unsafe) private static var paragraphs = 0  // guarded by `lock`
    nonisolated(unsafe) private static var fromPlans = 0  // guarded by `lock`
    nonisolated(unsafe) private static var fromWorkers = 0  // guarded by `lock`
    nonisolated(unsafe) private static var guessed = 0  // guarded by `lock`
    nonisolated(unsafe) private static var lines = 0  // guarded by `lock`

    public static var bytesLaidOut: Int {
        get { lock.withLock { bytes } }
        set { lock.withLock { bytes = newValue } }
    }
    public static var largestLayout: Int {
        get { lock.withLock { largest } }
        set { lock.withLock { largest = newValue } }
    }
    public static var paragraphsLaidOut: Int {
        get { lock.withLock { paragraphs } }
        set { lock.withLock { paragraphs = newValue } }
    }

    /// Paragraphs laid out from line breaks a worker planned (`--jobs`; for tests: count, don't time).
    public static var paragraphsFromPlans: Int {
        get { lock.withLock { fromPlans } }
        set { lock.withLock { fromPlans = newValue } }
    }

    static func countFromPlan() { lock.withLock { fromPlans += 1 } }

    /// Pieces of long paragraphs a worker laid out ahead of the paginator and the paginator took (PiecePipeline).
    public static var piecesFromWorkers: Int {
        get { lock.withLock { fromWorkers } }
        set { lock.withLock { fromWorkers = newValue } }
    }

    static func countPieceFromWorker() { lock.withLock { fromWorkers += 1 } }

    /// Pieces taken from a stretch laid out from a guessed line start (PieceSpeculation).
    public static var piecesGuessed: Int {
        get { lock.withLock { guessed } }
        set { lock.withLock { guessed = newValue } }
    }

    static func countPiecesGuessed(_ n: Int) { lock.withLock { guessed += n } }

    /// Lines of all the single Pango layouts made: Pango shapes the rest of a layout again for each line it
    /// breaks off, so lines made and not placed are the work a test can count.
    public static var linesLaidOut: Int {
        get { lock.withLock { lines } }
        set { lock.withLock { lines = newValue } }
    }

    static func countLines(_ n: Int) { lock.withLock { lines += n } }

    static func count(_ bytes: Int, paragraphs: Int = 0) {
        lock.withLock {
            self.bytes += bytes
            largest = max(largest, bytes)
            self.paragraphs += paragraphs
        }
    }
}

extension ParagraphLayout {
    /// Lays out `paragraph` for a column `columnWidth` points wide: in one Pango layout, or in pieces when
    /// it is long (see above). `ahead`: the paginator places it next; with `--jobs` a worker may lay out its
    /// pieces ahead (PiecePipeline.swift).
    public convenience init(_ paragraph: AttributedParagraph, columnWidth: Double, engine: LayoutEngine,
                            images: ImageCache, diagnostics: inout [Diagnostic], maxSpaceFactor: Double = .infinity,
                            ahead: Bool = false) {
        let budget = ParagraphLayout.pieceBudget(paragraph, columnWidth: columnWidth)
        guard ParagraphLayout.needsPieces(paragraph, columnWidth: columnWidth) else {
            self.init(single: paragraph, columnWidth: columnWidth, engine: engine, images: images,
                      diagnostics: &diagnostics, maxSpaceFactor: maxSpaceFactor)
            return
        }
        let set = PieceSet(paragraph, budget: budget, columnWidth: columnWidth, engine: engine, images: images)
        // The first piece now (its indent is the paragraph's left edge; it reports missing hyphenation
        // patterns), the others as the paginator reaches them. Images that cannot be read are reported now.
        set.buildNext(diagnostics: &diagnostics)
        if ahead && engine.jobs > 1 && ParagraphPrefetch.isCandidate(paragraph) { set.buildAhead() }
        for attachment in paragraph.attachments {
            if case .failure(let error) = images.image(for: attachment.image, engine: engine) {
                diagnostics.append(.error(error.description, at: attachment.image.location))
            }
        }
        self.init(paragraph: paragraph, pieces: set, left: set.left, warnings: [])
    }

    /// Whether `paragraph` is laid out in pieces at this width (see above).
    static func needsPieces(_ paragraph: AttributedParagraph, columnWidth: Double) -> Bool {
        let budget = ParagraphLayout.pieceBudget(paragraph, columnWidth: columnWidth)
        let length = paragraph.text.utf8.count
        return (length > budget + budget / 2 || ParagraphLayout.hasLongWord(paragraph.text))
            && (paragraph.style.maxLines ?? 0) <= 0
    }

    /// The piece holding line `index` and the line's index in it (self and `index` for a single layout).
    func piece(ofLine index: Int) -> (ParagraphLayout, Int) {
        guard let pieceSet else { return (self, index) }
        return pieceSet.piece(ofLine: index)
    }

    /// Bytes of text per piece: about `pieceLines` lines, and small enough that a piece's widths and heights
    /// stay far inside Pango's int (even at one character per line, or one line of the largest font).
    /// Pango shapes the rest of an item again for each line it breaks off, so a layout costs time quadratic
    /// in its lines: short pieces are faster, while each piece lays out one line twice.
    static func pieceBudget(_ paragraph: AttributedParagraph, columnWidth: Double) -> Int {
        var size = paragraph.runs.isEmpty ? 10 : 0.0
        for run in paragraph.runs { size = max(size, run.attributes.fontSize) }
        guard size.isFinite, size > 0 else { return maxPieceBytes }
        let perLine = max(columnWidth, 1) / (0.5 * size)  // characters of a line, about
        let lines = Double(pieceLines) * perLine, overflow = 400_000 / size
        return Int(max(min(max(lines, Double(pieceLines) * 2), overflow, Double(maxPieceBytes)), 16))
    }

    /// Measured on 1 MB of body text and on 16 narrow columns: 32 to 128 cost the same, 8 or 16 up to 2x more.
    static let pieceLines = 32
    static let maxPieceBytes = 16 * 1024
    /// Bytes per piece of text without spaces. Pango shapes the rest of a word again for each line it breaks
    /// the word into, so a word costs time quadratic in its length within one layout: keep such pieces short.
    static let wordPieceBytes = 2048
    /// Lines per piece of a long word: each piece lays its last line out again for the next, while Pango's
    /// work per line grows with the rest of the piece (`a` x 100,000: 1.7 times fewer instructions in layout
    /// than pieces of 2 KB).
    static let wordPieceLines = 4.0

    /// Bytes per piece of a long word at this width: about `wordPieceLines` lines, at most `wordPieceBytes`.
    static func wordPieceBudget(_ paragraph: AttributedParagraph, columnWidth: Double) -> Int {
        var size = paragraph.runs.isEmpty ? 10 : 0.0
        for run in paragraph.runs { size = max(size, run.attributes.fontSize) }
        guard size.isFinite, size > 0 else { return wordPieceBytes }
        let perLine = max(columnWidth, 1) / (0.5 * size)
        return Int(min(max(wordPieceLines * perLine, 64), Double(wordPieceBytes)))
    }

    /// Whether the text has a run without spaces longer than `wordPieceBytes`.
    static func hasLongWord(_ text: String) -> Bool {
        guard text.utf8.count > wordPieceBytes else { return false }
        var run = 0
        for b in text.utf8 {
            run = b == 0x20 ? 0 : run + 1
            if run > wordPieceBytes { return true }
        }
        return false
    }

    /// Where the piece from `offset` ends: at the first space past `budget` bytes (or the end of the text),
    /// but before a word longer than `wordBudget`, which gets pieces of its own cut at character boundaries;
    /// when less than `textBefore` bytes come before that word, inside it (a piece of one line ending before a
    /// long word kept that line whole: short and unjustified, and the word's first line began with the space).
    static func pieceEnd(_ bytes: [UInt8], from offset: Int, budget: Int, wordBudget: Int = wordPieceBytes,
                         textBefore: Int = 0) -> Int {
        let whole = bytes.count - offset <= budget + budget / 2
        var run = 0, lastSpace = -1, k = offset
        while k < bytes.count {
            if bytes[k] == 0x20 {
                if !whole && k >= offset + budget { return k }
                run = 0
                lastSpace = k
            } else {
                run += 1
                if run > wordBudget {
                    if lastSpace > offset + textBefore { return lastSpace }  // end before the long word
                    var end = offset + min(budget, wordBudget)
                    while end > offset + 1 && !startsCluster(bytes, at: end) { end -= 1 }
                    return end
                }
            }
            k += 1
        }
        return bytes.count
    }

    /// Whether a character starts at `i` that is not a combining mark or joiner (a safe place to cut).
    static func startsCluster(_ bytes: [UInt8], at i: Int) -> Bool {
        let b = bytes[i]
        if b < 0x80 { return true }
        if b & 0xC0 == 0x80 { return false }
        var decoder = UTF8()
        var iterator = bytes[i...].makeIterator()
        guard case .scalarValue(let s) = decoder.decode(&iterator) else { return true }
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: return false
        default: return !(0xFE00...0xFE0F).contains(s.value) && !(0x1F3FB...0x1F3FF).contains(s.value)
        }
    }

    /// The whole paragraph's base direction, for its parts laid out apart (`BaseDirection`): Pango's, from the
    /// first strong letter; `.auto` when it has none, or has paragraph separators (Pango gives each its own).
    static func baseDirection(of paragraph: AttributedParagraph) -> BaseDirection {
        if paragraph.style.baseDirection != .auto { return paragraph.style.baseDirection }
        var text = paragraph.text
        return text.withUTF8 { buffer -> BaseDirection in
            for (k, b) in buffer.enumerated() where b == 0x0A || b == 0x0D
                || (b == 0xE2 && k + 2 < buffer.count && buffer[k + 1] == 0x80 && buffer[k + 2] == 0xA9) {
                return .auto
            }
            let found = buffer.withMemoryRebound(to: CChar.self) {
                pango_find_base_dir($0.baseAddress, Int32(clamping: $0.count))
            }
            return found == PANGO_DIRECTION_RTL ? .rightToLeft : found == PANGO_DIRECTION_LTR ? .leftToRight : .auto
        }
    }

    /// The part `range` of `paragraph` as a paragraph of its own (runs and inline images moved along).
    /// A part after the first continues the paragraph: its first line is not indented as a first line.
    static func slice(_ paragraph: AttributedParagraph, bytes: [UInt8], _ range: Range<Int>) -> AttributedParagraph {
        var q = paragraph
        q.text = String(decoding: bytes[range], as: UTF8.self)
        q.runs = []
        var k = paragraph.runs.firstIndex(endingAfter: range.lowerBound) { $0.range.upperBound }
        while k < paragraph.runs.count && paragraph.runs[k].range.lowerBound < range.upperBound {
            // The run moved along keeps its shared attributes (no copy, no look-up in the shared table).
            var run = paragraph.runs[k]
            let r = run.range
            run.range = (max(r.lowerBound, range.lowerBound) - range.lowerBound)
                ..< (min(r.upperBound, range.upperBound) - range.lowerBound)
            q.runs.append(run)
            k += 1
        }
        q.attachments = paragraph.attachments.filter { range.contains($0.offset) }.map {
            TextAttachment(offset: $0.offset - range.lowerBound, image: $0.image)
        }
        q.anchors = []
        q.outline = nil
        if range.lowerBound > 0 { q.style.firstLineHeadIndent = q.style.headIndent }
        return q
    }
}

/// The pieces of a long paragraph, laid out in order as the paginator asks for lines, so a paragraph of any
/// length is laid out once while only its last few pieces' Pango layouts (some 50 bytes per byte of text) and
/// the line boxes of its last pieces (80 bytes a line: 3 million lines in 16 narrow columns) are kept. A piece
/// whose layout or boxes were dropped is laid out again, the same way, when a line of it is wanted again.
/// With `--jobs` a worker may build the pieces ahead (PiecePipeline.swift); they are taken in the same order.
final class PieceSet {
    static let keptPieces = 4
    /// Text whose layouts are kept beyond `keptPieces`: the pieces of a column the paginator looked ahead
    /// through are placed next (short pieces of a long word are many to a column; laying them out again
    /// doubled the work).
    static let keptLayoutBytes = 64 * 1024
    /// Pieces whose line boxes are kept: some 8,000 lines, more than a page of any column set holds (a band
    /// being balanced is placed again from its top).
    static let keptBoxPieces = 256

    private let builder: PieceBuilder
    private var pipeline: PiecePipeline?
    /// Pieces laid out from a guessed line start while waiting for the worker (PieceSpeculation.swift), and the
    /// ones taken from it, next in line.
    private var speculation: PieceSpeculation?
    private var adopted: [BuiltPiece] = []
    private lazy var speculates = PieceSpeculation.allowed(builder.paragraph, bytes: builder.bytes, engine: builder.engine)
        && !PieceSpeculation.mayBreakInsideWords(builder.paragraph, bytes: builder.bytes, columnWidth: builder.columnWidth)
    /// Per piece: where its text ends (its slice is made again when its layout is).
    private var ends: [Int] = []
    /// Per piece: planned line starts of an unbreakable stretch (UnbreakableText), in the piece's offsets.
    private var breaks: [[Int]] = []
    /// Per piece: where its text starts and where the next piece starts, its first line, its line boxes.
    private var starts: [Int] = [], nexts: [Int] = []
    private var firstLines: [Int] = []
    /// Per piece: lines of its layout before its first (a piece taken from a guessed stretch from a later line).
    private var skips: [Int] = []
    private var boxes: [[LineBox]?] = []
    private var layouts: [ParagraphLayout?] = []
    private var recent: [Int] = []
    private var recentBytes = 0
    /// Where the next piece starts in the paragraph's text.
    private var offset = 0
    private(set) var lineCount = 0
    private(set) var images: [LineImage] = []
    private(set) var left = 0.0

    init(_ paragraph: AttributedParagraph, budget: Int, columnWidth: Double, engine: LayoutEngine, images: ImageCache) {
        builder = PieceBuilder(paragraph, bytes: Array(paragraph.text.utf8), budget: budget, columnWidth: columnWidth,
                               engine: engine, images: images)
    }

    deinit { pipeline?.stop() }

    var isComplete: Bool { offset >= builder.bytes.count }

    /// Has a worker build the pieces not laid out yet, ahead of the paginator (see PiecePipeline.swift).
    func buildAhead() {
        guard !isComplete, pipeline == nil else { return }
        pipeline = PiecePipeline.start(builder, from: offset, like: builder.engine)
    }

    /// Lays out pieces until line `i` exists or the text ends; whether line `i` exists.
    func build(through i: Int) -> Bool {
        var ignored: [Diagnostic] = []  // the paragraph's own problems are reported when it is created
        while i >= lineCount && !isComplete { buildNext(diagnostics: &ignored) }
        return i < lineCount
    }

    func line(_ i: Int) -> LineBox {
        _ = build(through: i)
        let k = pieceIndex(ofLine: i)
        return lineBoxes(k)[i - firstLines[k]]
    }

    /// Every line, kept once asked for (flowing around shapes reads them over and over).
    func allLines() -> [LineBox] {
        if let all = complete { return all }
        _ = build(through: Int.max - 1)
        let all = boxes.indices.flatMap { lineBoxes($0) }
        complete = all
        return all
    }
    private var complete: [LineBox]?

    /// Adds the next piece: one taken from a guessed stretch, the worker's when it built one, else laid out here.
    func buildNext(diagnostics: inout [Diagnostic]) {
        guard !isComplete else { return }
        if !adopted.isEmpty {
            append(adopted.removeFirst())
            return
        }
        guard let ahead = fromWorker() else {
            dropPipeline()
            append(builder.build(from: offset, diagnostics: &diagnostics))
            return
        }
        var piece = ahead
        if ahead.layout == nil {  // a glyph is missing: laid out again with this thread's fonts
            var ignored: [Diagnostic] = []
            piece = builder.build(from: offset, diagnostics: &ignored)
            if piece.next != ahead.next { dropPipeline() }  // never expected; this thread's pieces are the truth
        } else {
            LayoutWork.countPieceFromWorker()
        }
        let met = speculation.flatMap { PieceSet.meet(&piece, $0) }
        append(piece)
        afterMeeting(met)
    }

    /// The worker's next piece; while it is not built, this thread lays out a guessed stretch.
    private func fromWorker() -> BuiltPiece? {
        guard let pipeline else { return nil }
        while true {
            switch pipeline.poll(from: offset) {
            case .piece(let piece): return piece
            case .idle: return nil
            case .building: if !speculate(pipeline) { return pipeline.next(from: offset) }
            }
        }
    }

    /// Lays out one more piece of a guessed stretch; false when there is none to lay out.
    private func speculate(_ pipeline: PiecePipeline) -> Bool {
        guard speculates else { return false }
        if speculation == nil {
            guard let k = boxes.indices.last, let lines = boxes[k],
                  let start = PieceSpeculation.guess(builder.bytes, from: pipeline.progress, lastLines: lines,
                                                     next: nexts[k]),
                  pipeline.pause(at: start) else { return false }
            speculation = PieceSpeculation(start: start)
        }
        guard let speculation, speculation.bytes < PieceSpeculation.maxBytes,
              speculation.end < builder.bytes.count else { return false }
        speculation.grow(builder)
        return true
    }

    /// The guessed stretch's pieces from the first line start of `piece` (after its first line) or its end that
    /// is a line start of the stretch; `piece` then ends there. Nil when the true lines do not meet the stretch.
    private static func meet(_ piece: inout BuiltPiece, _ speculation: PieceSpeculation) -> [BuiltPiece]? {
        guard piece.next >= speculation.start else { return nil }
        for r in 1...piece.boxes.count {
            let at = r < piece.boxes.count ? piece.boxes[r].startIndex : piece.next
            guard at >= speculation.start, let taken = speculation.adopt(at: at) else { continue }
            if r < piece.boxes.count {
                piece.kept = r
                piece.boxes.removeLast(piece.boxes.count - r)
                piece.images = piece.images.filter { $0.line < r }
                piece.next = at
            }
            return taken
        }
        return nil
    }

    /// When the true lines met the guessed stretch, its pieces are next and the worker goes on after it; a
    /// stretch the true lines passed a few pieces into without meeting it is dropped.
    private func afterMeeting(_ met: [BuiltPiece]?) {
        guard let speculation, let pipeline else { return }
        if let met {
            adopted = met
            LayoutWork.countPiecesGuessed(met.count)
            self.speculation = nil
            if !pipeline.redirect(to: speculation.end) { dropPipeline() }
        } else if offset >= speculation.start {
            speculation.triesLeft -= 1
            if speculation.triesLeft > 0 && offset < speculation.end && pipeline.pause(at: offset + 1) { return }
            self.speculation = nil
            pipeline.resume()
        }
    }

    private func dropPipeline() {
        pipeline?.stop()
        pipeline = nil
        speculation = nil
    }

    private func append(_ piece: BuiltPiece) {
        if offset == 0 { left = piece.left }
        // The first piece's warnings went out with the paragraph; a character only a later piece has is
        // reported too (a worker's piece without a glyph was laid out again here, with its warnings).
        if offset > 0, let warnings = piece.layout?.warnings.filter(UnknownGlyphs.isUnknownGlyph), !warnings.isEmpty {
            builder.engine.pieceWarnings += warnings
        }
        for var image in piece.images {
            image.line += lineCount
            images.append(image)
        }
        ends.append(piece.end)
        breaks.append(piece.breaks)
        starts.append(piece.start)
        nexts.append(piece.next)
        firstLines.append(lineCount)
        skips.append(piece.skip)
        boxes.append(piece.boxes)
        layouts.append(nil)
        lineCount += piece.kept
        if let layout = piece.layout { remember(layout, at: layouts.count - 1) }
        if boxes.count > PieceSet.keptBoxPieces { boxes[boxes.count - 1 - PieceSet.keptBoxPieces] = nil }
        offset = piece.next
    }

    private func lineBoxes(_ k: Int) -> [LineBox] {
        if let kept = boxes[k] { return kept }
        let count = (k + 1 < firstLines.count ? firstLines[k + 1] : lineCount) - firstLines[k]
        let again = Array(PieceBuilder.boxes(of: layout(k), kept: skips[k] + count, from: starts[k], to: nexts[k])
            .dropFirst(skips[k]))
        boxes[k] = again
        return again
    }

    private func pieceIndex(ofLine index: Int) -> Int {
        var lo = 0, hi = firstLines.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if firstLines[mid] <= index { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    func piece(ofLine index: Int) -> (ParagraphLayout, Int) {
        _ = build(through: index)
        let k = pieceIndex(ofLine: index)
        let layout = layout(k)
        return (layout, min(index - firstLines[k] + skips[k], layout.lines.count - 1))
    }

    private func layout(_ k: Int) -> ParagraphLayout {
        if let layout = layouts[k] { return layout }
        var ignored: [Diagnostic] = []  // reported when the piece was first laid out
        let layout = builder.layout(builder.slice(starts[k]..<ends[k]), breaks: breaks[k], diagnostics: &ignored)
        remember(layout, at: k)
        return layout
    }

    private func remember(_ layout: ParagraphLayout, at k: Int) {
        layouts[k] = layout
        recent.append(k)
        recentBytes += nexts[k] - starts[k]
        while recent.count > PieceSet.keptPieces && recentBytes > PieceSet.keptLayoutBytes {
            let old = recent.removeFirst()
            layouts[old] = nil
            recentBytes -= nexts[old] - starts[old]
        }
    }
}
