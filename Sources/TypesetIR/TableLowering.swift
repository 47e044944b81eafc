// Pipe tables -> a TableBlock: one paragraph per cell (packed, TableCells.swift), the column alignments, the header row count.
// Column widths, wrapping, rules and the header repeated across pages are the layout stage's (TableLayout).

import RTSyntax

extension DocumentLowerer {
    /// The widest table typeset (columns of about 2 pt on A4 landscape).
    static let maxTableColumns = 400

    mutating func lowerTable(_ table: Table, block: Block, context: StyleState) {
        var state = context
        sheet.apply("table", to: &state)
        state = applying(block.attributes, to: state)

        let columnCount = max(table.alignments.count, table.header.count, table.rows.map(\.count).max() ?? 0)
        guard columnCount > 0 else { return }
        // Short rows are padded to the widest: without a cap a wide header over many short rows would make
        // rows x columns cells from input of rows + columns bytes. No page holds this many columns anyway.
        guard columnCount <= Self.maxTableColumns else {
            diagnostics.append(.error("this table has \(columnCount) columns; at most \(Self.maxTableColumns) fit a page: "
                + "split it into several tables", at: block.range.start))
            return
        }
        let columns: [CellAlignment] = (0..<columnCount).map { column in
            switch column < table.alignments.count ? table.alignments[column] : .none {
            case .none, .left: .left
            case .center: .center
            case .right: .right
            case .decimal: .decimal
            }
        }

        var rows: [(cells: [TableCell], isHeader: Bool)] = []
        if table.header.contains(where: { !$0.content.isEmpty }) { rows.append((table.header, true)) }
        rows += table.rows.map { ($0, false) }

        let base = state.paragraphStyle()
        var cellStyle = base
        cellStyle.headIndent = 0
        cellStyle.firstLineHeadIndent = 0
        cellStyle.tailIndent = 0
        cellStyle.spaceBefore = 0
        cellStyle.spaceAfter = 0
        cellStyle.breakBefore = .none
        cellStyle.keepWithNext = false
        cellStyle.tabStops = []

        var lowered = TableCells(columnCount: columnCount)
        for row in rows {
            var rowState = state
            if row.isHeader { rowState.character.weight = max(rowState.character.weight, 700) }
            var cells: [AttributedParagraph] = []
            for column in 0..<columnCount {
                var builder = ParagraphBuilder()
                var style = cellStyle
                switch columns[column] {
                case .left: style.alignment = .left
                case .center: style.alignment = .center
                case .right: style.alignment = .right
                case .decimal:
                    // Header cells of a decimal column are right-aligned over the numbers; body cells get
                    // a decimal stop that layout moves to where the column's separators line up.
                    if row.isHeader {
                        style.alignment = .right
                    } else {
                        style.alignment = .left
                        style.tabStops = [TabStop(position: 1, alignment: .decimal)]
                        builder.append("\t", rowState.character)
                    }
                }
                if column < row.cells.count {
                    lowerParagraphInlines(row.cells[column].content, state: rowState, into: &builder)
                }
                let location = column < row.cells.count ? row.cells[column].range.start : block.range.start
                cells.append(builder.finish(style: style, emptyAttributes: rowState.character, location: location)
                    .markingDecimalSeparators())
            }
            lowered.appendRow(cells)
        }

        var result = TableBlock(columns: columns, cells: lowered, headerRowCount: rows.first?.isHeader == true ? 1 : 0)
        // Tagging sets every row's ids: with `lowered` still holding the cells, that copied all of them.
        lowered = TableCells(columnCount: 0)
        result.headIndent = base.headIndent
        result.tailIndent = base.tailIndent
        let em = state.character.fontSize
        result.cellPadding = EdgeInsets(top: 0.25 * em, right: 0.5 * em, bottom: 0.25 * em, left: 0.5 * em)
        result.spaceBefore = base.spaceBefore
        result.spaceAfter = base.spaceAfter
        result.location = block.range.start
        tagTable(&result)
        output.append(.table(result))
    }
}
