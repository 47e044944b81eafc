// Pango 1.50 can end a wrapped line with a hyphen it inserts at a break between two of its items (a word whose
// font changes without a space: "`code`s") without reserving the hyphen's width, so the hyphen is set past the
// column: 18pt at 40pt, a centred line past both edges (issue 8's column check). Such a break is made again
// without a hyphen: hyphen insertion is turned off around it and Pango wraps the paragraph again.

import CPangoCairo

enum InsertedHyphens {
    /// Rewraps `layout` (wrapped by Pango at its width) once when a few of its lines end in a hyphen Pango
    /// inserted and are wider than that width, taking the hyphen from each. Not when many do (columns a few
    /// letters wide, where lines are broken inside words throughout): a rewrap there costs a whole layout
    /// again and again (a 384 KB centred paragraph in 16 columns took ten times as long), and finds more.
    static func keepInsideWidth(_ layout: OpaquePointer, text: UnsafeBufferPointer<UInt8>) {
        let width = Int(pango_layout_get_width(layout))
        guard width > 0 else { return }
        let ends = overflowingHyphenatedLineEnds(layout, width: width, textCount: text.count)
        guard !ends.isEmpty, ends.count <= maxRewrappedLines,
              let list = pango_attr_list_copy(pango_layout_get_attributes(layout)) ?? pango_attr_list_new() else { return }
        for end in ends {
            // From the last character of the line to the first of the next: the break between them.
            let from = LineJustification.previousCharacter(text, end)
            var to = end + 1
            while to < text.count && text[to] & 0xC0 == 0x80 { to += 1 }
            guard let attribute = pango_attr_insert_hyphens_new(0) else { continue }
            attribute.pointee.start_index = UInt32(clamping: from)
            attribute.pointee.end_index = UInt32(clamping: to)
            pango_attr_list_insert(list, attribute)
        }
        pango_layout_set_attributes(layout, list)
        pango_attr_list_unref(list)
    }

    /// Lines of one layout past which it is not wrapped again.
    static let maxRewrappedLines = 4

    /// The end (byte) of each line that Pango ended with an inserted hyphen and that is wider than `width`.
    private static func overflowingHyphenatedLineEnds(_ layout: OpaquePointer, width: Int, textCount: Int) -> [Int] {
        var ends: [Int] = []
        var node = pango_layout_get_lines_readonly(layout)
        while let n = node {
            node = n.pointee.next
            let line = n.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            guard let last = g_slist_last(line.pointee.runs),
                  let run = last.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                  Int(run.pointee.item.pointee.analysis.flags) & Int(PANGO_ANALYSIS_FLAG_NEED_HYPHEN) != 0 else { continue }
            var logical = PangoRectangle()
            pango_layout_line_get_extents(line, nil, &logical)
            let end = Int(line.pointee.start_index) + Int(line.pointee.length)
            // 1/64 pt of rounding; a break at the text's end is not one Pango made.
            if Int(logical.width) > width + 16 && end > 0 && end < textCount { ends.append(end) }
        }
        return ends
    }
}
