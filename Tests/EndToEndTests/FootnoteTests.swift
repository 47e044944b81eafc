// Footnotes end to end: superscript link marks, each note set once, no raw `[^` left, a missing definition
// reported where the mark is, `^[inline]` beside `^sup^`, a table in a note reported. Placement at the column
// foot: FootnotePlacementTests.swift.

import XCTest

final class FootnoteEndToEndTests: XCTestCase {
    private let source = """
        The smoothing[^smooth] is good and x^2^ grows^[An inline note.] while ^sup^ stays.

        Again[^smooth] and a second[^Other] note.

        [^smooth]: Smoothing removes noise.

            Its second paragraph.

        [^other]: The other note.

        """

    func testMarksAreRaisedSmallerNumbersLinkedToTheirNotes() throws {
        let pdf = try Harness.typesetSource(source)
        let text = try PDF.text(pdf)
        XCTAssertFalse(text.contains("[^"), text)
        XCTAssertFalse(text.contains("^["), text)
        for note in ["Smoothing removes noise.", "Its second paragraph.", "The other note.", "An inline note."] {
            XCTAssertEqual(text.components(separatedBy: note).count - 1, 1, "\(note) not set exactly once: \(text)")
        }
        // Numbered by first reference: smooth 1, the inline note 2, other 3; notes start with their number.
        XCTAssertTrue(text.contains("1. Smoothing removes noise."), text)
        XCTAssertTrue(text.contains("2. An inline note."), text)
        XCTAssertTrue(text.contains("3. The other note."), text)

        let words = try PDF.words(pdf)
        let body = try XCTUnwrap(words.first { $0.text == "smoothing" })
        let mark = try XCTUnwrap(words.first { $0.text == "1" && abs($0.yMin - body.yMin) < 3 })
        XCTAssertLessThan(mark.yMax - mark.yMin, (body.yMax - body.yMin) * 0.85, "mark not smaller")
        XCTAssertLessThan(mark.yMax, body.yMax - 2, "mark not raised")
        XCTAssertGreaterThan(mark.xMin, body.xMax - 0.5)
        // `^sup^` on the same line is still a superscript, not swallowed by the note.
        let sup = try XCTUnwrap(words.first { $0.text == "sup" })
        XCTAssertLessThan(sup.yMax, body.yMax - 2)
        // Notes are smaller than the body (style `footnote`, 80%).
        let noteWord = try XCTUnwrap(words.first { $0.text == "Smoothing" })
        XCTAssertLessThan(noteWord.yMax - noteWord.yMin, (body.yMax - body.yMin) * 0.9)
        XCTAssertGreaterThan(noteWord.yMin, body.yMax)

        let objects = try PDF.objects(pdf)
        for n in 1...3 {
            XCTAssertTrue(objects.contains("/Dest (footnote-\(n))"), "no link to note \(n)")
        }
        let dests = try PDF.tool("pdfinfo", ["-dests", pdf])
        XCTAssertTrue(dests.contains("footnote-1"), dests)
    }

    func testMissingDefinitionIsAnErrorAtTheMark() throws {
        let dir = try Harness.scratch()
        try Harness.write("Intro line.\nSee this[^gone] now.\n", to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("doc.rt:2:9: error: footnote [^gone] has no definition"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/doc.pdf"))
    }

    func testUnusedDefinitionWarnsAndIsNotSet() throws {
        let dir = try Harness.scratch()
        try Harness.write("Body text.\n\n[^spare]: Never referenced.\n", to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:3:1: warning: footnote [^spare]"), result.stderr)
        XCTAssertFalse(try PDF.text(dir + "/doc.pdf").contains("Never referenced"))
    }

    func testTableInANoteIsReportedWhereTheNoteIsDefined() throws {
        let dir = try Harness.scratch()
        try Harness.write("Text with a note[^a].\n\n[^a]: The note.\n\n    | A | B |\n    |---|---|\n    | 1 | 2 |\n",
                          to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:3:1: warning: a table or float in footnote 1 is not set"), result.stderr)
        XCTAssertTrue(try PDF.text(dir + "/doc.pdf").contains("1. The note."))
    }
}
