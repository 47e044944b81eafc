import XCTest
import TypesetIR
import TypesetLayout
import TypesetPDF

final class SampleTests: XCTestCase {
    func testSample() throws {
        var blocks: [LayoutBlock] = [.paragraph(Fixture.heading("Introduction", level: 1, id: "intro"))]
        var justified = ParagraphStyle()
        justified.alignment = .justify
        justified.firstLineHeadIndent = 12
        for i in 0..<30 {
            blocks.append(.paragraph(Fixture.paragraph([("Para \(i). ", Fixture.attributes(weight: 700)),
                                                        (Fixture.lorem, Fixture.attributes()),
                                                        (" italic words", Fixture.attributes(style: .italic)),
                                                        (" link here", Fixture.attributes(link: .url("https://example.com/x")))],
                                                       style: justified)))
            if i % 10 == 9 { blocks.append(.paragraph(Fixture.heading("Section \(i)", level: 2, id: "s\(i)"))) }
        }
        var doc = Fixture.document(blocks, columns: 2)
        doc.metadata.title = "Sample"
        var footer = RunningText()
        footer.center = [.text("Page ", CharacterAttributes()), .field(.page, CharacterAttributes()),
                         .text(" of ", CharacterAttributes()), .field(.pages, CharacterAttributes())]
        doc.footer = footer
        _ = try PDFRenderer.render(doc, to: "/tmp/typeset-sample.pdf")
    }
}
