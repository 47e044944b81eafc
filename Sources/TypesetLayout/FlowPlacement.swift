// Paragraphs that meet an exclusion, a float or a shaped container are placed line by line (WeasyPrint's
// split_first_line): each visual line's band gets its free intervals (TextKit's line fragments), and each
// fragment takes the first line of the rest of the paragraph laid out at that fragment's width. Consecutive
// bands with the same single fragment keep using one layout, so only lines that actually change width pay
// for a new layout. Paragraphs that touch nothing keep the paginator's fast path.

import Foundation
import RTSyntax
import TypesetIR

/// Shapes registered while paginating.
struct FlowState {
    /// `@exclude`s by block index (a band placed again registers the same ones) with the page they start on.
    var exclusions: [Int: (exclusion: Exclusion, page: Int)] = [:]
    /// Floats by block index: the page they sit on and their box (with margin) as an exclusion.
    var floats: [Int: (page: Int, shape: PlacedShape)] = [:]
    /// The open `shape=` div: its shape in page coordinates, where its box ends, and its page and column.
    var container: (shape: FlowShape, bottom: Double, page: Int, column: Int)?
    /// A positioned shaped div is being filled: the column's region and spacing to go back to.
    var positioned: (region: FlowRegion, pendingSpace: Double)?
    /// A positioned box as tall as its content: what the page's text goes around once it is filled
    /// (block index, box in content-box coordinates, margin).
    var pendingWrap: (index: Int, x: Double, y: Double, width: Double, margin: Double, afterContent: Bool)?
    /// Every exclusion registered (positioned shapes' included), by block index, with its page: the next pass
    /// registers them as their pages start (`Paginator.earlyShapes`).
    var met: [Int: (exclusion: Exclusion, page: Int)] = [:]
    /// An exclusion was met below text already set on its page, which it should have moved.
    var metAfterContent = false
    /// Characters without a glyph that fragments met, reported once each (see `fragmentLayout`).
    var reportedGlyphs: Set<Diagnostic> = []

    var isEmpty: Bool { exclusions.isEmpty && floats.isEmpty && container == nil }
}

/// A fragment layout whose next lines may serve the next bands.
private struct FragmentReuse {
    var layout: ParagraphLayout
    /// Offsets in the paragraph's text where the layout's text starts and ends.
    var base: Int
    var end: Int
    var x: Double, width: Double
    /// The column it was laid out for: its lines serve a fragment at the same place in a column as wide.
    var frameX: Double, frameWidth: Double
    var line: Int
    /// Lines that may be used: a layout of a cut-off piece of the text ends with lines that would change.
    var usable: Int
}

extension Paginator {
    /// Stops with an error when the page being left holds nothing at all: no line fits anywhere on it beside
    /// its shapes (an exclusion over every column), and with `pages=all` no later page would do better.
    func checkPageNotBlank(_ p: ParagraphLayout) throws {
        guard columnIndex + 1 >= frames.count, !pageHasContent, flow.positioned == nil, !bands.isTrial else { return }
        let n = page.number
        let covering = flow.exclusions.filter { _, e in
            switch e.exclusion.pages {
            case .this: return n == e.page
            case .all: return n >= e.page
            case .range(let a, let b): return a <= n && n <= b
            }
        }.min { $0.key < $1.key }?.value.exclusion
        throw Diagnostic.error("no line of text fits on page \(n) beside this @exclude: it leaves no room in any "
            + "column; make it smaller or give it fewer pages", at: covering?.location ?? p.paragraph.location)
    }

    /// Exclusions and floats on the current page, in page coordinates.
    func pageShapes() -> [PlacedShape] {
        if flow.positioned != nil { return [] }  // a positioned shape is what the exclusions make room for
        let n = page.number, m = document.page.margins
        var out: [PlacedShape] = []
        for e in flow.exclusions.values {
            let applies: Bool
            switch e.exclusion.pages {
            case .this: applies = n == e.page
            case .all: applies = n >= e.page
            case .range(let a, let b): applies = a <= n && n <= b
            }
            if applies { out.append(PlacedShape(shape: e.exclusion.shape.offset(dx: m.left, dy: m.top), margin: e.exclusion.margin)) }
        }
        for f in flow.floats.values where f.page == n { out.append(f.shape) }
        return out
    }

