// The renderer's half of tagging: every drawing operation goes inside a cairo structure tag, and the recorder
// notes, page by page, which structure path each marked-content sequence belongs to. cairo 1.16 numbers the
// sequences of a page 0, 1, 2, ... in the order the tags begin (a link annotation takes one too), so the
// position in a page's list is the MCID. The PDF stage (TaggedPDF.swift) builds the structure tree from that.
// cairo 1.16 refuses `Artifact` as a tag name: artifacts are tagged `Private`, which that stage rewrites.

import CPangoCairo
import Foundation
import TypesetIR
import TypesetLayout

/// One marked-content sequence of a page.
enum MarkedContent {
    case content([StructureNode])
    case artifact
    /// Sequences of a table row's cells (TableTagRecords.swift): recorded as `.content`, kept in this form.
    case cells(TableRowMarks)
}

/// A link annotation the tagging stage writes (not cairo: its per-link tags cost more than the text they mark,
/// issue 8), inside the element whose line holds it.
/// The link annotations recorded page by page, for the tagging stage. A link is 40 bytes: its owner path and
/// its target are kept once, in tables, and each page's list is made at its size (issue 8: a paragraph of two
/// million links held 64-80 bytes a link, in arrays grown by doubling, from the first page to the last).
struct RecordedLinks {
    struct Entry {
        var owner: Int32
        var target: Int32
        var x: Double, y: Double, width: Double, height: Double
    }

    private var owners: [[StructureNode]] = []
    private var targets: [LinkTarget] = []
    private var pages: [[Entry]] = []
    private var current: [Entry] = []

    var pageCount: Int { pages.count }
    /// Owner paths and targets kept (tests).
    var tableSizes: (owners: Int, targets: Int) { (owners.count, targets.count) }
    func count(page: Int) -> Int { page < pages.count ? pages[page].count : 0 }
    func owner(page: Int, index: Int) -> [StructureNode] { owners[Int(pages[page][index].owner)] }

    func area(page: Int, index: Int) -> LinkArea {
        let e = pages[page][index]
        return LinkArea(target: targets[Int(e.target)], x: e.x, y: e.y, width: e.width, height: e.height)
    }

    mutating func append(owner: [StructureNode], area: LinkArea) {
        // Links come paragraph by paragraph: an owner or target is most often the last one again.
        if owners.isEmpty || !Self.sameStorage(owners[owners.count - 1], owner) { owners.append(owner) }
        if targets.isEmpty || targets[targets.count - 1] != area.target { targets.append(area.target) }
        current.append(Entry(owner: Int32(clamping: owners.count - 1), target: Int32(clamping: targets.count - 1),
                             x: area.x, y: area.y, width: area.width, height: area.height))
    }

    /// Page p's links are not read again: let go (its count reads 0 from here).
    mutating func release(page p: Int) {
        if p < pages.count { pages[p] = [] }
    }

    mutating func endPage() {
        pages.append(current.count == current.capacity ? current : current.withUnsafeBufferPointer(Array.init))
        current = []
    }

    /// One path array (lines of one paragraph share theirs), or two empty ones.
    private static func sameStorage(_ a: [StructureNode], _ b: [StructureNode]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}

final class TagRecorder {
    static let artifactTag = "Private"
    /// Content that lowering gave no structure: one paragraph at the end of the reading order.
    static let untagged = [StructureNode(id: 1 << 40, type: "P")]

    /// Off only for measuring what tagging costs (`TYPESET_UNTAGGED=1`, Benchmarks/bench.py).
    let enabled: Bool
    private(set) var pages: [PageMarks] = []
    private var current = PageMarks()
    /// Per page, the sequences (by MCID) that end in a hyphen the line breaker added, which reads as nothing.
    private(set) var actualTexts = SilentMCIDs()
    private var currentActualTexts: [UInt64] = []
    /// Per page, its link annotations in drawing order.
    private(set) var pageLinks = RecordedLinks()
    /// Per page, the sequences (by MCID) whose text is in another language than their element's: a span's
    /// `lang` (section 10), written as `/Lang` on the sequence (ContentRewrite.swift).
    private(set) var languages: [[Int: String]] = []
    private var currentLanguages: [Int: String] = [:]
    /// The document's `lang`: an element without a language of its own is in it.
    var documentLanguage = "en"
    /// Inline code spans drawn as `Code` elements of their own (their ids count up from `codeBase`), at most
    /// `maxCodeElements` a document: past that, code is text of its paragraph (cairo keeps a node for every
    /// sequence until the file is finished, and each span takes two: 1 MB of `` `a` `` is 250,000 spans).
    private(set) var codeElements = 0
    static let maxCodeElements = 5_000
    static let codeBase = 1 << 42
    /// The last span's element: a span that wraps keeps one element over its lines.
    private var lastCode: (key: CodeKey, node: StructureNode)? = nil

