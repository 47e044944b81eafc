// Colours, underlines and strike lines of a paragraph, given to its glyph runs after line breaking rather than
// through the layout's attribute list (backgrounds are not given to Pango at all: LineBackgrounds.swift). Pango
// 1.50 gives such attributes to the runs of every line (`apply_attributes_to_runs`) by walking the list from its
// start for each run, so a paragraph costs time quadratic in its styled spans: `` `a` `` x 250,000 (1 MB of inline
// code, each with a ground) took 12 s, most of it in `pango_attr_iterator_next`. Here each run is handed to the
// same Pango call, `pango_glyph_item_apply_attrs`, with a list of only the attributes that overlap it, in the
// order the whole list has them: the runs are split and given their attributes exactly as Pango's own pass
// does, in time linear in the paragraph (issue 8).

import CPangoCairo
import TypesetIR

/// The decoration attributes of one layout, owned until they are copied onto its runs.
final class RunDecorations {
    private var attributes: [UnsafeMutablePointer<PangoAttribute>] = []
    private var starts: [Int] = []
    /// Per attribute: the largest end of it and of all before it (to find the first that may reach a run).
    private var reach: [Int] = []
    private var sorted = true

    /// Backgrounds, which Pango does not draw (LineBackgrounds.swift).
    private(set) var backgrounds: [BackgroundSpan] = []

    deinit { for attribute in attributes { pango_attribute_destroy(attribute) } }

    func addBackground(_ range: Range<Int>, _ color: LineBackground.Color) {
        if let last = backgrounds.last, last.range.upperBound > range.lowerBound { backgroundsApart = false }
        backgrounds.append(BackgroundSpan(range: range, color: color))
    }
    private var backgroundsApart = true

    /// The rectangles behind each line of `layout`, once its lines are final (empty: no backgrounds).
    func backgroundRects(_ lines: [UnsafeMutablePointer<PangoLayoutLine>]) -> [[LineBackground]] {
        guard !backgrounds.isEmpty else { return [] }
        if !backgroundsApart {
            // Runs come in order and apart; whatever came, the spans are made so (a later one yields).
            var apart: [BackgroundSpan] = []
            for var span in backgrounds.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
                if let end = apart.last?.range.upperBound, span.range.lowerBound < end {
                    span.range = end ..< max(end, span.range.upperBound)
                }
                if !span.range.isEmpty { apart.append(span) }
            }
            backgrounds = apart
            backgroundsApart = true
        }
        return lines.map { LineBackgrounds.rects(of: $0, spans: backgrounds) }
    }

    /// Whether Pango's per-run pass (rather than this one) handles attributes of this kind: the ones that do
    /// not affect itemization, breaking or shaping (pango-layout.c, `affects_itemization` and
    /// `affects_break_or_shape`).
    static func isDecoration(_ attribute: UnsafeMutablePointer<PangoAttribute>) -> Bool {
        switch attribute.pointee.klass.pointee.type {
        case PANGO_ATTR_FOREGROUND, PANGO_ATTR_BACKGROUND, PANGO_ATTR_FOREGROUND_ALPHA, PANGO_ATTR_BACKGROUND_ALPHA,
             PANGO_ATTR_UNDERLINE, PANGO_ATTR_UNDERLINE_COLOR, PANGO_ATTR_STRIKETHROUGH,
             PANGO_ATTR_STRIKETHROUGH_COLOR, PANGO_ATTR_OVERLINE, PANGO_ATTR_OVERLINE_COLOR:
            return true
        default:
            return false
        }
    }

    /// Takes `attribute` over the UTF-8 byte range.
    func add(_ attribute: UnsafeMutablePointer<PangoAttribute>, _ range: Range<Int>) {
        attribute.pointee.start_index = UInt32(clamping: range.lowerBound)
        attribute.pointee.end_index = UInt32(clamping: range.upperBound)
        if let last = starts.last, range.lowerBound < last { sorted = false }
        attributes.append(attribute)
        starts.append(range.lowerBound)
        reach.append(max(reach.last ?? 0, range.upperBound))
    }

    /// Splits the runs of `layout`'s lines where these attributes start and end and gives each its
    /// attributes, as Pango does with the attributes it is given. The lines keep the extents Pango cached for
    /// them: none of these attributes changes a logical extent (only the ink of an underline), and marking the
    /// lines changed (`pango_layout_get_lines`) would have a line drawn in parts measured by each part.
    func apply(to layout: OpaquePointer) {
        guard !attributes.isEmpty, let text = pango_layout_get_text(layout) else { return }
        if !sorted { sortByStart() }
        var lineNode = pango_layout_get_lines_readonly(layout)
        while let ln = lineNode {
            lineNode = ln.pointee.next
            let line = ln.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            var runs: [gpointer] = []
            var changed = false
            var runNode = line.pointee.runs
            while let rn = runNode {
                runNode = rn.pointee.next
                guard let data = rn.pointee.data else { continue }
                let run = data.assumingMemoryBound(to: PangoGlyphItem.self)
                let item = run.pointee.item.pointee
                let overlapping = overlaps(Int(item.offset) ..< Int(item.offset) + Int(item.length))
                guard !overlapping.isEmpty, let list = pango_attr_list_new() else {
                    runs.append(data)
                    continue
                }
                for k in overlapping { pango_attr_list_insert(list, pango_attribute_copy(attributes[k])) }
                // The run itself is the last piece; the pieces come in the line's order.
                let pieces = pango_glyph_item_apply_attrs(run, text, list)
                pango_attr_list_unref(list)
                var pieceNode = pieces
                while let pn = pieceNode {
                    if let piece = pn.pointee.data { runs.append(piece) }
                    pieceNode = pn.pointee.next
                }
                g_slist_free(pieces)
                changed = true
            }
            guard changed else { continue }
            g_slist_free(line.pointee.runs)
            var rebuilt: UnsafeMutablePointer<GSList>? = nil
            for data in runs.reversed() { rebuilt = g_slist_prepend(rebuilt, data) }
            line.pointee.runs = rebuilt
        }
    }

    /// The attributes that overlap `range`, in order.
    private func overlaps(_ range: Range<Int>) -> [Int] {
        guard !range.isEmpty else { return [] }
        // The first attribute that, or one before it, ends after the range starts.
        var found: [Int] = []
        var k = reach.firstIndex(endingAfter: range.lowerBound) { $0 }
        while k < attributes.count && starts[k] < range.upperBound {
            if Int(attributes[k].pointee.end_index) > range.lowerBound { found.append(k) }
            k += 1
        }
        return found
    }

    /// Pango keeps a list sorted by start, later insertions after earlier ones with the same start.
    private func sortByStart() {
        let order = attributes.indices.sorted { starts[$0] != starts[$1] ? starts[$0] < starts[$1] : $0 < $1 }
        attributes = order.map { attributes[$0] }
        starts = order.map { starts[$0] }
        reach = []
        for attribute in attributes { reach.append(max(reach.last ?? 0, Int(attribute.pointee.end_index))) }
        sorted = true
    }
}
