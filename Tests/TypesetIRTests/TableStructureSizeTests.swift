// What a table cell keeps for tagging is the same few bytes however long the table is (issue 8: a 50,000-row
// table's cells held 58 MB of structure paths). Counted, not timed.

import RTSyntax
import TypesetIR
import XCTest

final class TableStructureSizeTests: XCTestCase {
    private func tableCells(rows: Int) -> [AttributedParagraph] {
        var source = "| name | count |\n|---|---:|\n"
        for i in 0 ..< rows { source += "| item \(i) | \(i * 7) |\n" }
        let parsed = RTParser.parse(Array(source.utf8), file: "t.rt")
        let result = Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: { RTParser.parseInlines($0, at: $1) })
        for case .table(let table) in result.document.blocks { return table.rows.flatMap { $0 } }
        return []
    }

    /// Bytes of structure path a cell holds (its node array's storage).
    private func pathBytes(_ cell: AttributedParagraph) -> Int {
        (cell.structure?.nodes.capacity ?? 0) * MemoryLayout<StructureNode>.stride
    }

    func testEveryCellKeepsTheSameSmallPathWhateverTheLength() {
        XCTAssertLessThanOrEqual(MemoryLayout<StructureNode>.stride, 32, "a node's rare attributes belong in its box")
        for rows in [100, 400] {
            let cells = tableCells(rows: rows)
            XCTAssertEqual(cells.count, 2 * (rows + 1))
            // Table > THead/TBody > TR > TH/TD, with no spare capacity.
            XCTAssertEqual(Set(cells.map { $0.structure?.nodes.count ?? 0 }), [4], "\(rows) rows")
            XCTAssertEqual(Set(cells.map(pathBytes)), [4 * MemoryLayout<StructureNode>.stride], "\(rows) rows")
            // The row's elements are shared by its cells, each cell's own element is new: ids per row stay 3.
            let ids = Set(cells.flatMap { $0.structure?.nodes.map(\.id) ?? [] })
            XCTAssertEqual(ids.count, 1 + 2 + 3 * (rows + 1), "Table, THead, TBody, and TR + 2 cells a row")
        }
    }

    func testNodeAttributesSurviveTheirBox() {
        var node = StructureNode(id: 7, type: "TH")
        XCTAssertNil(node.scope)
        node.scope = "Column"
        var copy = node
        copy.alt = "a chart"
        XCTAssertEqual(node.scope, "Column")
        XCTAssertNil(node.alt, "changing a copy leaves the shared box alone")
        XCTAssertEqual(copy.scope, "Column")
        XCTAssertEqual(copy.alt, "a chart")
        XCTAssertNotEqual(node, copy)
        copy.alt = nil
        XCTAssertEqual(node, copy)
        XCTAssertEqual(node.hashValue, copy.hashValue)
    }
}
