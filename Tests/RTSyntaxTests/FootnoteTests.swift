// Footnotes (contract section 4): `[^label]`, `[^label]: text` anywhere, `^[inline]`.

import XCTest
@testable import RTSyntax

final class FootnoteTests: XCTestCase {
    func testReferenceIsAnInlineNotText() {
        XCTAssertEqual(show("the smoothing[^smooth] is"), #""the smoothing" fnref(smooth) " is""#)
    }

    func testLabelsAreCaseFolded() {
        XCTAssertEqual(show("a[^Note]"), #""a" fnref(note)"#)
        XCTAssertEqual(show(blocks("[^NOTE]: x\n")), #"fndef(note)[p["x"]]"#)
    }

    func testBracketsWithSpacesOrEmptyLabelStayText() {
        XCTAssertEqual(show("a [^two words] b"), #""a [^two words] b""#)
        XCTAssertEqual(show("a [^] b"), #""a [^] b""#)
    }

    func testDefinitionIsABlockNotAParagraph() {
        let text = "Text[^1].\n\n[^1]: The note\ncontinues lazily.\n\n    Second paragraph.\n\nAfter.\n"
        XCTAssertEqual(show(blocks(text)),
                       #"p["Text" fnref(1) "."] fndef(1)[p["The note" SB "continues lazily."] p["Second paragraph."]] p["After."]"#)
    }

    func testDefinitionAnywhereAndNested() {
        let text = "[^a]: First.\n[^b]: Second.\n\n> [^c]: Quoted.\n"
        XCTAssertEqual(show(blocks(text)), #"fndef(a)[p["First."]] fndef(b)[p["Second."]] quote[fndef(c)[p["Quoted."]]]"#)
    }

    func testDefinitionIsNotALinkReferenceDefinition() {
        let r = parse("[^x]: http:/example\n\nSee [^x].\n")
        XCTAssertEqual(show(r.document.blocks), #"fndef(x)[p["http:/example"]] p["See " fnref(x) "."]"#)
    }

    func testInlineNoteParsesItsInlines() {
        XCTAssertEqual(show("a^[note *em* `c`] b"), #""a" fn("note " em("em") " " code(c)) " b""#)
    }

    func testInlineNoteBeforeSuperscript() {
        // `[^1]` and `^[x]` must not pair their carets as superscript delimiters.
        XCTAssertEqual(show("x[^1] and ^[note] and 2^10^"),
                       #""x" fnref(1) " and " fn("note") " and 2" sup("10")"#)
        XCTAssertEqual(show("^sup^ ^[in [brackets] here]"), #"sup("sup") " " fn("in [brackets] here")"#)
    }

    /// A `]` in a code span is the span's text, not the note's end (code spans bind tighter, as in links).
    func testInlineNoteSkipsBracketsInCodeSpans() {
        XCTAssertEqual(show("A^[see `x]` here] B."), #""A" fn("see " code(x]) " here") " B.""#)
        XCTAssertEqual(show("A^[``a]`` and `unclosed] B"), #""A" fn(code(a]) " and `unclosed") " B""#)
    }

    func testUnclosedInlineNoteIsLiteral() {
        XCTAssertEqual(show("a ^[b c"), #""a ^[b c""#)
    }

    func testInlineNoteKeepsSourcePositions() {
        let r = parse("line one\nand ^[the *note*] end\n")
        guard case .paragraph(let c) = r.document.blocks[0].kind,
              let note = c.first(where: { if case .inlineFootnote = $0.kind { return true } else { return false } }),
              case .inlineFootnote(let inner) = note.kind else { return XCTFail() }
        XCTAssertEqual(loc(note.range.start), "2:5")
        XCTAssertEqual(loc(inner.last?.range.start), "2:11")
    }

    func testManyUnclosedInlineNotesStayLinear() {
        func steps(_ n: Int) -> Int { parse(String(repeating: "^[a ", count: n)).parseSteps }
        let small = steps(2_000)
        let large = steps(8_000)
        XCTAssertLessThan(Double(large) / Double(small), 6)
    }

    func testDeeplyNestedInlineNotesAreCapped() {
        let n = 50
        let text = String(repeating: "^[", count: n) + "x" + String(repeating: "]", count: n)
        let r = parse(text)
        XCTAssertTrue(errors(r).isEmpty)
        guard case .paragraph(let c) = r.document.blocks[0].kind else { return XCTFail() }
        func depth(_ inlines: [Inline]) -> Int {
            inlines.map { if case .inlineFootnote(let inner) = $0.kind { 1 + depth(inner) } else { 0 } }.max() ?? 0
        }
        XCTAssertEqual(depth(c), Footnotes.maxInlineDepth)
    }
}
