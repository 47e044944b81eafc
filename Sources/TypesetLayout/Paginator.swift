// Flows layout blocks line by line into the columns of pages. Paragraphs are laid out once, on demand
// (with a short look-ahead for keep-with-next), and each page is handed out as soon as it is complete,
// so memory stays flat however long the document is.

import Foundation
import RTSyntax
import TypesetIR

/// What a pagination run reports besides its pages.
public struct PaginationSummary {
    public var pageCount: Int
    public var diagnostics: [Diagnostic]
    /// Steps of footnote work (marks looked at, note lines handled): counted for the growth check.
    public var footnoteWork = 0
    /// Bytes of text laid out for the line fragments beside shapes, probes included (FlowPlacement.swift):
    /// counted, so that tests see the work text beside shapes costs.
    public var fragmentBytes = 0
    /// Of those, the bytes of layouts that showed their piece too narrow for the next word.
    public var tooNarrowBytes = 0
}

public enum DocumentLayout {
    /// Most pages a document may make: past it pagination stops with an error (every page counts).
    public static let maxPages = 10_000

    /// Paginates `document`, calling `onPage` with each page in order as soon as it is complete.
    /// When a header or footer shows `{{pages}}`, the document is paginated twice: once to count the pages.
    /// `onCount` hears of each page of that counting pass (`counted: n, total: nil`), then of the total
    /// (`total: n`) before the drawing pass starts: for a progress line.
    /// `document` is consumed: a caller that hands over its only copy has each page's blocks freed as the page
    /// is handed out.
    public static func paginate(_ document: consuming TypesetDocument, engine: LayoutEngine = .shared,
                                images: ImageCache = ImageCache(),
                                onCount: (_ counted: Int, _ total: Int?) -> Void = { _, _ in },
                                onPage: (Page) throws -> Void) throws -> PaginationSummary {
        let holder = DocumentHolder(consume document)
        return try engine.withLock {
            if images.kept == nil { images.kept = engine.paragraphCache?.images }
            var total: Int? = nil
            var reuse: LayoutReuse? = nil
            var pages: [String: Int] = [:]
            var countedWarnings: [Diagnostic] = []
            let hasToc = holder.document.blocks.contains { if case .tocEntry = $0 { true } else { false } }
            let hasPageReferences = holder.document.hasPageReferences
            let hasShapes = Self.mayHaveShapesBelowText(holder.document.blocks)
            var early: [Int: (exclusion: Exclusion, page: Int)] = [:]
            if RunningTextLayout.usesPageCount(holder.document) || hasToc || hasPageReferences || hasShapes {
                // The counting pass keeps the layouts of the first paragraphs (up to a fixed text budget)
                // for the drawing pass: small and medium documents are laid out once, memory stays bounded.
                reuse = LayoutReuse()
                let counter = Paginator(document: holder.document, engine: engine, images: images, totalPages: nil,
                                        placeRunningText: false, reuse: reuse)
                counter.startPrefetch()
                defer { counter.prefetch?.stop() }
                var counted = try counter.run { page in onCount(page.number, nil) }
                // A counting pass stopped by an error: the drawing pass would only stop there again.
                if counted.diagnostics.contains(where: { $0.severity == .error }) { return counted }
                var counting = counter
                if counter.flow.metAfterContent {
                    early = counter.flow.met
                    (counting, counted, reuse) = try recount(holder.document, early: early, engine: engine, images: images,
                                                             onCount: onCount)
                    if counted.diagnostics.contains(where: { $0.severity == .error }) { return counted }
                }
                total = counted.pageCount
                onCount(total ?? 0, total)
                reuse?.isRecording = false
                // Toc entries keep room for their numbers, so numbering them cannot move anything: one
                // counting pass gives the final page of every heading (the drawing pass checks it).
                pages = counting.destinationPages
                countedWarnings = counted.diagnostics.filter(UnknownGlyphs.isUnknownGlyph)
            }
            // The last pass holds the blocks alone (the caller handed them over): it frees each page's blocks
            // once the page is out, so the IR does not stay whole to the end (issue 14: flat memory).
            let paginator = Paginator(document: holder.take(), engine: engine, images: images, totalPages: total,
                                      placeRunningText: true, reuse: reuse, tocPages: hasToc ? pages : nil)
            paginator.releasesPlacedBlocks = true
            paginator.earlyShapes = early
            if hasPageReferences { paginator.referencePages = pages }
            paginator.carriedWarnings = countedWarnings
            paginator.startPrefetch()
            defer { paginator.prefetch?.stop() }
            return try paginator.run(onPage)
        }
    }

