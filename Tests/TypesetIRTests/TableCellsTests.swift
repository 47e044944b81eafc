// A table's cells are held packed (issue 8: 770 MB for a 212,000-row table): they read back exactly as
// lowered, and a row costs a bounded number of bytes. Counted, not timed.

import Foundation
import RTSyntax
@testable import TypesetIR
import XCTest

final class TableCellsTests: XCTestCase {
    private func lowered(_ source: String) -> TableBlock? {
        let parsed = RTParser.parse(Array(source.utf8), file: "t.rt")
        let result = Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: { RTParser.parseInlines($0, at: $1) })
        for case .table(let table) in result.document.blocks { return table }
        return nil
    }

    private func plainTable(rows: Int) -> String {
        var source = "| name | count | note |\n|---|---:|---|\n"
        for i in 0 ..< rows { source += "| item \(i) | \(i * 7) | some text \(i % 13) |\n" }
        return source
    }

    /// Cells of every kind: several runs, empty, decimal, a link, a footnote mark; packed or whole, each reads
    /// back as the paragraph it was made from.
    func testCellsReadBackAsTheyWereGiven() throws {
        let source = """
        | a | b | c |
        |---|--:|---|
        | **bold** and *it* | 1.5 | [l](https://x.org) |
        |  | 12 | note[^n] |
        | `code` | | plain |

        [^n]: The note.
        """
        let table = try XCTUnwrap(lowered(source))
        let rows = table.rows
        XCTAssertEqual(rows.count, 4)
        XCTAssertEqual(rows[1][0].runs.count, 3, "bold, plain, italic")
        XCTAssertFalse(rows[2][2].footnoteMarks.isEmpty)
        // Packing the materialized rows again gives the same rows (structure, locations, runs, styles).
        let again = TableCells(columnCount: 3, rows: rows.map { $0.map { var p = $0; p.structure = nil; return p } })
        for r in rows.indices {
            for c in 0 ..< 3 {
                var expected = rows[r][c]
                expected.structure = nil
                XCTAssertEqual(again[r, c], expected, "cell \(r), \(c)")
                var untagged = table.cells.cell(r, c, tagged: false)  // a cell kept whole keeps its path
                untagged.structure = nil
                XCTAssertEqual(untagged, expected, "cell \(r), \(c) untagged")
                XCTAssertEqual(rows[r][c].location?.line, r == 0 ? 1 : r + 2)
            }
        }
        XCTAssertEqual(rows[1][0].text, "bold and it")
        XCTAssertEqual(rows[2][0].text, "")
        XCTAssertLessThanOrEqual(table.cells.richCells.count, 1, "only the cell with a note is kept whole")
    }

    func testPlainRowsArePackedInAFewBytes() throws {
        for count in [500, 2_000] {
            let table = try XCTUnwrap(lowered(plainTable(rows: count)))
            XCTAssertEqual(table.rowCount, count + 1)
            XCTAssertTrue(table.cells.richCells.isEmpty)
            // Text (about 30 bytes a row), three 24-byte cells, their runs and the row's structure id.
            let perRow = table.cells.packedBytes / (count + 1)
            XCTAssertLessThanOrEqual(perRow, 150, "\(count) rows")
        }
    }

    #if canImport(Glibc)
    /// What the allocator holds for a lowered table, per row: the packed cells and their growth slack, not a
    /// paragraph per cell (about 1,600 bytes a row before).
    func testRetainedBytesPerRowAreBounded() throws {
        let count = 4_000
        let parsed = RTParser.parse(Array(plainTable(rows: count).utf8), file: "t.rt")
        func lower() -> LoweringResult {
            Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: { RTParser.parseInlines($0, at: $1) })
        }
        _ = lower()  // shared attribute sets and styles are made once
        var perRow = Int.max
        for _ in 0 ..< 3 {
            guard let before = HeapInUse.bytes() else { throw XCTSkip("malloc_info is not available") }
            let result = lower()
            guard let after = HeapInUse.bytes() else { throw XCTSkip("malloc_info is not available") }
            perRow = min(perRow, (after - before) / count)
            withExtendedLifetime(result) {}
        }
        print("table IR: \(perRow) bytes a row")
        XCTAssertLessThan(perRow, 300)
    }
    #endif
}