    /// A code span: the element that holds it, its run's start in the laid-out text, and that text's run count
    /// (a long paragraph's pieces each count their runs from 0).
    private struct CodeKey: Equatable {
        var owner: Int, start: Int, runs: Int
    }

    init(enabled: Bool) { self.enabled = enabled }

    static var enabledByEnvironment: Bool { getenv("TYPESET_UNTAGGED").map { String(cString: $0) } != "1" }

    /// The pages recorded, handed over (the tagging stage releases each as it reads it).
    func takePages() -> [PageMarks] {
        defer { pages = [] }
        return pages
    }

    func endPage() {
        pages.append(current)
        current = PageMarks()
        actualTexts.appendPage(currentActualTexts)
        currentActualTexts = []
        languages.append(currentLanguages)
        currentLanguages = [:]
        pageLinks.endPage()
    }

    /// Draws inside a sequence of the element that owns `nodes` (an artifact when nil).
    func content(_ nodes: [StructureNode]?, on cr: OpaquePointer, _ draw: () -> Void) {
        guard enabled else { return draw() }
        let name = nodes?.last?.type ?? Self.artifactTag
        cairo_tag_begin(cr, name, "")
        draw()
        cairo_tag_end(cr, name)
        current.append(nodes.map(MarkedContent.content) ?? .artifact)
    }

    func artifact(on cr: OpaquePointer, _ draw: () -> Void) { content(nil, on: cr, draw) }

    /// Lines in order; consecutive lines of one element share a sequence. A list item's first line is drawn
    /// in two: its label (`Lbl`) and the rest (`LBody`).
    func lines(_ lines: [PlacedLine], on cr: OpaquePointer, draw: (PlacedLine) -> Void) {
        guard enabled else { return lines.forEach(draw) }
        var index = 0
        while index < lines.count {
            let path = Self.path(of: lines[index])
            if let path, path.labelNodes != nil, labelSplit(lines[index], path: path, on: cr) {
                index += 1
                continue
            }
            if let path, stretchSplit(lines[index], path: path, on: cr) {
                index += 1
                continue
            }
            // A line ending in an added hyphen is drawn whole and closes its sequence: the content rewrite
            // finds the hyphen as the sequence's last glyph (ContentRewrite.splitHyphen; cutting the TJ here
            // would give the hyphen a new text position). The lines before it share the sequence, so a
            // paragraph costs one sequence per hyphen, not three (issue 14: cairo keeps a node per sequence
            // until the file is finished).
            let owner = path?.nodes.last?.id
            let sequence = current.count
            var endsInHyphen = false
            content(path?.nodes, on: cr) {
                repeat {
                    let line = lines[index]
                    draw(line)
                    index += 1
                    if path != nil, Self.hasSilentHyphen(line) {
                        endsInHyphen = true
                        break
                    }
                } while index < lines.count && owner != nil && continues(lines[index], owner: owner)
            }
            if endsInHyphen { SilentMCIDs.insert(sequence, into: &currentActualTexts) }
        }
    }

    /// Whether `line` belongs to the element `owner` and can share its open sequence: a line with an added
    /// hyphen only when the rewrite can make the hyphen read as nothing (it then ends the sequence).
    private func continues(_ line: PlacedLine, owner: Int?) -> Bool {
        guard !line.isArtifact else { return false }
        if line.paragraph.addedHyphen(line: line.lineIndex) != nil && !Self.hasSilentHyphen(line) { return false }
        guard let structure = line.structure ?? line.paragraph.paragraph.structure,
              structure.nodes.last?.id == owner, structure.labelNodes == nil else { return false }
        return !changesLanguage(line, owner: language(of: structure)) && !holdsCode(line)
    }