    /// Keeps the document until the last pass takes it (a closure cannot consume what it captures).
    private final class DocumentHolder {
        private var value: TypesetDocument?
        init(_ value: consuming TypesetDocument) { self.value = value }
        var document: TypesetDocument { value ?? TypesetDocument() }
        func take() -> TypesetDocument { value.take() ?? TypesetDocument() }
    }

    /// All pages at once (tests and small documents; keeps every layout alive). A layout that stops (the page
    /// limit, no room beside an exclusion) returns the pages made so far and its error as a diagnostic.
    public static func pages(_ document: TypesetDocument, engine: LayoutEngine = .shared) -> ([Page], [Diagnostic]) {
        var pages: [Page] = []
        do {
            let summary = try paginate(document, engine: engine) { pages.append($0) }
            return (pages, summary.diagnostics)
        } catch {
            return (pages, [.error(String(describing: error), at: nil)])
        }
    }
}

/// A block ready to place: paragraphs already laid out at the column width.
enum PreparedBlock {
    case paragraph(ParagraphLayout)
    case rule(HorizontalRule)
    case table(TableLayout)
    case pageBreak
    case columnBreak
    case columnSet(ColumnSet)
    /// Exclusions, floats and shaped containers (FlowPlacement.swift).
    case flow(LayoutBlock)
}

final class Paginator {
    private(set) var document: TypesetDocument
    /// Frees the blocks of each page handed out (the last pass only: the counting pass's are the next pass's).
    var releasesPlacedBlocks = false {
        didSet { if releasesPlacedBlocks { _ = knownDestinations; _ = lastContentBlock } }
    }
    /// Blocks below this index are freed.
    private(set) var releasedBlocks = 0
    let engine: LayoutEngine
    let images: ImageCache
    /// Columns of the current band (see ColumnBands.swift).
    var frames: [ColumnFrame]
    let runningText: RunningTextLayout?
    let totalPages: Int?
    let reuse: LayoutReuse?

    var diagnostics: [Diagnostic] = []
    var page: Page
    /// The last bar of each quote (`Border.group`) placed on this page: the next paragraph of the quote extends it.
    var barRects: [Int: Int] = [:]
    var pageHasContent = false
    var columnIndex = 0
    var region: FlowRegion
    /// Space after the previous block, added to the next block's space before (NSParagraphStyle adds them).
    var pendingSpace = 0.0
    var section: String?
    var pageCount = 0
    var bands: BandState
    var flow = FlowState()
    /// Exclusions an earlier pass met below text on their page, registered here as that page starts.
    var earlyShapes: [Int: (exclusion: Exclusion, page: Int)] = [:]
    /// Open `box=true` divs, outermost first (BoxPlacement.swift).
    var boxes: [OpenBox] = []
    /// Footnotes: this column's notes, lines carried over, notes set (FootnoteArea.swift).
    var notes = FootnoteArea()
    /// The last notes laid out (a fit check is followed by setting the same notes), and notes laid out once.
    var noteCache: (numbers: [Int], width: Double, lines: [NoteLine])?
    var notesLaidOut = Set<Int>()
    var footnoteWork = 0
    var fragmentBytes = 0, tooNarrowBytes = 0
    /// Page of each named destination so far (the counting pass hands them to the drawing pass's toc).
    var destinationPages: [String: Int] = [:]
    /// The last paragraph location met while placing, for errors that stop pagination.
    var placingLocation: SourceLocation?
    /// Destination pages from the counting pass, for toc numbers; nil when the document has no toc.
    let tocPages: [String: Int]?
    lazy var toc = TocDecorator(engine: engine, images: images)
    /// Destination pages from the counting pass, for `[](#id){ref=page}`; nil in the counting pass itself.
    var referencePages: [String: Int]?
    /// Missing-glyph warnings of later pieces the counting pass found: its layouts are reused here, so those
    /// pieces are not built again to find them.
    var carriedWarnings: [Diagnostic] = []
    /// Figures waiting for the top of the next column (FigureDeferral.swift).
    var deferredFigures: [Range<Int>] = []
    var isPlacingDeferredFigures = false
    private var emit: (Page) throws -> Void = { _ in }
    /// Every named destination in the document, to catch internal links that point nowhere.
    private lazy var knownDestinations: Set<String> = {
        var names = Set<String>()
        for case .paragraph(let p) in document.blocks {
            names.formUnion(p.anchors)
            if let id = p.outline?.id { names.insert(id) }
        }
        for note in document.footnotes {
            names.insert(FootnoteArea.backAnchor(note.number))
            for p in note.paragraphs { names.formUnion(p.anchors) }
        }
        return names
    }()
    /// The last block that puts something on a page: breaks after it do nothing (no empty last page).
    private lazy var lastContentBlock: Int = document.blocks.lastIndex {
        switch $0 {
        case .pageBreak, .columnBreak, .columnSet, .exclusion: return false
        default: return true
        }
    } ?? -1
    /// Look-ahead: blocks laid out before their turn (keep-with-next), by index.
    var prepared: [Int: PreparedBlock] = [:]
    /// Paragraphs laid out ahead on worker threads (`--jobs`, ParagraphPrefetch.swift).
    var prefetch: ParagraphPrefetch?

