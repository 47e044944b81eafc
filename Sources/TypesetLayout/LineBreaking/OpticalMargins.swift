// Optical margins of lines Pango wrapped and aligned itself (ragged text): how far each line's first and last
// characters may hang out (Protrusion); the line box then moves at the edge its alignment sets.

import CPangoCairo

enum OpticalMargins {
    /// Per line of `layout` (text `text`): its protrusion at both ends; none for right-to-left lines or lines
    /// with a tab (tab stops must not move).
    static func ragged(_ layout: OpaquePointer, text: UnsafeBufferPointer<UInt8>) -> [LineAdjustment] {
        var result: [LineAdjustment] = []
        var node = pango_layout_get_lines_readonly(layout)
        while let n = node {
            node = n.pointee.next
            let line = n.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            result.append(margins(line, text: text))
        }
        return result
    }

    private static func margins(_ line: UnsafeMutablePointer<PangoLayoutLine>,
                                text: UnsafeBufferPointer<UInt8>) -> LineAdjustment {
        var adjust = LineAdjustment()
        let start = Int(line.pointee.start_index), end = min(start + Int(line.pointee.length), text.count)
        var first = start
        while first < end, let n = LineJustification.blankLength(text, first) { first += n }
        var last = end
        while last > first, let n = LineJustification.blankLength(text, LineJustification.previousCharacter(text, last)) {
            last -= n
        }
        guard last > first, !text[first..<last].contains(9) else { return adjust }
        // Also stop at a hard break's newline: it ends the line's text.
        while last > first, text[LineJustification.previousCharacter(text, last)] == 0x0A { last -= 1 }
        guard last > first else { return adjust }
        let lastChar = LineJustification.previousCharacter(text, last)
        var firstWidth: Int32 = 0, lastWidth: Int32 = 0
        var runNode = line.pointee.runs
        while let rn = runNode {
            runNode = rn.pointee.next
            let run = rn.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            if run.pointee.item.pointee.analysis.level & 1 != 0 { return LineAdjustment() }
            let offset = Int(run.pointee.item.pointee.offset)
            let glyphs = run.pointee.glyphs.pointee
            for g in 0..<Int(glyphs.num_glyphs) {
                let byte = offset + Int(glyphs.log_clusters[g])
                if byte == first { firstWidth += glyphs.glyphs[g].geometry.width }
                if byte == lastChar { lastWidth += glyphs.glyphs[g].geometry.width }
            }
        }
        adjust.protrudeLeft = Protrusion.amount(Protrusion.scalar(text, first), advance: fromPango(firstWidth),
                                                atStart: true)
        adjust.protrudeRight = Protrusion.amount(Protrusion.scalar(text, lastChar), advance: fromPango(lastWidth),
                                                 atStart: false)
        return adjust
    }
}
