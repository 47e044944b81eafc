// One IR paragraph laid out by Pango at a column width: the PangoLayout (kept alive for drawing),
// its line boxes, inline images and link spans.

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR

/// An inline image on a line, relative to that line's baseline and the column's left edge.
public struct LineImage {
    public var line: Int
    public var x: Double
    /// Top of the image box relative to the baseline (negative: above).
    public var top: Double
    public var width: Double
    public var height: Double
    public var fit: ImageFit
    public var path: String
    public var image: ImageSurface
    /// Its Figure element (nil: decorative).
    public var structure: StructurePath? = nil
}

/// A piece of link on one line, x from the column's left edge.
public struct LineLinkPiece {
    public var target: LinkTarget
    public var x: Double
    public var width: Double
}

public final class ParagraphLayout {
    public let paragraph: AttributedParagraph
    /// Nil for a paragraph laid out in pieces (ParagraphPieces.swift): each piece has its own.
    let handle: LayoutHandle?
    /// A long paragraph's pieces (ParagraphPieces.swift); nil: one Pango layout.
    let pieceSet: PieceSet?
    /// Borrowed pointers into the layout's lines (valid while `handle` lives and the layout is not changed).
    let linePointers: [UnsafeMutablePointer<PangoLayoutLine>]
    /// The lines (a paragraph in pieces lays all of them out first: the paginator uses `hasLine` and `line`).
    public var lines: [LineBox] { pieceSet?.allLines() ?? singleLines }
    private let singleLines: [LineBox]
    /// Left edge of the Pango layout from the column's left edge: the smaller of the two head indents.
    public let left: Double
    /// The edges of the layout's box, and whether a right-to-left list item's indents are mirrored.
    let box: ParagraphBox
    /// Inline images by line (of a paragraph in pieces: on the lines laid out so far).
    public var images: [LineImage] { pieceSet?.images ?? singleImages }
    private var singleImages: [LineImage] = []
    /// Warnings raised while laying out (also appended to the caller's list), kept for reuse of the layout.
    public private(set) var warnings: [Diagnostic] = []
    /// Total-fit text edits (line separators, hyphens): map line offsets back to the paragraph's text.
    private(set) var sourceEdits: [TextEdit] = []
    /// Total-fit: how each line ends (a `.plain` break inside a word means the line was too narrow).
    private(set) var breakKinds: [PlannedBreak.Kind] = []
    /// Total-fit: whether the breaks were planned from words measured one by one (see WordMeasure).
    private(set) var measuredByWords = false
    /// Per line: expansion, protrusion, letter-spacing (empty: none on any line).
    private var adjustments: [LineAdjustment] = []
    /// Code that wraps: the `↪` drawn before each wrapped piece (see CodeWrap.swift).
    public private(set) var continuationMark: ParagraphLayout?
    /// The runs as set on the Pango layout: in the offsets of its text, which total-fit line separators and
    /// hyphens and code wrap marks move away from the paragraph's (empty for a paragraph in pieces).
    private var layoutRuns: [AttributeRun] = []
    /// Link ranges with one target each, adjacent runs with the same target merged.
    let linkSpans: [(range: Range<Int>, target: LinkTarget)]  // in the layout text's offsets
    /// Per line, the backgrounds to fill behind it (empty: none in the paragraph; LineBackgrounds.swift).
    private var singleBackgrounds: [[LineBackground]] = []

    /// A paragraph made of `pieces` (see ParagraphPieces.swift), whose lines are already gathered.
    init(paragraph: AttributedParagraph, pieces: PieceSet, left: Double, warnings: [Diagnostic]) {
        self.paragraph = paragraph
        handle = nil
        pieceSet = pieces
        linePointers = []
        singleLines = []
        self.left = left
        box = ParagraphBox(of: paragraph)
        self.warnings = warnings
        linkSpans = []
    }

    /// The layout of `other` for an equal paragraph (ParagraphCache): shares its Pango layout, which is only
    /// read after it is made, and carries `paragraph`'s own location, anchors and numbers.
    init(reusing other: ParagraphLayout, for paragraph: AttributedParagraph) {
        self.paragraph = paragraph
        handle = other.handle
        pieceSet = other.pieceSet
        linePointers = other.linePointers
        singleLines = other.singleLines
        left = other.left
        box = other.box
        singleImages = other.singleImages
        warnings = other.warnings
        sourceEdits = other.sourceEdits
        breakKinds = other.breakKinds
        measuredByWords = other.measuredByWords
        continuationMark = other.continuationMark
        layoutRuns = other.layoutRuns
        linkSpans = other.linkSpans
        singleBackgrounds = other.singleBackgrounds
    }

