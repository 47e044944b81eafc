// `--jobs`: while the paginating thread waits for the worker's pieces (PiecePipeline.swift) it lays out pieces
// from a later line start it guesses. Greedy (first-fit) breaking makes a line depend only on where it starts,
// so once the worker's true pieces reach a line start of that stretch, every later line of the stretch is a
// true line: its pieces are taken (the first from that line on), and the worker goes on after the stretch.
// A stretch the true lines never meet is dropped. Only ASCII text that is broken greedily is guessed at: a
// piece's first line is shaped without the text before it, which changes nothing for ASCII, so the lines
// drawn are the same whichever piece they come from.

import Foundation
import RTSyntax
import TypesetIR

/// Pieces laid out from a guessed line start, waiting for the true lines to meet them. Paginating thread only.
final class PieceSpeculation {
    /// How far past the worker a stretch starts, and the most text it lays out: some 3 MB of Pango layouts.
    static let gap = 64 * 1024
    static let maxBytes = 64 * 1024
    /// True pieces that may end past the stretch's start before it is given up.
    static let tries = 3

    let start: Int
    private(set) var end: Int
    private var pieces: [BuiltPiece] = []
    /// Each kept line's start: its piece and its line in the piece.
    private var lineStarts: [Int: (piece: Int, line: Int)] = [:]
    var triesLeft = PieceSpeculation.tries

    init(start: Int) {
        self.start = start
        end = start
    }

    var bytes: Int { end - start }

    /// Lays out the next piece of the stretch.
    func grow(_ builder: PieceBuilder) {
        var ignored: [Diagnostic] = []  // a paragraph's problems are reported with its first piece
        let piece = builder.build(from: end, diagnostics: &ignored)
        for (i, box) in piece.boxes.enumerated() { lineStarts[box.startIndex] = (pieces.count, i) }
        pieces.append(piece)
        end = piece.next
    }

    /// The pieces from the line that starts at `offset` on (the first without its lines before it), when a
    /// kept line of the stretch starts there.
    func adopt(at offset: Int) -> [BuiltPiece]? {
        guard let (j, m) = lineStarts[offset] else { return nil }
        var taken = Array(pieces[j...])
        var first = taken[0]
        first.skip = m
        first.kept -= m
        first.boxes.removeFirst(m)
        first.images = first.images.filter { $0.line >= m }.map { image in
            var moved = image
            moved.line -= m
            return moved
        }
        taken[0] = first
        return taken
    }

    /// Where a stretch may start about `gap` bytes past `from`: a whole number of periods of the line lengths
    /// after `last` when they repeat (text of one repeated word), else the first word start there.
    static func guess(_ bytes: [UInt8], from: Int, lastLines: [LineBox], next: Int) -> Int? {
        let target = from + gap
        guard target + gap / 2 < bytes.count else { return nil }
        let starts = lastLines.map(\.startIndex) + [next]
        // The first line of a paragraph is indented as such: left out.
        let lengths = Array(zip(starts.dropFirst(), starts).map { $0 - $1 }.dropFirst())
        if let period = (1...8).first(where: { q in
            lengths.count >= 3 * q && lengths.indices.dropFirst(q).allSatisfy { lengths[$0] == lengths[$0 - q] }
        }) {
            let step = lengths.suffix(period).reduce(0, +)
            guard step > 0 else { return nil }
            let at = next + (target - next + step - 1) / step * step
            return at < bytes.count ? at : nil
        }
        var k = target
        while k < min(bytes.count, target + 4096) {
            if bytes[k - 1] == 0x20 && bytes[k] != 0x20 { return k }
            k += 1
        }
        return nil
    }

    /// Whether a word of `paragraph` may be wider than a line, so that lines, and pieces, start inside words: a
    /// piece's first line is then set without the start of its word, and where pieces start is not the same
    /// with a guessed stretch (`--jobs 2` moved lines in 8 columns at 40pt). Judged from the longest word at
    /// the widest advance an ASCII letter has (one em).
    static func mayBreakInsideWords(_ paragraph: AttributedParagraph, bytes: [UInt8], columnWidth: Double) -> Bool {
        let size = paragraph.runs.map(\.attributes.fontSize).filter(\.isFinite).max() ?? 10
        let limit = max(Int(columnWidth / max(size, 1)), 0)
        var run = 0
        for b in bytes {
            run = b == 0x20 ? 0 : run + 1
            if run > limit { return true }
        }
        return false
    }

    /// Whether pieces of `paragraph` may be laid out from guessed line starts (see above). Not for paragraphs
    /// with grounds, which a worker lays out since grounds are measured with the lines (LineBackgrounds.swift):
    /// on text broken inside words in narrow columns, guessed stretches can set lines otherwise than `--jobs 1`
    /// (seen by `make pipeline-fuzz` on plain text too, not yet found), and letting more paragraphs guess would
    /// show it on more documents.
    static func allowed(_ paragraph: AttributedParagraph, bytes: [UInt8], engine: LayoutEngine) -> Bool {
        paragraph.style.wrap == .word && !ParagraphLayout.usesTotalFit(paragraph.style, hasTab: false, engine: engine)
            && bytes.allSatisfy { $0 < 0x80 } && !paragraph.runs.contains { $0.attributes.background != nil }
    }
}