    init(document: TypesetDocument, engine: LayoutEngine, images: ImageCache, totalPages: Int?,
         placeRunningText: Bool, reuse: LayoutReuse? = nil, tocPages: [String: Int]? = nil) {
        self.document = document
        self.reuse = reuse
        self.engine = engine
        self.images = images
        self.totalPages = totalPages
        self.tocPages = tocPages
        bands = BandState(columnSet: ColumnSet(document.page))
        frames = FlowRegion.columns(of: document.page)
        runningText = placeRunningText ? RunningTextLayout(document: document, engine: engine, images: images) : nil
        page = Page(number: 1, width: document.page.width, height: document.page.height)
        barRects = [:]
        region = FlowRegion(frame: frames[0])
    }

    func run(_ onPage: (Page) throws -> Void) throws -> PaginationSummary {
        try withoutActuallyEscaping(onPage) { onPage in
            emit = onPage
            defer { emit = { _ in } }
            engine.pieceWarnings = carriedWarnings
            startPage(number: 1)
            do {
                try placeBlocks(from: 0, line: 0, to: document.blocks.count)
                try balanceBand(upTo: document.blocks.count)  // the last page's columns
                try setRemainingNotes()
                try finishPage()
            } catch let stop as Diagnostic {
                // Too many pages, or text that fits nowhere: the build fails with this error (no PDF is kept).
                diagnostics.append(stop)
            }
        }
        if let tocPages, tocPages != destinationPages {
            diagnostics.append(.warning("the table of contents may show wrong page numbers (headings moved while numbering it)", at: nil))
        }
        checkReferencePages()
        // Once each: a counting pass's layouts come with their pieces' warnings, and a character may be in
        // several pieces.
        var seen = Set(diagnostics)
        for warning in engine.pieceWarnings where seen.insert(warning).inserted { diagnostics.append(warning) }
        engine.pieceWarnings = []
        return PaginationSummary(pageCount: pageCount, diagnostics: diagnostics, footnoteWork: footnoteWork,
                                 fragmentBytes: fragmentBytes, tooNarrowBytes: tooNarrowBytes)
    }

    /// Places blocks `start..<end`, the first from line `line` on (a band being placed again starts mid-paragraph).
    func placeBlocks(from start: Int, line: Int, to end: Int) throws {
        var i = start, firstLine = line
        if region.isEmpty { try placeDeferredFigures() }  // a band placed again starts with its waiting figures
        while i < end {
            bands.cursor = (i, firstLine)
            if firstLine == 0, let next = try deferFigure(at: i) {
                i = next
                continue
            }
            switch document.blocks[i] {
            case .pageBreak, .columnBreak, .columnSet: try flushDeferredFigures()
            default: break
            }
            if case .paragraph(let p) = document.blocks[i], let location = p.location { placingLocation = location }
            let block = prepare(i)
            prepared[i] = nil
            bands.layouts[i] = block
            switch block {
            case .pageBreak:
                if pageHasContent && i < lastContentBlock { try newPage() }
                pendingSpace = 0
            case .columnBreak:
                if !region.isEmpty && i < lastContentBlock { try nextColumn() }
                pendingSpace = 0
            case .rule(let rule):
                try place(rule)
            case .table(let table):
                try place(table)
            case .paragraph(let paragraph):
                try place(paragraph, index: i, from: firstLine)
            case .columnSet(let set):
                try switchColumns(to: set, at: i)
            case .flow(let flowBlock):
                try placeFlowBlock(flowBlock, at: i)
            }
            i += 1
            firstLine = 0
        }
        try flushDeferredFigures()
    }

    // MARK: Blocks

