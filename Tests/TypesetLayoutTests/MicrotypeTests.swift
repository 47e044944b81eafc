import Foundation
import TypesetIR
import TypesetLayout
import TypesetPDF
import XCTest

/// Font expansion and character protrusion (issue 13), checked in the PDF's text matrices and word boxes and
/// in the laid-out lines.
final class MicrotypeTests: XCTestCase {
    /// DejaVu Serif at 10pt: a space, a period or comma, and a hyphen are this wide.
    static let space = 3.18, period = 3.18, hyphen = 3.38

    static let punctuated = """
        The engineer measured the harbour, the railway and the bridge. Every instrument agreed, and the \
        committee was pleased. A preliminary investigation showed the district's arrangement, although the \
        manufacturer disagreed. The library received the manuscript, the publisher the proofs, the printer \
        the plates. Nobody complained, nobody praised, and the work went on.
        """

    private func style(hyphenate: Bool = true) -> ParagraphStyle {
        var style = ParagraphStyle()
        style.alignment = .justify
        style.hyphenate = hyphenate
        style.spaceAfter = 6
        return style
    }

    private func narrow(_ paragraphs: [AttributedParagraph], width: Double = 260) -> TypesetDocument {
        var doc = Fixture.document(paragraphs.map { .paragraph($0) })
        doc.page.width = width
        doc.page.margins = EdgeInsets(all: 40)
        return doc
    }

    private func lines(_ doc: TypesetDocument) -> [PlacedLine] {
        DocumentLayout.pages(doc).0.flatMap(\.lines)
    }

    func testExpansionIsAtMostTwoPercentInHalfPercentSteps() throws {
        let doc = narrow([Fixture.paragraph(TotalFitOutputTests.prose + " " + Self.punctuated, style: style())])
        let scales = try TextMatrices.read(PDFTool.render(doc, name: "expansion-steps")).map(\.scale)
        XCTAssertGreaterThan(scales.count, 10)
        XCTAssertTrue(scales.contains { abs($0 - 1) > 0.001 }, "some line is expanded: \(scales)")
        for s in scales {
            XCTAssertLessThanOrEqual(abs(s - 1), 0.02 + 1e-6, "\(s)")
            let steps = (s - 1) / 0.005
            XCTAssertEqual(steps, steps.rounded(), accuracy: 1e-3, "\(s) is not a multiple of 0.5%")
        }
        // The layout's lines say the same.
        for line in lines(doc) {
            XCTAssertLessThanOrEqual(abs(line.box.adjustment.scale - 1), 0.02 + 1e-9)
        }
    }

    /// A word too long for a line is broken between letters, and its lines have no spaces, so justification
    /// never expands them (nor letter-spaces them): the breaker must not plan such a line up to 2% past the
    /// column, counting on a shrink that never comes. At 24pt, 34 letters were set 4.4pt past the edge.
    func testALineWithoutSpacesIsNeverPlannedWiderThanTheColumn() throws {
        var attributes = CharacterAttributes()
        attributes.fontSize = 24
        let doc = narrow([Fixture.paragraph("Some words before the run " + String(repeating: "a", count: 100)
                                            + " and words after it.", style: style(hyphenate: false),
                                            attributes: attributes)], width: 561.89)
        let right = 561.89 - 40
        let words = try PDFTool.words(PDFTool.render(doc, name: "long-word-expansion", untagged: true))
        XCTAssertTrue(words.contains { $0.text.hasPrefix("aaaaaaaaaa") })
        for word in words {
            XCTAssertLessThanOrEqual(word.xMax, right + 0.5, "\(word.text) ends at \(word.xMax), past \(right)")
        }
    }

