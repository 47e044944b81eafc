import Foundation
import RTSyntax
import TypesetIR
import TypesetLayout
import XCTest

/// Parses and lowers RT source, then paginates it.
func layOut(_ source: String) -> (pages: [Page], diagnostics: [Diagnostic]) {
    let parsed = RTParser.parse(Array(source.utf8), file: "test.rt")
    let lowered = Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: RTParser.parseInlines)
    let (pages, layoutDiagnostics) = DocumentLayout.pages(lowered.document)
    return (pages, parsed.diagnostics + lowered.diagnostics + layoutDiagnostics)
}

/// `box=true` divs: border, background and padding around content laid out inside them, sliced at breaks.
final class BoxLayoutTests: XCTestCase {
    private let words = "Boxes set notes apart from the running text with a rule around them and a tinted ground. "

    private func boxLines(_ page: Page) -> [PlacedLine] {
        page.lines.filter { $0.paragraph.paragraph.text.hasPrefix("In box") }
    }

    func testBoxDrawsBorderAndBackgroundAroundPaddedContent() throws {
        let source = "Before. \(words)\n\n::: {box=true border=\"2pt #3366cc\" background=#eef4ff padding=\"10pt 20pt\"}\n"
            + "In box one. \(words + words)\n\nIn box two. \(words)\n:::\n\nAfter. \(words)\n"
        let (pages, diagnostics) = layOut(source)
        XCTAssertFalse(diagnostics.contains { $0.message.contains("not supported") }, "\(diagnostics)")
        XCTAssertEqual(pages.count, 1)
        let page = pages[0]
        let background = try XCTUnwrap(page.rects.first { $0.kind == .background })
        XCTAssertEqual(background.color, Color(red: 0xee / 255.0, green: 0xf4 / 255.0, blue: 1))
        let borders = page.rects.filter { $0.kind == .border }
        XCTAssertEqual(borders.count, 4, "left, right, top and bottom edges")
        XCTAssertTrue(borders.allSatisfy { $0.color == Color(red: 0.2, green: 0.4, blue: 0.8) && min($0.width, $0.height) == 2 })
        // The box spans the column; the text sits inside border + padding on every side.
        let m = PageGeometry().margins.left, width = PageGeometry().contentWidth
        XCTAssertEqual(background.x, m, accuracy: 0.01)
        XCTAssertEqual(background.width, width, accuracy: 0.01)
        let inside = boxLines(page)
        XCTAssertGreaterThanOrEqual(inside.count, 3)
        for line in inside {
            XCTAssertGreaterThanOrEqual(line.x, background.x + 2 + 20 - 0.01)
            XCTAssertLessThanOrEqual(line.x + line.box.width, background.x + background.width - 22 + 0.5)
        }
        let top = inside.map(\.top).min()!, bottom = inside.map { $0.top + $0.box.height }.max()!
        XCTAssertEqual(top, background.y + 2 + 10, accuracy: 0.01, "top padding")
        XCTAssertEqual(background.y + background.height, bottom + 10 + 2, accuracy: 0.01, "bottom padding")
        // Text before and after stays outside the box.
        let before = try XCTUnwrap(page.lines.first { $0.paragraph.paragraph.text.hasPrefix("Before") })
        let after = try XCTUnwrap(page.lines.first { $0.paragraph.paragraph.text.hasPrefix("After") })
        XCTAssertLessThanOrEqual(before.top + before.box.height, background.y)
        XCTAssertGreaterThanOrEqual(after.top, background.y + background.height)
        XCTAssertEqual(before.x, m, accuracy: 0.01, "text outside keeps the full width")
    }

    func testLongBoxIsSlicedAcrossAPageBreak() throws {
        let body = (0..<14).map { "In box paragraph \($0). " + String(repeating: words, count: 4) }.joined(separator: "\n\n")
        let source = "Before. \(String(repeating: words, count: 20))\n\n::: {box=true background=#fff3e0}\n\(body)\n:::\n\nAfter.\n"
        let (pages, _) = layOut(source)
        XCTAssertEqual(pages.count, 2)
        let bottom = PageGeometry().height - PageGeometry().margins.bottom, top = PageGeometry().margins.top
        for (k, page) in pages.enumerated() {
            let background = try XCTUnwrap(page.rects.first { $0.kind == .background }, "page \(k + 1)")
            let borders = page.rects.filter { $0.kind == .border }
            let horizontal = borders.filter { $0.width > $0.height }
            XCTAssertEqual(borders.count - horizontal.count, 2, "page \(k + 1): both sides")
            XCTAssertEqual(horizontal.count, 1, "page \(k + 1): only the box's real top or bottom edge")
            XCTAssertEqual(borders.first!.color, Color(red: 0.6, green: 0.6, blue: 0.6), "thin gray by default")
            if k == 0 {
                XCTAssertEqual(background.y + background.height, bottom, accuracy: 0.01, "open at the page bottom")
                XCTAssertEqual(horizontal[0].y, background.y, accuracy: 0.01, "top edge on the first page")
            } else {
                XCTAssertEqual(background.y, top, accuracy: 0.01, "continues from the page top")
                XCTAssertEqual(horizontal[0].y + horizontal[0].height, background.y + background.height, accuracy: 0.01)
                XCTAssertEqual(boxLines(page).map(\.top).min()!, top, accuracy: 0.01, "no top padding on a continuation")
            }
            for line in boxLines(page) {
                XCTAssertGreaterThanOrEqual(line.top, background.y - 0.01)
                XCTAssertLessThanOrEqual(line.top + line.box.height, background.y + background.height + 0.01)
                XCTAssertGreaterThan(line.x, background.x + 6)
            }
        }
    }

    func testBadBoxValuesAreReportedAtTheirLocation() {
        let (_, diagnostics) = layOut("::: {box=true padding=\"1 2 3 4 5\" border=thick}\nText.\n:::\n")
        let messages = diagnostics.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
        XCTAssertTrue(messages.contains { $0.hasPrefix("1:15 ") && $0.contains("'padding'") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("1:35 ") && $0.contains("'border'") }, "\(messages)")
    }
}
