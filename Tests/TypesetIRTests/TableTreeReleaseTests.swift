// Issue 8 (peak memory of a long table): lowering frees each table row's syntax as soon as its cells are in
// the packed IR, so the tree and the IR of a long table are never both whole. Counted in heap bytes, not timed.

import Foundation
import RTSyntax
@testable import TypesetIR
import XCTest

final class TableTreeReleaseTests: XCTestCase {
    #if canImport(Glibc)
    /// 20,000 rows: when the table is heard (right after it is lowered, before lowering ends) the heap holds
    /// less than half the tree more than once lowering is over; a document with a table used to keep its whole
    /// tree to the end. (Rows freed one by one inside `lowerTable` have no probe: that lowers the peak within.)
    func testTableRowsAreFreedAsTheyAreLowered() throws {
        guard let start = HeapInUse.bytes() else { throw XCTSkip("malloc_info is not available") }
        var document = RTDocument(file: testFile, blocks: [Self.table(rows: 20_000), paragraph(text("after"), line: 20_003)])
        guard let built = HeapInUse.bytes() else { throw XCTSkip("malloc_info is not available") }
        let tree = built - start
        let probe = HeapProbe()
        var options = LoweringOptions()
        options.sink = probe
        let result = Lowering.lower(consume document, options: options, parseInlines: stubParseInlines)
        guard let done = HeapInUse.bytes() else { throw XCTSkip("malloc_info is not available") }
        document = RTDocument(file: testFile)
        XCTAssertTrue(result.errors.isEmpty, "\(result.errors)")
        let atTable = try XCTUnwrap(probe.heard.first, "the table was not heard while lowering went on")
        let report = "tree \(tree) bytes; heap over the end's when the table was heard: \(atTable - done)"
        print("table rows: \(report)")
        XCTAssertLessThan(atTable - done, tree / 2, report)
        withExtendedLifetime(result) {}
    }

    private static func table(rows: Int) -> Block {
        func cell(_ s: String, line: Int) -> TableCell { TableCell(content: [text(s, line: line)], range: at(line)) }
        let body = (0 ..< rows).map { i in
            [cell("item number \(i) of the list", line: i + 3), cell("\(i * 7) units counted", line: i + 3),
             cell("some longer note text \(i % 13)", line: i + 3)]
        }
        let header = [cell("name", line: 1), cell("count", line: 1), cell("note", line: 1)]
        return Block(.table(Table(alignments: [.none, .none, .none], header: header, rows: body)), range: at(1))
    }
    #endif
}

#if canImport(Glibc)
/// Notes the heap in use each time lowering hands over a block.
private final class HeapProbe: LoweredBlockSink, @unchecked Sendable {
    private(set) var heard: [Int] = []
    func begin(_ document: TypesetDocument) -> Bool { true }
    func lowered(_ block: LayoutBlock, at index: Int) { heard.append(HeapInUse.bytes() ?? 0) }
}
#endif
