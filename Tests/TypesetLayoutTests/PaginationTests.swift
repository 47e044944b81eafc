import Foundation
import TypesetIR
import TypesetLayout
import TypesetPDF
import XCTest

final class PaginationTests: XCTestCase {
    private func lorem(_ count: Int) -> [LayoutBlock] {
        (0..<count).map { _ in .paragraph(Fixture.paragraph(Fixture.lorem)) }
    }

    private func assertInsideColumns(_ pages: [Page], _ doc: TypesetDocument, file: StaticString = #filePath,
                                     line: UInt = #line) {
        let bottom = doc.page.height - doc.page.margins.bottom
        for page in pages {
            for placed in page.lines {
                XCTAssertLessThanOrEqual(placed.top + placed.box.height, bottom + 0.001,
                                         "line below the bottom margin on page \(page.number)", file: file, line: line)
                XCTAssertGreaterThanOrEqual(placed.top, doc.page.margins.top - 0.001, file: file, line: line)
            }
        }
    }

    func testFlowsOntoManyPagesWithoutCrossingTheBottomMargin() throws {
        let doc = Fixture.document(lorem(120))
        let (pages, diagnostics) = DocumentLayout.pages(doc)
        XCTAssertTrue(diagnostics.isEmpty, "\(diagnostics)")
        XCTAssertGreaterThanOrEqual(pages.count, 8)
        XCTAssertEqual(pages.map(\.number), Array(1...pages.count))
        assertInsideColumns(pages, doc)
        // Every paragraph's lines appear once, in order.
        let lineCount = pages.reduce(0) { $0 + $1.lines.count }
        let expected = pages.first!.lines.first!.paragraph.lines.count * 120
        XCTAssertEqual(lineCount, expected)
        // Full pages: the last line of each page but the last is close to the bottom margin.
        let bottom = doc.page.height - doc.page.margins.bottom
        for page in pages.dropLast() {
            let last = page.lines.last!
            XCTAssertGreaterThan(last.top + last.box.height, bottom - 3 * 12 - 1, "page \(page.number) ends early")
        }
        let path = try PDFTool.render(doc, name: "many-pages")
        XCTAssertEqual(try PDFTool.pageCount(path), pages.count)
        // pdftotext agrees: no word below the bottom margin.
        let words = try PDFTool.words(path)
        XCTAssertFalse(words.isEmpty)
        XCTAssertTrue(words.allSatisfy { $0.yMax <= bottom + 3 }, "a word below the margin")
    }

    func testTwoColumnsSitAtTheirX() throws {
        let doc = Fixture.document(lorem(40), columns: 2)
        let (pages, _) = DocumentLayout.pages(doc)
        let geometry = doc.page
        let leftX = geometry.margins.left
        let rightX = geometry.margins.left + geometry.columnWidth + geometry.columnGap
        let xs = Set(pages[0].lines.map { ($0.x * 10).rounded() / 10 })
        XCTAssertEqual(xs, [(leftX * 10).rounded() / 10, (rightX * 10).rounded() / 10])
        for line in pages[0].lines {
            XCTAssertLessThanOrEqual(line.box.width, geometry.columnWidth + 0.01)
        }
        assertInsideColumns(pages, doc)
        // In the PDF: words start in two bands.
        let words = try PDFTool.words(PDFTool.render(doc, name: "columns")).filter { $0.page == 1 }
        let starts = words.filter { abs($0.xMin - leftX) < 1 || abs($0.xMin - rightX) < 1 }
        XCTAssertGreaterThan(starts.filter { abs($0.xMin - rightX) < 1 }.count, 20)
        XCTAssertTrue(words.allSatisfy { $0.xMax < leftX + geometry.columnWidth + 1 || $0.xMin > rightX - 1 })
    }

    func testHeadingIsNeverLastInAColumn() {
        // 60 lines of 12pt fit on a page (728.5pt); after 57 there are 44.5pt left: room for the heading
        // (12 space + 16.8 line) but not for a line of the paragraph after it.
        let one = Fixture.paragraph("One line.")
        let heading = Fixture.heading("Heading", level: 1, id: "h")
        var blocks = Array(repeating: LayoutBlock.paragraph(one), count: 57)
        blocks += [.paragraph(heading)] + lorem(1)
        let doc = Fixture.document(blocks)
        let (pages, _) = DocumentLayout.pages(doc)
        XCTAssertEqual(pages.count, 2)
        XCTAssertEqual(pages[0].lines.count, 57)
        XCTAssertEqual(pages[1].lines.first?.paragraph.paragraph.outline?.id, "h")
        XCTAssertEqual(pages[1].outline.first?.id, "h")
        // Space before is dropped at the top of a page.
        XCTAssertEqual(pages[1].lines.first!.top, doc.page.margins.top, accuracy: 0.001)
        // Without keep-with-next the heading would have stayed at the bottom.
        var loose = heading
        loose.style.keepWithNext = false
        blocks[57] = .paragraph(loose)
        XCTAssertEqual(DocumentLayout.pages(Fixture.document(blocks)).0[0].lines.count, 58)
    }

