// The paginator's side of footnotes (FootnoteArea.swift): finding new marks on a line, checking that a line
// and its notes fit the column, setting notes into the column's area, carrying the rest on, and drawing
// the area at the column's foot when the column is complete.

import RTSyntax
import TypesetIR

extension Paginator {
    // MARK: Marks

    /// Notes whose marks are on line `i` of `p` and that are not set yet, in order.
    func newNotes(_ p: ParagraphLayout, line i: Int) -> [Int] {
        let marks = p.paragraph.footnoteMarks
        guard !marks.isEmpty else { return [] }
        var out: [Int] = []
        for piece in p.linkPieces(line: i) {
            footnoteWork += 1
            guard case .destination(let name) = piece.target, let n = FootnoteArea.number(name),
                  marks.sortedContains(n), !notes.isSet(n), !out.contains(n) else { continue }
            out.append(n)
        }
        return out
    }

    /// Notes marked anywhere in `paragraphs` (a table row, a float: placed whole) not set yet.
    func newNotes(in paragraphs: [AttributedParagraph]) -> [Int] {
        var out: [Int] = []
        for p in paragraphs {
            for n in p.footnoteMarks where !notes.isSet(n) && !out.contains(n) {
                footnoteWork += 1
                out.append(n)
            }
        }
        return out
    }

    // MARK: Fitting and setting

    /// Of `count` lines of `p` from `start` that fit the column (after `gap`), how many to place now: up to
    /// and including the first line with new marks when its notes fit too (they are returned, to be set
    /// below text ending at `bodyBottom`), else the lines before it (none rather than orphans). An empty
    /// column takes the line anyway.
    func footnoteCut(_ p: ParagraphLayout, from start: Int, count: Int,
                     gap: Double) -> (count: Int, notes: [Int], bodyBottom: Double) {
        guard !p.paragraph.footnoteMarks.isEmpty else { return (count, [], 0) }
        var top = region.y + gap
        for j in start..<(start + count) {
            let box = p.line(j)
            let found = newNotes(p, line: j)
            if !found.isEmpty {
                let bottom = top + box.height
                if notesFit(found, bodyBottom: bottom) || (region.isEmpty && j == start) || flow.positioned != nil {
                    return (j - start + 1, found, bottom)
                }
                // Fewer lines than `orphans` would start the paragraph here: it starts in the next column.
                let before = j - start
                if start == 0 && before < p.paragraph.style.orphans && !region.isEmpty { return (0, [], 0) }
                return (before, [], 0)
            }
            top += box.advance
        }
        return (count, [], 0)
    }

    /// The lines of notes `numbers` and of the notes they reference (set right after them), laid out at the
    /// column's width. The last answer is kept: a check is followed by setting the same notes.
    func noteLines(_ numbers: [Int]) -> [NoteLine] {
        let width = region.frame.width
        if let cached = noteCache, cached.numbers == numbers, cached.width == width { return cached.lines }
        var out: [NoteLine] = []
        var queue = numbers, k = 0
        var spaceAfter: Double? = nil
        while k < queue.count {
            let n = queue[k]
            k += 1
            guard n >= 1, n <= document.footnotes.count, !notes.isSet(n) else { continue }
            // Warnings about a note's text once, however often balancing lays it out again.
            let first = notesLaidOut.insert(n).inserted
            for (j, written) in document.footnotes[n - 1].paragraphs.enumerated() {
                // `{ref=page}` in a note: the numbers known so far (the counting pass's when drawing).
                let paragraph = written.pageReferences.isEmpty ? written : written.resolvingPageReferences(knownPages)
                var ignored: [Diagnostic] = []
                let layout = ParagraphLayout(paragraph, columnWidth: width, engine: engine, images: images,
                                             diagnostics: &ignored)
                if first { diagnostics += ignored }
                // Between notes as between paragraphs (the first note of the call: its own style's spacing).
                let gap = (spaceAfter ?? paragraph.style.spaceAfter) + paragraph.style.spaceBefore
                var i = 0
                while layout.hasLine(i) {
                    footnoteWork += 1
                    out.append(NoteLine(layout: layout, index: i, gap: i == 0 ? gap : 0, number: n,
                                        startsNote: i == 0 && j == 0))
                    i += 1
                }
                spaceAfter = paragraph.style.spaceAfter
                for m in paragraph.footnoteMarks where !notes.isSet(m) && !queue.contains(m) { queue.append(m) }
            }
        }
        noteCache = (numbers, width, out)
        return out
    }

