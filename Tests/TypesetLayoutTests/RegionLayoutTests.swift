import Foundation
import TypesetIR
import TypesetLayout
import XCTest

/// Column bands, balancing, column rules, forced breaks and keep rules, read from the placed pages.
final class RegionLayoutTests: XCTestCase {
    private let geometry = PageGeometry()
    private var leftX: Double { geometry.margins.left }
    private func rightX(gap: Double = 12) -> Double { geometry.margins.left + (geometry.contentWidth - gap) / 2 + gap }

    private func paragraphs(_ prefix: String, _ count: Int) -> [LayoutBlock] {
        (0..<count).map { .paragraph(Fixture.paragraph("\(prefix)\($0) " + Fixture.lorem)) }
    }

    private func lines(_ page: Page, _ prefix: String) -> [PlacedLine] {
        page.lines.filter { $0.paragraph.paragraph.text.hasPrefix(prefix) }
    }

    private func bottom(_ lines: [PlacedLine]) -> Double { lines.map { $0.top + $0.box.height }.max() ?? 0 }

    private func fiveLines(_ style: ParagraphStyle) -> LayoutBlock {
        .paragraph(Fixture.paragraph("P1\u{2028}P2\u{2028}P3\u{2028}P4\u{2028}P5", style: style))
    }

    private func fill(_ count: Int) -> [LayoutBlock] {
        var style = ParagraphStyle()
        style.spaceAfter = 0
        return Array(repeating: .paragraph(Fixture.paragraph("Filler.", style: style)), count: count)
    }

    func testLastPageColumnsAreBalancedWithinOneLine() {
        let (pages, _) = DocumentLayout.pages(Fixture.document(paragraphs("A", 6), columns: 2))
        XCTAssertEqual(pages.count, 1)
        let left = pages[0].lines.filter { abs($0.x - leftX) < 1 }
        let right = pages[0].lines.filter { abs($0.x - rightX()) < 1 }
        XCTAssertGreaterThan(right.count, 5)
        XCTAssertEqual(left.count + right.count, pages[0].lines.count)
        XCTAssertEqual(bottom(left), bottom(right), accuracy: 12.01, "balanced columns end within one line")
        XCTAssertLessThan(bottom(left), geometry.height - geometry.margins.bottom - 200)
        // Reading order survives: the right column continues where the left one stops.
        XCTAssertGreaterThanOrEqual(pages[0].lines.firstIndex { abs($0.x - rightX()) < 1 }!, left.count)
    }

    func testColumnSetSwitchStartsBelowBalancedTextOnTheSamePage() {
        var blocks = paragraphs("A", 2)
        blocks.append(.columnSet(ColumnSet(count: 2, gap: 12, rule: Border(width: 1, color: .black))))
        blocks += paragraphs("B", 5)
        blocks.append(.columnSet(ColumnSet(count: 1, gap: 12)))
        blocks += paragraphs("C", 1)
        let (pages, _) = DocumentLayout.pages(Fixture.document(blocks))
        XCTAssertEqual(pages.count, 1)
        let a = lines(pages[0], "A"), b = lines(pages[0], "B"), c = lines(pages[0], "C")
        XCTAssertTrue(a.allSatisfy { abs($0.x - leftX) < 1 })
        let bLeft = b.filter { abs($0.x - leftX) < 1 }, bRight = b.filter { abs($0.x - rightX()) < 1 }
        XCTAssertEqual(bLeft.count + bRight.count, b.count)
        XCTAssertFalse(bRight.isEmpty)
        XCTAssertGreaterThan(b.map(\.top).min()!, bottom(a), "the two columns start below the text above")
        XCTAssertEqual(bRight.map(\.top).min()!, bLeft.map(\.top).min()!, accuracy: 0.01)
        XCTAssertEqual(bottom(bLeft), bottom(bRight), accuracy: 12.01)
        XCTAssertGreaterThan(c.map(\.top).min()!, bottom(b), "one column again below the balanced columns")
        XCTAssertTrue(c.allSatisfy { abs($0.x - leftX) < 1 })
        // The rule is as tall as the two columns, not the page.
        let rules = pages[0].rects.filter { $0.kind == .columnRule }
        XCTAssertEqual(rules.count, 1)
        let rule = rules[0]
        XCTAssertEqual(rule.x + rule.width / 2, (leftX + (geometry.contentWidth - 12) / 2 + rightX()) / 2, accuracy: 0.01)
        XCTAssertEqual(rule.y, bLeft.map(\.top).min()!, accuracy: 0.01)
        XCTAssertEqual(rule.y + rule.height, bottom(b), accuracy: 3)
    }