    func prepare(_ i: Int) -> PreparedBlock {
        if let done = prepared[i] ?? bands.layouts[i] { return done }
        let block: PreparedBlock
        switch document.blocks[i] {
        case .paragraph(let p):
            block = layout(p, at: i)
        case .tocEntry(let entry):
            block = layout(entry.paragraph, at: i)
        case .rule(let r): block = .rule(r)
        case .table(var t):
            if t.hasPageReferences { t.cells.updateRichCells { $0.resolvingPageReferences(knownPages) } }
            block = .table(TableLayout(t, columnWidth: frames[0].width, engine: engine, images: images,
                                       diagnostics: &diagnostics))
        case .pageBreak: block = .pageBreak
        case .columnBreak: block = .columnBreak
        case .columnSet(let set): block = .columnSet(set)
        case .exclusion, .shapeStart, .shapeEnd, .float, .boxStart, .boxEnd: block = .flow(document.blocks[i])
        }
        prepared[i] = block
        return block
    }

    /// A paragraph laid out at the current band's column width (or taken over from the counting pass).
    private func layout(_ p: AttributedParagraph, at i: Int) -> PreparedBlock {
        if !p.pageReferences.isEmpty {  // its numbers differ between the passes: never reused
            return .paragraph(ParagraphLayout(p.resolvingPageReferences(knownPages), columnWidth: frames[0].width,
                                              engine: engine, images: images, diagnostics: &diagnostics))
        }
        if let reused = reuse?.take(i) {
            diagnostics += reused.warnings
            return .paragraph(reused)
        }
        let layout = paragraphLayout(p, at: i)
        reuse?.offer(layout, at: i)
        return .paragraph(layout)
    }

    private func place(_ rule: HorizontalRule) throws {
        var gap = region.isEmpty ? 0 : pendingSpace + rule.spaceBefore
        if !region.fits(gap + rule.thickness) && !region.isEmpty {
            try nextColumn()
            gap = 0
        }
        if bands.isTrial && !region.fits(rule.thickness) { throw BalanceOverflow() }
        let slot = region.take(gap: gap, height: rule.thickness, advance: rule.thickness)
        page.rects.append(PlacedRect(kind: .rule, x: slot.x, y: slot.top,
                                     width: slot.width * min(max(rule.widthFraction, 0), 1), height: rule.thickness,
                                     color: rule.color))
        pageHasContent = true
        pendingSpace = rule.spaceAfter
    }

    func place(_ p: ParagraphLayout, index: Int, from firstLine: Int = 0) throws {
        let style = p.paragraph.style
        if firstLine == 0 {
            switch style.breakBefore {
            case .page: if pageHasContent { try newPage() }
            case .column: if !region.isEmpty { try nextColumn() }
            case .none: break
            }
        }
        if !region.isEmpty && firstLine == 0 {
            let gap = pendingSpace + style.spaceBefore
            if style.keepTogether && !region.fits(gap + p.height) && p.height <= region.frame.height {
                try nextColumn()
            } else if style.keepWithNext && !keepWithNextFits(p, index: index, gap: gap) {
                try nextColumn()
            }
        }
        if needsFlow(p, from: firstLine) {
            try placeFlowing(p, index: index, from: firstLine < 0 ? -firstLine - 1 : 0)
            return
        }
        // Lines by `hasLine`/`line`: a paragraph in pieces is laid out as it is placed.
        var start = firstLine
        while p.hasLine(start) {
            bands.cursor.line = start
            let gap = region.isEmpty || start > 0 ? 0 : pendingSpace + style.spaceBefore
            var count = linesThatFit(p, from: start, available: region.remaining - gap, columnIsEmpty: region.isEmpty)
            if count == 0 && region.isEmpty && (bands.isTrial || region.frame.top > document.page.margins.top + 0.5) {
                // Too short a column: balancing tries a taller one; a band low on the page goes on to the next.
                if bands.isTrial { throw BalanceOverflow() }
                try nextColumn()
                continue
            }
            if count == 0 {
                if region.isEmpty {
                    // A line taller than a whole column: it goes alone, overflowing the bottom margin.
                    diagnostics.append(.warning(
                        String(format: "a line is %.1fpt tall, taller than the column (%.1fpt)",
                               p.line(start).height, region.frame.height), at: p.paragraph.location))
                    count = 1
                } else {
                    try nextColumn()
                    continue
                }
            }
            // A line with footnote marks goes where its notes fit too (FootnotePlacement.swift).
            let cut = footnoteCut(p, from: start, count: count, gap: gap)
            if cut.count == 0 {
                try nextColumn()
                continue
            }
            placeLines(p, start..<(start + cut.count), gap: gap, index: index)
            if !cut.notes.isEmpty {
                let markTop = cut.bodyBottom - p.line(start + cut.count - 1).height
                takeNotes(cut.notes, bodyBottom: cut.bodyBottom, markTop: markTop)
            }
            start += cut.count
            bands.cursor.line = start
            if p.hasLine(start) && cut.count == count && cut.notes.isEmpty { try nextColumn() }
        }
        pendingSpace = style.spaceAfter
    }

