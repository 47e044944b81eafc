import Foundation
import TypesetIR
import TypesetLayout
import XCTest

/// Paragraphs placed around exclusions keep what the normal path gives them: bars, backgrounds, toc
/// leaders, widows and orphans.
final class FlowDecorationTests: XCTestCase {
    private let geometry = PageGeometry()
    private let words = "Text flows around the shape on this page, and each line takes the free pieces beside it. "
    /// An exclusion over the right 40% of the content box, 300pt tall.
    private let exclude = "@exclude rect(60%, 0pt, 40%, 300pt)\n\n"
    private var exclusionLeft: Double { geometry.margins.left + 0.6 * geometry.contentWidth }

    private func lines(_ page: Page, containing marker: String) -> [PlacedLine] {
        page.lines.filter { $0.paragraph.paragraph.text.contains(marker) }
    }

    func testQuoteBesideAnExclusionKeepsItsBar() throws {
        let (pages, _) = layOut(exclude + "> QUOTE \(words + words + words)\n")
        let quote = lines(pages[0], containing: "QUOTE") + pages[0].lines.filter { $0.top < 300 && !$0.paragraph.paragraph.text.contains("QUOTE") }
        XCTAssertGreaterThanOrEqual(quote.count, 4)
        XCTAssertTrue(quote.allSatisfy { $0.x + $0.box.width <= exclusionLeft + 0.5 }, "the quote flows beside the shape")
        let bar = try XCTUnwrap(pages[0].rects.first { $0.kind == .border })
        XCTAssertLessThan(bar.x + bar.width, quote.map(\.x).min()!, "the bar is left of the text")
        XCTAssertGreaterThanOrEqual(bar.x, geometry.margins.left)
        XCTAssertEqual(bar.y, quote.map(\.top).min()!, accuracy: 0.01)
        XCTAssertEqual(bar.y + bar.height, quote.map { $0.top + $0.box.height }.max()!, accuracy: 0.01, "one bar down all lines")
    }

    func testCodeBlockBesideAnExclusionKeepsItsBackground() throws {
        let (pages, _) = layOut(exclude + "Before.\n\n```\nlet answer = compute(the: question)\nprint(answer)\n```\n")
        let code = lines(pages[0], containing: "answer")
        XCTAssertGreaterThanOrEqual(code.count, 1)
        let background = try XCTUnwrap(pages[0].rects.first { $0.kind == .background })
        for line in code {
            XCTAssertGreaterThan(line.x, background.x)
            XCTAssertLessThan(line.x + line.box.width, background.x + background.width)
            XCTAssertGreaterThan(line.top, background.y)
            XCTAssertLessThan(line.top + line.box.height, background.y + background.height)
        }
        XCTAssertLessThanOrEqual(background.x + background.width, exclusionLeft + 6, "it follows the piece, not the column")
    }

    func testTocEntriesPlacedAroundAnExclusionKeepLeadersAndNumbers() throws {
        let (pages, _) = layOut(exclude + "@toc\n\n# Alpha\n\n\(words)\n\n# Beta\n\n\(words)\n")
        let page = pages[0]
        let alpha = try XCTUnwrap(page.lines.first { $0.paragraph.paragraph.text == "Alpha" && $0.top < 100 })
        let sameLine = page.lines.filter { abs($0.baseline - alpha.baseline) < 0.01 }
        let texts = sameLine.map(\.paragraph.paragraph.text)
        XCTAssertTrue(texts.contains("1"), "page number: \(texts)")
        XCTAssertTrue(texts.contains { $0.hasPrefix("....") }, "dot leaders: \(texts)")
        XCTAssertTrue(sameLine.allSatisfy { $0.x + $0.box.width <= exclusionLeft + 0.5 }, "all beside the shape")
    }

    func testFlowedParagraphsKeepWidowsAndOrphans() {
        // A paragraph split over a page with an exclusion on every page, with every amount of filler above it.
        var sans = CharacterAttributes()
        sans.fontFamily = "DejaVu Sans"
        var tight = ParagraphStyle()
        tight.spaceAfter = 0
        let long = LayoutBlock.paragraph(Fixture.paragraph(String(repeating: words, count: 3), attributes: sans))
        for fill in stride(from: 56, through: 64, by: 1) {
            var blocks: [LayoutBlock] = [.exclusion(Exclusion(shape: .rect(x: 300, y: 0, width: 180, height: 700), pages: .all))]
            blocks += Array(repeating: .paragraph(Fixture.paragraph("Filler line.", style: tight)), count: fill)
            blocks.append(long)
            let (pages, _) = DocumentLayout.pages(Fixture.document(blocks))
            let counts = pages.map { page in
                Set(page.lines.filter { $0.paragraph.paragraph.runs.first?.attributes.fontFamily == "DejaVu Sans" }.map(\.baseline)).count
            }.filter { $0 > 0 }
            XCTAssertFalse(counts.contains(1), "filler \(fill): lines per page \(counts)")
        }
    }
}