    func testWidowsAndOrphans() {
        // A page of one-line paragraphs, leaving room for exactly one line, then a five-line paragraph.
        let one = Fixture.paragraph("One line.")
        let long = Fixture.paragraph(Fixture.lorem + " " + Fixture.lorem)
        let probe = DocumentLayout.pages(Fixture.document([.paragraph(one), .paragraph(long)])).0[0]
        let lineHeight = probe.lines[0].box.advance
        let longLines = probe.lines.count - 1
        XCTAssertGreaterThan(longLines, 4)
        let geometry = PageGeometry()
        let perPage = Int((geometry.contentHeight + 0.001) / lineHeight)
        // Orphan: one line left at the bottom -> the whole paragraph moves.
        var doc = Fixture.document(Array(repeating: .paragraph(one), count: perPage - 1) + [.paragraph(long)])
        var pages = DocumentLayout.pages(doc).0
        XCTAssertEqual(pages[0].lines.count, perPage - 1)
        XCTAssertEqual(pages[1].lines.count, longLines)
        // Widow: all but one line would fit -> two lines go to the next page.
        doc = Fixture.document(Array(repeating: .paragraph(one), count: perPage - longLines + 1) + [.paragraph(long)])
        pages = DocumentLayout.pages(doc).0
        XCTAssertEqual(pages[1].lines.count, 2)
        XCTAssertEqual(pages[0].lines.count, perPage - 1)
    }

    func testBreaksAndKeepTogether() {
        var together = ParagraphStyle()
        together.keepTogether = true
        let kept = Fixture.paragraph(Fixture.lorem + " " + Fixture.lorem, style: together)
        var column = ParagraphStyle()
        column.breakBefore = .column
        let blocks: [LayoutBlock] = [
            .paragraph(Fixture.paragraph("First.")), .columnBreak,
            .paragraph(Fixture.paragraph("Second column.")), .pageBreak,
            .pageBreak,  // an empty page is not produced
            .paragraph(Fixture.paragraph("Page two.")),
            .paragraph(Fixture.paragraph("Also column two.", style: column)),
        ]
        var doc = Fixture.document(blocks, columns: 2)
        let (pages, _) = DocumentLayout.pages(doc)
        XCTAssertEqual(pages.count, 2)
        XCTAssertEqual(pages[0].lines.count, 2)
        XCTAssertGreaterThan(pages[0].lines[1].x, pages[0].lines[0].x + 100)
        XCTAssertEqual(pages[1].lines.count, 2)
        XCTAssertGreaterThan(pages[1].lines[1].x, pages[1].lines[0].x + 100)

        // keepTogether: a paragraph that would split moves whole to the next page.
        let one = Fixture.paragraph("One line.")
        let probe = DocumentLayout.pages(Fixture.document([.paragraph(one)])).0[0].lines[0].box.advance
        let perPage = Int((PageGeometry().contentHeight + 0.001) / probe)
        doc = Fixture.document(Array(repeating: .paragraph(one), count: perPage - 4) + [.paragraph(kept)])
        let kpages = DocumentLayout.pages(doc).0
        XCTAssertEqual(kpages[0].lines.count, perPage - 4)
        XCTAssertEqual(kpages[1].lines.count, kpages[1].lines.first!.paragraph.lines.count)
    }

    func testRulesBackgroundsAndBorders() throws {
        var code = ParagraphStyle()
        code.background = Color(red: 0.9, green: 0.9, blue: 0.9)
        var quote = ParagraphStyle()
        quote.headIndent = 20
        quote.firstLineHeadIndent = 20
        quote.leftBorder = Border(width: 3, color: Color(red: 0.5, green: 0.5, blue: 0.5))
        let doc = Fixture.document([
            .paragraph(Fixture.paragraph("let x = 1\nlet y = 2", style: code)),
            .rule(HorizontalRule()),
            .paragraph(Fixture.paragraph(Fixture.lorem, style: quote)),
        ])
        let page = DocumentLayout.pages(doc).0[0]
        let background = page.rects.first { $0.kind == .background }!
        XCTAssertEqual(background.height, 24, accuracy: 0.01)  // two 12pt lines
        XCTAssertEqual(background.width, doc.page.columnWidth, accuracy: 0.01)
        let rule = page.rects.first { $0.kind == .rule }!
        XCTAssertEqual(rule.y, background.y + background.height + 6, accuracy: 0.01)
        let border = page.rects.first { $0.kind == .border }!
        XCTAssertLessThan(border.x + border.width, doc.page.margins.left + 20)
        let quoteLines = page.lines.filter { $0.paragraph.paragraph.style.leftBorder != nil }
        XCTAssertEqual(border.y, quoteLines.first!.top, accuracy: 0.01)
        XCTAssertEqual(border.y + border.height, quoteLines.last!.top + quoteLines.last!.box.height, accuracy: 0.01)
        _ = try PDFTool.render(doc, name: "boxes")
    }

    func testLineTallerThanAColumnGoesAloneWithAWarning() {
        var style = ParagraphStyle()
        style.lineHeight = .exactly(900)
        var doc = Fixture.document([.paragraph(Fixture.paragraph("Short.")),
                                    .paragraph(Fixture.paragraph("Huge line.", style: style))])
        doc.page.height = 400
        let (pages, diagnostics) = DocumentLayout.pages(doc)
        XCTAssertEqual(pages.count, 2)
        XCTAssertEqual(pages[1].lines.count, 1)
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertTrue(diagnostics.first?.message.contains("taller than the column") ?? false)
    }
}