    /// How many lines from `start` to put in the current column, honouring orphans and widows.
    /// 0 means: move on to the next column first.
    func linesThatFit(_ p: ParagraphLayout, from start: Int, available: Double, columnIsEmpty: Bool) -> Int {
        var used = 0.0
        var fit = 0
        while p.hasLine(start + fit) && used + p.line(start + fit).height <= available + FlowRegion.epsilon {
            used += p.line(start + fit).advance
            fit += 1
        }
        let style = p.paragraph.style
        // Lines left, counted only as far as the widow and orphan rules look.
        let left = p.linesLeft(from: start, atMost: fit + max(style.widows, 0) + max(style.orphans, 0) + 1)
        if fit >= left { return left }
        if columnIsEmpty { return fit }  // nothing better can happen in the next column
        var count = fit
        if left - count < style.widows { count = left - style.widows }
        if start == 0 && count < min(style.orphans, left) { return 0 }
        return max(count, 0)
    }

    /// Whether a keep-with-next paragraph (a heading), any keep-with-next paragraphs right after it and the
    /// first lines of the paragraph after those fit in the current column.
    private func keepWithNextFits(_ p: ParagraphLayout, index: Int, gap: Double) -> Bool {
        var needed = gap + p.height
        if needed > region.remaining + FlowRegion.epsilon { return needed > region.frame.height }
        var spaceAfter = p.paragraph.style.spaceAfter
        var j = index + 1
        while j < document.blocks.count, j - index <= 4, case .paragraph(let q) = prepare(j) {
            let qgap = spaceAfter + q.paragraph.style.spaceBefore
            if q.paragraph.style.keepWithNext {
                needed += qgap + q.height
                spaceAfter = q.paragraph.style.spaceAfter
                j += 1
                continue
            }
            let available = region.remaining - needed - qgap
            if linesThatFit(q, from: 0, available: available, columnIsEmpty: false) == 0 {
                // Give up keeping if the chain could not fit in any column.
                return needed + qgap + (q.hasLine(0) ? q.line(0).height : 0) > region.frame.height
            }
            return leadingNotesFit(q, top: region.y + needed + qgap)
        }
        if j < document.blocks.count, j - index <= 4, case .table(let table) = prepare(j) {
            // A table caption (or heading) goes where the table's header and first row fit under it.
            let lead = needed + spaceAfter + leadHeight(of: table)
            if lead > region.frame.height { return true }
            return lead <= region.remaining + FlowRegion.epsilon && leadingNotesFit(table, after: p, bottom: region.y + lead)
        }
        return needed <= region.remaining + FlowRegion.epsilon
    }

    private func placeLines(_ p: ParagraphLayout, _ range: Range<Int>, gap: Double, index: Int) {
        let style = p.paragraph.style
        var fragmentTop = 0.0, fragmentBottom = 0.0
        for i in range {
            let box = p.line(i)
            let slot = region.take(gap: i == range.lowerBound ? gap : 0, height: box.height, advance: box.advance)
            let baseline = slot.top + box.baselineOffset
            if i == range.lowerBound { fragmentTop = slot.top }
            fragmentBottom = slot.top + box.height
            page.lines.append(PlacedLine(paragraph: p, lineIndex: i, originX: slot.x + p.left, baseline: baseline))
            if let mark = p.continuationMark, p.isContinuation(i) {  // `↪`: drawn, not part of the text
                page.markLines.append(PlacedLine(paragraph: mark, lineIndex: 0, originX: slot.x + p.left,
                                                 baseline: baseline))
            }
            if case .tocEntry(let entry) = document.blocks[index], i == p.lines.count - 1 {
                toc.decorate(entry, layout: p, line: box, x: slot.x, width: slot.width, baseline: baseline,
                             page: tocPages?[entry.target], on: &page)
            }
            if i == 0 { placeDestinations(p, x: slot.x, y: slot.top) }
            for piece in p.linkPieces(line: i) where isReachable(piece.target, from: p) {
                page.links.append(LinkArea(target: piece.target, x: slot.x + piece.x, y: baseline - box.ascent,
                                           width: piece.width, height: box.ascent + box.descent))
            }
            if box.hasAttachment {
                for image in p.images where image.line == i {
                    page.images.append(PlacedImage(path: image.path, image: image.image, x: slot.x + image.x,
                                                   y: baseline + image.top, width: image.width,
                                                   height: image.height, fit: image.fit, structure: image.structure))
                }
            }
        }
        pageHasContent = true
        let frame = region.frame
        if let background = style.background {
            // The box spans the text area plus its padding (taken from the indents and paragraph spacing).
            let pad = style.backgroundPadding
            let left = p.box.left - pad
            page.rects.append(PlacedRect(kind: .background, x: frame.x + left, y: fragmentTop - pad,
                                         width: frame.width - left - p.box.right + pad,
                                         height: fragmentBottom - fragmentTop + 2 * pad, color: background))
        }
        placeBars(p, x: frame.x, top: fragmentTop, bottom: fragmentBottom, gap: gap)
    }

