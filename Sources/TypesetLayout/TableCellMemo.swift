// Cells met before in the same table (issue 8): a column of repeated values ("yes", "n/a", a unit, a status)
// is measured and shaped once per value, not once per cell. A layout depends only on what ParagraphKey holds
// (ParagraphCache.swift), so an equal cell at the same width shares the Pango layout of the first; layouts
// with warnings or inline images are not shared. Bounded: when full, the memo starts again.

import TypesetIR

final class TableCellMemo {
    static let capacity = 512
    private var widths: [ParagraphKey: Double] = [:]
    private var splits: [ParagraphKey: (prefix: Double, suffix: Double)] = [:]
    private var layouts: [ParagraphKey: ParagraphLayout] = [:]
    /// Pango layouts made for cells (measuring and setting) and layouts shared (for tests: count, don't time).
    private(set) var made = 0, shared = 0
    /// Layouts kept for sharing.
    var kept: Int { layouts.count }

    private func key(_ cell: AttributedParagraph, width: Double, engine: LayoutEngine) -> ParagraphKey? {
        guard cell.attachments.isEmpty else { return nil }
        return ParagraphKey(cell, width: width, maxSpaceFactor: .infinity, lineBreaking: engine.lineBreaking)
    }

    /// The widest line of `cell` set on one line, measured once per distinct cell.
    func width(of cell: AttributedParagraph, engine: LayoutEngine, measure: () -> Double) -> Double {
        guard let key = key(cell, width: 0, engine: engine) else { made += 1; return measure() }
        if let known = widths[key] { return known }
        made += 1
        let width = measure()
        if widths.count >= Self.capacity { widths.removeAll(keepingCapacity: true) }
        widths[key] = width
        return width
    }

    /// A decimal cell's widths before and after its mark, measured once per distinct cell.
    func split(of cell: AttributedParagraph, engine: LayoutEngine,
               measure: () -> (prefix: Double, suffix: Double)) -> (prefix: Double, suffix: Double) {
        guard let key = key(cell, width: 0, engine: engine) else { made += 1; return measure() }
        if let known = splits[key] { return known }
        made += 1
        let split = measure()
        if splits.count >= Self.capacity { splits.removeAll(keepingCapacity: true) }
        splits[key] = split
        return split
    }

    /// `cell` laid out at `width`: sharing an equal cell's layout, or made by `make`.
    func layout(of cell: AttributedParagraph, width: Double, engine: LayoutEngine,
                make: () -> ParagraphLayout) -> ParagraphLayout {
        guard let key = key(cell, width: width, engine: engine) else { made += 1; return make() }
        if let kept = layouts[key] {
            shared += 1
            return ParagraphLayout(reusing: kept, for: cell)
        }
        made += 1
        let layout = make()
        guard layout.isReusable else { return layout }
        if layouts.count >= Self.capacity { layouts.removeAll(keepingCapacity: true) }
        layouts[key] = layout
        return layout
    }
}
