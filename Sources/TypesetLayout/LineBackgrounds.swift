// Backgrounds behind text (`background=`, inline code, `==marks==`), measured when a paragraph is laid out and
// filled by the renderer before the line's glyphs. Given to Pango as attributes, each styled span became a run
// of its own that Pango's renderer fills alone (save, colour, rectangle, fill, restore: one PDF path and a break
// in the text object per span; `` `a` `` x 250,000 spent 2 s of its 6 there), and a span's fill could cover the
// glyph of the span before it. The rectangles are Pango 1.50's own (pango_renderer_draw_layout_line): each run's
// glyph width from where the run starts, the line's logical extent in height; the spans' clusters decide what
// is covered, as `pango_glyph_item_apply_attrs` splits runs. Side by side rectangles of one colour are one.

import CPangoCairo
import TypesetIR

/// A stretch of a paragraph's text with a background, in the layout text's byte offsets.
struct BackgroundSpan {
    var range: Range<Int>
    var color: LineBackground.Color
}

/// A rectangle to fill behind a line: from the point the line is drawn from (its left end on the baseline),
/// in points (y down).
public struct LineBackground: Equatable, Sendable {
    /// Pango's 16-bit channels, as the attribute had them.
    public struct Color: Equatable, Sendable {
        public var red, green, blue, alpha: UInt16
    }

    public var x, y, width, height: Double
    public var color: Color
}

enum LineBackgrounds {
    /// The rectangles of `line` (a line of a laid-out Pango layout) covered by `spans` (sorted, apart).
    static func rects(of line: UnsafeMutablePointer<PangoLayoutLine>, spans: [BackgroundSpan]) -> [LineBackground] {
        guard !spans.isEmpty else { return [] }
        var logical = PangoRectangle()
        pango_layout_line_get_extents(line, nil, &logical)
        var out: [LineBackground] = []
        var xOff: Int32 = 0
        var runNode = line.pointee.runs
        while let rn = runNode {
            runNode = rn.pointee.next
            guard let run = rn.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                  let glyphs = run.pointee.glyphs else { continue }
            xOff &+= run.pointee.start_x_offset
            let item = run.pointee.item.pointee
            let offset = Int(item.offset), end = offset + Int(item.length)
            var k = firstSpan(endingAfter: offset, in: spans)
            // An ellipsis stands for the text it hides and takes the attributes where that starts.
            let ellipsis = Int32(item.analysis.flags) & Int32(PANGO_ANALYSIS_FLAG_IS_ELLIPSIS) != 0
            if ellipsis {
                if k < spans.count && spans[k].range.lowerBound <= offset {
                    append(x: xOff, width: pango_glyph_string_get_width(glyphs), color: spans[k].color,
                           logical: logical, to: &out)
                }
            } else if k < spans.count && spans[k].range.lowerBound <= offset && spans[k].range.upperBound >= end {
                // The whole run: Pango's rectangle for it.
                append(x: xOff, width: pango_glyph_string_get_width(glyphs), color: spans[k].color, logical: logical,
                       to: &out)
            } else if k < spans.count && spans[k].range.lowerBound < end {
                // Each cluster's extent in the item, for a span that starts or ends inside one.
                let count = Int(glyphs.pointee.num_glyphs)
                var starts: [Int] = []
                starts.reserveCapacity(count)
                for g in 0..<count { starts.append(offset + Int(glyphs.pointee.log_clusters[g])) }
                let sortedStarts = Array(Set(starts)).sorted()
                var x = xOff
                for g in 0..<count {
                    let width = glyphs.pointee.glyphs[g].geometry.width
                    defer { x &+= width }
                    let start = starts[g]
                    let next = upperBound(start, in: sortedStarts)
                    let clusterEnd = next < sortedStarts.count ? sortedStarts[next] : end
                    k = firstSpan(endingAfter: start, in: spans)
                    guard k < spans.count, spans[k].range.lowerBound < clusterEnd else { continue }
                    append(x: x, width: width, color: spans[k].color, logical: logical, to: &out)
                }
            }
            xOff &+= pango_glyph_string_get_width(glyphs) &+ run.pointee.end_x_offset
        }
        return out
    }

    /// Extends the last rectangle when it has the colour and ends where this one starts.
    private static func append(x: Int32, width: Int32, color: LineBackground.Color, logical: PangoRectangle,
                               to out: inout [LineBackground]) {
        guard width > 0 else { return }
        let left = pango_units_to_double(x), right = pango_units_to_double(x &+ width)
        if var last = out.last, last.color == color, last.x + last.width == left {
            last.width = right - last.x
            out[out.count - 1] = last
            return
        }
        out.append(LineBackground(x: left, y: pango_units_to_double(logical.y), width: right - left,
                                  height: pango_units_to_double(logical.height), color: color))
    }

    /// The first span whose end is past `offset` (spans are sorted and apart, so their ends are sorted too).
    static func firstSpan(endingAfter offset: Int, in spans: [BackgroundSpan]) -> Int {
        spans.firstIndex(endingAfter: offset) { $0.range.upperBound }
    }

    private static func upperBound(_ value: Int, in sorted: [Int]) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] <= value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
