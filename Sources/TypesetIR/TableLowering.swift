// Pipe tables -> a TableBlock: one paragraph per cell (packed, TableCells.swift), the column alignments, the header row count.
// Column widths, wrapping, rules and the header repeated across pages are the layout stage's (TableLayout).

import RTSyntax

extension DocumentLowerer {
    /// The widest table typeset (columns of about 2 pt on A4 landscape).
    static let maxTableColumns = 400

    /// `table`'s rows are emptied as they are lowered: when the caller held its only copy, a row's syntax is
    /// freed as soon as its cells are in the packed IR, so a long table is never whole twice (issue 8).
    mutating func lowerTable(_ table: inout Table, block: Block, context: StyleState) {
        var state = context
        sheet.apply("table", to: &state)
        state = applying(block.attributes, to: state)

        let widestRow = table.rows.reduce(0) { max($0, $1.count) }
        let columnCount = max(table.alignments.count, table.header.count, widestRow)
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

        let format = TableRowFormat(columns: columns, cellStyle: cellStyle, state: state, location: block.range.start)
        var lowered = TableCells(columnCount: columnCount)
        let hasHeader = table.header.contains(where: { !$0.content.isEmpty })
        if hasHeader { lowered.appendRow(lowerTableRow(table.header, isHeader: true, format)) }
        table.header = []
        for r in table.rows.indices {
            var cells: [TableCell] = []
            swap(&cells, &table.rows[r])
            lowered.appendRow(lowerTableRow(cells, isHeader: false, format))
        }

        var result = TableBlock(columns: columns, cells: lowered, headerRowCount: hasHeader ? 1 : 0)
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

    /// One row's cells as paragraphs, short rows padded with empty cells.
    private mutating func lowerTableRow(_ row: [TableCell], isHeader: Bool, _ format: TableRowFormat) -> [AttributedParagraph] {
        var rowState = format.state
        if isHeader { rowState.character.weight = max(rowState.character.weight, 700) }
        var cells: [AttributedParagraph] = []
        cells.reserveCapacity(format.columns.count)
        for column in format.columns.indices {
            var builder = ParagraphBuilder()
            var style = format.cellStyle
            switch format.columns[column] {
            case .left: style.alignment = .left
            case .center: style.alignment = .center
            case .right: style.alignment = .right
            case .decimal:
                // Header cells of a decimal column are right-aligned over the numbers; body cells get
                // a decimal stop that layout moves to where the column's separators line up.
                if isHeader {
                    style.alignment = .right
                } else {
                    style.alignment = .left
                    style.tabStops = [TabStop(position: 1, alignment: .decimal)]
                    builder.append("\t", rowState.character)
                }
            }
            if column < row.count {
                lowerParagraphInlines(row[column].content, state: rowState, into: &builder)
            }
            let location = column < row.count ? row[column].range.start : format.location
            cells.append(builder.finish(style: style, emptyAttributes: rowState.character, location: location)
                .markingDecimalSeparators())
        }
        return cells
    }
}

/// What every row of one table is lowered with.
private struct TableRowFormat {
    var columns: [CellAlignment]
    var cellStyle: ParagraphStyle
    var state: StyleState
    var location: SourceLocation
}