    /// A line ending in a hyphen the line breaker added, drawn so that the hyphen is the last glyph of its
    /// sequence: no run effects drawn after the text, not right to left.
    private static func hasSilentHyphen(_ line: PlacedLine) -> Bool {
        line.paragraph.addedHyphen(line: line.lineIndex) != nil && RunEffects.runs(of: line) == nil
            && line.paragraph.pangoLine(line.lineIndex).pointee.resolved_dir != PANGO_DIRECTION_RTL.rawValue
    }

    /// The structure path of a line; nil for an artifact (a repeated table header).
    static func path(of line: PlacedLine) -> StructurePath? {
        if line.isArtifact { return nil }
        return line.structure ?? line.paragraph.paragraph.structure ?? StructurePath(untagged)
    }

    /// Records the page's link annotations, each inside the element whose line holds it.
    func links(_ links: [LinkArea], lines: [PlacedLine]) {
        guard enabled, !links.isEmpty else { return }
        let alone = Self.aloneInTheirBand(lines)
        var last = 0
        for link in links {
            let cx = link.x + link.width / 2, cy = link.y + link.height / 2
            func holds(_ line: PlacedLine) -> Bool {
                !line.isArtifact && line.top <= cy && cy <= line.top + line.box.height && line.x <= cx + 1
                    && cx <= line.x + line.box.width + 1
            }
            // Links come line by line: the previous link's line, when no earlier line shares its height, is the
            // first that holds this one too, as the search from the top would find.
            if !(last < lines.count && alone[last] && holds(lines[last]) && strictlyInside(cy, lines[last])) {
                last = lines.firstIndex(where: holds) ?? lines.count
            }
            let line = last < lines.count ? lines[last]
                : lines.min { abs($0.top + $0.box.height / 2 - cy) < abs($1.top + $1.box.height / 2 - cy) }
            let owner = line.flatMap { Self.path(of: $0)?.nodes } ?? Self.untagged
            pageLinks.append(owner: owner, area: link)
        }
    }

    /// For each line, whether no earlier line on the page overlaps its height (lines that only touch do not;
    /// false for all past 256 lines). A point strictly inside such a line's height is in no earlier line.
    private static func aloneInTheirBand(_ lines: [PlacedLine]) -> [Bool] {
        guard lines.count <= 256 else { return Array(repeating: false, count: lines.count) }
        let tops = lines.map(\.top)
        let bottoms = lines.indices.map { tops[$0] + lines[$0].box.height }
        return lines.indices.map { k in
            !(0 ..< k).contains { tops[$0] < bottoms[k] && tops[k] < bottoms[$0] }
        }
    }

    private func strictlyInside(_ y: Double, _ line: PlacedLine) -> Bool { line.top < y && y < line.top + line.box.height }

    /// Draws a list item's first line as label and body when its Pango runs split at the label's end.
    private func labelSplit(_ line: PlacedLine, path: StructurePath, on cr: OpaquePointer) -> Bool {
        guard let labelNodes = path.labelNodes, path.labelBytes > 0, RunEffects.runs(of: line) == nil else { return false }
        let pangoLine = line.paragraph.pangoLine(line.lineIndex)
        guard pangoLine.pointee.start_index == 0, let layout = pangoLine.pointee.layout,
              let text = pango_layout_get_text(layout), strncmp(text, path.labelText, path.labelBytes) == 0 else { return false }
        var node = pangoLine.pointee.runs
        var lastLabel: UnsafeMutablePointer<GSList>? = nil
        var width: Int32 = 0
        while let n = node, let run = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
              Int(run.pointee.item.pointee.offset) < path.labelBytes {
            width &+= Self.advance(run)
            lastLabel = n
            node = n.pointee.next
        }
        let original = pangoLine.pointee.runs
        // Pango draws a line's runs from its list: cut the list at the label's end, draw each half, restore.
        guard let lastLabel, let firstBody = node else {
            content(labelNodes, on: cr) {
                PDFRenderer.fillBackgrounds(line, on: cr)
                show(line, pangoLine, x: line.x, cr)
            }
            return true
        }
        lastLabel.pointee.next = nil
        content(labelNodes, on: cr) {
            PDFRenderer.fillBackgrounds(line, on: cr)
            show(line, pangoLine, x: line.x, cr)
        }
        lastLabel.pointee.next = firstBody
        // The body: in the item's language, or in stretches where a span changes it.
        drawInStretches(line, pangoLine, from: firstBody, start: width, nodes: path.nodes, owner: language(of: path),
                        fillsBackgrounds: false, on: cr)
        pangoLine.pointee.runs = original
        return true
    }

