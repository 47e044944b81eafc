// Justification of paragraphs that Pango wraps itself (tabs, max-lines, greedy breaking). Pango's own
// justification stretches every wrapped line, including those that end in a hard break, and letter-spaces a
// line without spaces; the contract (section 6) stretches only lines that Pango wrapped and that hold no tab.

import CPangoCairo
import TypesetIR

extension ParagraphLayout {
    /// Justifies the lines of `pl` (wrapped by Pango at `width`) that may be stretched.
    /// With `protrude`, the stretched lines' ends hang into the margins (the others are only measured).
    static func justifyWrappedLines(_ pl: OpaquePointer, text: String, width: Double, style: ParagraphStyle,
                                    protrude: Bool) -> [LineAdjustment] {
        var text = text
        let count = Int(pango_layout_get_line_count(pl))
        guard count > 1 else { return [] }
        var stretch = [Bool](repeating: false, count: count)
        var starts: [Int] = []
        var node = pango_layout_get_lines_readonly(pl)
        while let n = node {
            starts.append(Int(n.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self).pointee.start_index))
            node = n.pointee.next
        }
        text.withUTF8 { bytes in
            for i in 0..<min(count, starts.count) - 1 {
                stretch[i] = isStretchable(bytes, from: starts[i], to: starts[i + 1])
            }
        }
        let indent = style.firstLineHeadIndent - style.headIndent
        // Lines that are not stretched get an unreachable width, so they are not shrunk either.
        let lineWidth: (Int) -> Double = { i in
            guard i < count, stretch[i] else { return 1_000_000 }
            return max(width - (i == 0 ? max(indent, 0) : max(-indent, 0)), 1)
        }
        return text.withUTF8 { bytes in
            LineJustification.justify(layout: pl, text: bytes, justify: { $0 < count && stretch[$0] },
                                      lineWidth: lineWidth, protrude: protrude).lines
        }
    }

    /// A line `start..<end` (up to the next line's start) may stretch when it holds no tab and does not end in
    /// a hard break or paragraph separator: Pango wrapped it.
    static func isStretchable(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        guard start < end, end <= bytes.count else { return false }
        for i in start..<end {
            switch bytes[i] {
            case 0x09, 0x0A, 0x0D: return false
            case 0xE2 where i + 2 < end && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                return false  // U+2028 line separator, U+2029 paragraph separator
            default: continue
            }
        }
        return true
    }
}