    func testColumnBreakAndBreakBeforeColumn() {
        var style = ParagraphStyle()
        style.breakBefore = .column
        let blocks: [LayoutBlock] = [.paragraph(Fixture.paragraph("A short.")), .columnBreak,
                                     .paragraph(Fixture.paragraph("B short.")), .columnBreak,
                                     .paragraph(Fixture.paragraph("E short.")),  // (a C would hang out)
                                     .paragraph(Fixture.paragraph("D short.", style: style))]
        let (pages, _) = DocumentLayout.pages(Fixture.document(blocks, columns: 2))
        XCTAssertEqual(pages.count, 2)
        XCTAssertEqual(lines(pages[0], "B").first!.x, rightX(), accuracy: 0.01)
        XCTAssertEqual(lines(pages[0], "B").first!.top, geometry.margins.top, accuracy: 0.01)
        XCTAssertEqual(lines(pages[1], "E").first!.x, leftX, accuracy: 0.01)
        XCTAssertEqual(lines(pages[1], "D").first!.x, rightX(), accuracy: 0.01)
    }

    func testBreakBeforePage() {
        var style = ParagraphStyle()
        style.breakBefore = .page
        let blocks: [LayoutBlock] = [.paragraph(Fixture.paragraph("A.")), .paragraph(Fixture.paragraph("B.", style: style))]
        let (pages, _) = DocumentLayout.pages(Fixture.document(blocks))
        XCTAssertEqual(pages.count, 2)
        XCTAssertEqual(lines(pages[1], "B").count, 1)
    }

    // 60 lines of 12pt fit a page (728.5pt). After 57 one-line paragraphs 3 lines are left, after 56 four,
    // after 59 one.

    func testKeepTogetherMovesTheWholeParagraph() {
        var style = ParagraphStyle()
        style.keepTogether = true
        let (pages, _) = DocumentLayout.pages(Fixture.document(fill(57) + [fiveLines(style)]))
        XCTAssertEqual(lines(pages[0], "P1").count, 0)
        XCTAssertEqual(lines(pages[1], "P1").count, 5)
        let (split, _) = DocumentLayout.pages(Fixture.document(fill(57) + [fiveLines(ParagraphStyle())]))
        XCTAssertEqual(lines(split[0], "P1").count, 3, "without keep-together the paragraph splits")
    }

    func testWidowsKeepTwoLinesOnTheNextPage() {
        let (pages, _) = DocumentLayout.pages(Fixture.document(fill(56) + [fiveLines(ParagraphStyle())]))
        XCTAssertEqual(lines(pages[0], "P1").count, 3, "4 would fit; 3 leave 2 lines for page 2")
        XCTAssertEqual(lines(pages[1], "P1").count, 2)
        var loose = ParagraphStyle()
        loose.widows = 1
        let (single, _) = DocumentLayout.pages(Fixture.document(fill(56) + [fiveLines(loose)]))
        XCTAssertEqual(lines(single[0], "P1").count, 4)
    }

    func testOrphansDoNotLeaveOneLineAtTheBottom() {
        let (pages, _) = DocumentLayout.pages(Fixture.document(fill(59) + [fiveLines(ParagraphStyle())]))
        XCTAssertEqual(lines(pages[0], "P1").count, 0)
        XCTAssertEqual(lines(pages[1], "P1").count, 5)
        var loose = ParagraphStyle()
        loose.orphans = 1
        let (single, _) = DocumentLayout.pages(Fixture.document(fill(59) + [fiveLines(loose)]))
        XCTAssertEqual(lines(single[0], "P1").count, 1)
    }

    func testTocEntryGetsNumberAndLeadersAfterItsTitle() {
        var attributes = CharacterAttributes()
        attributes.link = .destination("h")
        var style = ParagraphStyle()
        style.tailIndent = 35
        let entry = TocEntry(paragraph: AttributedParagraph(text: "Heading", runs: [AttributeRun(range: 0..<7, attributes: attributes)],
                                                            style: style), target: "h", level: 1, numberWidth: 35)
        let blocks: [LayoutBlock] = [.tocEntry(entry), .pageBreak, .paragraph(Fixture.heading("Heading", level: 1, id: "h"))]
        let (pages, diagnostics) = DocumentLayout.pages(Fixture.document(blocks))
        XCTAssertTrue(diagnostics.isEmpty, "\(diagnostics)")
        let texts = pages[0].lines.map { $0.paragraph.paragraph.text }
        XCTAssertEqual(texts.first, "Heading")
        XCTAssertTrue(texts.contains("2"), "\(texts)")
        let number = pages[0].lines.first { $0.paragraph.paragraph.text == "2" }!
        XCTAssertEqual(number.x + number.box.width, geometry.margins.left + geometry.contentWidth, accuracy: 0.5)
        XCTAssertTrue(texts.contains { $0.hasPrefix("....") })
        XCTAssertTrue(pages[0].links.contains { $0.target == .destination("h") })
    }
}
