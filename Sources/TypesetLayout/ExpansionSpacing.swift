// `expansion` (RT section 6: horizontal scale, `0.3` is 30% wider). Pango cannot scale glyphs, so a run's
// width is reserved as letter spacing and the renderer (RunEffects) scales its glyphs to fill it. The spacing
// is the run's own natural width times the expansion, shared among its characters: measured on a scratch
// layout of the run alone, so a run of wide letters gets as much room as it needs (an average advance of
// half an em, assumed before, gave `w` 10% instead of 30%).

import CPangoCairo
import TypesetIR

enum ExpansionSpacing {
    /// Letter spacing (points) for each run with an expansion, keyed by the run's first byte.
    static func spacing(for runs: [AttributeRun], in layout: OpaquePointer, base: FontKey) -> [Int: Double] {
        guard runs.contains(where: { $0.attributes.expansion != 0 && !$0.range.isEmpty }),
              let text = pango_layout_get_text(layout), let context = pango_layout_get_context(layout) else { return [:] }
        var out: [Int: Double] = [:]
        for run in runs where run.attributes.expansion != 0 && !run.range.isEmpty {
            guard let scratch = pango_layout_new(context) else { continue }
            defer { g_object_unref(UnsafeMutableRawPointer(scratch)) }
            pango_layout_set_font_description(scratch, pango_layout_get_font_description(layout))
            let start = text + run.range.lowerBound
            pango_layout_set_text(scratch, start, Int32(clamping: run.range.count))
            var plain = run
            plain.range = 0 ..< run.range.count
            plain.attributes.expansion = 0
            plain.attributes.letterSpacing = 0
            let attrs = AttributeListHandle()
            AttributeBuilder.build(runs: [plain], base: base, into: attrs)
            pango_layout_set_attributes(scratch, attrs.list)
            var logical = PangoRectangle()
            pango_layout_get_extents(scratch, nil, &logical)
            let characters = start.withMemoryRebound(to: UInt8.self, capacity: run.range.count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: run.range.count), as: UTF8.self).count
            }
            guard characters > 0 else { continue }
            out[run.range.lowerBound] = fromPango(logical.width) * run.attributes.expansion / Double(characters)
        }
        return out
    }
}
