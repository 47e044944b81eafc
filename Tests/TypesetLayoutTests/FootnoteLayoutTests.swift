// Footnote placement inside the paginator: the work footnotes cost grows linearly with their number
// (counted, not timed), every note is set once, and the column's text stays above its notes.

import Foundation
import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class FootnoteLayoutTests: XCTestCase {
    /// Paginates `n` paragraphs with a note each: footnote work counted, note first lines set, and whether
    /// every page's notes sit below all of its body text.
    private func paginate(notes n: Int) throws -> (work: Int, set: [Int], notesBelowText: Bool) {
        let source = (1...n).map { "Paragraph \($0) says a little more^[Note \($0) says why.] than it needs to." }
            .joined(separator: "\n\n") + "\n"
        let parsed = RTParser.parse(Array(source.utf8), file: "test.rt")
        let lowered = Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: RTParser.parseInlines)
        var set: [Int] = []
        var below = true
        let summary = try DocumentLayout.paginate(lowered.document) { page in
            var noteTop = Double.infinity, textBottom = 0.0
            for line in page.lines {
                if let anchor = line.paragraph.paragraph.anchors.first, let k = Int(anchor.dropFirst(9)),
                   anchor.hasPrefix("footnote-") {
                    set.append(k)
                    noteTop = min(noteTop, line.top)
                } else if line.paragraph.paragraph.text.hasPrefix("Paragraph") {
                    textBottom = max(textBottom, line.top + line.box.height)
                }
            }
            if textBottom > noteTop { below = false }
        }
        XCTAssertFalse(summary.diagnostics.contains { $0.severity == .error }, "\(summary.diagnostics)")
        return (summary.footnoteWork, set, below)
    }

    func testFootnoteWorkGrowsLinearlyAndEveryNoteIsSetOnce() throws {
        let small = try paginate(notes: 500)
        let large = try paginate(notes: 2000)
        XCTAssertEqual(small.set, Array(1...500))
        XCTAssertEqual(large.set, Array(1...2000), "every note set once, in order")
        XCTAssertTrue(small.notesBelowText && large.notesBelowText)
        XCTAssertGreaterThan(small.work, 500)
        // Linear: 4 times the notes, about 4 times the work (quadratic would be 16).
        let ratio = Double(large.work) / Double(small.work)
        XCTAssertLessThan(ratio, 5, "work \(small.work) -> \(large.work)")
    }

    /// One-line paragraphs, 12pt apart: 60 fill an A4 page's 728.5pt. Line `marked` carries note 1's mark.
    private func lines(_ count: Int, marked: Int, noteLines: Int = 1) -> TypesetDocument {
        var blocks: [LayoutBlock] = []
        for k in 1...count {
            var p = Fixture.paragraph("Line \(k)")
            if k == marked {
                var mark = Fixture.attributes(size: 7, link: .destination("footnote-1"))
                mark.baselineShift = 3
                p = Fixture.paragraph([("Line \(k)", Fixture.attributes()), ("1", mark)])
                p.footnoteMarks = [1]
            }
            blocks.append(.paragraph(p))
        }
        let text = "1. " + Array(repeating: "The note runs on for a while here.", count: 12 * noteLines).joined(separator: " ")
        let note = Fixture.paragraph([(text, Fixture.attributes(size: 8))], anchors: ["footnote-1"])
        var doc = Fixture.document(blocks)
        doc.footnotes = [FootnoteBody(number: 1, paragraphs: [note])]
        return doc
    }

    private func pageOf(_ pages: [Page], _ prefix: String) -> [Int] {
        pages.filter { $0.lines.contains { $0.paragraph.paragraph.text.hasPrefix(prefix) } }.map(\.number)
    }

    func testALineWhoseNoteDoesNotFitMovesOnWithIt() throws {
        // Line 50's note fits under it on page 1.
        let early = DocumentLayout.pages(lines(70, marked: 50)).0
        XCTAssertEqual(pageOf(early, "Line 50"), [1])
        XCTAssertEqual(pageOf(early, "1. The note"), [1])
        // Line 59 fits page 1 alone, but not with the rule and a line of its note under it: both go overleaf.
        let late = DocumentLayout.pages(lines(70, marked: 59)).0
        XCTAssertEqual(pageOf(late, "Line 58"), [1])
        XCTAssertEqual(pageOf(late, "Line 59"), [2])
        XCTAssertEqual(pageOf(late, "1. The note"), [2])
        // Without a note line 59 stays on page 1 (the test can fail).
        var plain = lines(70, marked: 59)
        plain.footnotes = []
        XCTAssertEqual(pageOf(DocumentLayout.pages(plain).0, "Line 59"), [1])
    }

    func testANoteLongerThanTheRoomLeftKeepsItsFirstLinesWithTheMarkAndContinues() throws {
        let pages = DocumentLayout.pages(lines(70, marked: 50, noteLines: 12)).0
        XCTAssertEqual(pageOf(pages, "Line 50"), [1])
        // The note's lines: some under line 50's page text, the rest at the foot of page 2, below its text.
        let notePages = pages.map { page in page.lines.filter { $0.paragraph.paragraph.text.hasPrefix("1. The note") } }
        XCTAssertFalse(notePages[0].isEmpty)
        XCTAssertFalse(notePages[1].isEmpty)
        for (k, page) in pages.enumerated() where !notePages[k].isEmpty {
            let textBottom = page.lines.filter { $0.paragraph.paragraph.text.hasPrefix("Line") }
                .map { $0.top + $0.box.height }.max() ?? 0
            XCTAssertGreaterThan(notePages[k].map(\.top).min() ?? 0, textBottom, "page \(k + 1)")
        }
        // Every line of the note is set once: as many as a layout of it at the column width has.
        let note = lines(1, marked: 1, noteLines: 12).footnotes[0].paragraphs[0]
        var ignored: [Diagnostic] = []
        let layout = ParagraphLayout(note, columnWidth: Fixture.document([]).page.columnWidth, engine: .shared,
                                     images: ImageCache(), diagnostics: &ignored)
        XCTAssertEqual(notePages.reduce(0) { $0 + $1.count }, layout.lines.count)
        XCTAssertGreaterThan(layout.lines.count, 20)
    }
}
