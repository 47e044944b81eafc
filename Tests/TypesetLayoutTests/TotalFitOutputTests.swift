import Foundation
import TypesetIR
import TypesetLayout
import TypesetPDF
import XCTest

/// Total-fit justified paragraphs, checked in the PDF.
final class TotalFitOutputTests: XCTestCase {
    static let prose = """
        The committee examined the considerable development of the railway while the engineer recorded \
        every remarkable measurement of the temperature near the harbour. A preliminary investigation \
        demonstrated that the organisation of the district was responsible for the extraordinary \
        arrangement of the correspondence, although the manufacturer acknowledged the difficulty. \
        Each experimental instrument in the laboratory represented a substantial opportunity for the \
        university, and the publisher distributed the manuscript to every library in the neighbourhood.
        """

    private func justified(hyphenate: Bool) -> ParagraphStyle {
        var style = ParagraphStyle()
        style.alignment = .justify
        style.hyphenate = hyphenate
        style.spaceAfter = 6
        style.protrusion = false  // every full line ends exactly at the margin (protrusion: MicrotypeTests)
        return style
    }

    private func narrowDocument(_ blocks: [LayoutBlock]) -> TypesetDocument {
        var doc = Fixture.document(blocks)
        doc.page.width = 260
        doc.page.margins = EdgeInsets(all: 40)
        return doc
    }

    /// Words grouped into lines by column and baseline, each line sorted left to right.
    private func lines(_ words: [PDFTool.Word], columnSplit: Double = .infinity) -> [[PDFTool.Word]] {
        var rows: [[PDFTool.Word]] = []
        let column = { (w: PDFTool.Word) in w.xMin < columnSplit ? 0 : 1 }
        for w in words.sorted(by: { ($0.page, column($0), $0.yMax, $0.xMin) < ($1.page, column($1), $1.yMax, $1.xMin) }) {
            if let last = rows.last?.last, last.page == w.page, column(last) == column(w), abs(last.yMax - w.yMax) < 2 {
                rows[rows.count - 1].append(w)
            } else {
                rows.append([w])
            }
        }
        return rows
    }

    func testHyphenatedLinesEndAtTheRightMarginWithVisibleHyphens() throws {
        let doc = narrowDocument([.paragraph(Fixture.paragraph(Self.prose, style: justified(hyphenate: true)))])
        let path = try PDFTool.render(doc, name: "totalfit-hyphenated", untagged: true)
        let rows = lines(try PDFTool.words(path))
        XCTAssertGreaterThan(rows.count, 8)
        let right = 260.0 - 40
        for row in rows.dropLast() {
            XCTAssertEqual(row.last!.xMax, right, accuracy: 0.5, "line \(row.map(\.text).joined(separator: " "))")
        }
        XCTAssertLessThan(rows.last!.last!.xMax, right - 5, "the last line is not justified")
        XCTAssertTrue(rows.contains { $0.last!.text.hasSuffix("-") }, "some line ends in a hyphen")
        let text = try PDFTool.run("pdftotext", [path, "-"])
        XCTAssertFalse(text.unicodeScalars.contains { $0 == "\u{AD}" || $0 == "\u{2028}" }, "stray characters: \(text)")
    }

    /// Inline code keeps its spaces (`` ` x` `` beside a space makes two in a row). The breaker took no break
    /// at a glue that follows glue, and Pango allows none between the two spaces: the paragraph had no break
    /// there at all, and a line ran past the column (a fuzzed 8-column document). Justified and ragged alike.
    func testTwoSpacesInARowAreABreakLikeOne() throws {
        var mono = CharacterAttributes()
        mono.fontFamily = "DejaVu Sans Mono"
        mono.fontSize = 9
        let serif = CharacterAttributes()
        var pieces: [(String, CharacterAttributes)] = []
        // Each word and code span nearly fills the 180pt column: they fit on a line only one at a time.
        for k in 0..<6 { pieces += [("wordwordwordwordword\(k) ", serif), (" codecodecodecode\(k)", mono), (" ", serif)] }
        var ragged = justified(hyphenate: true)
        ragged.alignment = .left
        let doc = narrowDocument([.paragraph(Fixture.paragraph(pieces, style: justified(hyphenate: false))),
                                  .paragraph(Fixture.paragraph(pieces, style: ragged))])
        let words = try PDFTool.words(PDFTool.render(doc, name: "space-runs", untagged: true))
        XCTAssertEqual(words.filter { $0.text.hasPrefix("word") }.count, 12)
        for w in words { XCTAssertLessThanOrEqual(w.xMax, 260 - 40 + 0.5, "\(w.text) ends at \(w.xMax)") }
        XCTAssertGreaterThan(Set(words.map(\.yMax)).count, 6, "the paragraphs take several lines each")
    }