    /// The language an element's text is in: its own `lang`, or its nearest ancestor's, or the document's.
    private func language(of path: StructurePath) -> String {
        (path.nodes.last { $0.language != nil }?.language ?? documentLanguage).lowercased()
    }

    /// A run's language where it differs from `owner` (lower-cased), nil where the run is in the owner's.
    private static func runLanguage(_ attributes: CharacterAttributes, owner: String) -> String? {
        guard let language = attributes.language, !language.isEmpty, language.lowercased() != owner else { return nil }
        return language
    }

    /// Whether some of the line's text is in another language than `owner` (its runs looked up by offset: a
    /// long paragraph's lines cost their own runs only).
    private func changesLanguage(_ line: PlacedLine, owner: String) -> Bool {
        anyRun(of: line) { Self.runLanguage($0, owner: owner) != nil }
    }

    /// Whether the line holds inline code that gets a `Code` element (none once `maxCodeElements` are made).
    private func holdsCode(_ line: PlacedLine) -> Bool {
        codeElements < Self.maxCodeElements && anyRun(of: line) { $0.isCode }
    }

    private func anyRun(of line: PlacedLine, _ test: (CharacterAttributes) -> Bool) -> Bool {
        let (runs, range) = line.paragraph.layoutRuns(ofLine: line.lineIndex)
        var k = RunEffects.runIndex(at: range.lowerBound, in: runs)
        while k < runs.count && runs[k].range.lowerBound < max(range.upperBound, range.lowerBound + 1) {
            if test(runs[k].attributes) { return true }
            k += 1
        }
        return false
    }

    /// The `Code` element of the code run `index` of `runs`, under the element `owner`; nil past the limit.
    private func codeNode(owner: Int, runs: [AttributeRun], index: Int) -> StructureNode? {
        let key = CodeKey(owner: owner, start: runs[index].range.lowerBound, runs: runs.count)
        if let last = lastCode, last.key == key { return last.node }
        guard codeElements < Self.maxCodeElements else { return nil }
        let node = StructureNode(id: Self.codeBase + codeElements, type: "Code")
        codeElements += 1
        lastCode = (key, node)
        return node
    }

    /// Draws a line whose text changes language (a span's `lang`) or holds inline code as consecutive sequences,
    /// one per stretch of Pango runs in one language and one code span or none: a code span's stretch is its
    /// `Code` element's, the others the line's element's; each stretch in another language than the element's
    /// is recorded for `/Lang` on its sequence. Glyphs land where drawing the whole line puts them (each stretch
    /// starts where the runs before it end, as Pango advances). Not for lines whose runs the renderer draws
    /// itself (RunEffects) or that read right to left: those keep one sequence of the element's, in its language.
    private func stretchSplit(_ line: PlacedLine, path: StructurePath, on cr: OpaquePointer) -> Bool {
        let owner = language(of: path)
        guard changesLanguage(line, owner: owner) || holdsCode(line), RunEffects.runs(of: line) == nil else { return false }
        let pangoLine = line.paragraph.pangoLine(line.lineIndex)
        guard pangoLine.pointee.resolved_dir != PANGO_DIRECTION_RTL.rawValue else { return false }
        PDFRenderer.expanded(line, on: cr) {
            drawInStretches(line, pangoLine, from: pangoLine.pointee.runs, start: 0, nodes: path.nodes, owner: owner,
                            fillsBackgrounds: true, on: cr)
        }
        return true
    }

