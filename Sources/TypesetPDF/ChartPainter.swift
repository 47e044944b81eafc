// Draws a chart (TypesetLayout.ChartImage) with Cairo: grid, bars, lines, axes, legend, then the text as real
// text through Pango, so a chart's labels can be selected and searched like the rest of the page.

import CPangoCairo
import Foundation
import TypesetIR
import TypesetLayout

enum ChartPainter {
    /// Draws `chart` into the box at (x, y); a box of another size than the chart's scales it.
    static func draw(_ chart: ChartImage, x: Double, y: Double, width: Double, height: Double, on cr: OpaquePointer) {
        let g = chart.geometry
        guard g.width > 0, g.height > 0, width > 0, height > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, width / g.width, height / g.height)
        for stroke in g.grid { draw(stroke, on: cr) }
        for box in g.bars + g.swatches {
            PDFRenderer.setColor(box.color, on: cr)
            cairo_rectangle(cr, box.x, box.y, box.width, box.height)
            cairo_fill(cr)
        }
        for stroke in g.axes + g.lines { draw(stroke, on: cr) }
        for dot in g.dots {
            PDFRenderer.setColor(dot.color, on: cr)
            cairo_new_sub_path(cr)
            cairo_arc(cr, dot.x, dot.y, dot.radius, 0, 2 * .pi)
            cairo_fill(cr)
        }
        PDFRenderer.setColor(chart.spec.font.color, on: cr)
        for (i, text) in g.texts.enumerated() {
            let size = chart.textSizes[i]
            cairo_save(cr)
            cairo_translate(cr, text.x, text.y)
            if text.angle != 0 { cairo_rotate(cr, -text.angle) }
            cairo_move_to(cr, -size.width * fraction(text.horizontal), -size.height * fraction(text.vertical))
            pango_cairo_show_layout(cr, chart.layout(i))
            cairo_restore(cr)
        }
        cairo_restore(cr)
    }

    private static func fraction(_ anchor: ChartGeometry.Anchor) -> Double {
        switch anchor {
        case .start: return 0
        case .middle: return 0.5
        case .end: return 1
        }
    }

    private static func draw(_ stroke: ChartGeometry.Stroke, on cr: OpaquePointer) {
        guard let first = stroke.points.first else { return }
        PDFRenderer.setColor(stroke.color, on: cr)
        cairo_set_line_width(cr, stroke.width)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_move_to(cr, first.x, first.y)
        for p in stroke.points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        cairo_stroke(cr)
    }
}
