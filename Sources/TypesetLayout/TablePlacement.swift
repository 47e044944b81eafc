// Placing a laid-out table row by row into the flow. Rows are never split: a row that does not fit goes to
// the next column or page, and the header rows are repeated on top there. A row taller than a whole column
// is placed anyway, overflowing the bottom margin, with a warning (as a too-tall line is).

import RTSyntax
import TypesetIR

extension Paginator {
    func place(_ table: TableLayout) throws {
        let spec = table.table
        let header = table.headerRows
        let headerHeight = header.reduce(0) { $0 + $1.height }
        var gap = region.isEmpty ? 0 : pendingSpace + spec.spaceBefore
        var repeatHeader = false
        var warned = false
        var index = 0
        while index < table.rowCount {
            // Header rows only go where the first body row fits under them.
            var needed: Double
            if index < header.count {
                let firstBody = header.count < table.rowCount ? table.row(header.count, diagnostics: &diagnostics).height : 0
                needed = header.dropFirst(index).reduce(0) { $0 + $1.height } + firstBody
            } else {
                needed = table.row(index, diagnostics: &diagnostics).height
            }
            if repeatHeader { needed += headerHeight }
            if !region.fits(gap + needed) {
                if !region.isEmpty {
                    try nextColumn()
                    gap = 0
                    repeatHeader = index >= header.count && !header.isEmpty
                    continue
                }
                if !warned {
                    diagnostics.append(.warning(String(format: "a table row is %.1fpt tall, taller than the column (%.1fpt)",
                                                       needed, region.frame.height), at: spec.location))
                    warned = true
                }
            }
            // A row with footnote marks goes where its notes fit too.
            let row = table.row(index, diagnostics: &diagnostics)
            let marks = newNotes(in: row.cells.map(\.paragraph))
            var check = marks  // a header row is set only where the first body row and its notes fit too
            if index < header.count, header.count < table.rowCount {
                check += newNotes(in: table.row(header.count, diagnostics: &diagnostics).cells.map(\.paragraph))
                    .filter { !check.contains($0) }
            }
            if !check.isEmpty && !region.isEmpty && !notesFit(check, bodyBottom: region.y + gap + needed) {
                try nextColumn()
                gap = 0
                repeatHeader = index >= header.count && !header.isEmpty
                continue
            }
            if repeatHeader {
                for row in header {
                    placeRow(row, of: table, gap: gap, repeated: true)
                    gap = 0
                }
                repeatHeader = false
            }
            placeRow(row, of: table, gap: gap)
            if !marks.isEmpty { takeNotes(marks, bodyBottom: region.y, markTop: region.y - row.height) }
            gap = 0
            index += 1
        }
        pendingSpace = spec.spaceAfter
    }

    private func placeRow(_ row: TableLayout.Row, of table: TableLayout, gap: Double, repeated: Bool = false) {
        let spec = table.table
        let slot = region.take(gap: gap, height: row.height, advance: row.height)
        let left = slot.x + spec.headIndent
        for (column, cell) in row.cells.enumerated() {
            let cellLeft = left + table.columnX[column] + spec.cellPadding.left
            var top = slot.top + spec.cellPadding.top
            for (i, box) in cell.lines.enumerated() {
                let baseline = top + box.baselineOffset
                page.lines.append(PlacedLine(paragraph: cell, lineIndex: i, originX: cellLeft + cell.left, baseline: baseline))
                page.lines[page.lines.count - 1].isArtifact = repeated
                for piece in cell.linkPieces(line: i) {
                    page.links.append(LinkArea(target: piece.target, x: cellLeft + piece.x, y: baseline - box.ascent,
                                               width: piece.width, height: box.ascent + box.descent))
                }
                for image in cell.images where image.line == i {
                    page.images.append(PlacedImage(path: image.path, image: image.image, x: cellLeft + image.x,
                                                   y: baseline + image.top, width: image.width, height: image.height,
                                                   fit: image.fit, structure: repeated ? nil : image.structure))
                }
                top += box.advance
            }
        }
        // A firm rule under the (last) header row, light rules under body rows.
        let isLastHeader = row.isHeader && row.cells.first === table.headerRows.last?.cells.first
        if !row.isHeader || isLastHeader {
            let rule = row.isHeader ? spec.headerRule : spec.rowRule
            page.rects.append(PlacedRect(kind: .rule, x: left, y: slot.top + row.height - rule.width / 2,
                                         width: table.width, height: rule.width, color: rule.color))
        }
        pageHasContent = true
    }
}
