// The inline parser's working records stay packed (issue 8: at the 8 MB bound, `[a`, `[ a_` and `*a **a`
// took over 1 GB with 112-byte pieces). Counts bytes held, so no clock or machine load can make it fail.

import XCTest
@testable import RTSyntax

final class InlineRecordTests: XCTestCase {
    func testRecordsArePacked() {
        XCTAssertEqual(MemoryLayout<InlineParser.Piece>.stride, 20)
        XCTAssertEqual(MemoryLayout<InlineParser.Bracket>.stride, 8)
        XCTAssertEqual(MemoryLayout<InlineParser.Delim>.stride, 24)
        // A syntax node: its kind held in place (no box: 24 bytes), two locations of 12 bytes (32-bit file
        // number, line and column) and its literal offsets. It was 64 bytes and two boxes for `*a*`.
        XCTAssertEqual(MemoryLayout<SourceLocation>.stride, 12)
        XCTAssertEqual(MemoryLayout<InlineKind>.size, 24)
        XCTAssertEqual(MemoryLayout<Inline>.stride, 56)
    }

    /// Openers that never close keep their records until the paragraph ends: at most 32 bytes of records a byte
    /// of input (pieces, brackets, delimiters and nodes together; 112 a byte for pieces alone before), and the
    /// text comes back whole.
    func testOpenersThatNeverCloseHoldFewBytesEach() {
        for unit in ["[a", "[ a_", "*a **a ", "_a _", "![[[", "[a](", "["] {
            let text = String(repeating: unit, count: 120_000 / unit.utf8.count)
            let src = Source(file: "doc.rt", bytes: Array(text.utf8))
            var parser = InlineParser(InlineInput(src: src, segments: [(0, src.bytes.count)]))
            let inlines = parser.run()
            // Counted when emphasis is settled, the most they hold (`run` frees them before it returns).
            let held = parser.spentRecords.bytes
            XCTAssertGreaterThan(held, 0, unit)
            XCTAssertLessThanOrEqual(held, 32 * text.utf8.count, "\(unit): \(held) bytes of records")
            // Spaces at the end of a paragraph are dropped.
            let kept = String(text.reversed().drop(while: { $0 == " " }).reversed())
            XCTAssertEqual(plainText(inlines), kept, unit)
        }
    }

    /// Text kept as a run of the buffer becomes the same text node, with the same range, as one made at once.
    func testTextBetweenBracketsKeepsItsRange() {
        let src = Source(file: "doc.rt", bytes: Array("[ab [cd] é [x](/y) ok".utf8))
        var parser = InlineParser(InlineInput(src: src, segments: [(0, src.bytes.count)]))
        let inlines = parser.run()
        guard inlines.count == 3, case .text(let before) = inlines[0].kind, case .link = inlines[1].kind,
              case .text(let after) = inlines[2].kind else { return XCTFail("\(inlines)") }
        XCTAssertEqual(before, "[ab [cd] é ")
        XCTAssertEqual(inlines[0].range.start.column, 1)
        XCTAssertEqual(inlines[0].range.end.column, 12)
        XCTAssertEqual(after, " ok")
        XCTAssertEqual(inlines[2].range.start.column, 19)
    }

    /// A long paragraph's inlines are counted before they are collected: its array is made once, at its size.
    func testALongParagraphsInlinesAreCollectedIntoAnArrayOfTheirSize() {
        for unit in ["*a* ", "[a](/x) b ", "a `c` "] {
            let text = String(repeating: unit, count: 20_000)  // over 64 KB: records are reserved
            let src = Source(file: "doc.rt", bytes: Array(text.utf8))
            var parser = InlineParser(InlineInput(src: src, segments: [(0, src.bytes.count)]))
            let inlines = parser.run()
            // At most a page more than asked for: the allocator's rounding, not a doubling.
            XCTAssertLessThanOrEqual(inlines.capacity - inlines.count, 4096 / MemoryLayout<Inline>.stride,
                                     "\(unit): \(inlines.count) inlines in room for \(inlines.capacity)")
            XCTAssertGreaterThanOrEqual(inlines.count, 39_999, unit)
            if unit == "*a* " {  // emphasis adds a piece and a node a match: reserved too, not doubled into
                let spent = parser.spentRecords
                XCTAssertLessThan(spent.pieceRoom, spent.pieces * 3 / 2)
                XCTAssertLessThan(spent.nodeRoom, spent.nodes * 3 / 2)
                XCTAssertGreaterThan(spent.nodes, 19_000)
            }
            // Spent once the inlines are made: the records are not held beside the tree.
            XCTAssertEqual(parser.pieces.capacity + parser.nodes.capacity + parser.delims.capacity
                           + parser.brackets.capacity, 0, unit)
        }
    }

    /// Before the inlines are collected, the pieces still linked are copied into an array of their own size and
    /// the spent ones let go; the inlines are the same as from the whole list.
    func testSpentPiecesGoBeforeTheInlinesAreCollected() {
        // Over 4,096 pieces each; links over 64 KB, where room is reserved by an estimate (twice what they use).
        for (unit, count) in [("*a* ", 3_000), ("[a](/x) ", 9_000), ("**a** _b_ ", 3_000), ("a `c` d ", 3_000)] {
            let text = String(repeating: unit, count: count)
            let src = Source(file: "doc.rt", bytes: Array(text.utf8))
            var compacted = InlineParser(InlineInput(src: src, segments: [(0, src.bytes.count)]))
            let inlines = compacted.run()
            var whole = InlineParser(InlineInput(src: src, segments: [(0, src.bytes.count)]))
            whole.compactsPieces = false
            let reference = whole.run()
            XCTAssertEqual(inlines.count, reference.count, unit)
            XCTAssertEqual(plainText(inlines), plainText(reference), unit)
            XCTAssertEqual(inlines.map(\.range), reference.map(\.range), unit)
            XCTAssertEqual(inlines.map { "\($0.kind)" }, reference.map { "\($0.kind)" }, unit)
            if unit == "*a* " {
                // Kept: the pieces still linked (an emphasis and the space after it a unit), not the delimiters
                // and runs spent on the way.
                XCTAssertGreaterThan(compacted.collectedPieces, 0, unit)
                XCTAssertLessThanOrEqual(compacted.collectedPieces, 2 * count + 1, unit)
                XCTAssertGreaterThan(compacted.spentRecords.pieces, compacted.collectedPieces * 4 / 3, unit)
            } else if unit == "[a](/x) " {
                // Every piece made is still linked: nothing to gain, no copy.
                XCTAssertEqual(compacted.collectedPieces, 0, unit)
            }
        }
    }
}