    /// Whether line `i` exists (a paragraph in pieces lays its pieces out up to it).
    func hasLine(_ i: Int) -> Bool { pieceSet?.build(through: i) ?? (i < singleLines.count) }

    /// Lines from `start` on, counted up to `cap` (a paragraph in pieces lays out only that far).
    func linesLeft(from start: Int, atMost cap: Int) -> Int {
        _ = hasLine(start + cap - 1)
        return max(min((pieceSet?.lineCount ?? singleLines.count) - start, cap), 0)
    }

    /// Line `i`, which must exist (`hasLine`).
    func line(_ i: Int) -> LineBox { pieceSet?.line(i) ?? singleLines[i] }

    /// Lays out `paragraph` for a column `columnWidth` points wide, in one Pango layout.
    /// Justified lines whose spaces would grow past `maxSpaceFactor` times their width are set ragged (slots
    /// beside shapes, see FlowPlacement).
    /// `lineBreaks`: where the lines of an unbreakable stretch are planned to start (UnbreakableText): each
    /// planned line becomes a Pango item of its own, so Pango shapes it once; Pango still chooses the breaks.
    init(single paragraph: AttributedParagraph, columnWidth: Double, engine: LayoutEngine,
         images imageCache: ImageCache, diagnostics: inout [Diagnostic], maxSpaceFactor: Double = .infinity,
         lineBreaks: [Int] = [], wholeTabs: TabFacts? = nil) {
        self.paragraph = paragraph
        pieceSet = nil
        LayoutWork.count(paragraph.text.utf8.count, paragraphs: 1)
        let style = paragraph.style
        let layout = LayoutHandle(engine: engine, direction: style.baseDirection)
        handle = layout
        let pl = layout.layout
        let base = FontKey(paragraph.runs.first?.attributes ?? CharacterAttributes())
        pango_layout_set_font_description(pl, engine.fontDescription(base))

        // Geometry: the layout starts at the smaller head indent (the right end of a mirrored one, ParagraphBox);
        // Pango's indent (negative = hanging) puts the other kind of line at the larger one.
        let box = ParagraphBox(of: paragraph)
        self.box = box
        left = box.left
        let width = max(columnWidth - box.left - box.right, 1)
        pango_layout_set_indent(pl, toPango(style.firstLineHeadIndent - style.headIndent))

        var text = paragraph.text
        var codeEdits: [TextEdit] = []
        if style.wrap == .char && style.firstLineHeadIndent == style.headIndent && paragraph.attachments.isEmpty {
            // Wrapped code: its pieces hang by the width of the mark (Pango indents the lines after each `\n`).
            let mark = ParagraphLayout.markLayout(base: paragraph.runs.first?.attributes, engine: engine,
                                                  images: imageCache)
            continuationMark = mark
            pango_layout_set_indent(pl, -toPango(mark.lines.first.map { $0.width + 0.3 * base.size } ?? 0))
            codeEdits = text.withUTF8 { ParagraphLayout.codeBreakEdits($0, width: width, fontSize: base.size) }
            if !codeEdits.isEmpty {
                text = String(decoding: text.withUTF8 { TotalFitLines.apply(codeEdits, to: $0) }, as: UTF8.self)
            }
        }
        var own = TabFacts.none
        text.withUTF8 { buffer in
            own = TabFacts(buffer, style: style)
            ParagraphLayout.setText(pl, buffer)
        }
        // This text's TABs (its tab stops, and whether Pango wraps it); the paragraph's decide the alignment and
        // optical margins of all its lines (see TabFacts).
        let hasTab = own.hasTab
        let tabs = wholeTabs ?? own
        // A list item's marker TAB sits before any word space, so its width is fixed and the item's text can
        // be broken total-fit like any other justified paragraph (measured by exact shaping).
        let totalFit = ParagraphLayout.usesTotalFit(style, hasTab: hasTab && !own.onlyMarkerTab, engine: engine)
            && !text.isEmpty && lineBreaks.isEmpty

        let alignment = tabs.hasTab ? ParagraphLayout.alignmentWithTabs(style.alignment, text: paragraph.text) : style.alignment
        var pangoAlignment: PangoAlignment
        switch alignment {
        case .left, .start: pangoAlignment = PANGO_ALIGN_LEFT
        case .right: pangoAlignment = PANGO_ALIGN_RIGHT
        case .center: pangoAlignment = PANGO_ALIGN_CENTER
        case .justify:
            // Justified by LineJustification, not by Pango: Pango also stretches lines that end in a hard break
            // and letter-spaces lines without spaces (a tabbed price list), which the contract forbids.
            pangoAlignment = PANGO_ALIGN_LEFT
        }
        // Pango swaps left and right for a paragraph it finds right to left; a part of one given its direction
        // (`BaseDirection`) is not swapped, so it is swapped here, to sit where the whole paragraph's lines do.
        if style.baseDirection == .rightToLeft && pangoAlignment != PANGO_ALIGN_CENTER {
            pangoAlignment = pangoAlignment == PANGO_ALIGN_LEFT ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT
        }
        pango_layout_set_alignment(pl, pangoAlignment)

        switch style.wrap {
        case .word where totalFit:
            pango_layout_set_width(pl, -1)  // lines end only where the breaker put separators
        case .word:
            pango_layout_set_width(pl, toPango(width))
            // WORD_CHAR: an overlong word still breaks instead of running past the margin.
            pango_layout_set_wrap(pl, PANGO_WRAP_WORD_CHAR)
        case .char:
            // After a space or punctuation where there is one (codeBreakEdits), else by character.
            pango_layout_set_width(pl, toPango(width))
            pango_layout_set_wrap(pl, PANGO_WRAP_WORD_CHAR)
        case .none:
            pango_layout_set_width(pl, -1)
        }
        if let maxLines = style.maxLines, maxLines > 0, style.wrap != .none {
            pango_layout_set_height(pl, -cInt(maxLines))
            switch style.truncation {
            case .head: pango_layout_set_ellipsize(pl, PANGO_ELLIPSIZE_START)
            case .middle: pango_layout_set_ellipsize(pl, PANGO_ELLIPSIZE_MIDDLE)
            case .tail: pango_layout_set_ellipsize(pl, PANGO_ELLIPSIZE_END)
            }
        }
        if hasTab {
            let marked = paragraph.text.contains(AttributedParagraph.decimalMark)
            // Stops are measured from where lines start: the right end of a mirrored box, which Pango's
            // right-to-left lines measure their tabs from.
            let start = min(style.firstLineHeadIndent, style.headIndent)
            let tabs = ParagraphLayout.tabArray(style, layoutLeft: start, width: width, decimalMarked: marked)
            pango_layout_set_tabs(pl, tabs.tabs)
        }

        // Attributes.
        var shapes: [(TextAttachment, ImageSurface, PangoRectangle)] = []
        var layoutWarnings: [Diagnostic] = []
        for attachment in paragraph.attachments {
            switch imageCache.image(for: attachment.image, engine: engine) {
            case .success(let image):
                let fontSize = ParagraphLayout.attributes(at: attachment.offset, in: paragraph.runs)
                let rect = ParagraphLayout.shapeRect(attachment.image, image: image, font: fontSize, engine: engine)
                shapes.append((attachment, image, rect))
            case .failure(let error):
                layoutWarnings.append(.error(error.description, at: attachment.image.location))
            }
        }
        var runs = paragraph.runs
        if !codeEdits.isEmpty {
            sourceEdits = codeEdits
            runs = ParagraphLayout.remap(runs, through: codeEdits)
        }
        var decorations = ParagraphLayout.setAttributes(pl, runs: runs, shapes: shapes, base: base, style: style,
                                                        tabText: hasTab ? text : nil,
                                                        itemStarts: codeEdits.isEmpty ? lineBreaks : [])
        if !totalFit && style.wrap != .none { text.withUTF8 { InsertedHyphens.keepInsideWidth(pl, text: $0) } }

        if totalFit {
            // Line widths from the layout's left edge: Pango's indent takes room from the first line
            // (positive) or from all the others (negative, hanging).
            let indent = style.firstLineHeadIndent - style.headIndent
            let lineWidth: (Int) -> Double = { i in max(width - (i == 0 ? max(indent, 0) : max(-indent, 0)), 1) }
            var hyphenator: Hyphenator? = nil
            if style.hyphenate {
                let found = HyphenationDictionaries.hyphenator(for: style.language)
                hyphenator = found.hyphenator
                if found.isNewlyMissing {
                    layoutWarnings.append(.warning("no hyphenation patterns for language '\(style.language)' in "
                        + "\(HyphenationDictionaries.directory); its text is not hyphenated", at: paragraph.location))
                }
            }
            // The inserted "-" takes its run's font: reserve the widest hyphen among the paragraph's fonts,
            // so a hyphenated line can never end past its edge.
            var hyphenWidth = engine.hyphenWidth(base)
            if hyphenator != nil {
                for key in Set(paragraph.runs.map { FontKey($0.attributes) }) {
                    hyphenWidth = max(hyphenWidth, engine.hyphenWidth(key))
                }
            }
            let result = TotalFitParagraph.layout(pl, text: text, runs: runs, shapes: shapes, base: base, style: style,
                                                  engine: engine, hyphenator: hyphenator, hyphenWidth: hyphenWidth,
                                                  lineWidth: lineWidth, maxSpaceFactor: maxSpaceFactor)
            runs = result.runs
            shapes = result.shapes
            if let set = result.decorations { decorations = set }
            sourceEdits = result.edits
            breakKinds = result.plan.map(\.kind)
            measuredByWords = result.measuredByWords
            adjustments = result.adjustments
        }
        let protrude = style.protrusion && style.wrap != .char
        if alignment == .justify && !totalFit {
            adjustments = ParagraphLayout.justifyWrappedLines(pl, text: text, width: width, style: style,
                                                              protrude: protrude && !tabs.hasTab)
        } else if !totalFit && protrude && !tabs.hasTab {
            adjustments = text.withUTF8 { OpticalMargins.ragged(pl, text: $0) }
        }
        if !totalFit { text.withUTF8 { LineJustification.zeroTrailingBlanks(layout: pl, text: $0) } }
        // Pango's own pass would have given the runs their decorations before the justification above; it
        // changes glyph widths and offsets only, which splitting a run keeps, so the runs come out the same.
        decorations.apply(to: pl)
        layoutWarnings += UnknownGlyphs.warnings(pl, at: paragraph.location)
        diagnostics += layoutWarnings

        // Lines.
        var pointers: [UnsafeMutablePointer<PangoLayoutLine>] = []
        var raw: [(range: Range<Int>, x: Double, width: Double, ascent: Double, descent: Double)] = []
        // A total-fit layout has no width (its lines end at the planned separators), so Pango aligns its lines
        // against the widest one: a line it puts right or centre (right to left text, ragged or the last line
        // of a one-line paragraph) moves by what the widest line leaves of the column.
        var spare: Double? = nil  // measured at the first line that is not left-aligned
        let iter = pango_layout_get_iter(pl)
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            // In Int: a tall layout's positions come near Int32's range (pieces keep them inside it).
            let baseline = Int(pango_layout_iter_get_baseline(iter)), top = Int(logical.y)
            guard let line = pango_layout_iter_get_line_readonly(iter) else { break }  // past the last line
            let start = Int(line.pointee.start_index)
            pointers.append(line)
            var shift = 0.0
            if totalFit {
                let share = ParagraphLayout.alignedShare(pl, line)
                if share > 0 {
                    if spare == nil { spare = ParagraphLayout.spareWidth(pl, width: width) }
                    shift = share * (spare ?? 0)
                }
            }
            raw.append((start..<(start + Int(line.pointee.length)), left + fromPango(logical.x) + shift,
                        fromPango(logical.width),
                        fromPango(baseline - top), fromPango(top + Int(logical.height) - baseline)))
        } while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)
        linePointers = pointers
        singleBackgrounds = decorations.backgroundRects(pointers)
        if style.wrap == .none, let over = ParagraphLayout.unwrappedOverflow(raw.map(\.width), width: width, at: paragraph.location) {
            layoutWarnings.append(over)
            diagnostics.append(over)
        }

        let ranges = raw.map { $0.range }
        let sizes = LineMetrics.maxFontSizes(lineRanges: ranges, runs: runs, fallback: base.size)
        var attachmentLines = Set<Int>()
        for (attachment, _, _) in shapes {
            if let i = ParagraphLayout.lineIndex(containing: attachment.offset, in: ranges) { attachmentLines.insert(i) }
        }
        var boxes: [LineBox] = []
        boxes.reserveCapacity(raw.count)
        for (i, r) in raw.enumerated() {
            let hasAttachment = attachmentLines.contains(i)
            let box = LineMetrics.box(style: style, maxFontSize: sizes[i], ascent: r.ascent, descent: r.descent,
                                      hasAttachment: hasAttachment, isLast: i == raw.count - 1)
            var line = LineBox(startIndex: r.range.lowerBound, length: r.range.count, x: r.x, width: r.width,
                               ascent: r.ascent, descent: r.descent, height: box.height,
                               baselineOffset: box.baselineOffset, advance: box.advance, hasAttachment: hasAttachment)
            if i < adjustments.count {
                line.adjust(adjustments[i], alignment: alignment)
            }
            boxes.append(line)
        }
        singleLines = boxes
        LayoutWork.countLines(boxes.count)

        var spans: [(range: Range<Int>, target: LinkTarget)] = []
        for run in runs {
            guard let target = run.attributes.link, !run.range.isEmpty else { continue }
            if let last = spans.last, last.target == target, last.range.upperBound == run.range.lowerBound {
                spans[spans.count - 1].range = last.range.lowerBound..<run.range.upperBound
            } else {
                spans.append((run.range, target))
            }
        }
        linkSpans = spans
        layoutRuns = runs
        warnings = layoutWarnings

        for (attachment, image, rect) in shapes {
            guard let i = ParagraphLayout.lineIndex(containing: attachment.offset, in: ranges) else { continue }
            let range = attachment.offset..<(attachment.offset + 3)
            guard let piece = xRanges(line: i, range: range).first else { continue }  // ellipsized away
            singleImages.append(LineImage(line: i, x: piece.x, top: fromPango(rect.y), width: fromPango(rect.width),
                                    height: fromPango(rect.height), fit: attachment.image.fit,
                                    path: attachment.image.path, image: image,
                                    structure: attachment.image.structure))
        }
    }

    /// Whether the paragraph is broken by the total-fit breaker rather than by Pango's greedy wrapping.
    static func usesTotalFit(_ style: ParagraphStyle, hasTab: Bool, engine: LayoutEngine) -> Bool {
        usesTotalFit(style, hasTab: hasTab, lineBreaking: engine.lineBreaking)
    }

    /// Justified text, and ragged-right text with hyphenation on (`isRaggedTotalFit`). Other ragged text keeps
    /// Pango's greedy breaking: without hyphens it looks as good either way and costs half as much. Tabs (Pango
    /// positions them while wrapping), truncation (Pango ellipsizes while wrapping), centred and right-aligned
    /// lines, and char / no wrapping stay with Pango.
    static func usesTotalFit(_ style: ParagraphStyle, hasTab: Bool, lineBreaking: LayoutEngine.LineBreaking) -> Bool {
        lineBreaking == .totalFit && !style.greedyBreaking && (style.alignment == .justify || isRaggedTotalFit(style))
            && style.wrap == .word && !hasTab && (style.maxLines ?? 0) <= 0
    }

    /// Ragged-right text with hyphenation on is broken total-fit as TeX's ragged2e does (`\RaggedRight`): spaces
    /// keep their width, each line may end up to `TotalFitLines.raggedStretch` short at no great cost, and a
    /// hyphen is taken only where it saves a much shorter line. Pango's greedy wrapping knows no hyphenation
    /// points, so `hyphenate: true` did nothing to ragged text (and an overlong word broke between any letters).
    static func isRaggedTotalFit(_ style: ParagraphStyle) -> Bool {
        style.hyphenate && (style.alignment == .left || style.alignment == .start)
    }

    static func setText(_ layout: OpaquePointer, _ bytes: UnsafeBufferPointer<UInt8>) {
        bytes.withMemoryRebound(to: CChar.self) { chars in
            pango_layout_set_text(layout, chars.baseAddress, cInt(chars.count))
        }
    }

    /// Returns the colours, backgrounds, underlines and strike lines, which are not set on the layout: a
    /// layout that is drawn gets them once its lines are final (`RunDecorations.apply`); one that is only
    /// measured needs none.
    @discardableResult
    static func setAttributes(_ layout: OpaquePointer, runs: [AttributeRun],
                              shapes: [(TextAttachment, ImageSurface, PangoRectangle)], base: FontKey,
                              style: ParagraphStyle, tabText: String? = nil, itemStarts: [Int] = []) -> RunDecorations {
        let attrs = AttributeListHandle()
        let decorations = RunDecorations()
        AttributeBuilder.build(runs: runs, base: base, into: attrs, decorations: decorations,
                               text: pango_layout_get_text(layout),
                               expansionSpacing: ExpansionSpacing.spacing(for: runs, in: layout, base: base))
        // Every other planned line gets an attribute that changes nothing drawn (font fallback is on by default)
        // but makes the itemizer end an item at each planned line start (checked with a C probe on Pango 1.50).
        var k = 0
        while k < itemStarts.count {
            let end = k + 1 < itemStarts.count ? itemStarts[k + 1] : runs.last?.range.upperBound ?? itemStarts[k]
            if end > itemStarts[k] { attrs.insert(pango_attr_fallback_new(1), itemStarts[k]..<end) }
            k += 2
        }
        // In paragraphs with tabs, hard breaks must not take width (see zeroLineSeparators).
        if let tabText { ParagraphLayout.zeroLineSeparators(in: tabText, attrs) }
        if style.wrap == .char, let end = runs.last?.range.upperBound {
            // A break inside a code line is not a hyphenation point.
            attrs.insert(pango_attr_insert_hyphens_new(0), 0..<end)
        }
        for (attachment, _, rect) in shapes {
            var ink = rect
            var logical = rect
            attrs.insert(pango_attr_shape_new(&ink, &logical), attachment.offset..<(attachment.offset + 3))
        }
        pango_layout_set_attributes(layout, attrs.list)
        return decorations
    }

    /// Total height of all lines (the last without line spacing).
    public var height: Double { lines.reduce(0) { $0 + $1.advance } }

    /// Pieces of links on line `index`, one per visual run of each link.
    public func linkPieces(line index: Int) -> [LineLinkPiece] {
        if pieceSet != nil {
            let (piece, local) = piece(ofLine: index)
            return piece.linkPieces(line: local)
        }
        guard !linkSpans.isEmpty else { return [] }
        let box = singleLines[index]
        let lineRange = box.startIndex..<(box.startIndex + box.length)
        // Spans are in text order and disjoint: start at the first one ending after the line's start.
        var k = 0, hi = linkSpans.count
        while k < hi {
            let mid = (k + hi) / 2
            if linkSpans[mid].range.upperBound <= lineRange.lowerBound { k = mid + 1 } else { hi = mid }
        }
        var pieces: [LineLinkPiece] = []
        var geometry: LineLinkGeometry?
        var ranges: [(Int32, Int32)] = []
        while k < linkSpans.count, linkSpans[k].range.lowerBound < lineRange.upperBound {
            let span = linkSpans[k]
            k += 1
            guard span.range.overlaps(lineRange) else { continue }
            if geometry == nil { geometry = LineLinkGeometry(line: linePointers[index]) }
            geometry?.xRanges(span.range.clamped(to: lineRange), into: &ranges)
            for (a, b) in ranges {
                if let r = xRange(line: index, a, b) {
                    pieces.append(LineLinkPiece(target: span.target, x: r.x, width: r.width))
                }
            }
        }
        return pieces
    }

    /// A Pango x range of line `index`, moved and scaled as the line is drawn (optical margins, expansion);
    /// nil when empty.
    private func xRange(line index: Int, _ a: Int32, _ b: Int32) -> (x: Double, width: Double)? {
        guard b > a else { return nil }
        let box = singleLines[index]
        return (box.drawnX(left + fromPango(a)), fromPango(b - a) * box.adjustment.scale)
    }

    /// Visual x ranges of a byte range on a line, from the column's left edge.
    func xRanges(line index: Int, range: Range<Int>) -> [(x: Double, width: Double)] {
        var ranges: UnsafeMutablePointer<Int32>? = nil
        var count: Int32 = 0
        pango_layout_line_get_x_ranges(linePointers[index], cInt(range.lowerBound), cInt(range.upperBound),
                                       &ranges, &count)
        defer { g_free(ranges) }
        guard let ranges else { return [] }
        var result: [(x: Double, width: Double)] = []
        for k in 0..<Int(count) {
            if let r = xRange(line: index, ranges[2 * k], ranges[2 * k + 1]) { result.append(r) }
        }
        return result
    }

    /// The Pango line to draw for line `index`.
    /// The attribute runs of the layout that holds line `index`, and the line's bytes, both in the offsets of
    /// that layout's text (what Pango items and `pangoLine(index)` count in), not the paragraph's.
    public func layoutRuns(ofLine index: Int) -> (runs: [AttributeRun], line: Range<Int>) {
        let (layout, local) = piece(ofLine: index)
        let box = layout.singleLines[local]
        return (layout.layoutRuns, box.startIndex..<(box.startIndex + box.length))
    }

    /// The backgrounds to fill behind line `index`, from where the line is drawn (its left end on the baseline).
    public func backgrounds(ofLine index: Int) -> [LineBackground] {
        if pieceSet != nil {
            let (piece, local) = piece(ofLine: index)
            return piece.backgrounds(ofLine: local)
        }
        return index < singleBackgrounds.count ? singleBackgrounds[index] : []
    }

    public func pangoLine(_ index: Int) -> UnsafeMutablePointer<PangoLayoutLine> {
        if pieceSet != nil {
            let (piece, local) = piece(ofLine: index)
            return piece.pangoLine(local)
        }
        return linePointers[index]
    }

    static func lineIndex(containing offset: Int, in ranges: [Range<Int>]) -> Int? {
        var lo = 0, hi = ranges.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if offset < ranges[mid].lowerBound { hi = mid - 1 }
            else if offset >= ranges[mid].upperBound && mid < ranges.count - 1 { lo = mid + 1 }
            else { return ranges[mid].contains(offset) ? mid : nil }
        }
        return nil
    }

    static func attributes(at offset: Int, in runs: [AttributeRun]) -> CharacterAttributes {
        runs.first { $0.range.contains(offset) }?.attributes ?? CharacterAttributes()
    }

    /// The shape rectangle (Pango units, y relative to the baseline) for an inline image.
    static func shapeRect(_ image: ImageAttachment, image surface: ImageSurface, font: CharacterAttributes,
                          engine: LayoutEngine) -> PangoRectangle {
        // Natural size at 96 px per inch; one requested dimension keeps the aspect ratio.
        let naturalW = Double(surface.pixelWidth) * 0.75, naturalH = Double(surface.pixelHeight) * 0.75
        var w = naturalW, h = naturalH
        switch (image.width, image.height) {
        case let (rw?, rh?): w = rw; h = rh
        case let (rw?, nil): w = rw; h = naturalW > 0 ? rw * naturalH / naturalW : rw
        case let (nil, rh?): h = rh; w = naturalH > 0 ? rh * naturalW / naturalH : rh
        case (nil, nil): break
        }
        if let maxWidth = image.maxWidth, w > maxWidth, w > 0 {
            h *= maxWidth / w
            w = maxWidth
        }
        if let maxHeight = image.maxHeight, h > maxHeight, h > 0 {
            w *= maxHeight / h
            h = maxHeight
        }
        let metrics = engine.fontMetrics(FontKey(font))
        var top: Double
        switch image.alignment {
        case .baseline: top = -h
        case .bottom: top = metrics.descent - h
        case .top: top = -metrics.ascent
        case .middle: top = -(metrics.ascent - metrics.descent) / 2 - h / 2
        }
        top -= image.baselineOffset
        return PangoRectangle(x: 0, y: toPango(top), width: toPango(w), height: toPango(h))
    }
}

extension LayoutEngine {
    /// Ascent and descent of a face, points.
    func fontMetrics(_ key: FontKey) -> (ascent: Double, descent: Double) {
        let metrics = pango_context_get_metrics(context, fontDescription(key), nil)
        defer { pango_font_metrics_unref(metrics) }
        return (fromPango(pango_font_metrics_get_ascent(metrics)), fromPango(pango_font_metrics_get_descent(metrics)))
    }
}