    /// Paragraphs' last lines, lines before a hard break and paragraphs with `expansion-limit: 0` (headings
    /// and code blocks by default) are drawn at their natural width.
    func testNoExpansionOnLastLinesHardBreaksOrWithALimitOfZero() throws {
        let broken = TotalFitOutputTests.prose.replacingOccurrences(of: "harbour. ", with: "harbour.\u{2028}")
        var off = style()
        off.expansionLimit = 0
        let doc = narrow([Fixture.paragraph(broken, style: style()), Fixture.paragraph(Self.punctuated, style: off)])
        let placed = lines(doc)
        let first = placed.filter { $0.paragraph.paragraph.text == broken }
        let second = placed.filter { $0.paragraph.paragraph.text == Self.punctuated }
        XCTAssertGreaterThan(first.count, 4)
        XCTAssertGreaterThan(second.count, 3)
        XCTAssertTrue(first.dropLast().contains { $0.box.adjustment.scale != 1 }, "the first paragraph expands")
        XCTAssertEqual(first.last!.box.adjustment.scale, 1)
        let breakOffset = broken.utf8.count - broken.split(separator: "\u{2028}")[1].utf8.count - 3
        let beforeBreak = first.first { $0.box.startIndex <= breakOffset && breakOffset < $0.box.startIndex + $0.box.length }
        XCTAssertNotNil(beforeBreak)
        XCTAssertEqual(beforeBreak?.box.adjustment.scale, 1, "the line ending in a hard break")
        XCTAssertTrue(second.allSatisfy { $0.box.adjustment.scale == 1 })
    }

    /// Letter-spacing is a last resort: with long words that cannot hyphenate in a narrow column some lines
    /// need it, and it stays at most 3% of a space.
    func testLetterSpacingIsAtMostThreePercentOfASpace() throws {
        // A long word and a short one fill a line but for a wide gap that expansion cannot close.
        let words = "incomprehensible at straightforward of disproportionate in characteristically by "
        let doc = narrow([Fixture.paragraph(String(repeating: words, count: 3) + "end", style: style(hyphenate: false))],
                         width: 230)
        let tracking = lines(doc).map(\.box.adjustment.tracking)
        XCTAssertTrue(tracking.contains { $0 > 0 }, "loose lines are letter-spaced a little: \(tracking)")
        for t in tracking { XCTAssertLessThanOrEqual(t, 0.03 * Self.space + 1e-3) }
    }

    /// Arabic joins: right-to-left lines are never letter-spaced, however loose.
    func testRightToLeftLinesAreNeverLetterSpaced() throws {
        var s = style(hyphenate: false)
        s.language = "ar"
        var attributes = Fixture.attributes(family: "DejaVu Sans")
        attributes.language = "ar"
        let arabic = String(repeating: "السلام عليكم ورحمة الله وبركاته والمستشفيات الجامعية ", count: 4)
        let doc = narrow([Fixture.paragraph(arabic, style: s, attributes: attributes)], width: 200)
        let placed = lines(doc)
        XCTAssertGreaterThan(placed.count, 3)
        XCTAssertTrue(placed.allSatisfy { $0.box.adjustment.tracking == 0 })
        try PDFTool.render(doc, name: "rtl-justified")
    }

    /// Optical margins: a line ending in a period, comma or hyphen reaches past the right margin by 70% of
    /// that character; one ending in a letter ends at the margin.
    func testPunctuationAndHyphensHangIntoTheRightMargin() throws {
        let doc = narrow([Fixture.paragraph(Self.punctuated + " " + TotalFitOutputTests.prose, style: style())])
        let path = try PDFTool.render(doc, name: "protrusion", untagged: true)
        let right = 260.0 - 40
        var counts = (stop: 0, hyphen: 0, letter: 0)
        for row in Rows.of(try PDFTool.words(path)).dropLast() {
            let last = row.last!
            if last.text.hasSuffix(".") || last.text.hasSuffix(",") {
                XCTAssertEqual(last.xMax, right + 0.7 * Self.period, accuracy: 0.5, last.text)
                counts.stop += 1
            } else if last.text.hasSuffix("-") {
                XCTAssertEqual(last.xMax, right + 0.7 * Self.hyphen, accuracy: 0.5, last.text)
                counts.hyphen += 1
            } else if last.text.last!.isLetter && !"AVWXYTOQvwyrtkFKL".contains(last.text.last!) {
                XCTAssertEqual(last.xMax, right, accuracy: 0.5, last.text)
                counts.letter += 1
            }
        }
        XCTAssertGreaterThan(counts.stop, 0)
        XCTAssertGreaterThan(counts.hyphen, 0)
        XCTAssertGreaterThan(counts.letter, 0)
        // Without protrusion every full line ends at the margin.
        var off = style()
        off.protrusion = false
        let plain = narrow([Fixture.paragraph(Self.punctuated + " " + TotalFitOutputTests.prose, style: off)])
        for row in Rows.of(try PDFTool.words(PDFTool.render(plain, name: "no-protrusion", untagged: true))).dropLast() {
            XCTAssertEqual(row.last!.xMax, right, accuracy: 0.5)
        }
    }

