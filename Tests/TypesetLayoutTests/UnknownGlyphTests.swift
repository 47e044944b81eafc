// Contract section 1: a character that no installed font can draw is a warning at its location, never a
// silent box; each character once, the characters first met in one paragraph in one warning.

import Foundation
import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class UnknownGlyphTests: XCTestCase {
    private func located(_ text: String, line: Int) -> AttributedParagraph {
        var p = Fixture.paragraph(text)
        p.location = SourceLocation(file: "doc.rt", line: line, column: 1)
        return p
    }

    func testMissingCharactersAreWarnedAtTheirParagraphOnce() throws {
        let fonts = try PDFTool.run("fc-list", [":charset=f0001"])
        try XCTSkipUnless(fonts.isEmpty, "a font covers U+F0001 here")
        let doc = Fixture.document([
            .paragraph(located("All of this can be drawn.", line: 1)),
            .paragraph(located("One \u{F0001} two \u{F0002} and \u{F0001} again.", line: 3)),
            .paragraph(located("Later \u{F0001}, \u{F0003}.", line: 5)),
        ])
        let (_, diagnostics) = DocumentLayout.pages(doc)
        let glyphs = UnknownGlyphs.summarized(diagnostics.filter { $0.message.contains("installed font") })
        XCTAssertEqual(glyphs.map(\.description), [
            "doc.rt:3:1: warning: 2 characters are not in any installed font and would print as empty boxes: "
                + "U+F0001, U+F0002; install a font that has them, or load one with 'fonts:'",
            "doc.rt:5:1: warning: character U+F0003 \(UnknownGlyphs.messageTail)",
        ])
    }

    func testAMissingCharacterFarIntoAParagraphBesideAShapeIsWarned() throws {
        // Beside a shape a paragraph is laid out in fragments, only as far as they reach: a character no font
        // has, past the paragraph's first piece, printed as a box without a warning.
        let fonts = try PDFTool.run("fc-list", [":charset=f0001"])
        try XCTSkipUnless(fonts.isEmpty, "a font covers U+F0001 here")
        let text = String(repeating: "words and more words ", count: 3_000) + "here \u{F0001} it is"
        let doc = Fixture.document([
            .exclusion(Exclusion(shape: .circle(cx: 240, cy: 200, r: 80), pages: .all)),
            .paragraph(located(text, line: 7)),
        ], columns: 2)
        let (_, diagnostics) = DocumentLayout.pages(doc)
        let glyphs = UnknownGlyphs.summarized(diagnostics.filter { $0.message.contains("installed font") })
        XCTAssertEqual(glyphs.map(\.description), ["doc.rt:7:1: warning: character U+F0001 \(UnknownGlyphs.messageTail)"])
    }

    func testDrawableTextHasNoWarning() {
        let doc = Fixture.document([.paragraph(located(Fixture.lorem + " “Ünïcödé” Ελληνικά кириллица → ↪ • ◦ ▪ ☐ ☑", line: 1))])
        let (_, diagnostics) = DocumentLayout.pages(doc)
        XCTAssertEqual(diagnostics.filter { $0.message.contains("installed font") }, [])
    }

    func testSummaryKeepsOtherDiagnosticsAndTheFirstOfEachCharacter() {
        let a = SourceLocation(file: "d.rt", line: 1, column: 1), b = SourceLocation(file: "d.rt", line: 2, column: 1)
        let input: [Diagnostic] = [
            .warning(UnknownGlyphs.message(for: 0xBA4), at: a),
            .warning("something else", at: a),
            .warning(UnknownGlyphs.message(for: 0xBAE), at: a),
            .warning(UnknownGlyphs.message(for: 0xBA4), at: b),
            .warning(UnknownGlyphs.message(for: 0x1), at: b),
        ]
        let out = UnknownGlyphs.summarized(input)
        XCTAssertEqual(out.map(\.message), [
            UnknownGlyphs.groupMessage(["U+0BA4 'த'", "U+0BAE 'ம'"]),
            "something else",
            "character U+0001 (a control character, from a variable's value?) \(UnknownGlyphs.messageTail)",
        ])
        XCTAssertEqual(out.map(\.location), [a, a, b])
    }
}
