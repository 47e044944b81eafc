// Long paragraphs are laid out in pieces of bounded size. Pango keeps positions and widths in int Pango
// units (1/1024 pt): a paragraph measured as one line (what total-fit breaking does) or stacked as one
// layout overflows past about 2.1 million points (some 72,000 words at 10pt, or 1,800 words at 1000pt), and
// the text after that was lost. Pango's breaking of an overlong word also costs time quadratic in its item.
//
// Each piece is laid out alone; all its lines but the last are kept, and the next piece starts where that
// last line started, so every kept line was broken exactly as in a layout of the whole text from that
// point (the last line of a cut piece would change). The pieces' lines make the paragraph's lines.

import Foundation
import RTSyntax
import TypesetIR

extension ParagraphLayout {
    /// Lays out `paragraph` for a column `columnWidth` points wide: in one Pango layout, or in pieces when
    /// it is long (see above).
    public convenience init(_ paragraph: AttributedParagraph, columnWidth: Double, engine: LayoutEngine,
                            images: ImageCache, diagnostics: inout [Diagnostic]) {
        let budget = ParagraphLayout.pieceBudget(paragraph)
        let length = paragraph.text.utf8.count
        guard length > budget + budget / 2, (paragraph.style.maxLines ?? 0) <= 0 else {
            self.init(single: paragraph, columnWidth: columnWidth, engine: engine, images: images,
                      diagnostics: &diagnostics)
            return
        }
        let bytes = Array(paragraph.text.utf8)
        var pieces: [ParagraphLayout] = [], firstLines: [Int] = []
        var lines: [LineBox] = [], lineImages: [LineImage] = [], warnings: [Diagnostic] = []
        var offset = 0
        while offset < length {
            let end = ParagraphLayout.pieceEnd(bytes, from: offset, budget: budget)
            let slice = ParagraphLayout.slice(paragraph, bytes: bytes, offset..<end)
            let piece = ParagraphLayout(single: slice, columnWidth: columnWidth, engine: engine, images: images,
                                        diagnostics: &diagnostics)
            // All lines but the last of a cut piece; all of them when it has only one (no break was found).
            var kept = piece.lines.count
            var next = end
            if end < length && kept > 1 {
                let start = piece.sourceOffset(piece.lines[kept - 1].startIndex)
                if start > 0 {
                    kept -= 1
                    next = offset + start
                }
            }
            firstLines.append(lines.count)
            for i in 0..<kept {
                var box = piece.lines[i]
                let start = offset + piece.sourceOffset(box.startIndex)
                let stop = i + 1 < kept ? offset + piece.sourceOffset(piece.lines[i + 1].startIndex) : next
                box.startIndex = start
                box.length = max(stop - start, 0)
                lines.append(box)
            }
            for var image in piece.images where image.line < kept {
                image.line += firstLines[firstLines.count - 1]
                lineImages.append(image)
            }
            warnings += piece.warnings
            pieces.append(piece)
            offset = next
        }
        self.init(paragraph: paragraph, pieces: pieces, firstLines: firstLines, lines: lines, images: lineImages,
                  warnings: warnings)
    }

    /// The piece holding line `index` and the line's index in it (self and `index` for a single layout).
    func piece(ofLine index: Int) -> (ParagraphLayout, Int) {
        guard !pieces.isEmpty else { return (self, index) }
        var lo = 0, hi = pieceFirstLines.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if pieceFirstLines[mid] <= index { lo = mid } else { hi = mid - 1 }
        }
        return (pieces[lo], index - pieceFirstLines[lo])
    }

    /// Bytes of text per piece: small enough that a piece's widths and heights stay far inside Pango's int
    /// (even at one character per line, or one line of the largest font), large enough that the cost per
    /// piece does not show.
    static func pieceBudget(_ paragraph: AttributedParagraph) -> Int {
        var size = paragraph.runs.isEmpty ? 10 : 0.0
        for run in paragraph.runs { size = max(size, run.attributes.fontSize) }
        guard size.isFinite, size > 0 else { return maxPieceBytes }
        return Int(min(max(400_000 / size, 64), Double(maxPieceBytes)))
    }

    static let maxPieceBytes = 16 * 1024

    /// Where the piece from `offset` ends: the rest when it is short, else the first space past `budget`
    /// bytes, else (text with no spaces) a character boundary at `budget`.
    static func pieceEnd(_ bytes: [UInt8], from offset: Int, budget: Int) -> Int {
        if bytes.count - offset <= budget + budget / 2 { return bytes.count }
        let from = offset + budget, limit = min(offset + 2 * budget, bytes.count)
        if let space = bytes[from..<limit].firstIndex(of: 0x20) { return space }
        var end = from
        while end > offset + 1 && !startsCluster(bytes, at: end) { end -= 1 }
        return end
    }

    /// Whether a character starts at `i` that is not a combining mark or joiner (a safe place to cut).
    private static func startsCluster(_ bytes: [UInt8], at i: Int) -> Bool {
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

    /// The part `range` of `paragraph` as a paragraph of its own (runs and inline images moved along).
    /// A part after the first continues the paragraph: its first line is not indented as a first line.
    static func slice(_ paragraph: AttributedParagraph, bytes: [UInt8], _ range: Range<Int>) -> AttributedParagraph {
        var q = paragraph
        q.text = String(decoding: bytes[range], as: UTF8.self)
        var first = 0, hi = paragraph.runs.count  // first run ending after range.lowerBound
        while first < hi {
            let mid = (first + hi) / 2
            if paragraph.runs[mid].range.upperBound <= range.lowerBound { first = mid + 1 } else { hi = mid }
        }
        q.runs = []
        var k = first
        while k < paragraph.runs.count && paragraph.runs[k].range.lowerBound < range.upperBound {
            let r = paragraph.runs[k].range
            q.runs.append(AttributeRun(range: (max(r.lowerBound, range.lowerBound) - range.lowerBound)
                                           ..< (min(r.upperBound, range.upperBound) - range.lowerBound),
                                       attributes: paragraph.runs[k].attributes))
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
