// Cells met before in the same table (issue 8): a column of repeated values ("yes", "n/a", a unit, a status)
// is measured and shaped once per value, not once per cell. A layout depends only on the paragraph's text,
// runs and style and the width (ParagraphCache.swift), so an equal cell at the same width shares the Pango
// layout of the first; layouts with warnings or inline images are not shared. Cells are compared with their
// attribute sets by identity (hashing ParagraphKey's values cost some 15,000 instructions a cell). Bounded:
// when full, the memo starts again.

import TypesetIR

final class TableCellMemo {
    static let capacity = 512
    private var widths: [CellKey: Double] = [:]
    private var splits: [CellKey: (prefix: Double, suffix: Double)] = [:]
    private var layouts: [CellKey: ParagraphLayout] = [:]
    /// Pango layouts made for cells (measuring and setting) and layouts shared (for tests: count, don't time).
    private(set) var made = 0, shared = 0
    /// Layouts kept for sharing.
    var kept: Int { layouts.count }

    /// The engine's line breaking is the same for the whole table (a memo lives as long as its TableLayout).
    private func key(_ cell: AttributedParagraph, width: Double, engine: LayoutEngine) -> CellKey? {
        cell.attachments.isEmpty ? CellKey(cell: cell, width: width) : nil
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

/// A cell's layout input and width (see `AttributedParagraph.hasSameLayoutInput`); it holds the cell, so the
/// attribute sets it compares by identity stay alive.
struct CellKey: Hashable {
    let cell: AttributedParagraph
    let width: Double

    static func == (a: CellKey, b: CellKey) -> Bool { a.width == b.width && a.cell.hasSameLayoutInput(as: b.cell) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        cell.hashLayoutInput(into: &hasher)
    }
}