    /// Ragged text hangs its punctuation at the aligned edge only: an opening quote into the left margin.
    func testOpeningQuoteHangsIntoTheLeftMarginOfRaggedText() throws {
        var s = ParagraphStyle()
        s.alignment = .left
        let doc = narrow([Fixture.paragraph("\u{201C}Quoted,\u{201D} she said.", style: s)])
        let line = try XCTUnwrap(lines(doc).first)
        XCTAssertLessThan(line.x, 40 - 0.5, "the quote hangs out")
        XCTAssertGreaterThan(line.x, 40 - 0.7 * 6)
        s.protrusion = false
        XCTAssertEqual(lines(narrow([Fixture.paragraph("\u{201C}Quoted,\u{201D} she said.", style: s)])).first!.x, 40,
                       accuracy: 0.01)
    }
}

/// Words grouped into lines by page and baseline, each sorted left to right.
enum Rows {
    static func of(_ words: [PDFTool.Word]) -> [[PDFTool.Word]] {
        var rows: [[PDFTool.Word]] = []
        for w in words.sorted(by: { ($0.page, $0.yMax, $0.xMin) < ($1.page, $1.yMax, $1.xMin) }) {
            if let last = rows.last?.last, last.page == w.page, abs(last.yMax - w.yMax) < 2 {
                rows[rows.count - 1].append(w)
            } else {
                rows.append([w])
            }
        }
        return rows
    }
}

/// Text line origins and their horizontal scale, from the content streams (`qpdf --qdf`): Cairo starts a
/// glyph run with `a 0 0 d x y Tm` (a / |d| is the expansion) or moves to it with `Td`.
enum TextMatrices {
    struct Origin { var page: Int; var x: Double; var y: Double; var scale: Double }

    static func read(_ path: String) throws -> [Origin] {
        let qdf = path + ".qdf.pdf"
        _ = try PDFTool.run("qpdf", ["--qdf", "--object-streams=disable", path, qdf])
        let data = try String(decoding: Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        var result: [Origin] = []
        var page = 0
        var m = [1.0, 0, 0, 1, 0, 0]
        for line in data.split(separator: "\n") {
            if line.hasPrefix("%% Contents for page") {
                page = Int(line.split(separator: " ").last ?? "") ?? page
                continue
            }
            guard page > 0 else { continue }
            let tokens = line.split(separator: " ")
            guard let op = tokens.last, op == "Tm" || op == "Td" else { continue }
            let numbers = tokens.dropLast().compactMap { Double($0) }
            if op == "Tm", numbers.count == 6 {
                m = numbers
            } else if op == "Td", numbers.count == 2 {
                m[4] += numbers[0] * m[0] + numbers[1] * m[2]
                m[5] += numbers[0] * m[1] + numbers[1] * m[3]
            } else {
                continue
            }
            if m[3] != 0 { result.append(Origin(page: page, x: m[4], y: m[5], scale: abs(m[0] / m[3]))) }
        }
        return result
    }
}