    /// Whether notes `numbers` fit at the foot of the column below body text reaching down to `bodyBottom`:
    /// all of them but the last whole, of the last at least its first line. Lines already carried over
    /// keep the column's foot: new notes then follow them in any case.
    func notesFit(_ numbers: [Int], bodyBottom: Double) -> Bool {
        guard notes.carry.isEmpty else { return true }
        let lines = noteLines(numbers)
        guard let last = lines.lastIndex(where: { $0.startsNote }) else { return true }
        var grown = 0.0
        for (k, line) in lines[...last].enumerated() { grown += notes.growth(line, after: k) }
        return region.floor - grown >= bodyBottom - FlowRegion.epsilon
    }

    /// Whether the notes marked in the first lines of `q` that must start a column together (its orphans), set
    /// with `q` starting at `top`, fit this column: else a heading kept with `q` moves on with it.
    func leadingNotesFit(_ q: ParagraphLayout, top: Double) -> Bool {
        guard !q.paragraph.footnoteMarks.isEmpty else { return true }
        var y = top, i = 0
        while q.hasLine(i), i < max(q.paragraph.style.orphans, 1) {
            let found = newNotes(q, line: i)
            if !found.isEmpty { return notesFit(found, bodyBottom: y + q.line(i).height) }
            y += q.line(i).advance
            i += 1
        }
        return true
    }

    /// Whether the notes marked in a table caption `p` and in the rows set with it (header and first body
    /// row, ending at `bottom`) fit this column: else the caption moves on with the table.
    func leadingNotesFit(_ table: TableLayout, after p: ParagraphLayout, bottom: Double) -> Bool {
        var paragraphs = [p.paragraph]
        for r in 0..<min(table.headerRows.count + 1, table.rowCount) {
            paragraphs += table.row(r, diagnostics: &diagnostics).cells.map(\.paragraph)
        }
        let marks = newNotes(in: paragraphs)
        return marks.isEmpty || notesFit(marks, bodyBottom: bottom)
    }

    /// Sets notes `numbers` at the foot of the column as far as they fit below `bodyBottom`; the rest is
    /// carried to the next column. With a positioned shape open, the notes go to the column it was met in.
    /// `markTop`: the top of the line holding the marks, where each note's number links back to.
    func takeNotes(_ numbers: [Int], bodyBottom: Double, markTop: Double? = nil) {
        let lines = noteLines(numbers)
        noteCache = nil
        if let markTop {
            let x = region.frame.x
            for n in numbers where destinationNames.insert(FootnoteArea.backAnchor(n)).inserted {
                page.destinations.append(NamedDestination(name: FootnoteArea.backAnchor(n), x: x, y: markTop))
            }
        }
        for n in numbers { notes.markSet(n) }
        for line in lines where line.startsNote { notes.markSet(line.number) }  // notes referenced from notes
        guard !lines.isEmpty else { return }
        if var column = flow.positioned?.region {
            // The first column of the page the shape overlaps: a later one gets the notes when it starts.
            let box = region.frame
            let first = frames.firstIndex { $0.x < box.x + box.width && $0.x + $0.width > box.x }
            if let first, first > columnIndex {
                notes.deferred.append((first, lines))
                return
            }
            take(lines, into: &column, bodyBottom: column.y)
            flow.positioned?.region = column
        } else {
            take(lines, into: &region, bodyBottom: bodyBottom)
        }
    }

    private func take(_ lines: [NoteLine], into column: inout FlowRegion, bodyBottom: Double) {
        var k = 0
        if notes.carry.isEmpty {
            while k < lines.count
                    && column.frame.bottom - notes.height - notes.growth(lines[k]) >= bodyBottom - FlowRegion.epsilon {
                notes.append(lines[k])
                k += 1
            }
        }
        notes.carry += lines[k...]
        column.setFloor(column.frame.bottom - notes.height)
    }

