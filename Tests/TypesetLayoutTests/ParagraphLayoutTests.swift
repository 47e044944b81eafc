import CPangoCairo
import Foundation
import TypesetIR
import TypesetLayout
import TypesetPDF
import XCTest

final class ParagraphLayoutTests: XCTestCase {
    func testJustifiedLinesReachTheRightEdge() throws {
        var style = ParagraphStyle()
        style.alignment = .justify
        style.protrusion = false  // punctuation hanging into the margin: MicrotypeTests
        let doc = Fixture.document([.paragraph(Fixture.paragraph(Fixture.lorem + " " + Fixture.lorem, style: style))])
        let lines = DocumentLayout.pages(doc).0[0].lines
        XCTAssertGreaterThan(lines.count, 3)
        let right = doc.page.margins.left + doc.page.columnWidth
        for line in lines.dropLast() {
            XCTAssertEqual(line.x, doc.page.margins.left, accuracy: 0.01)
            XCTAssertEqual(line.x + line.box.width, right, accuracy: 0.5)
        }
        // The last line is neither stretched to the margin nor expanded (it ends 7pt short with today's breaks).
        XCTAssertLessThan(lines.last!.x + lines.last!.box.width, right - 2, "last line is not justified")
        XCTAssertEqual(lines.last!.box.adjustment.scale, 1)
        // In the PDF the last word of each full line ends at the right margin.
        let words = try PDFTool.words(PDFTool.render(doc, name: "justify"))
        let rows = Dictionary(grouping: words) { ($0.yMin * 2).rounded() }
        // The paragraph's last line is dropped by position: it may have few words.
        let full = rows.values.sorted { $0[0].yMin < $1[0].yMin }.dropLast().filter { $0.count > 3 }
        XCTAssertEqual(full.count, lines.count - 1)
        for row in full { XCTAssertEqual(row.map(\.xMax).max()!, right, accuracy: 1) }
    }

    /// Tab-stop layouts also run justified and hyphenated (contract section 6: justification never moves a
    /// tab stop's text).
    private let tabVariants: [(ParagraphStyle) -> ParagraphStyle] = [{ $0 }, { style in
        var s = style
        s.alignment = .justify
        s.hyphenate = true
        return s
    }]

    func testHangingIndent() throws {
        for variant in tabVariants { try hangingIndent(variant) }
    }

    private func hangingIndent(_ variant: (ParagraphStyle) -> ParagraphStyle) throws {
        var style = ParagraphStyle()
        style.firstLineHeadIndent = 0
        style.headIndent = 24
        style.tabStops = [TabStop(position: 24)]
        style.protrusion = false  // exact line starts (a `v` would hang out 0.3pt)
        let doc = Fixture.document([.paragraph(Fixture.paragraph("1.\t" + Fixture.lorem, style: variant(style)))])
        let lines = DocumentLayout.pages(doc).0[0].lines
        XCTAssertGreaterThan(lines.count, 2)
        let left = doc.page.margins.left
        XCTAssertEqual(lines[0].x, left, accuracy: 0.01)
        for line in lines.dropFirst() {
            XCTAssertEqual(line.x, left + 24, accuracy: 0.01)
            XCTAssertLessThanOrEqual(line.x + line.box.width, left + doc.page.columnWidth + 0.01)
        }
        let words = try PDFTool.words(PDFTool.render(doc, name: "hanging"))
        let rows = Dictionary(grouping: words) { ($0.yMin * 2).rounded() }.values.sorted { $0[0].yMin < $1[0].yMin }
        XCTAssertEqual(rows[0].first!.text, "1.")
        XCTAssertEqual(rows[0].first!.xMin, left, accuracy: 1)
        XCTAssertEqual(rows[0][1].xMin, left + 24, accuracy: 1)  // text after the tab hangs at the indent
        for row in rows.dropFirst() { XCTAssertEqual(row.first!.xMin, left + 24, accuracy: 1) }
    }

