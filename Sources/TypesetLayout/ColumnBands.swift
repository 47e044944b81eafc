// Bands of columns down a page: the front matter's column set, then each `columns=N` div's, one below the
// other. A band is balanced (its columns made as short as they can be) before a new column set starts
// below it and at the end of the document, by placing its content again into shorter columns: the same
// placement code runs, so widows, orphans and keep rules hold in the balanced columns too.

import RTSyntax
import TypesetIR

/// Thrown by a trial placement (balancing) when the content does not fit the columns being tried.
struct BalanceOverflow: Error {}

/// The paginator's state where a band starts, to place the band's content again.
struct BandSnapshot {
    var page: Page
    var pageHasContent: Bool
    var pendingSpace: Double
    var section: String?
    var destinationNames: Set<String>
    var boxes: [OpenBox]
    var deferredFigures: [Range<Int>] = []
    var notes: FootnoteArea
}

struct BandState {
    var columnSet: ColumnSet
    var top = 0.0
    /// Lowest content bottom in each column of the band (for rules and the next band's top).
    var bottoms: [Double] = []
    /// Block and line the paginator is placing: where a band that starts now begins.
    var cursor = (block: 0, line: 0)
    var start = (block: 0, line: 0)
    var snapshot: BandSnapshot?
    /// Layouts of the band's blocks, kept so that balancing places the same layouts again.
    var layouts: [Int: PreparedBlock] = [:]
    /// Placing for a trial: a new page means "does not fit" (BalanceOverflow).
    var isTrial = false

    init(columnSet: ColumnSet) { self.columnSet = columnSet }

    mutating func noteColumnEnd(_ index: Int, bottom: Double) {
        if index < bottoms.count { bottoms[index] = max(bottoms[index], bottom) }
    }
}

extension Paginator {
    var contentBottom: Double { document.page.height - document.page.margins.bottom }

    /// Starts a band of the current column set at `top`, reaching down to the bottom margin.
    func startBand(top: Double) {
        bands.top = top
        frames = bandFrames(bottom: contentBottom)
        bands.bottoms = Array(repeating: top, count: frames.count)
        columnIndex = 0
        region = FlowRegion(frame: frames[0])
        setCarriedNotes()
        bands.start = bands.cursor
        bands.layouts = bands.layouts.filter { $0.key >= bands.cursor.block }
        bands.snapshot = BandSnapshot(page: page, pageHasContent: pageHasContent, pendingSpace: pendingSpace,
                                      section: section, destinationNames: destinationNames, boxes: boxes,
                                      deferredFigures: deferredFigures,
                                      notes: notes)
    }

    func bandFrames(bottom: Double) -> [ColumnFrame] {
        let geometry = document.page, set = bands.columnSet
        let width = set.columnWidth(in: geometry.contentWidth)
        return (0..<max(set.count, 1)).map { i in
            ColumnFrame(x: geometry.margins.left + Double(i) * (width + set.gap), top: bands.top,
                        bottom: max(bottom, bands.top), width: width)
        }
    }

    /// Draws the band's column rules, as tall as its tallest column, and returns where its content ends.
    /// A single column ending where a column set starts has its notes right under its text.
    @discardableResult
    func closeBand(notesAtFoot: Bool = true) -> Double {
        bands.noteColumnEnd(columnIndex, bottom: region.y)
        drawNotes(atFoot: notesAtFoot)
        releaseDeferredNotes()
        let top = bands.top, bottoms = bands.bottoms
        let bottom = bottoms.max() ?? top
        if let rule = bands.columnSet.rule, frames.count > 1, bottom > top + FlowRegion.epsilon {
            // A rule only where the column after it has content, as CSS multi-column does.
            for k in 1..<frames.count where bottoms[k] > top + FlowRegion.epsilon {
                let x = (frames[k - 1].x + frames[k - 1].width + frames[k].x) / 2 - rule.width / 2
                page.rects.append(PlacedRect(kind: .columnRule, x: x, y: top, width: rule.width,
                                             height: bottom - top, color: rule.color))
            }
        }
        bands.bottoms = Array(repeating: top, count: bottoms.count)  // closing twice draws nothing twice
        return bottom
    }

    /// A `columns=N` div starts or ends at block `index`: balance the band above, start the new one below it.
    func switchColumns(to set: ColumnSet, at index: Int) throws {
        try balanceBand(upTo: index)
        let bottom = closeBand(notesAtFoot: frames.count > 1)
        bands.columnSet = set
        bands.cursor = (index + 1, 0)
        guard bottom > bands.top + FlowRegion.epsilon else {
            startBand(top: bands.top)  // nothing above on this page: the new columns start right here
            return
        }
        // The space the two blocks around the switch would have between them (the new band's first block
        // drops its space before, as at the top of any column), at least half a line.
        var gap = pendingSpace
        if index + 1 < document.blocks.count, case .paragraph(let p) = document.blocks[index + 1] {
            gap += p.style.spaceBefore
        }
        pendingSpace = 0
        startBand(top: bottom + max(gap, 6))
        if contentBottom - bands.top < 24 { try newPage() }  // not even two lines left: columns start overleaf
    }

    /// Makes the current band's columns as short as possible (to about a quarter point) while its content
    /// still fits this page, and places the content into them.
    func balanceBand(upTo end: Int) throws {
        guard frames.count > 1, let snapshot = bands.snapshot else { return }
        bands.noteColumnEnd(columnIndex, bottom: region.y)
        guard bands.bottoms.contains(where: { $0 > bands.top + FlowRegion.epsilon }) else { return }
        let start = bands.start
        // What the band holds now fits `contentBottom`; find the lowest bottom that still fits.
        var low = bands.top, high = contentBottom
        while high - low > 0.25 {
            let mid = (low + high) / 2
            if try fits(bottom: mid, snapshot: snapshot, from: start, to: end) { high = mid } else { low = mid }
        }
        restore(snapshot, bottom: high)
        try placeBlocks(from: start.block, line: start.line, to: end)
    }

    private func fits(bottom: Double, snapshot: BandSnapshot, from start: (block: Int, line: Int),
                      to end: Int) throws -> Bool {
        restore(snapshot, bottom: bottom)
        bands.isTrial = true
        defer { bands.isTrial = false }
        do {
            try placeBlocks(from: start.block, line: start.line, to: end)
            return notes.carry.isEmpty  // a note that would continue overleaf: not balanced this short
        } catch is BalanceOverflow {
            return false
        }
    }

    private func restore(_ snapshot: BandSnapshot, bottom: Double) {
        page = snapshot.page
        pageHasContent = snapshot.pageHasContent
        pendingSpace = snapshot.pendingSpace
        section = snapshot.section
        destinationNames = snapshot.destinationNames
        boxes = snapshot.boxes
        deferredFigures = snapshot.deferredFigures
        notes = snapshot.notes
        noteCache = nil
        frames = bandFrames(bottom: bottom)
        bands.bottoms = Array(repeating: bands.top, count: frames.count)
        columnIndex = 0
        region = FlowRegion(frame: frames[0])
        region.setFloor(region.frame.bottom - notes.height)
        openBoxFragments()
    }
}