    /// False for an internal link to a destination that does not exist: no dangling link is written.
    /// (Lowering has already warned at the link's own location.)
    func isReachable(_ target: LinkTarget, from p: ParagraphLayout) -> Bool {
        guard case .destination(let name) = target, !knownDestinations.contains(name) else { return true }
        return false
    }

    var destinationNames = Set<String>()

    func placeDestinations(_ p: ParagraphLayout, x: Double, y: Double) {
        var names = p.paragraph.anchors
        if let outline = p.paragraph.outline {
            names.append(outline.id)
            page.outline.append(PlacedOutlineEntry(level: outline.level, title: outline.title, id: outline.id, y: y))
            if outline.level == 1 {
                section = outline.title
                if !pageHasContent { page.section = outline.title }  // the heading the page opens with
            }
        }
        for name in names where destinationNames.insert(name).inserted {
            page.destinations.append(NamedDestination(name: name, x: x, y: y))
        }
    }

    // MARK: Columns and pages

    func nextColumn() throws {
        bands.noteColumnEnd(columnIndex, bottom: region.y)
        drawNotes()
        closeBoxFragments()
        if columnIndex + 1 < frames.count {
            columnIndex += 1
            region = FlowRegion(frame: frames[columnIndex])
            setCarriedNotes()
            openBoxFragments()
            try placeDeferredFigures()
        } else {
            try newPage()
        }
    }

    func newPage() throws {
        if bands.isTrial { throw BalanceOverflow() }
        if page.number >= DocumentLayout.maxPages {
            throw Diagnostic.error("the document makes more than \(DocumentLayout.maxPages) pages; the limit is "
                + "\(DocumentLayout.maxPages) (it stops here)", at: placingLocation)
        }
        closeBoxFragments()
        try finishPage()
        startPage(number: page.number + 1)
        openBoxFragments()
        try placeDeferredFigures()
    }

    private func startPage(number: Int) {
        page = Page(number: number, width: document.page.width, height: document.page.height)
        barRects = [:]
        page.section = section  // the level-1 heading in force at the top of the page
        pageHasContent = false
        for (index, early) in earlyShapes where early.page == number { flow.exclusions[index] = early }
        startBand(top: document.page.margins.top)
        releasePlacedBlocks()
    }

    /// Frees the blocks nothing can place again: those before the new page's band (balancing places a band
    /// again from its start) and before any figure still waiting for a column.
    private func releasePlacedBlocks() {
        guard releasesPlacedBlocks else { return }
        var mark = min(bands.start.block, bands.cursor.block)
        if let waiting = deferredFigures.first { mark = min(mark, waiting.lowerBound) }
        if let waiting = bands.snapshot?.deferredFigures.first { mark = min(mark, waiting.lowerBound) }
        mark = min(mark, document.blocks.count)
        while releasedBlocks < mark {
            document.blocks[releasedBlocks] = .pageBreak
            releasedBlocks += 1
        }
    }

    private func finishPage() throws {
        closeBand()
        for destination in page.destinations { destinationPages[destination.name] = page.number }
        pageCount += 1
        runningText?.place(on: &page, totalPages: totalPages, diagnostics: &diagnostics)
        try emit(page)
        page.lines = []  // drop this page's layouts now, not when the next page replaces it
    }
}
