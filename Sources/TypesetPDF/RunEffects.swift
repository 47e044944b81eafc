// Character effects Pango cannot draw: stroke (outline), shadow, synthetic slant (`oblique`), horizontal
// expansion and double strikes. Lines without them keep the fast path (pango_cairo_show_layout_line); a line
// with them is walked run by run (PangoGlyphItem) and the special runs are drawn here as glyph paths.
// Runs whose glyphs are drawn here were given a near-transparent foreground by AttributeBuilder, so Pango's
// copy only carries the text for search and copy-paste.

import CPangoCairo
import Foundation
import TypesetIR
import TypesetLayout

/// One run of a line with effects, in page coordinates.
struct EffectRun {
    var attributes: CharacterAttributes
    var font: UnsafeMutablePointer<PangoFont>
    var glyphs: UnsafeMutablePointer<PangoGlyphString>
    /// Left edge of the run's logical box and its width; `y` is the run's baseline (rise included).
    var x: Double, width: Double, y: Double
    /// The layout's text and the run's Pango item in it (bytes): `glyphs`' log clusters count from `itemOffset`.
    var text: UnsafePointer<CChar>
    var itemOffset: Int, itemLength: Int
    /// Where the glyphs sit in the layout line (the same string unless split off): hidden from Pango while it
    /// draws the line when the run is outline only.
    var source: UnsafeMutablePointer<PangoGlyphString>
    var sourceRange: Range<Int>
    /// Keeps a split-off glyph string alive.
    var owner: OwnedGlyphs? = nil
}

/// A copy of part of a glyph string, freed with its owner.
final class OwnedGlyphs {
    let glyphs: UnsafeMutablePointer<PangoGlyphString>

    init(_ source: UnsafeMutablePointer<PangoGlyphString>, from start: Int, to end: Int) {
        glyphs = pango_glyph_string_new()
        pango_glyph_string_set_size(glyphs, Int32(clamping: end - start))
        for k in start..<end {
            glyphs.pointee.glyphs[k - start] = source.pointee.glyphs[k]
            glyphs.pointee.log_clusters[k - start] = source.pointee.log_clusters[k]
        }
    }

    deinit { pango_glyph_string_free(glyphs) }
}

enum RunEffects {
    /// The runs of `line` when any of them has an effect; nil (the common case) when none has.
    static func runs(of line: PlacedLine) -> [EffectRun]? {
        // Offsets in the laid-out text: justified lines gain separators and hyphens, long paragraphs are
        // pieces, and the paragraph's own runs would put an effect under characters further on.
        let (runs, lineRange) = line.paragraph.layoutRuns(ofLine: line.lineIndex)
        guard hasEffects(runs, in: lineRange) else { return nil }
        var result: [EffectRun] = []
        var x = line.x
        let pangoLine = line.paragraph.pangoLine(line.lineIndex)
        guard let text = pango_layout_get_text(pangoLine.pointee.layout) else { return nil }
        var node = pangoLine.pointee.runs
        while let n = node {
            defer { node = n.pointee.next }
            guard let item = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                  let glyphs = item.pointee.glyphs else { continue }
            let width = Double(pango_glyph_string_get_width(glyphs)) / 1024
            defer { x += width }
            guard let font = item.pointee.item.pointee.analysis.font else { continue }
            let offset = Int(item.pointee.item.pointee.offset)
            let end = offset + Int(item.pointee.item.pointee.length)
            let y = line.baseline - Double(item.pointee.y_offset) / 1024
            let first = runIndex(at: offset, in: runs)
            if first >= runs.count || runs[first].range.upperBound >= end {
                result.append(EffectRun(attributes: attributes(first, runs), font: font, glyphs: glyphs,
                                        x: x, width: width, y: y, text: text, itemOffset: offset, itemLength: end - offset,
                                        source: glyphs, sourceRange: 0..<Int(glyphs.pointee.num_glyphs)))
                continue
            }
            // Pango merged IR runs that look alike to it (a double strike or a shadow is invisible to Pango):
            // split the glyphs by the IR run each cluster comes from.
            let count = Int(glyphs.pointee.num_glyphs)
            var i = 0, pieceX = x
            while i < count {
                let r = runIndex(at: offset + Int(glyphs.pointee.log_clusters[i]), in: runs)
                var j = i, pieceWidth = 0  // in Int: many wide glyphs must not overflow a C int
                while j < count && runIndex(at: offset + Int(glyphs.pointee.log_clusters[j]), in: runs) == r {
                    pieceWidth += Int(glyphs.pointee.glyphs[j].geometry.width)
                    j += 1
                }
                let piece = OwnedGlyphs(glyphs, from: i, to: j)
                result.append(EffectRun(attributes: attributes(r, runs), font: font, glyphs: piece.glyphs,
                                        x: pieceX, width: Double(pieceWidth) / 1024, y: y, text: text, itemOffset: offset,
                                        itemLength: end - offset, source: glyphs, sourceRange: i..<j, owner: piece))
                pieceX += Double(pieceWidth) / 1024
                i = j
            }
        }
        return result
    }

