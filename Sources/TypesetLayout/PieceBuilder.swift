// How one piece of a long paragraph is laid out (see ParagraphPieces.swift): where it ends, the planned line
// starts of unbreakable text in it, its Pango layout and the lines it keeps. A piece depends only on where it
// starts, so any thread with an engine of its own can build it (PiecePipeline.swift) and get the same piece.

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR

/// One piece laid out: text `start..<end` of the paragraph, keeping its lines up to `next` (where the next
/// piece starts).
struct BuiltPiece {
    /// Where the piece's text ends (past `next`): its slice is made again from the paragraph when its layout is
    /// (keeping every piece's slice kept a second copy of a long paragraph's runs: 25 MB for `*a* ` x 250,000).
    var end: Int
    /// Planned line starts of an unbreakable stretch (UnbreakableText), in the piece's offsets.
    var breaks: [Int]
    var start: Int
    var next: Int
    var kept: Int
    /// Nil: laid out on a worker with a glyph missing, to lay out again on the paginating thread (its hex boxes
    /// read the shaping font lazily while drawing).
    var layout: ParagraphLayout?
    /// The kept lines in the paragraph's offsets, and the inline images on them (lines of the piece).
    var boxes: [LineBox]
    var images: [LineImage]
    var left: Double
    var onWorker = false
    /// Lines of `layout` before the piece's first (taken from a guessed stretch from a later line).
    var skip = 0
}

/// Lays out the pieces of one paragraph with one engine (one thread's).
final class PieceBuilder {
    let paragraph: AttributedParagraph
    let bytes: [UInt8]
    let budget: Int
    let wordBudget: Int
    let columnWidth: Double
    let engine: LayoutEngine
    let imageCache: ImageCache
    /// The whole paragraph's TABs, which set every piece's lines (ParagraphLayout.TabFacts).
    let tabs: ParagraphLayout.TabFacts

    init(_ paragraph: AttributedParagraph, bytes: [UInt8], budget: Int, columnWidth: Double, engine: LayoutEngine,
         images: ImageCache) {
        self.paragraph = paragraph
        self.bytes = bytes
        tabs = bytes.withUnsafeBufferPointer { ParagraphLayout.TabFacts($0, style: paragraph.style) }
        self.budget = budget
        wordBudget = ParagraphLayout.wordPieceBudget(paragraph, columnWidth: columnWidth)
        self.columnWidth = columnWidth
        self.engine = engine
        imageCache = images
    }

    /// The same builder for another thread's engine (its lazily measured state is its own).
    func copy(engine: LayoutEngine, images: ImageCache) -> PieceBuilder {
        PieceBuilder(paragraph, bytes: bytes, budget: budget, columnWidth: columnWidth, engine: engine, images: images)
    }

    /// Lays out the piece from `offset` and keeps all its lines but the last (all of them when it ends the text
    /// or has only one line).
    func build(from offset: Int, diagnostics: inout [Diagnostic]) -> BuiltPiece {
        // Before a long word, a piece ends there only with some lines of text first (about two): its last line is
        // laid out again with the word's start in the next piece.
        var end = ParagraphLayout.pieceEnd(bytes, from: offset, budget: budget, wordBudget: wordBudget,
                                           textBefore: budget / (ParagraphLayout.pieceLines / 2))
        var lineBreaks: [Int] = [], plannedLines: [Int] = []
        if let planned = plannedEnd(from: offset, before: end) {
            end = planned.end
            lineBreaks = planned.breaks
            plannedLines = planned.lines
        }
        let piece = layout(slice(offset..<end), breaks: lineBreaks, diagnostics: &diagnostics)
        if !plannedLines.isEmpty { LayoutWork.countUnplanned(PieceBuilder.unplanned(piece, plannedLines)) }
        let pieceLines = piece.lines
        var kept = pieceLines.count
        var next = end
        if end < bytes.count && kept > 1 {
            let start = piece.sourceOffset(pieceLines[kept - 1].startIndex)
            if start > 0 {
                kept -= 1
                next = offset + start
            }
        }
        // A piece kept whole that ends at a space (before a long word): the space ends its last line, and the
        // next piece's first line starts after it.
        if next == end { while next < bytes.count && bytes[next] == 0x20 { next += 1 } }
        return BuiltPiece(end: end, breaks: lineBreaks, start: offset, next: next, kept: kept, layout: piece,
                          boxes: PieceBuilder.boxes(of: piece, kept: kept, from: offset, to: next),
                          images: piece.images.filter { $0.line < kept }, left: piece.left)
    }

