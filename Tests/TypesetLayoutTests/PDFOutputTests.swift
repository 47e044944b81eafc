import Foundation
import TypesetIR
import TypesetLayout
import TypesetPDF
import XCTest

final class PDFOutputTests: XCTestCase {
    private func mixedFontsDocument() -> TypesetDocument {
        let p = Fixture.paragraph([
            ("Regular text, ", Fixture.attributes()),
            ("bold text, ", Fixture.attributes(weight: 700)),
            ("italic text, ", Fixture.attributes(style: .italic)),
            ("mono text.", Fixture.attributes(family: "DejaVu Sans Mono")),
        ])
        var doc = Fixture.document([.paragraph(p)])
        doc.metadata.title = "Fonts & Things"
        doc.metadata.author = "Ada O'Neil"
        doc.metadata.subject = "Testing"
        doc.metadata.keywords = "pdf, fonts"
        return doc
    }

    func testFontsAreEmbeddedAndTenPointIsTenPoint() throws {
        let path = try PDFTool.render(mixedFontsDocument(), name: "fonts")
        let fonts = try PDFTool.run("pdffonts", [path])
        for face in ["DejaVuSerif ", "DejaVuSerif-Bold", "DejaVuSerif-Italic", "DejaVuSansMono"] {
            let row = fonts.split(separator: "\n").first { $0.contains(face) }
            XCTAssertNotNil(row, "\(face) missing from:\n\(fonts)")
            XCTAssertTrue(row.map { $0.contains(" yes yes ") } ?? false, "\(face) not embedded: \(row ?? "")")
        }
        let stext = try PDFTool.run("mutool", ["draw", "-F", "stext", "-o", "-", path])
        let sizes = Set(stext.components(separatedBy: "size=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) })
        XCTAssertEqual(sizes, [10], "font sizes in the PDF: \(sizes)")
    }

    func testMetadataAndDates() throws {
        let path = try PDFTool.render(mixedFontsDocument(), name: "metadata")
        let info = try PDFTool.run("pdfinfo", ["-isodates", path])
        XCTAssertTrue(info.contains("Title:           Fonts & Things"), info)
        XCTAssertTrue(info.contains("Author:          Ada O'Neil"), info)
        XCTAssertTrue(info.contains("Subject:         Testing"), info)
        XCTAssertTrue(info.contains("Keywords:        pdf, fonts"), info)
        XCTAssertTrue(info.contains("CreationDate:    2023-11-14T22:13:20Z"), info)
        XCTAssertTrue(info.contains("ModDate:         2023-11-14T22:13:20Z"), info)
    }

    func testTwoRendersAreByteIdentical() throws {
        var blocks: [LayoutBlock] = [.paragraph(Fixture.heading("Title", level: 1, id: "title"))]
        for _ in 0..<40 { blocks.append(.paragraph(Fixture.paragraph(Fixture.lorem))) }
        blocks.append(.paragraph(Fixture.paragraph([("a link", Fixture.attributes(link: .url("https://example.org")))])))
        let doc = Fixture.document(blocks, columns: 2)
        let a = try Data(contentsOf: URL(fileURLWithPath: PDFTool.render(doc, name: "same-a")))
        let b = try Data(contentsOf: URL(fileURLWithPath: PDFTool.render(doc, name: "same-b")))
        XCTAssertGreaterThan(a.count, 1000)
        XCTAssertEqual(a, b)
    }

    func testWrappedLinkHasAnAnnotationOnEachLine() throws {
        var doc = Fixture.document([.paragraph(Fixture.paragraph([
            ("Before the link there is some text and then ", Fixture.attributes()),
            ("a link whose words run over the end of the line", Fixture.attributes(link: .url("https://example.org/a'b"))),
            (" and more text after it.", Fixture.attributes()),
        ]))])
        doc.page.width = 300
        doc.page.margins = EdgeInsets(all: 50)
        let path = try PDFTool.render(doc, name: "link")
        let annotations = try PDFAnnotations.read(path)
        let links = annotations.filter { $0.uri == "https://example.org/a'b" }
        XCTAssertEqual(links.count, 2, "\(annotations)")
        if links.count == 2 {
            XCTAssertGreaterThan(abs(links[0].rect[1] - links[1].rect[1]), 8, "rects on two different lines")
            // The first piece ends at the right part of the line, the second starts at the left margin.
            XCTAssertEqual(links[1].rect[0], 50, accuracy: 1)
        }
        try PDFAnnotations.assertValid(path)
    }

    func testInternalLinkDestinationAndOutline() throws {
        var blocks: [LayoutBlock] = [
            .paragraph(Fixture.paragraph([("See ", Fixture.attributes()),
                                          ("the details", Fixture.attributes(link: .destination("details")))])),
            .paragraph(Fixture.heading("Chapter One", level: 1, id: "one")),
            .paragraph(Fixture.heading("Part A", level: 2, id: "one-a")),
            .paragraph(Fixture.paragraph(Fixture.lorem)),
            .pageBreak,
            .paragraph(Fixture.heading("Details", level: 2, id: "details")),
            .paragraph(Fixture.heading("Deep", level: 3, id: "deep")),
            .paragraph(Fixture.heading("Chapter Two", level: 1, id: "two")),
        ]
        var anchored = Fixture.paragraph(Fixture.lorem)
        anchored.anchors = ["anchor-1"]
        blocks.append(.paragraph(anchored))
        let path = try PDFTool.render(Fixture.document(blocks), name: "outline")
        let outline = try PDFTool.run("mutool", ["show", path, "outline"])
        let lines = outline.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, outline)
        // Nesting shows as indentation: level 1 at column 0, children indented under it.
        let titles = lines.map { line -> (depth: Int, title: String) in
            // mutool prints an open/closed marker, then one tab per level.
            let depth = line.prefix { $0 != "\"" }.filter { $0 == "\t" }.count - 1
            let title = line.split(separator: "\"")[1]
            return (depth, String(title))
        }
        XCTAssertEqual(titles.map(\.title), ["Chapter One", "Part A", "Details", "Deep", "Chapter Two"])
        XCTAssertEqual(titles.map(\.depth), [0, 1, 1, 2, 0], outline)
        XCTAssertTrue(lines[2].contains("#page=2"), lines[2])

        let annotations = try PDFAnnotations.read(path)
        XCTAssertEqual(annotations.filter { $0.dest == "details" }.count, 1, "\(annotations)")
        let names = try PDFTool.run("mutool", ["show", path, "trailer/Root/Names/Dests"])
        for name in ["details", "one", "one-a", "deep", "two", "anchor-1"] {
            XCTAssertTrue(names.contains("(\(name))"), "named destination \(name) missing: \(names)")
        }
        try PDFAnnotations.assertValid(path)
    }

    /// Lowering warns at the link; the renderer must just not write a dangling annotation (and not warn twice).
    func testLinkToAnUnknownDestinationIsNotAnAnnotation() throws {
        let doc = Fixture.document([.paragraph(Fixture.paragraph([
            ("see ", Fixture.attributes()), ("nowhere", Fixture.attributes(link: .destination("nowhere"))),
            (" and ", Fixture.attributes()), ("again", Fixture.attributes(link: .destination("nowhere"))),
        ]))])
        let path = PDFTool.temporaryPath("dangling")
        let diagnostics = try PDFRenderer.render(doc, to: path)
        XCTAssertEqual(diagnostics.count, 0, "\(diagnostics)")
        XCTAssertEqual(try PDFAnnotations.read(path).count, 0)
    }

    func testHeaderAndFooterFields() throws {
        var blocks: [LayoutBlock] = [.paragraph(Fixture.heading("Alpha", level: 1, id: "alpha"))]
        for _ in 0..<30 { blocks.append(.paragraph(Fixture.paragraph(Fixture.lorem))) }
        blocks.append(.paragraph(Fixture.heading("Beta", level: 1, id: "beta")))
        for _ in 0..<30 { blocks.append(.paragraph(Fixture.paragraph(Fixture.lorem))) }
        var doc = Fixture.document(blocks)
        doc.metadata.title = "Report"
        var header = RunningText()
        header.left = [.field(.title, CharacterAttributes())]
        header.right = [.field(.section, CharacterAttributes())]
        var footer = RunningText()
        footer.center = [.text("Page ", CharacterAttributes()), .field(.page, CharacterAttributes()),
                         .text(" of ", CharacterAttributes()), .field(.pages, CharacterAttributes())]
        doc.header = header
        doc.footer = footer
        let path = try PDFTool.render(doc, name: "running")
        let pageCount = try PDFTool.pageCount(path)
        XCTAssertGreaterThanOrEqual(pageCount, 3)
        let words = try PDFTool.words(path)
        let margins = doc.page.margins
        for page in 1...pageCount {
            let onPage = words.filter { $0.page == page }
            let footerWords = onPage.filter { $0.yMin > doc.page.height - margins.bottom }.map(\.text)
            XCTAssertEqual(footerWords, ["Page", "\(page)", "of", "\(pageCount)"])
            let headerWords = onPage.filter { $0.yMax < margins.top }
            XCTAssertEqual(headerWords.first?.text, "Report")
            // Header baseline about half-way into the margin.
            if let first = headerWords.first { XCTAssertEqual((first.yMin + first.yMax) / 2, margins.top / 2, accuracy: 4) }
            // The right part ends at the right margin.
            if let last = headerWords.last { XCTAssertEqual(last.xMax, doc.page.width - margins.right, accuracy: 1) }
        }
        XCTAssertEqual(words.filter { $0.page == 1 && $0.yMax < margins.top }.last?.text, "Alpha")
        XCTAssertEqual(words.filter { $0.page == pageCount && $0.yMax < margins.top }.last?.text, "Beta")
    }
}

/// Link annotations read from `mutool show`.
enum PDFAnnotations {
    struct Annotation: CustomStringConvertible {
        var uri: String?
        var dest: String?
        var rect: [Double]
        var description: String { "uri=\(uri ?? "-") dest=\(dest ?? "-") rect=\(rect)" }
    }

