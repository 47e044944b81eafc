// The inline parser's working records stay packed (issue 8: at the 8 MB bound, `[a`, `[ a_` and `*a **a`
// took over 1 GB with 112-byte pieces). Counts bytes held, so no clock or machine load can make it fail.

import XCTest
@testable import RTSyntax

final class InlineRecordTests: XCTestCase {
    func testRecordsArePacked() {
        XCTAssertEqual(MemoryLayout<InlineParser.Piece>.stride, 20)
        XCTAssertEqual(MemoryLayout<InlineParser.Bracket>.stride, 8)
        XCTAssertEqual(MemoryLayout<InlineParser.Delim>.stride, 24)
        // A syntax node: its stored form in place (17 bytes: no payload over 16), one file number and four
        // 32-bit numbers for its range (InlineStorage.swift). It was 56 bytes and an array for `*a*`'s child.
        XCTAssertEqual(MemoryLayout<SourceLocation>.stride, 12)
        XCTAssertEqual(MemoryLayout<InlineKind>.size, 24)
        XCTAssertEqual(MemoryLayout<StoredInline>.size, 17)
        XCTAssertEqual(MemoryLayout<Inline>.stride, 40)
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

    /// A long paragraph's inlines go into one array made once, with room for as many as its special bytes can
    /// make: never grown by doubling, and never copied at the end (its untouched room costs no memory; a copy
    /// held every inline twice).
    func testALongParagraphsInlinesAreCollectedIntoOneArrayMadeOnce() {
        for unit in ["*a* ", "[a](/x) b ", "a `c` "] {
            let text = String(repeating: unit, count: 20_000)  // over 64 KB: records are reserved
            let src = Source(file: "doc.rt", bytes: Array(text.utf8))
            var parser = InlineParser(InlineInput(src: src, segments: [(0, src.bytes.count)]))
            let inlines = parser.run()
            // The room reserved before parsing, at most a page more (the allocator's rounding): not regrown.
            XCTAssertGreaterThan(parser.reservedInlines, 0, unit)
            XCTAssertLessThanOrEqual(inlines.capacity - parser.reservedInlines, 4096 / MemoryLayout<Inline>.stride,
                                     "\(unit): \(inlines.count) inlines in room for \(inlines.capacity)")
            XCTAssertGreaterThanOrEqual(inlines.count, 39_999, unit)
            // Each emphasis, link and code span settles what came before it: few records are left at the end.
            XCTAssertLessThan(parser.spentRecords.pieces, 4096, unit)
            XCTAssertLessThan(parser.spentRecords.nodes, 4096, unit)
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

    /// Every stored form gives back the kind, range and literal offsets it was made from; the compact ones are
    /// used exactly when the child's range follows from the node's.
    func testInlinesGiveBackWhatTheyWereMadeFrom() {
        func at(_ line: Int, _ column: Int, _ file: String = "doc.rt") -> SourceLocation {
            SourceLocation(file: file, line: line, column: column)
        }
        func text(_ s: String, _ a: SourceLocation, _ b: SourceLocation) -> Inline {
            Inline(.text(s), range: SourceRange(start: a, end: b))
        }
        let cases: [(InlineKind, SourceRange, String)] = [
            (.emphasis([text("a", at(1, 2), at(1, 3))]), SourceRange(start: at(1, 1), end: at(1, 4)), "emphasisText"),
            (.strong([text("wörd", at(2, 7), at(2, 11))]), SourceRange(start: at(2, 5), end: at(2, 13)), "strongText"),
            // The child is not centred (`**a*` leaves a star before it as text elsewhere): kept whole.
            (.emphasis([text("a", at(1, 3), at(1, 4))]), SourceRange(start: at(1, 1), end: at(1, 5)), "emphasis"),
            // Its length is not its columns (an escape or entity was written): kept whole.
            (.emphasis([text("&", at(1, 2), at(1, 7))]), SourceRange(start: at(1, 1), end: at(1, 8)), "emphasis"),
            (.emphasis([text("a", at(1, 2), at(1, 3)), text("b", at(1, 3), at(1, 4))]),
             SourceRange(start: at(1, 1), end: at(1, 5)), "emphasis"),
            (.emphasis([text("a", at(1, 2), at(2, 1))]), SourceRange(start: at(1, 1), end: at(2, 2)), "emphasis"),
            (.link(destination: "/x", content: [text("ab", at(3, 2), at(3, 4))]),
             SourceRange(start: at(3, 1), end: at(3, 9)), "linkText"),
            (.link(destination: "/x", content: [text("ab", at(3, 3), at(3, 5))]),
             SourceRange(start: at(3, 1), end: at(3, 9)), "boxed"),
            (.link(destination: "/x", content: []), SourceRange(start: at(3, 1), end: at(3, 9)), "boxed"),
            (.text("x"), SourceRange(start: at(1, 1), end: at(1, 2, "other.rt")), "boxed"),
            (.code("c"), SourceRange(start: at(4, 1), end: at(4, 4)), "code"),
            (.span(content: [text("s", at(1, 2), at(1, 3))], attributes: Attributes()),
             SourceRange(start: at(1, 1), end: at(1, 8)), "boxed"),
        ]
        for (kind, range, form) in cases {
            let made = Inline(kind, range: range)
            XCTAssertEqual(made.range, range, "\(kind)")
            XCTAssertTrue("\(made.stored)".hasPrefix(form), "\(made.stored) for \(kind)")
            XCTAssertEqual(childRanges(made), childRanges(kind), "\(kind)")
        }
        var literal = Inline(.text("a--b"), range: SourceRange(start: at(1, 1), end: at(1, 7)))
        literal.literalOffsets = [1]
        XCTAssertEqual(literal.literalOffsets, [1])
        literal.kind = .text("a--c")
        XCTAssertEqual(literal.literalOffsets, [1], "a new kind keeps the offsets")
        XCTAssertEqual(show(literal), "\"a--c\"")
        XCTAssertEqual(literal.range.end.column, 7)
    }

    private func childRanges(_ inline: Inline) -> [SourceRange] { childRanges(inline.kind) }

    private func childRanges(_ kind: InlineKind) -> [SourceRange] {
        switch kind {
        case .strong(let c), .emphasis(let c), .underline(let c), .strikethrough(let c), .superscript(let c),
             .subscript(let c), .highlight(let c), .inlineFootnote(let c), .link(_, let c), .span(let c, _):
            return c.flatMap { [$0.range] + childRanges($0) }
        default: return []
        }
    }

    /// A long paragraph is collected piece by piece as it settles (after each emphasis and link outside
    /// brackets); the tree is the one collecting it all at its end makes, with the same ranges, for a mix of
    /// every inline construct, unclosed openers and brackets included.
    func testSettlingAsItGoesMakesTheSameTree() {
        let units = ["*a* ", "**b** ", "_c_ ", "__d__ ", "~e~ ", "~~f~~ ", "^g^ ", "==h== ", "[i](/x) ", "[j] ",
                     "[k]{.x} ", "`l` ", "*m ", "n* ", "[o ", "p] ", "word ", "*q **r* s** ", "<https://t.u> ",
                     "www.v.w ", "x\\*y ", "&amp; ", "![z](i.png) ", "**[a*](b)** ", "*[c*](d) ", "[*e](f)* ",
                     "_g_h_ ", "***i*** ", "*j**k* ", "\"quote\" ", "-- ", "^[note *x*] ", "{{var}} ", "é*ü* ", "\n"]
        var seed: UInt64 = 42
        for round in 0 ..< 4 {
            var text = ""
            while text.utf8.count < 80_000 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let pick = Int((seed >> 33) % UInt64(units.count))
                // Each round leans on a few units, so runs of one construct build long stacks.
                text += units[(pick + round * 7) % units.count]
                if round % 2 == 1 && pick < 6 { text += units[pick] }
            }
            let src = Source(file: "doc.rt", bytes: Array(text.utf8))
            var settling = InlineParser(InlineInput(src: src, segments: [(0, src.bytes.count)]))
            settling.definitions = ["j": LinkDefinition(destination: "/j", title: nil)]
            let tree = settling.run()
            var whole = InlineParser(InlineInput(src: src, segments: [(0, src.bytes.count)]))
            whole.definitions = settling.definitions
            whole.settles = false
            let reference = whole.run()
            XCTAssertGreaterThan(settling.settledCount, 0, "round \(round)")
            XCTAssertEqual(show(tree), show(reference), "round \(round)")
            XCTAssertEqual(tree.map(\.range), reference.map(\.range), "round \(round)")
            XCTAssertEqual(tree.flatMap(childRanges), reference.flatMap(childRanges), "round \(round)")
        }
    }
}
