// Justifies the lines of a layout that was given no width: each line's spaces are widened or narrowed so the
// line is exactly as wide as the breaker planned, the way `pango_layout_line_justify` stretches them (but to our
// width per line, and able to shrink).

import CPangoCairo

/// What justification did to one line beyond its spaces: drawn scaled horizontally by `scale` around its left
/// edge (font expansion), moved left by `protrudeLeft` (optical margin), `tracking` added between letters.
public struct LineAdjustment: Sendable, Equatable {
    public var scale = 1.0
    /// Protrusion into the left margin and the right one, points (the line's box starts `protrudeLeft` left
    /// of where Pango put it).
    public var protrudeLeft = 0.0
    public var protrudeRight = 0.0
    /// Points added after each letter but the line's last (unscaled), and the spaces' factor (drawn gap / space).
    public var tracking = 0.0
    public var spaceFactor = 1.0
    public init() {}
}

enum LineJustification {
    /// Justifies the lines `justify(i)` of `layout` (whose text is `text`) to `lineWidth(i)` points. Other lines
    /// (a paragraph's last) are only shrunk, when the breaker planned them with shrunk spaces. A justified line
    /// may scale its glyphs by up to `expansion(i)` (a fraction, quantised to `expansionStep`) before its spaces
    /// take the rest; with `protrude`, its first and last characters hang into the margins (`Protrusion`; not the
    /// first line's start when `indentedStart`).
    /// `fits` is false when a line stays wider than its width even with its spaces shrunk as far as they go.
    /// A line whose spaces would grow past `maxFactor` times their width is left ragged (beside shapes).
    static func justify(layout: OpaquePointer, text: UnsafeBufferPointer<UInt8>, justify: (Int) -> Bool,
                        lineWidth: (Int) -> Double, maxFactor: Double = .infinity,
                        expansion: (Int) -> Double = { _ in 0 },
                        protrude: Bool = false, indentedStart: Bool = false) -> (fits: Bool, lines: [LineAdjustment]) {
        var fits = true
        var adjustments: [LineAdjustment] = []
        // get_lines (not _readonly) marks the lines as changed by us, so Pango does not cache their extents.
        var lineNode = pango_layout_get_lines(layout)
        var index = 0
        while let ln = lineNode {
            lineNode = ln.pointee.next
            defer { index += 1 }
            adjustments.append(LineAdjustment())
            let full = justify(index)
            let line = ln.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            let start = Int(line.pointee.start_index), end = start + Int(line.pointee.length)
            // The line's content without its leading and trailing spaces and separators (drawn at no width).
            var first = start
            while first < end, let n = blankLength(text, first) { first += n }
            var last = end
            while last > first, let n = blankLength(text, previousCharacter(text, last)) { last -= n }
            let lastChar = last > first ? previousCharacter(text, last) : first
            var natural = 0, spaces = 0, spaceCount = 0, letters = 0
            var firstWidth = 0, lastWidth = 0, rtl = false, tab = false
            // A list marker's tab: what comes before the text (marker and tab) keeps its drawn width, so the
            // text still starts at the tab stop when the line is scaled.
            var rigid = 0, lastTab = -1
            forEachRun(line) { offset, glyphs, level in
                if level & 1 != 0 { rtl = true }
                for g in 0..<Int(glyphs.pointee.num_glyphs) {
                    let byte = offset + Int(glyphs.pointee.log_clusters[g])
                    let w = Int(glyphs.pointee.glyphs[g].geometry.width)
                    guard byte >= first && byte < last else { continue }
                    natural += w
                    if text[byte] == 0x09 { tab = true; rigid = natural; lastTab = byte }
                    if byte == first { firstWidth += w }
                    if byte == lastChar { lastWidth += w }
                    if isStretchable(text, byte) { spaces += w; spaceCount += 1 } else if w > 0 { letters += 1 }
                }
            }
            // Optical margins: not in right-to-left lines (their ends are the other characters) nor beside tabs.
            var adjust = LineAdjustment()
            if protrude && !rtl && !tab && last > first {
                // An indented first line starts away from the margin: nothing to hang into it.
                if index > 0 || !indentedStart {
                    adjust.protrudeLeft = Protrusion.amount(Protrusion.scalar(text, first),
                                                            advance: fromPango(firstWidth), atStart: true)
                }
                adjust.protrudeRight = Protrusion.amount(Protrusion.scalar(text, lastChar),
                                                         advance: fromPango(lastWidth), atStart: false)
            }
            adjustments[index] = adjust
            let target = Int(toPango(lineWidth(index) + adjust.protrudeLeft + adjust.protrudeRight))
            if spaces == 0 && natural > target + overflowTolerance { fits = false }
            guard spaces > 0 && (full || natural > target) else {
                // Spaces that start the line (inline code's own, after a break at a hyphen) take no room, as
                // the breaker planned: drawn, they pushed the line past its edge (a ragged line too).
                if first > start { zeroBlanks(line, text: text, before: first) }
                continue
            }
            let glyphs = Double(natural - spaces - rigid)
            // A left-to-right line with a right-to-left word in it is scaled like any other (around its left
            // edge): the breaker planned it with the expansion (3.7pt past the column without it).
            let rtlLine = line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue
            let limit = full && !tab && !rtlLine ? max(expansion(index), 0) : 0
            var scale = 1.0
            if limit > 0 {
                // The breaker's ratio over spaces and glyphs together, then the glyphs' share in whole steps.
                let need = Double(target - natural)
                let flex = Double(spaces) * (need > 0 ? TotalFitLines.spaceStretch : TotalFitLines.spaceShrink)
                    + glyphs * limit
                let ratio = min(max(need / flex, -1), 1)
                let e = min(max((ratio * limit / expansionStep).rounded() * expansionStep, -limit), limit)
                scale = 1 + e
                // Rounded towards less shrink, the spaces might have to shrink past their limit: one step more.
                if spaceFactor(target, rigid, glyphs, spaces, scale) < 1 - TotalFitLines.spaceShrink
                    && e - expansionStep >= -limit - 1e-9 {
                    scale -= expansionStep
                }
            }
            var factor = max(spaceFactor(target, rigid, glyphs, spaces, scale), 1 - TotalFitLines.spaceShrink)
            if factor > maxFactor { continue }
            if Double(rigid) + (glyphs + Double(spaces) * factor) * scale > Double(target + overflowTolerance) {
                fits = false
            }
            // Letters are spaced only as a last resort (expansion comes first), never in right-to-left lines
            // (Arabic joins), and by at most `maxTracking` of a space between two letters.
            var tracking = 0.0
            if full && !rtl && !tab && factor > trackingFrom && letters > 1 && !ScriptJoining.forbidsLetterSpacing(line) {
                let excess = Double(spaces) * (factor - trackingFrom)
                tracking = min(excess / Double(letters - 1), maxTracking * Double(spaces) / Double(spaceCount))
                factor = (Double(target) / scale - glyphs - tracking * Double(letters - 1)) / Double(spaces)
                    // (no rigid part: lines with a tab are not letter-spaced)
            }
            adjustments[index].scale = scale
            adjustments[index].tracking = tracking / pangoScale
            adjustments[index].spaceFactor = factor
            // Rounded cumulatively, so the line's width is exact in Pango units.
            var exact = 0.0, given = 0, letter = 0
            forEachRun(line) { offset, glyphs, _ in
                for g in 0..<Int(glyphs.pointee.num_glyphs) {
                    let byte = offset + Int(glyphs.pointee.log_clusters[g])
                    let w = glyphs.pointee.glyphs[g].geometry.width
                    if byte < first || byte >= last {
                        if blankLength(text, byte) != nil || isStretchable(text, byte) {
                            glyphs.pointee.glyphs[g].geometry.width = 0
                        }
                        continue
                    }
                    if byte == lastTab && scale != 1 {
                        // Drawn scaled, the tab still ends at its stop: (rigid - tab + tab') * scale = rigid.
                        let tab = Double(rigid) / scale - Double(rigid - Int(w))
                        glyphs.pointee.glyphs[g].geometry.width = cInt(clampedInt(tab.rounded()))
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
        return (fits, adjustments)
    }

    /// Spaces and line separators that end a line of a layout Pango wrapped take no room. Pango gives no width
    /// to the last of them only, so a line ending in two (a space, then inline code's own) counted the other
    /// when it was aligned: a centred or right-aligned line as wide as its column began up to a space left of
    /// it (issue 8's column check). As in CSS, white space at a line's end hangs.
    static func zeroTrailingBlanks(layout: OpaquePointer, text: UnsafeBufferPointer<UInt8>) {
        var changed = false
        var lineNode = pango_layout_get_lines_readonly(layout)
        while let ln = lineNode {
            lineNode = ln.pointee.next
            let line = ln.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            let start = Int(line.pointee.start_index), end = min(start + Int(line.pointee.length), text.count)
            var last = end
            while last > start, let n = blankLength(text, previousCharacter(text, last)) { last -= n }
            guard last < end else { continue }
            var runNode = line.pointee.runs
            while let rn = runNode {
                runNode = rn.pointee.next
                let run = rn.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
                let offset = Int(run.pointee.item.pointee.offset)
                // Runs before the blanks are not read.
                guard offset + Int(run.pointee.item.pointee.length) > last, let glyphs = run.pointee.glyphs else { continue }
                for g in 0..<Int(glyphs.pointee.num_glyphs) {
                    let byte = offset + Int(glyphs.pointee.log_clusters[g])
                    if byte >= last && byte < end && glyphs.pointee.glyphs[g].geometry.width != 0
                        && blankLength(text, byte) != nil {
                        glyphs.pointee.glyphs[g].geometry.width = 0
                        changed = true
                    }
                }
            }
        }
        // get_lines (not _readonly) marks the lines as changed by us: Pango measures them again, not from a cache.
        if changed { _ = pango_layout_get_lines(layout) }
    }

    /// Sets the glyphs of the spaces and separators before byte `first` of `line` to no width.
    private static func zeroBlanks(_ line: UnsafeMutablePointer<PangoLayoutLine>, text: UnsafeBufferPointer<UInt8>,
                                   before first: Int) {
        forEachRun(line) { offset, glyphs, _ in
            for g in 0..<Int(glyphs.pointee.num_glyphs) {
                let byte = offset + Int(glyphs.pointee.log_clusters[g])
                if byte < first && (blankLength(text, byte) != nil || isStretchable(text, byte)) {
                    glyphs.pointee.glyphs[g].geometry.width = 0
                }
            }
        }
    }

    /// The spaces' factor that makes a line of `rigid` (drawn unscaled), `glyphs` and `spaces` (Pango units)
    /// `target` wide when drawn scaled by `scale`.
    @inline(__always) private static func spaceFactor(_ target: Int, _ rigid: Int, _ glyphs: Double, _ spaces: Int,
                                                      _ scale: Double) -> Double {
        (Double(target - rigid) / scale - glyphs) / Double(spaces)
    }

    /// Font expansion comes in steps of half a percent (pdfTeX's step=5): fewer distinct scaled fonts.
    static let expansionStep = 0.005

    /// Space factor above which letters are spaced too (only once expansion is used up), and the most added
    /// between two letters: 3% of a space, ~0.01 em, which no reader sees as letter-spacing.
    static let trackingFrom = 1.6
    static let maxTracking = 0.03

    /// Pango units a line may pass its width by (rounding), 1/64 pt.
    static let overflowTolerance = 16

    private static func forEachRun(_ line: UnsafeMutablePointer<PangoLayoutLine>,
                                   _ body: (Int, UnsafeMutablePointer<PangoGlyphString>, UInt8) -> Void) {
        var runNode = line.pointee.runs
        while let rn = runNode {
            let run = rn.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            body(Int(run.pointee.item.pointee.offset), run.pointee.glyphs, run.pointee.item.pointee.analysis.level)
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