    var activeContainer: (shape: FlowShape, bottom: Double)? {
        guard let c = flow.container, c.page == page.number, c.column == columnIndex, region.y < c.bottom else { return nil }
        return (c.shape, c.bottom)
    }

    /// Whether `p` must be placed line by line: it meets a shape here, or spills over to where one may be.
    func needsFlow(_ p: ParagraphLayout, from firstLine: Int) -> Bool {
        if firstLine < 0 { return true }  // a band placed again, resuming a flowed paragraph
        guard !flow.isEmpty, firstLine == 0, !p.paragraph.text.isEmpty else { return false }
        if activeContainer != nil || flow.positioned != nil { return true }
        let shapes = pageShapes()
        let gap = region.isEmpty ? 0 : pendingSpace + p.paragraph.style.spaceBefore
        if p.isTaller(than: region.remaining, after: gap) {
            if !shapes.isEmpty { return true }
            return flow.exclusions.values.contains { e in
                switch e.exclusion.pages {
                case .this: return false
                case .all: return true
                case .range(_, let b): return b > page.number
                }
            }
        }
        let frame = region.frame, top = region.y, bottom = region.y + gap + p.height
        return shapes.contains { s in
            guard let span = s.shape.outerSpan(top: top, bottom: bottom, margin: s.margin) else { return false }
            return span.1 > frame.x && span.0 < frame.x + frame.width
        }
    }

