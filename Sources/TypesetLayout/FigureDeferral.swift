// Figures that do not fit where they stand move to the top of the next column while the text after them
// fills the rest of this one (LaTeX's `[tp]` placement without the page of floats). Also: a table caption
// kept with its table's first rows, and `[](#id){ref=page}` numbers checked after the drawing pass.

import RTSyntax
import TypesetIR

extension Paginator {
    // MARK: Figure groups

    /// The figure that starts at block `i` (its content blocks and its caption), if one does.
    func figureGroup(at i: Int) -> Range<Int>? {
        guard case .paragraph = document.blocks[i] else { return nil }
        for k in 1...3 where i + k < document.blocks.count {
            guard case .paragraph(let q) = document.blocks[i + k] else { return nil }
            if let caption = q.caption {
                return caption.kind == .figure && caption.contentBlocks == k ? i..<(i + k + 1) : nil
            }
        }
        return nil
    }

    /// Height of a figure's blocks stacked (space before its first block not counted); nil unless all are paragraphs.
    func groupHeight(_ group: Range<Int>) -> Double? {
        var height = 0.0, spaceAfter: Double? = nil
        for k in group {
            guard case .paragraph(let p) = prepare(k) else { return nil }
            if let spaceAfter { height += spaceAfter + p.paragraph.style.spaceBefore }
            height += p.height
            spaceAfter = p.paragraph.style.spaceAfter
        }
        return height
    }

    private func spaceBefore(_ group: Range<Int>) -> Double {
        if case .paragraph(let p) = document.blocks[group.lowerBound] { return p.style.spaceBefore }
        return 0
    }

    /// When the figure at `i` does not fit in what is left of this column (but would fit an empty one), or
    /// figures are already waiting: queue it and return the block after it, so the text goes on here.
    func deferFigure(at i: Int) throws -> Int? {
        // Inside boxes and shapes a figure stays in place (their fragments are drawn around what they hold).
        guard boxes.isEmpty, flow.container == nil, flow.positioned == nil,
              let group = figureGroup(at: i), let height = groupHeight(group) else { return nil }
        // Balancing tries shorter columns: one too short for the whole figure would part image and caption.
        if bands.isTrial && height > region.frame.height + FlowRegion.epsilon { throw BalanceOverflow() }
        if deferredFigures.isEmpty {
            if region.isEmpty || height > region.frame.height { return nil }
            if region.fits(pendingSpace + spaceBefore(group) + height) { return nil }
        }
        deferredFigures.append(group)
        return group.upperBound
    }

    /// Places waiting figures, in order, while they fit (the first always, in an empty column).
    func placeDeferredFigures() throws {
        guard !deferredFigures.isEmpty, !isPlacingDeferredFigures else { return }
        isPlacingDeferredFigures = true
        defer { isPlacingDeferredFigures = false }
        var placed = false
        while let group = deferredFigures.first, let height = groupHeight(group) {
            let gap = region.isEmpty ? 0 : pendingSpace + spaceBefore(group)
            if !region.isEmpty && !region.fits(gap + height) { break }
            if bands.isTrial && !region.fits(gap + height) { throw BalanceOverflow() }
            deferredFigures.removeFirst()
            for k in group {
                guard case .paragraph(let p) = prepare(k) else { continue }
                prepared[k] = nil
                try place(p, index: k)
            }
            placed = true
        }
        if let group = deferredFigures.first, groupHeight(group) == nil { deferredFigures.removeFirst() }
        if placed {
            // The text interrupted by the figures goes on below them, after the caption's space.
            region.skip(pendingSpace)
            pendingSpace = 0
        }
    }

    /// Before a break, a column set change and the end: every waiting figure is placed, in new columns if need be.
    func flushDeferredFigures() throws {
        var guardCount = 0
        while !deferredFigures.isEmpty && guardCount <= DocumentLayout.maxPages {
            try placeDeferredFigures()
            if !deferredFigures.isEmpty { try nextColumn() }
            guardCount += 1
        }
    }

    // MARK: Table captions

    /// Height of a table's header rows and first body row: what its caption must share a column with.
    func leadHeight(of table: TableLayout) -> Double {
        let header = table.headerRows.reduce(0) { $0 + $1.height }
        let first = table.headerRows.count < table.rowCount
            ? table.row(table.headerRows.count, diagnostics: &diagnostics).height : 0
        return table.table.spaceBefore + header + first
    }

    // MARK: Page references

    /// The pages `[](#id){ref=page}` shows: the counting pass's in the drawing pass; so far found, while counting.
    var knownPages: [String: Int] { referencePages ?? destinationPages }

    /// A page reference whose target moved between the passes shows a wrong number: say so.
    func checkReferencePages() {
        guard let referencePages else { return }
        let moved = document.pageReferenceTargets.contains { destinationPages[$0] != referencePages[$0] }
        if moved {
            diagnostics.append(.warning("a page reference may show a wrong page number (its target moved while "
                + "numbering it)", at: nil))
        }
    }
}

extension TableBlock {
    var hasPageReferences: Bool { cells.richCells.contains { !$0.pageReferences.isEmpty } }
}

extension TypesetDocument {
    /// Targets of every `[](#id){ref=page}` (in paragraphs, table cells and footnotes).
    var pageReferenceTargets: Set<String> {
        var targets = Set<String>()
        for block in blocks {
            switch block {
            case .paragraph(let p): p.pageReferences.forEach { targets.insert($0.target) }
            case .table(let t): t.cells.richCells.forEach { $0.pageReferences.forEach { targets.insert($0.target) } }
            default: break
            }
        }
        for note in footnotes { note.paragraphs.forEach { $0.pageReferences.forEach { targets.insert($0.target) } } }
        return targets
    }

    var hasPageReferences: Bool {
        let inBlocks = blocks.contains { block in
            switch block {
            case .paragraph(let p): !p.pageReferences.isEmpty
            case .table(let t): t.hasPageReferences
            default: false
            }
        }
        return inBlocks || footnotes.contains { $0.paragraphs.contains { !$0.pageReferences.isEmpty } }
    }
}