    func testNoHyphensWithoutHyphenation() throws {
        let doc = narrowDocument([.paragraph(Fixture.paragraph(Self.prose, style: justified(hyphenate: false)))])
        let rows = lines(try PDFTool.words(PDFTool.render(doc, name: "totalfit-plain")))
        XCTAssertFalse(rows.contains { $0.last!.text.hasSuffix("-") }, "\(rows.map { $0.last!.text })")
        for row in rows.dropLast() { XCTAssertEqual(row.last!.xMax, 220, accuracy: 0.5) }
    }

    func testWrappedLinkInJustifiedTextIsClickableOnBothLines() throws {
        var style = justified(hyphenate: true)
        style.firstLineHeadIndent = 12
        var doc = Fixture.document([.paragraph(Fixture.paragraph([
            ("Before the link there is some text and then ", Fixture.attributes()),
            ("a link whose words run over the end of the line", Fixture.attributes(link: .url("https://example.org/j"))),
            (" and more text after it, enough to make a third line.", Fixture.attributes()),
        ], style: style))])
        doc.page.width = 300
        doc.page.margins = EdgeInsets(all: 50)
        let path = try PDFTool.render(doc, name: "totalfit-link")
        let links = try PDFAnnotations.read(path).filter { $0.uri == "https://example.org/j" }
        XCTAssertEqual(links.count, 2, "\(links)")
        if links.count == 2 {
            XCTAssertGreaterThan(abs(links[0].rect[1] - links[1].rect[1]), 8, "rects on two different lines")
            XCTAssertEqual(links[1].rect[0], 50, accuracy: 1)
            XCTAssertEqual(links[0].rect[2], 250, accuracy: 1, "the first piece ends at the justified margin")
        }
        try PDFAnnotations.assertValid(path)
    }

    /// The largest word gap over a normal space (DejaVu Serif 10pt: 3.18pt) on full lines.
    private func worstGap(_ engine: LayoutEngine, name: String) throws -> Double {
        let text = Array(repeating: Self.prose, count: 6).joined(separator: " ")
        var style = justified(hyphenate: true)
        style.language = "en"
        let doc = Fixture.document([.paragraph(Fixture.paragraph(text, style: style))], columns: 2)
        let path = PDFTool.temporaryPath(name)
        _ = try PDFRenderer.render(doc, to: path, engine: engine)
        let rows = lines(try PDFTool.words(path), columnSplit: doc.page.width / 2)
        var worst = 0.0
        for row in rows.dropLast() where row.count > 1 {
            for (a, b) in zip(row, row.dropFirst()) { worst = max(worst, (b.xMin - a.xMax) / 3.18) }
        }
        return worst
    }

    func testTotalFitIsMoreEvenThanGreedy() throws {
        let greedyEngine = LayoutEngine()
        greedyEngine.lineBreaking = .greedy
        let totalFitEngine = LayoutEngine()
        totalFitEngine.lineBreaking = .totalFit
        let greedy = try worstGap(greedyEngine, name: "gaps-greedy")
        let totalFit = try worstGap(totalFitEngine, name: "gaps-totalfit")
        XCTAssertLessThan(totalFit, 2.6, "total fit worst gap / space")
        XCTAssertGreaterThan(greedy, 2.6, "greedy worst gap / space (the threshold must be one greedy fails)")
    }
}