    /// Places `p` from byte `start` on, line by line in the free fragments of each band.
    func placeFlowing(_ p: ParagraphLayout, index: Int, from start: Int) throws {
        let style = p.paragraph.style
        let bytes = Array(p.paragraph.text.utf8)
        let direction = ParagraphLayout.baseDirection(of: p.paragraph)
        // Bands are as tall as a line of text; a line with an inline image makes its own band taller.
        let nominal = p.nominalLine
        let fontSize = p.paragraph.runs.first?.attributes.fontSize ?? 10
        var offset = start
        var gap = (start == 0 && !region.isEmpty) ? pendingSpace + style.spaceBefore : 0
        var reuse: FragmentReuse? = nil
        var fragmentLines = 8
        // The last fragment layout made: its bytes per line size the next (`fragmentLayout`).
        var lastMade: FragmentReuse? = nil
        // The lines a layout has left serve the next column too, when its fragment is as wide and as placed:
        // narrow columns cost one layout per column otherwise. Ragged lines are broken greedily, so a fresh layout
        // from the same offset breaks alike; total-fit lines go on as the optimum found for that width, as a
        // paragraph without shapes goes on into the next column (a circle on each of 2,386 small pages of
        // justified text in three columns: 3.9 s of CPU, 3.3 with this). The same below a band where nothing
        // fits, for total-fit lines; ragged ones are laid out anew there, which measured faster in columns a
        // letter wide.
        let greedy = !ParagraphLayout.usesTotalFit(style, hasTab: false, engine: engine)
        let fromLeft = greedy && (style.alignment == .left || style.alignment == .start) && direction != .rightToLeft
        var force = false
        // Orphans: a paragraph that cannot start with that many lines here starts in the next column.
        if start == 0, !region.isEmpty, flow.positioned == nil, p.hasLine(1) {
            let need = p.linesLeft(from: 0, atMost: style.orphans)
            if need > 1 && !region.fits(gap + Double(need - 1) * nominal.advance + nominal.height) {
                try nextColumn()
                gap = 0
            }
        }
        var linesInColumn = 0, startedInColumn = start == 0
        // The widest fragment found too narrow for the text at an offset: a band moved down a little meets the
        // same one again beside a rectangle (a long word tried 190 times per column, a layout each), and beside a
        // circle a narrower one, which cannot hold a word that a wider one could not either (a 72,000-letter word
        // beside a circle: 44,000 layouts for 553 pages). Only for a line that is all one word (no space, tab,
        // hyphen or line break), broken greedily: a narrower line then also ends inside that word. Total-fit
        // lines break at more places (after a dash, at a hyphenation point): only a word of ASCII letters and
        // digits, not hyphenated, counts for them. Otherwise (`anyNarrower` false) only the same fragment is known
        // to fail.
        var tooNarrow: [(offset: Int, x: Double, width: Double, frame: Double, anyNarrower: Bool)] = []
        func knownTooNarrow(_ offset: Int, _ x: Double, _ width: Double, _ frameX: Double) -> Bool {
            tooNarrow.contains { $0.offset == offset && $0.frame == frameX
                                 && ($0.anyNarrower ? width <= $0.width : $0.x == x && $0.width == width) }
        }
        let inWord: (UInt8) -> Bool = { greedy ? ParagraphLayout.isInWord($0) : ParagraphLayout.isLetterOrDigit($0) }
        let ragged = greedy && style.alignment != .justify
        func oneWord(_ range: Range<Int>) -> Bool {
            (greedy || !style.hyphenate) && bytes[range.clamped(to: 0..<bytes.count)].allSatisfy(inWord)
        }
        while offset < bytes.count {
            bands.cursor.line = -(offset + 1)
            let h = nominal.height
            if !region.fits(gap + h) {
                if flow.positioned != nil {
                    diagnostics.append(.warning("text does not fit in its positioned shape; the rest is left out",
                                                at: p.paragraph.location))
                    break
                }
                if bands.isTrial && region.isEmpty { throw BalanceOverflow() }
                if !region.isEmpty || region.y > region.frame.top + FlowRegion.epsilon {
                    try checkPageNotBlank(p)
                    try nextColumn()
                    gap = 0
                    linesInColumn = 0
                    startedInColumn = false
                    continue
                }
                force = true  // a line taller than the column goes alone
            }
            let frame = region.frame
            let top = region.y + gap
            let edges = p.box.edges(style, firstLine: offset == 0)
            let base = (frame.x + edges.left, frame.x + frame.width - edges.right)
            let shapes = pageShapes()
            let container = activeContainer
            var bandHeight = h
            var pieces: [(layout: ParagraphLayout, line: Int, x: Double, width: Double)] = []
            var next = offset
            var nextReuse = reuse
            var leftmostFragment: Double? = nil
            for attempt in 0..<2 {
                let fragments = force ? [(x: base.0, width: base.1 - base.0)]
                    : FreeIntervals.compute(base: base, top: top, bottom: top + bandHeight,
                                            container: container.flatMap { top < $0.bottom ? $0.shape : nil },
                                            exclusions: shapes, minimum: fontSize)
                pieces = []
                next = offset
                nextReuse = reuse
                leftmostFragment = fragments.first?.x
                // Right-to-left text reads from the rightmost fragment of a band to the leftmost.
                for fragment in direction == .rightToLeft ? fragments.reversed() : fragments where next < bytes.count {
                    let whole = fragment.width >= base.1 - base.0 - 1
                    if !whole && knownTooNarrow(next, fragment.x, fragment.width, frame.x) {
                        continue
                    }
                    // The band above's layout, as wide or wider, has its next line from here and that line breaks
                    // inside a word: this narrower fragment cannot hold it either (a word longer than the column
                    // beside a circle was otherwise laid out at every step down past the circle).
                    if !whole, greedy, let r = nextReuse, abs(r.frameX - frame.x) < 0.01,
                       r.width >= fragment.width - 0.01, r.line + 1 < r.usable,
                       r.base + r.layout.sourceOffset(r.layout.lines[r.line + 1].startIndex) == next {
                        let lineEnd = r.base + r.layout.nextStart(after: r.line + 1, length: r.end - r.base)
                        if oneWord(next..<lineEnd),
                           !r.layout.holdsWords(line: r.line + 1, width: r.width, end: lineEnd, bytes: bytes) {
                            tooNarrow = tooNarrow.suffix(7) + [(next, fragment.x, r.width, frame.x, true)]
                            continue
                        }
                    }
                    // A fragment found too narrow for the word at `next`: fragments narrower than it, or than the
                    // word by more than what could make it fit, fail too. Pango breaks ragged lines at its own
                    // width, so there only rounding; justified lines may narrow a word (font expansion) and hang
                    // its ends (protrusion): an em or 3%.
                    func noteTooNarrow(lineEnd: Int) {
                        let withinWord = oneWord(next..<lineEnd)
                        var width = fragment.width
                        if withinWord && !tooNarrow.contains(where: { $0.offset == next }) {
                            func bound(_ word: (width: Double, whole: Bool)) -> Double {
                                let slack = ragged && word.whole ? max(0.5, 0.005 * word.width)
                                    : max(fontSize, 1, 0.03 * word.width)
                                return word.width - slack
                            }
                            // A prefix about twice the column wide first: when it is already wider than any
                            // fragment of the column, every fragment is too narrow, as 256 bytes would find
                            // (the bound only grows with the prefix). A 50,000-letter word in narrow columns
                            // measured 256 bytes for each line it was broken into.
                            let prefix = clampedInt(2 * (frame.width + fontSize) / (0.25 * max(fontSize, 1))) + 1
                            if prefix < 256,
                               let word = firstWordWidth(p, bytes: bytes, from: next, inWord: inWord, frame: frame,
                                                         direction: direction, limit: prefix),
                               !word.whole, bound(word) >= frame.width {
                                width = max(width, bound(word))
                            } else if let word = firstWordWidth(p, bytes: bytes, from: next, inWord: inWord,
                                                                frame: frame, direction: direction) {
                                width = max(width, bound(word))
                            }
                        }
                        tooNarrow = tooNarrow.suffix(7) + [(next, fragment.x, width, frame.x, withinWord)]
                    }
                    var candidate: FragmentReuse
                    var fresh = false
                    if let r = nextReuse, abs((r.x - r.frameX) - (fragment.x - frame.x)) < 0.01,
                       abs(r.width - fragment.width) < 0.01, abs(r.frameWidth - frame.width) < 0.01,
                       r.line + 1 < r.usable,
                       r.base + r.layout.sourceOffset(r.layout.lines[r.line + 1].startIndex) == next {
                        candidate = r
                        candidate.line += 1
                    } else {
                        // Beside a slanted edge a word is tried at each band down, each a little wider, until one
                        // holds it: the first line alone decides, so ragged lines try the next word (and one letter
                        // of the word after it) first and lay out eight lines only for a fit. A fuzzed 363 KB page
                        // of right-aligned words beside a triangle made 19,675 failed eight-line layouts. Total-fit
                        // lines too, when the word may be too wide for the piece (at half an em a byte): a piece
                        // that cannot hold the word or its first syllable cannot with more text after it either
                        // (40pt words beside a circle on 2,728 pages failed an eight-line layout, which the breaker
                        // tried hard to fit, in the piece left of it at every band: 7.4 s of CPU, 5.5 with this).
                        // Nearly: with the rest of the text the breaker may still find a syllable the probe's did
                        // not; that document now sets 11 of its lines differently (the one looked at: a word
                        // hyphenated in two pieces, not three).
                        if !whole, greedy || wordMayNotFit(bytes, from: next, width: fragment.width, fontSize: fontSize),
                           let probeEnd = Self.probeEnd(bytes, from: next) {
                            let probe = fragmentLayout(p, bytes: bytes, from: next, to: probeEnd, x: fragment.x,
                                                       width: fragment.width, frame: frame, direction: direction)
                            let lineEnd = next + probe.nextStart(after: 0, length: probeEnd - next)
                            // A first line with all of the probe holds its first word, hence a break at a blank.
                            if lineEnd < probeEnd,
                               !probe.holdsWords(line: 0, width: fragment.width, end: lineEnd, bytes: bytes) {
                                tooNarrowBytes += probeEnd - next
                                noteTooNarrow(lineEnd: lineEnd)
                                continue
                            }
                        }
                        // Beside a curve each band has its own width and a layout serves one line: the next is
                        // made for as many lines as the last one served and two, not eight; twice as many when
                        // it served all it could (back to eight once the bands are alike again). Only for lines
                        // set from the left: a fragment layout's first line, broken inside a word, is aligned
                        // without the hyphen added to it (a bare PangoLayout aligns all its lines alike), so a
                        // right-aligned or centred first line sits a hyphen's width off its neighbours, and more
                        // first lines would show it more often.
                        if fromLeft, let r = nextReuse {
                            let served = r.line + 1
                            fragmentLines = served >= r.usable ? min(8, 2 * (r.usable + 2)) : max(3, served + 2)
                        }
                        candidate = fragmentLayout(p, bytes: bytes, from: next, x: fragment.x, width: fragment.width,
                                                   frame: frame, fontSize: fontSize, direction: direction,
                                                   lines: fromLeft ? fragmentLines : 8, seen: lastMade)
                        lastMade = candidate
                        fresh = true
                    }
                    // After its last line: where its text ends (a layout cut before a long word ends early).
                    let end = candidate.base + candidate.layout.nextStart(after: candidate.line,
                                                                          length: candidate.end - candidate.base)
                    if !whole && !candidate.layout.holdsWords(line: candidate.line, width: fragment.width, end: end, bytes: bytes) {
                        if fresh {
                            tooNarrowBytes += candidate.end - candidate.base
                            noteTooNarrow(lineEnd: end)
                        }
                        continue  // too narrow for the next word: skip this piece
                    }
                    pieces.append((candidate.layout, candidate.line, fragment.x, fragment.width))
                    nextReuse = candidate
                    next = end
                }
                let tallest = pieces.map { $0.layout.lines[$0.line].height }.max() ?? 0
                if tallest <= bandHeight + 0.01 || attempt == 1 { break }
                bandHeight = tallest  // an inline image: find the fragments for the taller band
            }
            if pieces.isEmpty {
                // Nothing fits beside the shapes here: move down a little and try again.
                region.skip(gap + max(1, h / 6))
                gap = 0
                if greedy { reuse = nil }
                continue
            }
            // The paragraph's last line has no line spacing after it, as in ParagraphLayout.
            let advance = next >= bytes.count ? bandHeight : nominal.advance + (bandHeight - h)
            // Widows: the column's last band would leave too few lines for the next column; move on early.
            if !force, flow.positioned == nil, next < bytes.count, !region.fits(gap + advance + h),
               linesInColumn >= (startedInColumn ? max(style.orphans, 1) : 1),
               linesLeft(p, bytes: bytes, after: next, laidOut: nextReuse, atMost: style.widows, x: base.0,
                         width: base.1 - base.0, frame: frame, fontSize: fontSize, direction: direction) < style.widows {
                try nextColumn()
                gap = 0
                linesInColumn = 0
                startedInColumn = false
                continue
            }
            // A band with footnote marks goes where its notes fit too (FootnotePlacement.swift).
            var marks: [Int] = []
            for piece in pieces { marks += newNotes(piece.layout, line: piece.line).filter { !marks.contains($0) } }
            if !marks.isEmpty, !force, flow.positioned == nil, !region.isEmpty,
               !notesFit(marks, bodyBottom: region.y + gap + bandHeight) {
                try nextColumn()
                gap = 0
                linesInColumn = 0
                startedInColumn = false
                continue
            }
            let slot = region.take(gap: gap, height: bandHeight, advance: advance)
            if !marks.isEmpty { takeNotes(marks, bodyBottom: slot.top + bandHeight, markTop: slot.top) }
            let baselineOffset = pieces.map { $0.layout.lines[$0.line].baselineOffset }.max() ?? nominal.baselineOffset
            let baseline = slot.top + baselineOffset
            if offset == 0 { placeDestinations(p, x: frame.x, y: slot.top) }
            for piece in pieces { placeFragment(piece.layout, line: piece.line, frame: frame, baseline: baseline, of: p) }
            // A quote's bar goes before the leftmost piece; right-to-left text may end in a band's right piece.
            let sorted = pieces.map { ($0.x, $0.width) }.sorted { $0.0 < $1.0 }
            let barPieceX = direction == .rightToLeft ? leftmostFragment ?? sorted[0].0 : pieces[0].x
            decorateBand(p, pieces: sorted, barPieceX: barPieceX, top: slot.top, height: advance,
                         first: offset == 0, last: next >= bytes.count, lineStartX: base.0 - frame.x)
            if next >= bytes.count, let last = pieces.last, case .tocEntry(let entry) = document.blocks[index] {
                let box = last.layout.lines[last.line]
                let reserve = max(style.tailIndent - entry.numberWidth, 0)
                let right = last.x + last.width >= base.1 - 0.5 ? frame.x + frame.width - reserve : last.x + last.width
                toc.decorate(entry, layout: last.layout, line: box, x: frame.x, width: right - frame.x + reserve,
                             baseline: baseline, page: tocPages?[entry.target], on: &page)
            }
            linesInColumn += 1
            pageHasContent = true
            offset = next
            reuse = nextReuse
            gap = 0
            force = false
        }
        pendingSpace = style.spaceAfter
    }

