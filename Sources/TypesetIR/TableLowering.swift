// Tables, for now: one paragraph per row, cells separated by TABs, tab stops at equal column widths that
// honour each column's alignment (decimal too). Real table layout (measured columns, wrapping cells, the
// header repeated across pages) is later work in the layout stage; this keeps tables readable meanwhile.

import RTSyntax

extension DocumentLowerer {
    /// Space between rows; the last row gets the table's own space-after back.
    static let tableRowSpacing = 1.0

    mutating func lowerTable(_ table: Table, block: Block, context: StyleState) {
        var state = context
        sheet.apply("table", to: &state)
        state = applying(block.attributes, to: state)

        let columnCount = max(table.alignments.count, table.header.count, table.rows.map(\.count).max() ?? 0)
        guard columnCount > 0 else { return }
        let base = state.paragraphStyle()
        let left = base.headIndent
        let width = max(state.columnWidth - base.headIndent - base.tailIndent, 1)
        let columnWidth = width / Double(columnCount)
        let em = state.character.fontSize
        let padding = 0.5 * em

        func alignment(_ column: Int) -> ColumnAlignment {
            column < table.alignments.count ? table.alignments[column] : .none
        }
        // A left-aligned first column starts at the head indent; every other cell is reached by a TAB.
        func needsTab(_ column: Int) -> Bool {
            column > 0 || ![.none, .left].contains(alignment(0))
        }
        var stops: [TabStop] = []
        for column in 0..<columnCount {
            let x = left + columnWidth * Double(column)
            switch alignment(column) {
            case .none, .left: if column > 0 { stops.append(TabStop(position: x, alignment: .left)) }
            case .center: stops.append(TabStop(position: x + columnWidth / 2, alignment: .center))
            case .right: stops.append(TabStop(position: x + columnWidth - padding, alignment: .right))
            // Room for about two decimals after the separator, without passing the column's middle.
            case .decimal: stops.append(TabStop(position: max(x + columnWidth / 2, x + columnWidth - padding - 2.5 * em), alignment: .decimal))
            }
        }

        var rows: [(cells: [TableCell], isHeader: Bool)] = []
        if table.header.contains(where: { !$0.content.isEmpty }) { rows.append((table.header, true)) }
        rows += table.rows.map { ($0, false) }

        for (rowIndex, row) in rows.enumerated() {
            var rowState = state
            if row.isHeader { rowState.character.weight = max(rowState.character.weight, 700) }
            var builder = ParagraphBuilder()
            for column in 0..<columnCount {
                if needsTab(column) { builder.append("\t", rowState.character) }
                if column < row.cells.count {
                    lowerInlines(row.cells[column].content, rowState.character, state: rowState, into: &builder)
                }
            }
            var style = rowState.paragraphStyle()
            style.tabStops = stops
            if rowIndex > 0 {
                style.spaceBefore = 0
                style.breakBefore = .none
            }
            if rowIndex < rows.count - 1 { style.spaceAfter = Self.tableRowSpacing }
            if row.isHeader { style.keepWithNext = true }
            let location = row.cells.first?.range.start ?? block.range.start
            emitParagraph(builder, style: style, base: rowState.character, location: location)
        }
    }
}