    /// A column starts: lines carried over go to its foot first, up to a share of the column (all of it
    /// when `onlyNotes`: the text has ended), at least one line. `below` instead: the text has ended at
    /// that height in this column, the lines fill the space under it.
    func setCarriedNotes(onlyNotes: Bool = false, below: Double? = nil) {
        guard !notes.carry.isEmpty || !notes.deferred.isEmpty else { return }
        let cap = below.map { region.frame.bottom - $0 } ?? region.frame.height * (onlyNotes ? 1 : FootnoteArea.carryShare)
        var k = 0
        while k < notes.carry.count
                && ((notes.isEmpty && below == nil) || notes.height + notes.growth(notes.carry[k]) <= cap) {
            footnoteWork += 1
            notes.append(notes.carry[k])
            k += 1
        }
        notes.carry.removeFirst(k)
        region.setFloor(region.frame.bottom - notes.height)
        // Notes of a positioned shape that overlaps this column first.
        while let k = notes.deferred.firstIndex(where: { $0.column == columnIndex }) {
            take(notes.deferred.remove(at: k).lines, into: &region, bodyBottom: region.y)
        }
    }

    /// The page or band ends: notes kept for columns not reached continue in the next column.
    func releaseDeferredNotes() {
        for d in notes.deferred { notes.carry += d.lines }
        notes.deferred = []
    }

    /// The text has ended: notes whose marks were never placed (a truncated line) and lines still carried
    /// over fill the space under the text, then get columns of their own, so no note is lost.
    func setRemainingNotes() throws {
        let unset = document.footnotes.indices.map { $0 + 1 }.filter { !notes.isSet($0) }
        if !unset.isEmpty { takeNotes(unset, bodyBottom: region.y) }
        releaseDeferredNotes()
        setCarriedNotes(below: region.y)
        while !notes.carry.isEmpty {
            try nextColumn()
            setCarriedNotes(onlyNotes: true)
        }
    }

    // MARK: Drawing

    /// Draws the column's notes and their rule at its foot (or, `atFoot` false, right under its text: a
    /// single column that ends where a column set starts) and empties the area.
    func drawNotes(atFoot: Bool = true) {
        guard !notes.isEmpty else { return }
        let frame = region.frame
        let height = notes.height
        let top = atFoot ? frame.bottom - height : min(region.y, frame.bottom - height)
        page.rects.append(PlacedRect(kind: .rule, x: frame.x, y: top + FootnoteArea.ruleSpace,
                                     width: frame.width / 3, height: FootnoteArea.ruleThickness,
                                     color: FootnoteArea.ruleColor))
        var y = top + FootnoteArea.ruleBlock
        for (k, line) in notes.takeLines().enumerated() {
            if k > 0 { y += line.gap }
            let box = line.box
            placeNoteLine(line.layout, line: line.index, x: frame.x, baseline: y + box.baselineOffset)
            y += box.advance
        }
        bands.noteColumnEnd(columnIndex, bottom: top + height)
        pageHasContent = true
    }

    private func placeNoteLine(_ p: ParagraphLayout, line i: Int, x: Double, baseline: Double) {
        let box = p.line(i)
        page.lines.append(PlacedLine(paragraph: p, lineIndex: i, originX: x + p.left, baseline: baseline))
        if i == 0 { placeDestinations(p, x: x, y: baseline - box.baselineOffset) }
        for piece in p.linkPieces(line: i) where isReachable(piece.target, from: p) {
            page.links.append(LinkArea(target: piece.target, x: x + piece.x, y: baseline - box.ascent,
                                       width: piece.width, height: box.ascent + box.descent))
        }
        if box.hasAttachment {
            for image in p.images where image.line == i {
                page.images.append(PlacedImage(path: image.path, image: image.image, x: x + image.x,
                                               y: baseline + image.top, width: image.width, height: image.height,
                                               fit: image.fit))
            }
        }
    }
}
