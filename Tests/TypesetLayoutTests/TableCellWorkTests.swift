// Work per table cell (issue 8: a 50,000-row table took some 8 s per MB of source, two Pango layouts a cell):
// equal cells of a table are measured and shaped once. Counted (layouts made, layouts shared), not timed.

import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class TableCellWorkTests: XCTestCase {
    private func cell(_ text: String, line: Int) -> AttributedParagraph {
        var p = Fixture.paragraph([(text, Fixture.attributes())])
        p.location = SourceLocationStub.at(line)
        return p
    }

    /// 300 rows: a column of distinct names, a column of three statuses.
    private func table() -> TableBlock {
        let statuses = ["open", "closed", "waiting for review"]
        let rows = (0 ..< 300).map { i in [cell("item \(i)", line: i + 1), cell(statuses[i % 3], line: i + 1)] }
        return TableBlock(columns: [.left, .left], rows: rows, headerRowCount: 0)
    }

    func testEqualCellsAreShapedOnce() {
        var diagnostics: [Diagnostic] = []
        let before = LayoutWork.paragraphsLaidOut
        let layout = TableLayout(table(), columnWidth: 400, engine: .shared, images: ImageCache(), diagnostics: &diagnostics)
        let rows = (0 ..< layout.rowCount).map { layout.row($0, diagnostics: &diagnostics) }
        // Measuring: 300 names and 3 statuses; setting: the same again. Every other status cell shares a layout.
        XCTAssertEqual(layout.memo.made, 2 * (300 + 3))
        XCTAssertEqual(layout.memo.shared, 300 - 3)
        XCTAssertEqual(LayoutWork.paragraphsLaidOut - before, layout.memo.made, "each one Pango layout")
        XCTAssertTrue(diagnostics.isEmpty)
        // A shared layout sets the same line as its own would, and carries its own cell (location, for tagging).
        for (i, row) in rows.enumerated() {
            XCTAssertEqual(row.cells[1].paragraph.location?.line, i + 1)
            XCTAssertEqual(row.cells[1].lines.map(\.width), rows[i % 3].cells[1].lines.map(\.width))
            XCTAssertEqual(row.height, rows[0].height)
        }
        XCTAssertFalse(rows[3].cells[1] === rows[0].cells[1], "a layout of its own for each cell placed")
    }

    /// The memo is bounded: a table of distinct cells keeps at most `capacity` layouts, and all are made.
    func testDistinctCellsAreAllMadeAndTheMemoStaysBounded() {
        var diagnostics: [Diagnostic] = []
        let count = TableCellMemo.capacity + 100
        let rows = (0 ..< count).map { [cell("cell \($0)", line: $0 + 1)] }
        let layout = TableLayout(TableBlock(columns: [.left], rows: rows, headerRowCount: 0), columnWidth: 400,
                                 engine: .shared, images: ImageCache(), diagnostics: &diagnostics)
        for i in 0 ..< count { _ = layout.row(i, diagnostics: &diagnostics) }
        XCTAssertEqual(layout.memo.made, 2 * count)
        XCTAssertEqual(layout.memo.shared, 0)
        XCTAssertLessThanOrEqual(layout.memo.kept, TableCellMemo.capacity)
    }
}

private enum SourceLocationStub {
    static func at(_ line: Int) -> SourceLocation { SourceLocation(file: "t.rt", line: line, column: 1) }
}