    /// Draws the line's runs from `first` on (`start`: Pango units into the line) as sequences of the element
    /// `nodes` ends with, one per stretch of runs in one language and code span (a span's stretch is drawn in its
    /// `Code` element, under that element); stretches in another language than `owner` are recorded for
    /// `/Lang`. The sequence that ends the line holds an added hyphen (ContentRewrite).
    private func drawInStretches(_ line: PlacedLine, _ pangoLine: UnsafeMutablePointer<PangoLayoutLine>,
                                 from first: UnsafeMutablePointer<GSList>?, start: Int32, nodes: [StructureNode],
                                 owner: String, fillsBackgrounds: Bool, on cr: OpaquePointer) {
        let (runs, _) = line.paragraph.layoutRuns(ofLine: line.lineIndex)
        typealias Node = UnsafeMutablePointer<GSList>
        var stretches: [(first: Node, last: Node, start: Int32, language: String?, code: StructureNode?)] = []
        var node = first
        var width = start
        let elementID = nodes.last?.id ?? 0
        while let n = node, let run = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self) {
            let offset = Int(run.pointee.item.pointee.offset)
            let index = RunEffects.runIndex(at: offset, in: runs)
            let attributes = RunEffects.attributes(index, runs)
            let language = Self.runLanguage(attributes, owner: owner)
            let code = attributes.isCode && index < runs.count ? codeNode(owner: elementID, runs: runs, index: index) : nil
            // A run that draws nothing (no glyphs, or only empty ones: a space at the line's end) goes with the
            // stretch before it: no empty sequence.
            if let last = stretches.last,
               (last.language == language && last.code?.id == code?.id) || Self.drawsNothing(run) {
                stretches[stretches.count - 1].last = n
            } else {
                stretches.append((n, n, width, language, code))
            }
            width &+= Self.advance(run)
            node = n.pointee.next
        }
        let original = pangoLine.pointee.runs
        let silentHyphen = Self.hasSilentHyphen(line)
        for (k, stretch) in stretches.enumerated() {
            let after = stretch.last.pointee.next
            stretch.last.pointee.next = nil
            pangoLine.pointee.runs = stretch.first
            let sequence = current.count
            content(stretch.code.map { nodes + [$0] } ?? nodes, on: cr) {
                // The whole line's backgrounds, behind its first stretch (a list item's label drew them already).
                if k == 0 && fillsBackgrounds { PDFRenderer.fillBackgrounds(line, on: cr) }
                show(line, pangoLine, x: line.x + pango_units_to_double(stretch.start), cr)
            }
            stretch.last.pointee.next = after
            if let language = stretch.language { currentLanguages[sequence] = language }
            // The added hyphen is the last stretch's last glyph (ContentRewrite.splitHyphen).
            if silentHyphen && k == stretches.count - 1 { SilentMCIDs.insert(sequence, into: &currentActualTexts) }
        }
        pangoLine.pointee.runs = original
    }

    private static func drawsNothing(_ run: UnsafeMutablePointer<PangoGlyphItem>) -> Bool {
        guard let glyphs = run.pointee.glyphs else { return true }
        return (0 ..< Int(glyphs.pointee.num_glyphs)).allSatisfy { glyphs.pointee.glyphs[$0].glyph == PANGO_GLYPH_EMPTY }
    }

    /// How far Pango's renderer moves past a run (Pango units): its glyphs' width and the letter spacing
    /// trimmed at its ends (pango_renderer_draw_layout_line in Pango 1.50). A line drawn in parts starts
    /// each part where drawing the whole line would have.
    private static func advance(_ run: UnsafeMutablePointer<PangoGlyphItem>) -> Int32 {
        pango_glyph_string_get_width(run.pointee.glyphs) &+ run.pointee.start_x_offset &+ run.pointee.end_x_offset
    }

    /// Draws `pangoLine` (or the runs left in its list) from `x` on the line's baseline.
    private func show(_ line: PlacedLine, _ pangoLine: UnsafeMutablePointer<PangoLayoutLine>, x: Double, _ cr: OpaquePointer) {
        cairo_move_to(cr, x, line.baseline)
        pango_cairo_show_layout_line(cr, pangoLine)
    }
}