    /// About how many lines the text from `next` on takes, up to `cap`: the lines the band's last fragment layout
    /// has after its line when they reach that far, else those of a layout of the text from `next` at the
    /// column's width. The paragraph's own lines were counted before: the rest of a paragraph of 20,000 lines in
    /// narrow columns beside a shape was laid out a second time, at the full width, for this count alone.
    private func linesLeft(_ p: ParagraphLayout, bytes: [UInt8], after next: Int, laidOut r: FragmentReuse?,
                           atMost cap: Int, x: Double, width: Double, frame: ColumnFrame, fontSize: Double,
                           direction: BaseDirection) -> Int {
        func counted(_ r: FragmentReuse, after line: Int) -> Int? {
            let complete = r.end >= bytes.count
            let after = (complete ? r.layout.lines.count : r.usable) - (line + 1)
            return complete || after >= cap ? max(min(after, cap), 0) : nil
        }
        if let r, let n = counted(r, after: r.line) { return n }
        let rest = fragmentLayout(p, bytes: bytes, from: next, x: x, width: width, frame: frame, fontSize: fontSize,
                                  direction: direction, seen: r)
        return counted(rest, after: -1) ?? p.linesLeft(after: next, atMost: cap)
    }

    /// The width on one line of the word from `offset` (its bytes `inWord`, and a hyphen after it), laid out
    /// alone. A word longer than 256 bytes is measured by its first 256, and a word the layout still breaks by
    /// its widest line (`whole` false): lower bounds, up to shaping at the cut, so that words wider than the
    /// column beside a triangle are not tried again at every band down (16,555 failed layouts for 255 KB).
    /// `limit`: the most bytes measured.
    private func firstWordWidth(_ p: ParagraphLayout, bytes: [UInt8], from offset: Int, inWord: (UInt8) -> Bool,
                                frame: ColumnFrame, direction: BaseDirection,
                                limit: Int = 256) -> (width: Double, whole: Bool)? {
        var end = offset
        while end < bytes.count && end - offset <= limit && inWord(bytes[end]) { end += 1 }
        guard end > offset else { return nil }
        let whole = end - offset <= limit
        if whole {
            if end < bytes.count && bytes[end] == 0x2D { end += 1 }  // a hyphen stays on the line before it
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }  // whole characters
        } else {
            end = offset + limit
            while end > offset + 1 && bytes[end] & 0xC0 == 0x80 { end -= 1 }  // whole characters
        }
        let word = fragmentLayout(p, bytes: bytes, from: offset, to: end, x: frame.x, width: 1_000_000, frame: frame,
                                  direction: direction)
        // Broken into lines after all (a word too long to set on one): its widest line is a lower bound too.
        guard let widest = word.lines.map(\.width).max() else { return nil }
        return (widest, whole && word.lines.count == 1)
    }

    private func placeFragment(_ layout: ParagraphLayout, line i: Int, frame: ColumnFrame, baseline: Double,
                               of p: ParagraphLayout) {
        let box = layout.lines[i]
        page.lines.append(PlacedLine(paragraph: layout, lineIndex: i, originX: frame.x + layout.left, baseline: baseline))
        for piece in layout.linkPieces(line: i) where isReachable(piece.target, from: p) {
            page.links.append(LinkArea(target: piece.target, x: frame.x + piece.x, y: baseline - box.ascent,
                                       width: piece.width, height: box.ascent + box.descent))
        }
        if box.hasAttachment {
            for image in layout.images where image.line == i {
                page.images.append(PlacedImage(path: image.path, image: image.image, x: frame.x + image.x,
                                               y: baseline + image.top, width: image.width, height: image.height,
                                               fit: image.fit, structure: image.structure))
            }
        }
    }

    /// The rest of `p` from `offset`, laid out in the column at one fragment's position and width. Only about
    /// eight lines' worth of text is laid out (cut at a space): a long paragraph would otherwise cost a layout
    /// of all its remaining text per line; the last two lines of a cut layout are not used. A long word is cut
    /// there too: a band too narrow for it is tried again a little lower, and a layout of all of a 1,500-letter
    /// word per try (Pango's cost quadratic in it) took 13 s for 8 columns beside an @exclude.
    private func fragmentLayout(_ p: ParagraphLayout, bytes: [UInt8], from offset: Int, x: Double, width: Double,
                                frame: ColumnFrame, fontSize: Double, direction: BaseDirection,
                                lines: Int = 8, seen: FragmentReuse? = nil) -> FragmentReuse {
        // Text for `lines` lines of the fragment, at least 64 bytes. The total-fit breaker's first line looks ahead
        // over the eight lines' worth; it had 256 bytes at least, a dozen narrow lines of which each band used one
        // (a 14,400-letter word beside a circle on small pages: 2.4 s, now 0.8). Ragged lines are broken greedily,
        // so a narrow fragment lays out only its `lines` lines (Pango shapes the rest of a run again for each line:
        // 256 bytes two letters a line cost 4 pieces per band, 10 s for 95 KB in 12 columns). Fewer than eight
        // when the last layout served fewer: beside a circle in 8 narrow columns each band differs, and eight-line
        // layouts for one line each took 23 s for 162 KB.
        // Inside a word of ASCII letters and digits longer than that, lines broken greedily break between
        // letters, which no look-ahead changes (the total-fit breaker's would), and Pango shapes the rest of the
        // layout's text again for each line: there the estimate alone holds (a 50,000-letter word in 12 columns
        // beside a triangle, 208 pages: 5.1 s, 2.8 with this alone).
        let greedy = !ParagraphLayout.usesTotalFit(p.paragraph.style, hasTab: false, engine: engine)
        let longWord = greedy && bytes[offset..<min(bytes.count, offset + 65)].allSatisfy(Self.isASCIIAlphanumeric)
        let floor = longWord ? 2 * lines : lines >= 8 ? 64 : 8 * lines
        // Bytes a line holds: at 0.4 em a character, or inside a long word as the last fragment layout made showed
        // at this width. Two letters a line in narrow columns of large type got 46 lines for 18 asked, and Pango's
        // work grows with the square of a layout's lines (fuzzed 400 KB beside a circle: 3.1 million shapings,
        // 2.4 now). Elsewhere the generous estimate stays: its extra lines serve the bands below where bands are
        // alike (sized for all greedy text, 16 centred columns beside a triangle shaped 2.6 million times, not 2.2).
        var perLine = width / (0.4 * max(fontSize, 1))
        if longWord, let r = seen, r.layout.lines.count >= 3, r.width > 0, r.end > r.base {
            let shown = Double(r.end - r.base) / Double(r.layout.lines.count) * (width / r.width)
            perLine = min(perLine, 1.15 * shown + 0.25)
        }
        var budget = max(floor, clampedInt(min(Double(lines) * perLine, 65_536)))
        // A cut before a long word is made after the space before it, which ends the last line: begun with that
        // space, the next layout's first line held glue, was planned with expansion flex and the shrinking it
        // needs, and ran 7pt past its column.
        func afterSpaces(_ k: Int) -> Int {
            var k = k
            while k < bytes.count && bytes[k] == 0x20 { k += 1 }
            return k
        }
        var end = afterSpaces(ParagraphLayout.pieceEnd(bytes, from: offset, budget: budget, wordBudget: budget))
        var layout = fragmentLayout(p, bytes: bytes, from: offset, to: end, x: x, width: width, frame: frame,
                                    direction: direction)
        while end < bytes.count && layout.lines.count < 3 {
            // Too little text for three lines here (a very long word, a wide fragment): take more, growing
            // geometrically so a long word costs linear time, not a layout of all the rest per line.
            budget *= 4
            let longer = afterSpaces(ParagraphLayout.pieceEnd(bytes, from: offset, budget: budget, wordBudget: budget))
            if longer <= end { break }
            end = longer
            layout = fragmentLayout(p, bytes: bytes, from: offset, to: end, x: x, width: width, frame: frame,
                                    direction: direction)
        }
        let usable = end < bytes.count ? layout.lines.count - 2 : layout.lines.count
        return FragmentReuse(layout: layout, base: offset, end: end, x: x, width: width, frameX: frame.x,
                             frameWidth: frame.width, line: 0, usable: usable)
    }

    private func fragmentLayout(_ p: ParagraphLayout, bytes: [UInt8], from offset: Int, to end: Int, x: Double,
                                width: Double, frame: ColumnFrame, direction: BaseDirection) -> ParagraphLayout {
        fragmentBytes += end - offset
        var q = p.paragraph
        if offset > 0 || end < bytes.count {
            q.text = String(decoding: bytes[offset..<end], as: UTF8.self)
            q.runs = q.runs.filter { $0.range.upperBound > offset && $0.range.lowerBound < end }.map {
                AttributeRun(range: (max($0.range.lowerBound, offset) - offset)..<(min($0.range.upperBound, end) - offset),
                             attributes: $0.attributes)
            }
            q.attachments = q.attachments.filter { $0.offset >= offset && $0.offset < end }.map {
                TextAttachment(offset: $0.offset - offset, image: $0.image)
            }
        }
        q.anchors = []
        q.outline = nil
        q.style.baseDirection = direction
        q.style.firstLineHeadIndent = x - frame.x
        q.style.headIndent = x - frame.x
        q.style.tailIndent = frame.x + frame.width - (x + width)
        q.style.mirrorEdges = nil  // the fragment's edges are where its lines go, mirrored or not
        var found: [Diagnostic] = []  // the paragraph's own problems are reported with it
        let layout = ParagraphLayout(q, columnWidth: frame.width, engine: engine, images: images, diagnostics: &found,
                                     maxSpaceFactor: Self.maxSpaceFactor(slot: width, column: frame.width, style: p.paragraph))
        // A character no font has, in a part of the paragraph its own layout has not reached (it is laid out only
        // as far as it is asked), is reported from the fragment that meets it, with the pieces' warnings.
        for d in found where UnknownGlyphs.isUnknownGlyph(d) && flow.reportedGlyphs.insert(d).inserted {
            engine.pieceWarnings.append(d)
        }
        return layout
    }
}