    func testAlignmentWrapAndTruncation() throws {
        func style(_ configure: (inout ParagraphStyle) -> Void) -> ParagraphStyle {
            var s = ParagraphStyle()
            s.protrusion = false  // exact edges (optical margins: MicrotypeTests)
            configure(&s)
            return s
        }
        let long = String(repeating: "x", count: 200)
        let doc = Fixture.document([
            .paragraph(Fixture.paragraph("Centred", style: style { $0.alignment = .center })),
            .paragraph(Fixture.paragraph("Right", style: style { $0.alignment = .right })),
            .paragraph(Fixture.paragraph(Fixture.lorem, style: style { $0.maxLines = 2; $0.truncation = .tail })),
            .paragraph(Fixture.paragraph(long)),  // an overlong word still breaks
            .paragraph(Fixture.paragraph(long, style: style { $0.wrap = .char })),
        ])
        let lines = DocumentLayout.pages(doc).0[0].lines
        let left = doc.page.margins.left, right = left + doc.page.columnWidth
        XCTAssertEqual((lines[0].x + lines[0].x + lines[0].box.width) / 2, (left + right) / 2, accuracy: 0.01)
        XCTAssertEqual(lines[1].x + lines[1].box.width, right, accuracy: 0.01)
        let truncated = lines.filter { $0.paragraph.paragraph.style.maxLines == 2 }
        XCTAssertEqual(truncated.count, 2)
        // The second line holds all the rest yet fits the width: Pango ellipsized it.
        XCTAssertEqual(truncated[1].box.startIndex + truncated[1].box.length, Fixture.lorem.utf8.count)
        let words = lines.filter { $0.paragraph.paragraph.text == long }
        XCTAssertGreaterThan(words.count, 2)
        for line in lines { XCTAssertLessThanOrEqual(line.x + line.box.width, right + 0.01) }
        // (pdftotext maps the ellipsis back to the text it hides, so the PDF text still reads in full.)
        let text = try PDFTool.run("pdftotext", [PDFTool.render(doc, name: "align"), "-"])
        let charWrapped = text.split(separator: "\n").map { $0.replacingOccurrences(of: "\u{21AA} ", with: "") }
            .filter { $0.hasPrefix("xxx") }.suffix(3)
        XCTAssertEqual(charWrapped.count, 3)
        XCTAssertFalse(charWrapped.contains { $0.hasSuffix("-") }, "no hyphen when breaking code by character")
    }

    func testFirstLineIndent() {
        var style = ParagraphStyle()
        style.firstLineHeadIndent = 30
        style.headIndent = 10
        style.tailIndent = 40
        let doc = Fixture.document([.paragraph(Fixture.paragraph(Fixture.lorem, style: style))])
        let lines = DocumentLayout.pages(doc).0[0].lines
        let left = doc.page.margins.left
        XCTAssertEqual(lines[0].x, left + 30, accuracy: 0.01)
        for line in lines.dropFirst() { XCTAssertEqual(line.x, left + 10, accuracy: 0.01) }
        for line in lines { XCTAssertLessThanOrEqual(line.x + line.box.width, left + doc.page.columnWidth - 40 + 0.01) }
    }

    func testRightAndDecimalTabStops() throws {
        for variant in tabVariants { try rightAndDecimalTabStops(variant) }
    }

    private func rightAndDecimalTabStops(_ variant: (ParagraphStyle) -> ParagraphStyle) throws {
        var style = ParagraphStyle()
        style.tabStops = [TabStop(position: 200, alignment: .right), TabStop(position: 300, alignment: .decimal)]
        style.headIndent = 10
        style.firstLineHeadIndent = 10
        let rows = ["Apples\t12\t3.25", "Kiwis\t1234\t123.5", "Plums\t7\t0.125"]
        let doc = Fixture.document(rows.map { .paragraph(Fixture.paragraph($0, style: variant(style))) })
        let path = try PDFTool.render(doc, name: "tabs")
        let left = doc.page.margins.left
        let words = try PDFTool.words(path)
        for number in ["12", "1234", "7"] {
            let w = words.first { $0.text == number }!
            XCTAssertEqual(w.xMax, left + 200, accuracy: 0.5, "right tab: \(number)")
        }
        // Decimal tab: the decimal points line up, centred on the stop (Pango's placement).
        let stext = try PDFTool.run("mutool", ["draw", "-F", "stext", "-o", "-", path])
        let points = stext.split(separator: "\n").filter { $0.contains("c=\".\"") }.compactMap { line -> Double? in
            guard let r = line.range(of: " x=\"") else { return nil }
            return Double(line[r.upperBound...].prefix { $0 != "\"" })
        }
        XCTAssertEqual(points.count, 3)
        for x in points {
            XCTAssertEqual(x, points[0], accuracy: 0.05)
            XCTAssertEqual(x, left + 300, accuracy: 2)
            XCTAssertLessThan(x, left + 300)
        }
    }