    /// A piece's text and runs, in the whole paragraph's direction.
    func slice(_ range: Range<Int>) -> AttributedParagraph {
        var slice = ParagraphLayout.slice(paragraph, bytes: bytes, range)
        slice.style.baseDirection = direction
        return slice
    }

    /// The layout of a piece's text (again, when its layout was dropped: the same layout).
    func layout(_ slice: AttributedParagraph, breaks: [Int], diagnostics: inout [Diagnostic]) -> ParagraphLayout {
        ParagraphLayout(single: slice, columnWidth: columnWidth, engine: engine, images: imageCache,
                        diagnostics: &diagnostics, lineBreaks: breaks, wholeTabs: tabs)
    }

    /// Lines planned per piece of unbreakable text: as many as the measured window holds (a piece that ended
    /// before its window's end measured the rest again: 128 lines a piece cost a third more instructions).
    static let plannedLines = 1 << 20
    /// Text shaped past a stretch's known end, so the characters around that end see their context.
    static let windowMargin = 256
    /// Bytes shaped at once to plan an unbreakable stretch: far inside Pango's int even as one line.
    private var windowBytes: Int { min(ParagraphLayout.maxPieceBytes, max(Int(400_000 / max(fontSize, 1)), 64)) }
    /// The whole paragraph's direction, which each piece keeps.
    private lazy var direction = ParagraphLayout.baseDirection(of: paragraph)
    private lazy var fontSize: Double = paragraph.runs.map(\.attributes.fontSize).filter(\.isFinite).max() ?? 10
    private lazy var language = pango_language_from_string(paragraph.style.language)
    /// The hanging indent of wrapped code (ParagraphLayout sets it from the continuation mark's width).
    private lazy var markIndent: Double = {
        guard paragraph.style.wrap == .char else { return 0 }
        let mark = ParagraphLayout.markLayout(base: paragraph.runs.first?.attributes, engine: engine, images: imageCache)
        let size = FontKey(paragraph.runs.first?.attributes ?? CharacterAttributes()).size
        return mark.lines.first.map { $0.width + 0.3 * size } ?? 0
    }()

    /// Where the piece from `offset` ends when unbreakable text is near: before a stretch that starts later, or
    /// at the end of the planned lines of one that starts here (with the line starts that begin Pango items, and
    /// all the line starts); nil: at `end`.
    private func plannedEnd(from offset: Int, before end: Int) -> (end: Int, breaks: [Int], lines: [Int])? {
        let style = paragraph.style
        // Justified text is broken by the total-fit breaker (which breaks overlong words itself).
        guard style.wrap == .word || style.wrap == .char,
              !ParagraphLayout.usesTotalFit(style, hasTab: false, engine: engine) else { return nil }
        var scan = min(bytes.count, max(end, offset + wordBudget + 1))
        while scan < bytes.count && bytes[scan] & 0xC0 == 0x80 { scan -= 1 }  // whole characters only
        if let unplanned, unplanned.lowerBound <= offset, offset < unplanned.upperBound - PieceBuilder.windowMargin {
            return nil
        }
        guard let stretch = UnbreakableText.stretch(bytes, from: offset, upTo: scan, minLength: wordBudget,
                                                    code: style.wrap == .char, language: language) else { return nil }
        if stretch.lowerBound > offset { return (min(end, stretch.lowerBound), [], []) }
        // Planning pays where Pango would shape the rest of a long item again for every line it breaks off. A
        // stretch whose style changes every few letters (`*a*b` x 250,000) is short items already: Pango lays it
        // out in linear time unplanned, and planning shaped it twice (43% of its layout).
        if longestRun(in: offset ..< min(stretch.upperBound, scan)) <= PieceBuilder.shortRunBytes { return nil }
        // Shape just past the stretch's end when it is found cheaply, not a whole window: many stretches a little
        // over the budget (runs of backticks) each shaped 16 KB, 6.7 s for 1 MB.
        let stretchEnd = stretch.upperBound < scan ? stretch.upperBound : opportunity(from: offset, after: scan)
        var windowEnd = min(bytes.count, offset + windowBytes, stretchEnd.map { $0 + PieceBuilder.windowMargin } ?? .max)
        while windowEnd > offset + 1 && windowEnd < bytes.count && !ParagraphLayout.startsCluster(bytes, at: windowEnd) {
            windowEnd -= 1
        }
        let window = ParagraphLayout.slice(paragraph, bytes: bytes, offset..<windowEnd)
        guard let plan = UnbreakableText.planLines(window, columnWidth: columnWidth, engine: engine,
                                                   markIndent: markIndent, maxLines: PieceBuilder.plannedLines),
              let last = plan.starts.last, plan.end > last else {
            unplanned = offset ..< windowEnd
            return nil
        }
        if plan.starts.count >= PieceBuilder.plannedLines {
            return (offset + last, plan.items.filter { $0 < last }, Array(plan.starts.dropLast()))
        }
        return (offset + plan.end, plan.items, plan.starts)
    }

