// Memory stays flat with document length: pagination drops each paragraph's Pango layout once the page
// holding its lines is handed over, also with `{{pages}}` and a table of contents (two passes). Counted
// with the library's live-layout counter, not measured in bytes or seconds.

import TypesetIR
import TypesetLayout
import XCTest

final class RetainedLayoutTests: XCTestCase {
    /// `sections` level-2 headings, each with two short justified paragraphs, a `@toc`-style entry per
    /// heading at the start, and a `{{page}} / {{pages}}` footer: the counting pass runs too.
    static func document(sections: Int) -> TypesetDocument {
        var body = ParagraphStyle()
        body.alignment = .justify
        let words = Fixture.lorem.split(separator: " ").map(String.init)
        var toc: [LayoutBlock] = []
        var blocks: [LayoutBlock] = []
        for s in 0..<sections {
            let id = "sec-\(s)"
            toc.append(.tocEntry(TocEntry(paragraph: Fixture.paragraph("Section \(s + 1)"), target: id, level: 2,
                                          numberWidth: 30)))
            blocks.append(.paragraph(Fixture.heading("Section \(s + 1)", level: 2, id: id)))
            for k in 0..<2 {
                let text = (0..<30).map { words[(s * 7 + k * 13 + $0 * 3) % words.count] }.joined(separator: " ")
                blocks.append(.paragraph(Fixture.paragraph(text + ".", style: body)))
            }
        }
        var doc = Fixture.document(toc + blocks, columns: 2)
        var footer = RunningText()
        footer.center = [.field(.page, CharacterAttributes()), .text(" / ", CharacterAttributes()),
                         .field(.pages, CharacterAttributes())]
        doc.footer = footer
        return doc
    }

    /// Pages made, the most layouts alive at once, the layouts still alive after pagination returns, and the
    /// most paragraph layouts any one page shows.
    func paginate(sections: Int) throws -> (pages: Int, peak: Int, left: Int, busiestPage: Int) {
        let doc = Self.document(sections: sections)
        let before = LiveLayouts.count
        LiveLayouts.resetPeak()
        var pages = 0, busiest = 0
        _ = try DocumentLayout.paginate(doc) { page in  // each page dropped as soon as it is made
            pages += 1
            busiest = max(busiest, Set(page.lines.map { ObjectIdentifier($0.paragraph) }).count)
        }
        return (pages, LiveLayouts.peak - before, LiveLayouts.count - before, busiest)
    }

    /// Layouts the counting pass may hand to the drawing pass: 32 KB of text, at least 256 bytes each.
    static let reuseBound = 128

    func testLayoutsAliveStayBoundedAsTheDocumentGrows() throws {
        let small = try paginate(sections: 50)
        let large = try paginate(sections: 400)
        XCTAssertGreaterThan(large.pages, 5 * small.pages, "the larger document must really be longer")
        // Alive at once: the counting pass's bounded reuse and the busiest page's layouts (a page of one-line
        // toc entries holds some 120), plus a few one-line layouts (running text, toc numbers) - never the
        // 1,600 paragraphs (toc entries, headings, body) of 400 sections.
        for run in [small, large] {
            XCTAssertLessThanOrEqual(run.peak, Self.reuseBound + run.busiestPage + 16,
                                     "alive at once: \(run.peak), busiest page \(run.busiestPage), \(run.pages) pages")
        }
        XCTAssertLessThan(large.peak, 300)
        XCTAssertLessThanOrEqual(large.left, 8, "layouts left alive after pagination (the engine's few caches)")
    }

    func testAllPagesKeptKeepsTheirLayouts() throws {
        // The counter can fail: holding every page keeps every placed paragraph's layout alive.
        let doc = Self.document(sections: 60)
        let before = LiveLayouts.count
        let (pages, _) = DocumentLayout.pages(doc)
        XCTAssertGreaterThan(LiveLayouts.count - before, 200, "\(pages.count) pages held")
    }
}