    func testLineHeightMultipleAndExactly() {
        var style = ParagraphStyle()
        style.lineHeight = .multiple(1.5)
        let mixed = Fixture.paragraph([("small ", Fixture.attributes(size: 10)), ("BIG", Fixture.attributes(size: 20))],
                                      style: style)
        var exact = ParagraphStyle()
        exact.lineHeight = .exactly(18)
        exact.lineSpacing = 2
        let doc = Fixture.document([.paragraph(mixed), .paragraph(Fixture.paragraph(Fixture.lorem, style: exact))])
        let lines = DocumentLayout.pages(doc).0[0].lines
        XCTAssertEqual(lines[0].box.height, 30, accuracy: 0.001)  // 1.5 x the largest size on the line
        XCTAssertEqual(lines[1].box.height, 18, accuracy: 0.001)
        XCTAssertEqual(lines[2].top - lines[1].top, 20, accuracy: 0.001)
        // Half-leading: the content is centred in the box.
        let box = lines[1].box
        XCTAssertEqual(box.baselineOffset - box.ascent, (18 - box.ascent - box.descent) / 2, accuracy: 0.001)
    }

    func testInlineImageIsSizedAndDrawn() throws {
        let png = PDFTool.temporaryPath("dot").replacingOccurrences(of: ".pdf", with: ".png")
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 40, 20)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 0.8, 0.1, 0.1)
        cairo_paint(cr)
        cairo_destroy(cr)
        XCTAssertEqual(cairo_surface_write_to_png(surface, png), CAIRO_STATUS_SUCCESS)
        cairo_surface_destroy(surface)

        let location = SourceLocationFixture.here
        var image = ImageAttachment(path: png, width: 60, location: location)
        image.alignment = .baseline
        let text = "Before \u{FFFC} after, and again \u{FFFC}."
        let first = text.utf8.count - "\u{FFFC} after, and again \u{FFFC}.".utf8.count
        let second = text.utf8.count - "\u{FFFC}.".utf8.count
        let p = Fixture.paragraph([(text, Fixture.attributes())]).with(attachments: [
            TextAttachment(offset: first, image: image), TextAttachment(offset: second, image: image),
        ])
        let doc = Fixture.document([.paragraph(p)])
        let page = DocumentLayout.pages(doc).0[0]
        XCTAssertEqual(page.images.count, 2)
        let placed = page.images[0]
        XCTAssertEqual(placed.width, 60, accuracy: 0.01)
        XCTAssertEqual(placed.height, 30, accuracy: 0.01)  // aspect kept
        XCTAssertEqual(placed.y + placed.height, page.lines[0].baseline, accuracy: 0.01)  // sits on the baseline
        XCTAssertGreaterThanOrEqual(page.lines[0].box.height, 30)  // the line grows to hold it
        let path = try PDFTool.render(doc, name: "image")
        let list = try PDFTool.run("pdfimages", ["-list", path])
        let rows = list.split(separator: "\n").dropFirst(2)
        XCTAssertEqual(rows.count, 2, list)  // drawn twice...
        let objects = Set(rows.map { $0.split(separator: " ", omittingEmptySubsequences: true)[10] })
        XCTAssertEqual(objects.count, 1, list)  // ...stored once
    }

    func testMissingImageIsAWarning() {
        let image = ImageAttachment(path: "/nonexistent/x.png", location: SourceLocationFixture.here)
        let p = Fixture.paragraph("A \u{FFFC} b").with(attachments: [TextAttachment(offset: 2, image: image)])
        let (pages, diagnostics) = DocumentLayout.pages(Fixture.document([.paragraph(p)]))
        XCTAssertEqual(pages[0].images.count, 0)
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(diagnostics.first?.location, SourceLocationFixture.here)
    }
}

import RTSyntax

enum SourceLocationFixture {
    static let here = SourceLocation(file: "test.rt", line: 3, column: 1)
}

extension AttributedParagraph {
    func with(attachments: [TextAttachment]) -> AttributedParagraph {
        var copy = self
        copy.attachments = attachments
        return copy
    }
}
