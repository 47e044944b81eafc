// Line boxes: how tall each line is and where its baseline sits, computed by us rather than by Pango,
// so that line height follows the IR (CSS-like multiples, exact heights, min/max clamps).

import CPangoCairo
import RTSyntax
import TypesetIR

/// One laid-out line of a paragraph, in the paragraph's own coordinates (x from the column's left edge).
public struct LineBox: Sendable {
    /// UTF-8 byte range of the paragraph text on this line.
    public var startIndex: Int
    public var length: Int
    /// Left edge of the line's logical box from the column's left edge, points (indent and alignment included).
    public var x: Double
    public var width: Double
    /// Pango's logical ascent and descent of the line's content, points.
    public var ascent: Double
    public var descent: Double
    /// Height of the line box.
    public var height: Double
    /// Baseline from the top of the line box.
    public var baselineOffset: Double
    /// Distance from this line's top to the next line's top (height + line spacing; the last line: height).
    public var advance: Double
    /// Whether an inline image sits on this line.
    public var hasAttachment: Bool
    /// Font expansion and optical margins (drawn: glyphs scaled by `adjustment.scale` around `x`; `x` and
    /// `width` already include both).
    public var adjustment = LineAdjustment()
    /// How far `x` moved from where Pango put the line (optical margins), points.
    public var shift = 0.0
}

extension LineBox {
    /// Moves the box by its optical margins (at the edge its alignment sets) and widens it by its expansion.
    mutating func adjust(_ a: LineAdjustment, alignment: TextAlignment) {
        adjustment = a
        switch alignment {
        case .left, .start, .justify: shift = -a.protrudeLeft
        case .right: shift = a.protrudeRight
        case .center: shift = (a.protrudeRight - a.protrudeLeft) / 2
        }
        x += shift
        width *= a.scale
    }

    /// Where a position Pango gives on this line (from the column's left edge) is drawn.
    public func drawnX(_ pangoX: Double) -> Double { x + (pangoX - (x - shift)) * adjustment.scale }
}

enum LineMetrics {
    /// The line box for content of `ascent + descent` whose largest font is `maxFontSize`.
    /// `.multiple(m)` gives m x the largest font size (images may make it taller); the baseline sits at
    /// half-leading, as in CSS. `.exactly(h)` is fixed. Then min/max clamp; line spacing goes after all but the last.
    static func box(style: ParagraphStyle, maxFontSize: Double, ascent: Double, descent: Double,
                    hasAttachment: Bool, isLast: Bool) -> (height: Double, baselineOffset: Double, advance: Double) {
        let content = ascent + descent
        var height: Double
        switch style.lineHeight {
        case .multiple(let m):
            height = m * maxFontSize
            if hasAttachment { height = max(height, content) }
        case .exactly(let h):
            height = h
        }
        if let minimum = style.minLineHeight { height = max(height, minimum) }
        if let maximum = style.maxLineHeight { height = min(height, maximum) }
        height = max(height, 0)
        let baselineOffset = (height - content) / 2 + ascent
        let advance = height + (isLast ? 0 : style.lineSpacing)
        return (height, baselineOffset, advance)
    }

    /// Largest font size of the runs overlapping each line, by one merge walk over lines and runs (both sorted).
    /// An empty line takes the size of the run at its index.
    static func maxFontSizes(lineRanges: [Range<Int>], runs: [AttributeRun], fallback: Double) -> [Double] {
        var result = [Double](repeating: fallback, count: lineRanges.count)
        guard !runs.isEmpty else { return result }
        var r = 0
        for (i, line) in lineRanges.enumerated() {
            while r < runs.count - 1 && runs[r].range.upperBound <= line.lowerBound { r += 1 }
            if line.isEmpty {
                result[i] = runs[r].attributes.fontSize
                continue
            }
            var size = 0.0
            var k = r
            while k < runs.count && runs[k].range.lowerBound < line.upperBound {
                if runs[k].range.overlaps(line) { size = max(size, runs[k].attributes.fontSize) }
                k += 1
            }
            result[i] = size > 0 ? size : runs[r].attributes.fontSize
        }
        return result
    }
}

/// Where Pango puts the lines of a layout laid out with no width (total-fit paragraphs): against its widest line.
extension ParagraphLayout {
    /// Points by which `width` exceeds the widest line of `layout` (laid out with no width); negative when a
    /// line is wider than `width` (a word broken between Arabic letters takes other forms, and room, than the
    /// breaker planned with). Then the other lines still end at the column's edge, and only that line passes
    /// it, at its own end: with 0 here, every right-aligned line of the paragraph was set past the edge by
    /// the overflow (6pt in eight columns, issue 8's column check).
    static func spareWidth(_ layout: OpaquePointer, width: Double) -> Double {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return width - fromPango(Int(logical.width))
    }

    /// How much of a layout's spare width Pango puts before `line`: 0 left, 0.5 centred, 1 right. Pango swaps
    /// left and right in a right-to-left line when it finds the direction itself (`pango_layout_set_auto_dir`).
    static func alignedShare(_ layout: OpaquePointer, _ line: UnsafeMutablePointer<PangoLayoutLine>) -> Double {
        var alignment = pango_layout_get_alignment(layout)
        if alignment != PANGO_ALIGN_CENTER && pango_layout_get_auto_dir(layout) != 0
            && line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue {
            alignment = alignment == PANGO_ALIGN_LEFT ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT
        }
        return alignment == PANGO_ALIGN_RIGHT ? 1 : alignment == PANGO_ALIGN_CENTER ? 0.5 : 0
    }
}

extension ParagraphLayout {
    /// `wrap=none` keeps a line whole however long: a warning when one passes the column, as what runs off the
    /// page is not seen (section 11: no text lost silently).
    static func unwrappedOverflow(_ lineWidths: [Double], width: Double, at location: SourceLocation?) -> Diagnostic? {
        guard let widest = lineWidths.max(), widest > width + 0.5 else { return nil }
        return .warning("a line of this paragraph (wrap=none) is \(String(format: "%.1f", widest - width))pt "
            + "wider than the column: it runs past the right margin, and what passes the page edge is cut off; "
            + "let it wrap or shorten it", at: location)
    }
}
