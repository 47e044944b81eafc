// Justifies the lines of a layout that was given no width: each line's spaces are widened or narrowed so the
// line is exactly as wide as the breaker planned, the way `pango_layout_line_justify` stretches them (but to our
// width per line, and able to shrink).

import CPangoCairo

enum LineJustification {
    /// Justifies the lines `justify(i)` of `layout` (whose text is `text`) to `lineWidth(i)` points. Other lines
    /// (a paragraph's last) are only shrunk, when the breaker planned them with shrunk spaces.
    /// Returns false when a line stays wider than its width even with its spaces shrunk as far as they go.
    @discardableResult
    /// A line whose spaces would grow past `maxFactor` times their width is left ragged (beside shapes).
    static func justify(layout: OpaquePointer, text: UnsafeBufferPointer<UInt8>, justify: (Int) -> Bool,
                        lineWidth: (Int) -> Double, maxFactor: Double = .infinity) -> Bool {
        var fits = true
        // get_lines (not _readonly) marks the lines as changed by us, so Pango does not cache their extents.
        var lineNode = pango_layout_get_lines(layout)
        var index = 0
        while let ln = lineNode {
            lineNode = ln.pointee.next
            defer { index += 1 }
            let full = justify(index)
            let line = ln.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            let start = Int(line.pointee.start_index), end = start + Int(line.pointee.length)
            // The line's content without its leading and trailing spaces and separators (drawn at no width).
            var first = start
            while first < end, let n = blankLength(text, first) { first += n }
            var last = end
            while last > first, let n = blankLength(text, previousCharacter(text, last)) { last -= n }
            var natural = 0, spaces = 0, spaceCount = 0, letters = 0
            forEachRun(line) { offset, glyphs in
                for g in 0..<Int(glyphs.pointee.num_glyphs) {
                    let byte = offset + Int(glyphs.pointee.log_clusters[g])
                    let w = Int(glyphs.pointee.glyphs[g].geometry.width)
                    guard byte >= first && byte < last else { continue }
                    natural += w
                    if isStretchable(text, byte) { spaces += w; spaceCount += 1 } else if w > 0 { letters += 1 }
                }
            }
            let target = Int(toPango(lineWidth(index)))
            if spaces == 0 && natural > target + overflowTolerance { fits = false }
            guard spaces > 0 && (full || natural > target) else { continue }
            var factor = max(1 + Double(target - natural) / Double(spaces), 1 - TotalFitLines.spaceShrink)
            if factor > maxFactor { continue }
            if Double(natural) + Double(spaces) * (factor - 1) > Double(target + overflowTolerance) { fits = false }
            // A very loose line also spaces its letters a little (as pdfTeX's font expansion widens glyphs), so
            // its word gaps grow less: at most `maxTracking` of a space between letters.
            var tracking = 0.0
            if full && factor > trackingFrom && letters > 1 && !ScriptJoining.forbidsLetterSpacing(line) {
                let excess = Double(spaces) * (factor - trackingFrom)
                tracking = min(excess / Double(letters - 1), maxTracking * Double(spaces) / Double(spaceCount))
                factor = 1 + (Double(target - natural) - tracking * Double(letters - 1)) / Double(spaces)
            }
            // Rounded cumulatively, so the line's width is exact in Pango units.
            var exact = 0.0, given = 0, letter = 0
            forEachRun(line) { offset, glyphs in
                for g in 0..<Int(glyphs.pointee.num_glyphs) {
                    let byte = offset + Int(glyphs.pointee.log_clusters[g])
                    let w = glyphs.pointee.glyphs[g].geometry.width
                    if byte < first || byte >= last {
                        if blankLength(text, byte) != nil || isStretchable(text, byte) {
                            glyphs.pointee.glyphs[g].geometry.width = 0
                        }
                        continue
                    }
                    if isStretchable(text, byte) {
                        exact += Double(w) * (factor - 1)
                    } else if tracking > 0 && w > 0 {
                        letter += 1
                        guard letter < letters else { continue }  // nothing after the line's last glyph
                        exact += tracking
                    } else {
                        continue
                    }
                    let next = clampedInt(exact.rounded())
                    glyphs.pointee.glyphs[g].geometry.width = w + cInt(next - given)
                    given = next
                }
            }
        }
        return fits
    }

    /// Space factor above which letters are spaced too, and the most added between two letters (of a space).
    /// 8% of a space is ~0.025 em: unnoticeable, yet it takes lines with a gap over 2x from 6.4% to ~4.3%
    /// on the benchmark report (the loosest lines hold long words that cannot hyphenate: code, paths).
    static let trackingFrom = 1.6
    static let maxTracking = 0.08

    /// Pango units a line may pass its width by (rounding), 1/64 pt.
    static let overflowTolerance = 16

    private static func forEachRun(_ line: UnsafeMutablePointer<PangoLayoutLine>,
                                   _ body: (Int, UnsafeMutablePointer<PangoGlyphString>) -> Void) {
        var runNode = line.pointee.runs
        while let rn = runNode {
            let run = rn.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            body(Int(run.pointee.item.pointee.offset), run.pointee.glyphs)
            runNode = rn.pointee.next
        }
    }

    /// A space Pango would stretch: U+0020 or U+00A0.
    @inline(__always) static func isStretchable(_ text: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        text[i] == 0x20 || (text[i] == 0xC2 && i + 1 < text.count && text[i + 1] == 0xA0)
    }

    /// Byte length of a space or U+2028 at `i`, nil for anything else.
    @inline(__always) static func blankLength(_ text: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        if text[i] == 0x20 { return 1 }
        if text[i] == 0xE2 && i + 2 < text.count && text[i + 1] == 0x80 && text[i + 2] == 0xA8 { return 3 }
        return nil
    }

    @inline(__always) static func previousCharacter(_ text: UnsafeBufferPointer<UInt8>, _ end: Int) -> Int {
        var i = end - 1
        while i > 0 && text[i] & 0xC0 == 0x80 { i -= 1 }
        return i
    }
}
