// Quote bars beside a paragraph's lines: one per quote around it, each joined from paragraph to paragraph. For
// paragraphs placed band by band around shapes, backgrounds (code blocks) and bars: each band draws its part
// next to its pieces, and a part that continues the one above (same x, touching) extends it, so an unobstructed
// run of bands still draws one rectangle.

import TypesetIR

extension Paginator {
    /// `pieces` are the band's fragments (x, width); `lineStartX` is the band's text start from the column
    /// edge without shapes (the head indent, or the first-line indent on the first band); the bar of a quote goes
    /// before `barPieceX`, the left end of the band's first piece.
    func decorateBand(_ p: ParagraphLayout, pieces: [(x: Double, width: Double)], barPieceX: Double, top: Double, height: Double,
                      first: Bool, last: Bool, lineStartX: Double) {
        let style = p.paragraph.style
        guard !pieces.isEmpty else { return }
        if let background = style.background {
            let pad = style.backgroundPadding
            let y = first ? top - pad : top, bottom = top + height + (last ? pad : 0)
            for piece in pieces {
                // The first-line indent is not part of the box: start from the head indent's edge.
                let shift = first ? lineStartX - p.box.left : 0
                let x = piece.x - shift - pad
                extendOrAdd(PlacedRect(kind: .background, x: x, y: y, width: piece.x + piece.width + pad - x,
                                       height: bottom - y, color: background))
            }
        }
        for border in style.bars {
            // Where the bar is in the normal path (placeLines), measured from the text's left edge.
            let x = barPieceX - lineStartX + Self.barOffset(border, p)
            extendOrAdd(PlacedRect(kind: .border, x: x, y: top, width: border.width, height: height, color: border.color))
        }
    }

    /// A paragraph's bars beside its lines from `top` to `bottom` (a quote's around it first, its own last), each
    /// joined to its quote's bar beside the paragraph before it in this column when that one ends `gap` above.
    func placeBars(_ p: ParagraphLayout, x columnX: Double, top: Double, bottom: Double, gap: Double) {
        for border in p.paragraph.style.bars {
            let x = columnX + Self.barOffset(border, p)
            if border.group != 0, let k = barRects[border.group], k < page.rects.count, case let r = page.rects[k],
               r.kind == .border, abs(r.x - x) < 0.01, abs(r.y + r.height + gap - top) < 0.01 {
                page.rects[k].height = bottom - r.y
            } else {
                page.rects.append(PlacedRect(kind: .border, x: x, y: top, width: border.width, height: bottom - top,
                                             color: border.color))
                if border.group != 0 { barRects[border.group] = page.rects.count - 1 }
            }
        }
    }

    /// The bar sits in the head indent, a small gap before the text: its quote's (`Border.edge`), else the
    /// paragraph's own.
    static func barOffset(_ border: Border, _ p: ParagraphLayout) -> Double {
        let indent = border.edge ?? p.box.left
        let gapToText = min(8, max(indent - border.width, 0) / 2)
        return max(indent - gapToText - border.width, 0)
    }

    /// Extends the rectangle of its kind at its x that ends where `rect` starts (among the last few), else adds it.
    private func extendOrAdd(_ rect: PlacedRect) {
        for k in page.rects.indices.reversed().prefix(6) where page.rects[k].kind == rect.kind {
            let r = page.rects[k]
            if abs(r.x - rect.x) < 0.01, abs(r.width - rect.width) < 0.01, r.color == rect.color,
               abs(r.y + r.height - rect.y) < 0.01 {
                page.rects[k].height = rect.y + rect.height - r.y
                return
            }
        }
        page.rects.append(rect)
    }
}

extension ParagraphLayout {
    /// About how many lines the text from byte `offset` on takes (counted in the full-width layout), up to `cap`.
    /// Lines are in text order: the first one at or after `offset` is found by doubling then halving, so a
    /// paragraph of 20,000 lines meeting a column's end in narrow columns beside a shape is not counted whole
    /// at every column (210 KB in 8 columns took 35 s).
    func linesLeft(after offset: Int, atMost cap: Int) -> Int {
        func before(_ i: Int) -> Bool { hasLine(i) && sourceOffset(line(i).startIndex) < offset }
        var low = 0, high = 1
        while before(high - 1) {
            low = high
            high *= 2
        }
        while low < high {
            let mid = (low + high) / 2
            if before(mid) { low = mid + 1 } else { high = mid }
        }
        return linesLeft(from: low, atMost: cap)
    }
}