    static func attributes(_ index: Int, _ runs: [AttributeRun]) -> CharacterAttributes {
        index < runs.count ? runs[index].attributes : CharacterAttributes()
    }

    static func runIndex(at offset: Int, in runs: [AttributeRun]) -> Int {
        runs.firstIndex(endingAfter: offset) { $0.range.upperBound }
    }

    /// Binary search for the first run reaching into `range`, then a walk over the runs inside it.
    static func hasEffects(_ runs: [AttributeRun], in range: Range<Int>) -> Bool {
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].range.upperBound <= range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        while lo < runs.count && runs[lo].range.lowerBound < max(range.upperBound, range.lowerBound + 1) {
            if runs[lo].attributes.hasRenderEffects { return true }
            lo += 1
        }
        return false
    }

    /// Shadows go under the line's text.
    static func drawUnder(_ runs: [EffectRun], on cr: OpaquePointer) {
        for run in runs {
            guard let shadow = run.attributes.shadow else { continue }
            // Blur: a ring of fainter copies spread over the blur radius approximates a soft edge.
            var offsets: [(Double, Double)] = [(0, 0)]
            if shadow.blur > 0 {
                let r = shadow.blur / 2
                offsets = [(0, 0)] + (0..<8).map { k in
                    let angle = Double(k) * .pi / 4
                    return (r * cos(angle), r * sin(angle))
                }
            }
            var color = shadow.color
            color.alpha = shadow.blur > 0 ? min(1, shadow.color.alpha * 1.8 / Double(offsets.count)) : shadow.color.alpha
            for (ox, oy) in offsets {
                glyphPath(run, dx: shadow.dx + ox, dy: shadow.dy + oy, on: cr)
                PDFRenderer.setColor(color, on: cr)
                cairo_fill(cr)
            }
        }
        cairo_set_source_rgb(cr, 0, 0, 0)  // Pango draws text without a colour in the current source
    }

    /// Glyphs drawn here, their decorations, and double strikes go over the line's text.
    static func drawOver(_ runs: [EffectRun], on cr: OpaquePointer) {
        for run in runs {
            let a = run.attributes
            if a.isDrawnByRenderer {
                glyphPath(run, dx: 0, dy: 0, on: cr)
                paintGlyphs(a, on: cr)
                if a.strokeWidth > 0 { InvisibleText.show(run, on: cr) }
                if a.underline != .none { underline(run, on: cr) }
                if a.strike == .single { strike(run, double: false, on: cr) }
            }
            if a.strike == .double { strike(run, double: true, on: cr) }
            // Pango has no thick underline: drawn here at twice the font's thickness.
            if a.underline == .thick && !a.isDrawnByRenderer { underline(run, on: cr) }
        }
        cairo_new_path(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
    }

    /// Hides the glyphs of outline-only runs from Pango (as empty glyphs) while `body` draws the line, so no
    /// fill of any colour lands under the outline; `drawOver` puts their text back as invisible text.
    static func hidingOutlineGlyphs(_ runs: [EffectRun], _ body: () -> Void) {
        var saved: [(UnsafeMutablePointer<PangoGlyphString>, Int, PangoGlyph)] = []
        for run in runs where run.attributes.strokeWidth > 0 {
            for k in run.sourceRange {
                saved.append((run.source, k, run.source.pointee.glyphs[k].glyph))
                run.source.pointee.glyphs[k].glyph = PANGO_GLYPH_EMPTY
            }
        }
        body()
        for (string, k, glyph) in saved { string.pointee.glyphs[k].glyph = glyph }
    }

    /// NSStrokeWidth semantics: positive = outline only; negative = fill with `color`, outline with `stroke-color`.
    static func paintGlyphs(_ a: CharacterAttributes, on cr: OpaquePointer) {
        let outline = a.strokeColor ?? a.color
        if a.strokeWidth > 0 {
            PDFRenderer.setColor(outline, on: cr)
            cairo_set_line_width(cr, a.strokeWidth)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
        } else if a.strokeWidth < 0 {
            PDFRenderer.setColor(a.color, on: cr)
            cairo_fill_preserve(cr)
            PDFRenderer.setColor(outline, on: cr)
            cairo_set_line_width(cr, -a.strokeWidth)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
        } else {
            PDFRenderer.setColor(a.color, on: cr)
            cairo_fill(cr)
        }
    }

    /// Appends the run's glyph outlines to the current path (in page space), slanted and scaled as asked.
    static func glyphPath(_ run: EffectRun, dx: Double, dy: Double, on cr: OpaquePointer) {
        let a = run.attributes
        cairo_save(cr)
        cairo_translate(cr, run.x + dx, run.y + dy)
        if a.obliqueAngle != 0 {
            // y grows downwards: leaning right moves the top (negative y) to the right.
            var skew = cairo_matrix_t()
            cairo_matrix_init(&skew, 1, 0, -tan(a.obliqueAngle * .pi / 180), 1, 0, 0)
            cairo_transform(cr, &skew)
        }
        if a.expansion != 0 {
            // Glyphs at their natural advances, scaled to fill the width layout reserved for the run.
            guard let natural = pango_glyph_string_copy(run.glyphs) else { cairo_restore(cr); return }
            defer { pango_glyph_string_free(natural) }
            var total = 0.0
            for i in 0..<Int(natural.pointee.num_glyphs) {
                var logical = PangoRectangle()
                pango_font_get_glyph_extents(run.font, natural.pointee.glyphs[i].glyph, nil, &logical)
                natural.pointee.glyphs[i].geometry.width = logical.width
                if logical.width > 0 { natural.pointee.glyphs[i].geometry.x_offset = 0 }
                total += Double(logical.width) / 1024
            }
            if total > 0 { cairo_scale(cr, run.width / total, 1) }
            cairo_move_to(cr, 0, 0)
            pango_cairo_glyph_string_path(cr, run.font, natural)
        } else {
            cairo_move_to(cr, 0, 0)
            pango_cairo_glyph_string_path(cr, run.font, run.glyphs)
        }
        cairo_restore(cr)  // the path stays, in page space
    }

    static func metrics(_ run: EffectRun) -> (underline: Double, underlineThickness: Double, strike: Double, strikeThickness: Double) {
        // No metrics (a font without tables): placements proportional to the size, as typical text faces have.
        guard let m = pango_font_get_metrics(run.font, nil) else {
            let size = run.attributes.fontSize
            return (-0.1 * size, max(0.05 * size, 0.3), 0.3 * size, max(0.05 * size, 0.3))
        }
        defer { pango_font_metrics_unref(m) }
        return (Double(pango_font_metrics_get_underline_position(m)) / 1024,
                max(Double(pango_font_metrics_get_underline_thickness(m)) / 1024, 0.3),
                Double(pango_font_metrics_get_strikethrough_position(m)) / 1024,
                max(Double(pango_font_metrics_get_strikethrough_thickness(m)) / 1024, 0.3))
    }

    static func underline(_ run: EffectRun, on cr: OpaquePointer) {
        let m = metrics(run)
        let a = run.attributes
        PDFRenderer.setColor(a.underlineColor ?? (a.strokeWidth > 0 ? (a.strokeColor ?? a.color) : a.color), on: cr)
        let top = run.y - m.underline
        let t = m.underlineThickness
        switch a.underline {
        case .none: return
        case .single: cairo_rectangle(cr, run.x, top, run.width, t)
        case .thick: cairo_rectangle(cr, run.x, top, run.width, 2 * t)
        case .double:
            cairo_rectangle(cr, run.x, top, run.width, t)
            cairo_rectangle(cr, run.x, top + 2 * t, run.width, t)
        case .wavy:
            let step = 2 * t + 1
            var x = run.x
            cairo_move_to(cr, x, top + t)
            var up = true
            while x < run.x + run.width {
                x = min(x + step, run.x + run.width)
                cairo_line_to(cr, x, up ? top - t : top + t)
                up.toggle()
            }
            cairo_set_line_width(cr, t)
            cairo_stroke(cr)
            return
        }
        cairo_fill(cr)
    }

    static func strike(_ run: EffectRun, double: Bool, on cr: OpaquePointer) {
        let m = metrics(run)
        let a = run.attributes
        PDFRenderer.setColor(a.strikeColor ?? a.color, on: cr)
        // Pango's strikethrough position is the top of its line, above the baseline.
        let top = run.y - m.strike
        let t = m.strikeThickness
        if double {
            cairo_rectangle(cr, run.x, top - t, run.width, t)
            cairo_rectangle(cr, run.x, top + t, run.width, t)
        } else {
            cairo_rectangle(cr, run.x, top, run.width, t)
        }
        cairo_fill(cr)
    }
}
