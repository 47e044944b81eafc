// Issue 8 (peak memory of the largest allowed input, a 212,000-row table): the tagging stage holds the whole
// structure tree at its peak. Counted in heap bytes per table row at two sizes, not timed: the tree is a few
// 32-bit columns per element (it was ~600 bytes a row as structs with arrays), the renderer's records are a few
// 32-bit ids a row, and each page's records are released as the tree reads them.

import TypesetIR
@testable import TypesetLayout
import XCTest
@testable import TypesetPDF

final class TagTreeMemoryTests: XCTestCase {
    /// `rows` rows of three cells, 40 to a page, as the renderer records them (one record per row).
    private func table(rows: Int) -> [PageMarks] {
        let group = [StructureNode(id: 1, type: "Sect"), StructureNode(id: 2, type: "Table"), StructureNode(id: 3, type: "TBody")]
        var pages: [PageMarks] = [], page = PageMarks(), id = 4
        for row in 0 ..< rows {
            let tr = StructureNode(id: id, type: "TR")
            for column in 1 ... 3 { page.append(.content(group + [tr, StructureNode(id: id + column, type: "TD")])) }
            id += 4
            if row % 40 == 39 {
                pages.append(page)
                page = PageMarks()
            }
        }
        if page.count > 0 { pages.append(page) }
        return pages
    }

    #if canImport(Glibc)
    func testALongTablesTreeTakesFewBytesPerRowAndItsRecordsGo() throws {
        var perRow: [Int: Double] = [:]
        for rows in [5_000, 40_000] {
            guard let start = HeapBytes.inUse() else { throw XCTSkip("malloc_info is not available") }
            let pages = table(rows: rows)
            guard let recorded = HeapBytes.inUse() else { throw XCTSkip("malloc_info is not available") }
            let tree = StructureTree(pages: consume pages)
            guard let built = HeapBytes.inUse() else { throw XCTSkip("malloc_info is not available") }
            // Every element once, in id order: Sect, Table, TBody, then each row and its three cells.
            XCTAssertEqual(tree.count, 3 + 4 * rows)
            XCTAssertEqual(tree.elements[3]?.children.count, rows)
            XCTAssertEqual(tree.elements[8]?.children, [9, 10, 11])
            XCTAssertEqual(tree.elements[11]?.content, [.mcid(page: 0, mcid: 5)])
            let firstCells: [Int?] = [165, 166]  // row 40's TR is 4 + 40 * 4
            XCTAssertEqual(Array(tree.ownerIDs(page: 1).prefix(2)), firstCells)
            let records = Double(recorded - start) / Double(rows), kept = Double(built - start) / Double(rows)
            print("\(rows) rows: records \(Int(records)) bytes a row, tree \(Int(kept)) bytes a row")
            // Rows of one look are one record (one a row took ~200 bytes), 32-bit ids each.
            XCTAssertLessThan(records, 60, "\(rows) rows: the records take \(Int(records)) bytes a row")
            // The records are gone and the tree is small: 4 elements and 3 sequences a row.
            XCTAssertLessThan(kept, 190, "\(rows) rows: the tree keeps \(Int(kept)) bytes a row")
            perRow[rows] = kept
            withExtendedLifetime(tree) {}
        }
        let small = try XCTUnwrap(perRow[5_000]), large = try XCTUnwrap(perRow[40_000])
        XCTAssertLessThan(large, small * 1.5 + 16, "bytes a row grow with the table: \(small) then \(large)")
    }
    #endif

    /// Cairo's objects' offsets in the new file: 32 bits each, one entry per object number.
    func testObjectOffsetsKeepEveryOffsetExactly() {
        var offsets = ObjectOffsets()
        offsets.reserve(through: 10)
        offsets[3] = 17
        offsets[7] = 5_000_000_000  // past 4 GB
        offsets[12] = 0
        XCTAssertEqual(offsets[3], 17)
        XCTAssertEqual(offsets[7], 5_000_000_000)
        XCTAssertEqual(offsets[12], 0)
        XCTAssertNil(offsets[4])
        XCTAssertNil(offsets[100])
        XCTAssertEqual(offsets.keys, [3, 7, 12])
        offsets[3] = nil
        XCTAssertEqual(offsets.keys, [7, 12])
    }
}
