// Footnote lowering: numbering by first reference, superscript link marks recorded on their paragraph, notes
// lowered once into `document.footnotes` (layout sets them at the column foot), errors and warnings located.

import RTSyntax
@testable import TypesetIR
import XCTest

final class FootnoteLoweringTests: XCTestCase {
    private func ref(_ label: String, line: Int = 1, column: Int = 1) -> Inline {
        Inline(.footnoteReference(label: label), range: at(line, column))
    }

    private func definition(_ label: String, _ note: String, line: Int) -> Block {
        Block(.footnoteDefinition(label: label, blocks: [paragraph(text(note), line: line)]), range: at(line))
    }

    func testNumberedInOrderOfFirstReference() throws {
        let r = lower([
            definition("a", "Note A", line: 5),
            definition("b", "Note B", line: 6),
            paragraph(text("x"), ref("b"), text(" y"), ref("a"), text(" z"), ref("b")),
            paragraph(text("in place"), Inline(.inlineFootnote([text("Inline note")]), range: at(2))),
        ])
        XCTAssertTrue(r.diagnostics.isEmpty, "\(r.diagnostics)")
        let texts = r.paragraphs.map(\.text)
        XCTAssertEqual(texts, ["x1 y2 z1", "in place3"], "notes are not in the body's blocks")
        XCTAssertEqual(r.document.footnotes.map(\.number), [1, 2, 3])
        XCTAssertEqual(r.document.footnotes.map { $0.paragraphs.map(\.text) }, [["1. Note B"], ["2. Note A"], ["3. Inline note"]])
        // The marks are recorded on their paragraph (sorted, once each) for layout to find.
        XCTAssertEqual(r.paragraphs[0].footnoteMarks, [1, 2])
        XCTAssertEqual(r.paragraphs[1].footnoteMarks, [3])
        let body = r.paragraphs[0]
        let mark = try XCTUnwrap(body.attributes(at: 1))
        XCTAssertEqual(mark.link, .destination("footnote-1"))
        XCTAssertGreaterThan(mark.baselineShift, 0)
        XCTAssertLessThan(mark.fontSize, body.attributes(of: "x")?.fontSize ?? 0)
        let note = try XCTUnwrap(r.document.footnotes.first?.paragraphs.first)
        XCTAssertEqual(note.anchors, ["footnote-1"])
        // Notes are in the `footnote` style: 80% of the body size (the rule is drawn by layout).
        XCTAssertEqual(note.attributes(of: "Note")?.fontSize ?? 0, 8, accuracy: 1e-9)
        XCTAssertFalse(r.document.blocks.contains { if case .rule = $0 { true } else { false } })
    }

    func testNoteReferencedFromANoteIsNumberedAfterItAndMarkedInIt() {
        let r = lower([
            Block(.footnoteDefinition(label: "a", blocks: [paragraph(text("Outer"), ref("b"))]), range: at(5)),
            definition("b", "Inner", line: 6),
            paragraph(text("x"), ref("a")),
        ])
        XCTAssertTrue(r.diagnostics.isEmpty, "\(r.diagnostics)")
        XCTAssertEqual(r.document.footnotes.map { $0.paragraphs.map(\.text) }, [["1. Outer2"], ["2. Inner"]])
        XCTAssertEqual(r.document.footnotes.first?.paragraphs.first?.footnoteMarks, [2])
    }

    func testMissingDefinitionIsAnErrorAtTheMark() {
        let r = lower([paragraph(text("x"), ref("nope", line: 3, column: 7))])
        XCTAssertEqual(r.errors.count, 1)
        XCTAssertEqual(r.errors.first?.location?.line, 3)
        XCTAssertEqual(r.errors.first?.location?.column, 7)
        XCTAssertTrue(r.errors.first?.message.contains("[^nope]") ?? false)
    }

    func testUnusedDefinitionWarnsAndIsNotSet() {
        let r = lower([paragraph(text("body")), definition("spare", "Spare note", line: 4)])
        XCTAssertEqual(r.warnings.count, 1)
        XCTAssertEqual(r.warnings.first?.location?.line, 4)
        XCTAssertEqual(r.paragraphs.map(\.text), ["body"])
        XCTAssertTrue(r.document.footnotes.isEmpty)
    }
}