    /// The last window `planLines` would not plan (an image or a tab in it, or lines a letter or two wide): its
    /// pieces are laid out by Pango alone, and not measured again each.
    private var unplanned: Range<Int>? = nil

    /// Attribute runs this long or shorter make Pango items short enough to break unplanned.
    static let shortRunBytes = 64

    /// The longest attribute run that reaches into `range` (whole: the answer does not depend on where a piece
    /// starts inside a run).
    private func longestRun(in range: Range<Int>) -> Int {
        let runs = paragraph.runs
        var lo = runs.firstIndex(endingAfter: range.lowerBound) { $0.range.upperBound }
        var longest = 0
        while lo < runs.count && runs[lo].range.lowerBound < range.upperBound {
            longest = max(longest, runs[lo].range.count)
            if longest > PieceBuilder.shortRunBytes { break }
            lo += 1
        }
        return longest
    }

    /// The first line-break opportunity after `offset`, looked for from the first space or newline after `scan`
    /// in ranges that double (so the work is at most twice the stretch's length), with a margin for UAX #14's
    /// look-ahead at a range's end; nil when there is no space in a planning window, or no opportunity.
    private func opportunity(from offset: Int, after scan: Int) -> Int? {
        let limit = min(bytes.count, offset + windowBytes)
        guard scan < limit, let space = bytes[scan..<limit].firstIndex(where: { $0 == 0x20 || $0 == 0x0A })
        else { return nil }
        var upTo = min(limit, space + 17)
        while true {
            while upTo > offset + 1 && upTo < bytes.count && bytes[upTo] & 0xC0 == 0x80 { upTo -= 1 }
            let margin = upTo < bytes.count ? 16 : 0
            let found = UnbreakableText.breaks(bytes, from: offset, upTo: upTo, code: paragraph.style.wrap == .char,
                                               language: language)
            if let first = found.first, first <= upTo - margin { return first }
            if upTo >= limit { return nil }
            upTo = min(limit, offset + 2 * (upTo - offset))
        }
    }

    /// Lines of `piece` that do not start where they were planned, and planned lines it does not have.
    private static func unplanned(_ piece: ParagraphLayout, _ planned: [Int]) -> Int {
        let starts = piece.lines.dropFirst().map(\.startIndex)
        return Set(starts).symmetricDifference(planned).count
    }

    /// The first `kept` lines of `piece` (text `start..<next` of the paragraph), in the paragraph's offsets.
    static func boxes(of piece: ParagraphLayout, kept: Int, from start: Int, to next: Int) -> [LineBox] {
        let lines = piece.lines
        return (0..<min(kept, lines.count)).map { i in
            var box = lines[i]
            let from = start + piece.sourceOffset(box.startIndex)
            let to = i + 1 < kept && i + 1 < lines.count ? start + piece.sourceOffset(lines[i + 1].startIndex) : next
            box.startIndex = from
            box.length = max(to - from, 0)
            return box
        }
    }
}