    static func read(_ path: String) throws -> [Annotation] {
        let pages = try PDFTool.pageCount(path)
        var result: [Annotation] = []
        for page in 1...pages {
            let annots = try PDFTool.run("mutool", ["show", path, "pages/\(page)/Annots/*"])
            for object in annots.components(separatedBy: "endobj") where object.contains("/Link") {
                var a = Annotation(rect: [])
                if let r = object.range(of: "/URI (") {
                    var s = ""
                    var escaped = false
                    for ch in object[r.upperBound...] {
                        if escaped { s.append(ch); escaped = false; continue }
                        if ch == "\\" { escaped = true; continue }
                        if ch == ")" { break }
                        s.append(ch)
                    }
                    a.uri = s
                }
                if let r = object.range(of: "/Dest (") { a.dest = String(object[r.upperBound...].prefix { $0 != ")" }) }
                if let r = object.range(of: "/Rect [") {
                    a.rect = object[r.upperBound...].prefix { $0 != "]" }.split(whereSeparator: { $0 == " " || $0 == "\n" })
                        .compactMap { Double($0) }
                }
                result.append(a)
            }
        }
        return result
    }

    /// qpdf finds no damage.
    static func assertValid(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let check = try PDFTool.run("qpdf", ["--check", path])
        XCTAssertTrue(check.contains("No syntax or stream encoding errors"), check, file: file, line: line)
    }
}
