// A table laid out at a column width: column widths from the cells' content, each cell a ParagraphLayout
// (wrapping inside its column), row heights, and decimal columns lined up on their separators.
//
// Column widths (as HTML's automatic table layout, simplified): every column wants its widest cell on one
// line. If the wanted widths fit, the table takes them (it is not stretched to the full width). If not, the
// width is shared out: columns that want less than an equal share get what they want, the others split the
// rest equally and their cells wrap.

import CPangoCairo
import RTSyntax
import TypesetIR

final class TableLayout {
    struct Row {
        var cells: [ParagraphLayout]
        /// Height of the row including its vertical padding.
        var height: Double
        var isHeader: Bool
    }

    let table: TableBlock
    /// Left edge of each column from the table's left edge, and each column's width (padding included).
    let columnX: [Double]
    let columnWidths: [Double]
    /// Header rows are laid out once (they repeat on every page); body rows when they are placed, so a long
    /// table's memory does not grow with its length.
    private(set) var headerRows: [Row] = []
    var rowCount: Int { table.rowCount }
    private let decimalStop: [Double]
    private let engine: LayoutEngine
    private let images: ImageCache
    private var lastRow: (index: Int, row: Row)?
    /// Cells measured and laid out so far, shared by equal cells (TableCellMemo.swift).
    let memo = TableCellMemo()

    var width: Double { columnWidths.reduce(0, +) }

    /// `columnWidth` is the width of the page column the table sits in.
    init(_ table: TableBlock, columnWidth: Double, engine: LayoutEngine, images: ImageCache,
         diagnostics: inout [Diagnostic]) {
        self.table = table
        let pad = table.cellPadding
        let available = max(columnWidth - table.headIndent - table.tailIndent, 1)
        let count = table.columns.count
        let unbounded = 1_000_000.0
        // What each column wants: its widest cell on one line. Decimal columns want the widest integer part
        // plus the widest fraction, and remember where their separators go.
        var wanted = [Double](repeating: 0, count: count)
        var decimalStop = [Double](repeating: 0, count: count)
        var scratch: [Diagnostic] = []   // measuring layouts repeat the warnings the real ones give
        for column in 0..<count {
            var widest = 0.0, prefix = 0.0, suffix = 0.0
            for row in 0..<table.rowCount {
                let cell = table.cells.cell(row, column, tagged: false)
                if TableLayout.isDecimal(cell) {
                    let split = memo.split(of: cell, engine: engine) {
                        TableLayout.decimalSplit(cell, engine: engine, images: images, diagnostics: &scratch) ?? (0, 0)
                    }
                    prefix = max(prefix, split.prefix)
                    suffix = max(suffix, split.suffix)
                } else {
                    widest = max(widest, memo.width(of: cell, engine: engine) {
                        let measured = ParagraphLayout(cell, columnWidth: unbounded, engine: engine, images: images,
                                                       diagnostics: &scratch)
                        return measured.lines.map(\.width).max() ?? 0
                    })
                }
            }
            decimalStop[column] = prefix
            wanted[column] = max(widest, prefix + suffix) + pad.left + pad.right
        }
        let widths = TableLayout.shareOut(available, wanted: wanted)
        columnWidths = widths
        var x = 0.0
        columnX = widths.map { w in defer { x += w }; return x }

        self.decimalStop = decimalStop
        self.engine = engine
        self.images = images
        headerRows = (0..<min(table.headerRowCount, table.rowCount)).map { layRow($0, diagnostics: &diagnostics) }
    }

    /// Row `index`, laid out (the last body row asked for is kept: placing asks twice).
    func row(_ index: Int, diagnostics: inout [Diagnostic]) -> Row {
        if index < headerRows.count { return headerRows[index] }
        if let last = lastRow, last.index == index { return last.row }
        let row = layRow(index, diagnostics: &diagnostics)
        lastRow = (index, row)
        return row
    }

    private func layRow(_ index: Int, diagnostics: inout [Diagnostic]) -> Row {
        let pad = table.cellPadding
        var cells: [ParagraphLayout] = []
        var height = 0.0
        for column in 0..<table.columns.count {
            var cell = table.cells[index, column]
            if cell.style.tabStops.contains(where: { $0.alignment == .decimal }) {
                // Tab stops must lie inside the layout: a column of bare integers has its stop at 0.
                cell.style.tabStops = [TabStop(position: max(decimalStop[column], 0.01), alignment: .decimal)]
            }
            let width = max(columnWidths[column] - pad.left - pad.right, 1)
            let layout = memo.layout(of: cell, width: width, engine: engine) {
                ParagraphLayout(cell, columnWidth: width, engine: engine, images: images, diagnostics: &diagnostics)
            }
            cells.append(layout)
            height = max(height, layout.height)
        }
        return Row(cells: cells, height: height + pad.top + pad.bottom, isHeader: index < table.headerRowCount)
    }

    /// Widths for columns wanting `wanted` within `available`: see the file comment.
    static func shareOut(_ available: Double, wanted: [Double]) -> [Double] {
        guard wanted.reduce(0, +) > available else { return wanted }
        var widths = wanted
        var open = Set(wanted.indices)
        var left = available
        while !open.isEmpty {
            let share = left / Double(open.count)
            let modest = open.filter { wanted[$0] <= share }
            if modest.isEmpty {
                for i in open { widths[i] = share }
                break
            }
            for i in modest {
                widths[i] = wanted[i]
                left -= wanted[i]
                open.remove(i)
            }
        }
        return widths
    }

    /// Whether `cell` is a decimal-column body cell (`TAB` + number, a decimal stop).
    static func isDecimal(_ cell: AttributedParagraph) -> Bool {
        cell.style.tabStops.contains(where: { $0.alignment == .decimal }) && cell.text.hasPrefix("\t")
    }

    /// For a decimal-column cell (`TAB` + number with its zero-width decimal mark): the width of the text
    /// before the mark and after it. Nil for cells without a decimal stop (headers, other columns).
    static func decimalSplit(_ cell: AttributedParagraph, engine: LayoutEngine, images: ImageCache,
                             diagnostics: inout [Diagnostic]) -> (prefix: Double, suffix: Double)? {
        guard isDecimal(cell) else { return nil }
        let length = cell.text.utf8.count
        let mark = cell.text.range(of: String(AttributedParagraph.decimalMark))
            .map { cell.text.utf8.distance(from: cell.text.startIndex, to: $0.lowerBound) } ?? length
        let layout = ParagraphLayout(cell, columnWidth: 1_000_000, engine: engine, images: images, diagnostics: &diagnostics)
        func width(_ range: Range<Int>) -> Double {
            range.isEmpty ? 0 : layout.xRanges(line: 0, range: range).reduce(0) { $0 + $1.width }
        }
        return (width(1..<mark), width(mark..<length))
    }
}
