// Issue 8: with `--jobs` a worker lays out a long paragraph's pieces ahead of the paginator. The lines must be
// those of one thread, with missing glyphs too; the work is counted (LayoutWork), never timed.

import Foundation
import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class PiecePipelineTests: XCTestCase {
    /// What a reader sees of each placed line: its text range, its page, its origin and baseline; and the
    /// pieces (Pango layouts) the lines were drawn from.
    private func placed(_ doc: TypesetDocument, jobs: Int) throws -> (lines: [String], pieces: Int) {
        let engine = LayoutEngine()
        engine.jobs = jobs
        var out: [String] = []
        var pieces: [ObjectIdentifier: ParagraphLayout] = [:]  // kept, so no identifier is used twice
        _ = try DocumentLayout.paginate(doc, engine: engine) { page in
            for line in page.lines {
                let box = line.box  // in the offsets of its piece's text
                let text = String(decoding: Array(line.paragraph.paragraph.text.utf8)[box.startIndex...].prefix(box.length),
                                  as: UTF8.self)
                out.append("\(page.number) \(line.originX) \(line.baseline) \(box.width) \(text)")
                pieces[ObjectIdentifier(line.paragraph)] = line.paragraph
            }
        }
        return (out, pieces.count)
    }

    private func document(_ text: String, columns: Int = 1) -> TypesetDocument {
        Fixture.document([.paragraph(Fixture.paragraph(text))], columns: columns)
    }

    /// The first line (page, position, text) where `a` and `b` differ, nil when they are equal.
    private func firstDifference(_ a: [String], _ b: [String]) -> String? {
        guard a != b else { return nil }
        let k = a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? b.count
        return "line \(k) of \(a.count)/\(b.count): \(k < a.count ? a[k] : "-") | \(k < b.count ? b[k] : "-")"
    }

    func testAWorkerBuildsTheLinesOneThreadWould() throws {
        // Not ASCII: no stretch is laid out from a guessed line start, so the worker builds every piece.
        for (unit, columns) in [("wörd ", 1), ("[ ä_", 1), ("äb ", 4)] {
            let text = String(repeating: unit, count: 120_000 / unit.utf8.count)
            LayoutWork.piecesFromWorkers = 0
            let one = try placed(document(text, columns: columns), jobs: 1)
            XCTAssertEqual(LayoutWork.piecesFromWorkers, 0)
            let two = try placed(document(text, columns: columns), jobs: 2)
            XCTAssertNil(firstDifference(one.lines, two.lines), unit)
            XCTAssertGreaterThan(one.lines.count, 500, unit)
            // The worker built every piece but the first (laid out when the paragraph is met).
            XCTAssertGreaterThan(one.pieces, 5, unit)
            XCTAssertEqual(LayoutWork.piecesFromWorkers, one.pieces - 1, unit)
        }
    }

    func testStretchesFromGuessedLineStartsGiveTheSameLines() throws {
        // While it waits for the worker, the paginating thread lays out pieces from a line start it guesses
        // (periodic text: a whole number of periods ahead; other text: a word start) and takes them when the
        // true lines meet them.
        let words = ["layout", "of", "a", "paragraph", "in", "pieces", "ahead", "x"]
        var mixed = ""
        for k in 0..<40_000 { mixed += words[(k * 7 + k / 3) % words.count] + " " }
        for (text, columns) in [(String(repeating: "word ", count: 60_000), 1), (mixed, 1), (mixed, 3),
                                (String(repeating: "[ a_", count: 60_000), 1)] {
            LayoutWork.piecesGuessed = 0
            let one = try placed(document(text, columns: columns), jobs: 1)
            XCTAssertEqual(LayoutWork.piecesGuessed, 0)
            let two = try placed(document(text, columns: columns), jobs: 2)
            XCTAssertNil(firstDifference(one.lines, two.lines), String(text.prefix(10)))
            XCTAssertGreaterThan(LayoutWork.piecesGuessed, 0, String(text.prefix(10)))
        }
    }

    func testAParagraphWithGroundsIsBuiltByTheWorkerWithoutGuesses() throws {
        // Grounds are measured with the lines, so a worker lays such a paragraph out and hands it over whole;
        // no stretch is guessed for it (guessed stretches of text broken inside words can set lines otherwise).
        var pieces: [(String, CharacterAttributes)] = []
        var ground = Fixture.attributes(family: "DejaVu Sans Mono")
        ground.background = Color(red: 0.9, green: 0.9, blue: 0.9)
        for _ in 0 ..< 15_000 {
            pieces.append(("code", ground))
            pieces.append((" word ", Fixture.attributes()))
        }
        let doc = Fixture.document([.paragraph(Fixture.paragraph(pieces))])
        LayoutWork.piecesFromWorkers = 0
        LayoutWork.piecesGuessed = 0
        let one = try placed(doc, jobs: 1)
        let two = try placed(doc, jobs: 2)
        XCTAssertNil(firstDifference(one.lines, two.lines))
        XCTAssertGreaterThan(LayoutWork.piecesFromWorkers, 5, "the worker built the pieces")
        XCTAssertEqual(LayoutWork.piecesGuessed, 0, "nothing laid out from a guessed line start")
    }

    func testWordsWiderThanALineAreNotGuessedAt() throws {
        // 8 columns at 40pt: words break between letters and pieces start inside words, where a piece's first
        // line lacks the start of its word; a guessed stretch starts its pieces elsewhere than the true ones, and
        // `--jobs 2` moved a one-letter line two pages (make pipeline-fuzz). Such paragraphs are not guessed at.
        let words = ["flow", "of", "ligatures", "x", "officially", "a", "baffled"]
        var text = ""
        for k in 0..<30_000 { text += words[(k * 5 + k / 7) % words.count] + " " }
        let p = Fixture.paragraph(text, attributes: Fixture.attributes(size: 40))
        var doc = Fixture.document([.paragraph(p)], columns: 8)
        doc.page.margins.left = 28
        doc.page.margins.right = 28
        LayoutWork.piecesGuessed = 0
        let one = try placed(doc, jobs: 1)
        let two = try placed(doc, jobs: 2)
        XCTAssertNil(firstDifference(one.lines, two.lines))
        XCTAssertEqual(LayoutWork.piecesGuessed, 0)
        XCTAssertTrue(PieceSpeculation.mayBreakInsideWords(p, bytes: Array(p.text.utf8), columnWidth: 60))
        let body = Fixture.paragraph(String(repeating: "layout of a paragraph ", count: 100))
        XCTAssertFalse(PieceSpeculation.mayBreakInsideWords(body, bytes: Array(body.text.utf8), columnWidth: 480))
    }

    func testPiecesWithMissingGlyphsAreLaidOutAgainHere() throws {
        let fonts = try PDFTool.run("fc-list", [":charset=f0001"])
        try XCTSkipUnless(fonts.isEmpty, "a font covers U+F0001 here")
        var text = ""
        for k in 0..<20_000 { text += k % 3_000 == 700 ? "x\u{F0001}y " : "word " }
        let one = try placed(document(text), jobs: 1)
        LayoutWork.piecesFromWorkers = 0
        let two = try placed(document(text), jobs: 2)
        XCTAssertNil(firstDifference(one.lines, two.lines))
        // The pieces with the missing character were laid out again here; the others come from the worker.
        XCTAssertGreaterThan(LayoutWork.piecesFromWorkers, one.pieces / 2)
        XCTAssertLessThanOrEqual(LayoutWork.piecesFromWorkers, one.pieces - 1 - 6)
        LayoutWork.piecesFromWorkers = 0
    }

    func testALayoutOfOneThreadIsNotShared() {
        // A paragraph laid out outside the paginator (tables, floats, notes) keeps building its own pieces.
        let engine = LayoutEngine()
        engine.jobs = 2
        LayoutWork.piecesFromWorkers = 0
        var diagnostics: [Diagnostic] = []
        let l = ParagraphLayout(Fixture.paragraph(String(repeating: "word ", count: 20_000)), columnWidth: 400,
                                engine: engine, images: ImageCache(), diagnostics: &diagnostics)
        XCTAssertGreaterThan(l.lines.count, 1_000)
        XCTAssertEqual(LayoutWork.piecesFromWorkers, 0)
    }
}
