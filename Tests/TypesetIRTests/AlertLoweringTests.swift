import RTSyntax
@testable import TypesetIR
import XCTest

/// GitHub alerts (`> [!WARNING]`, section 9) lowered: a bold title in the kind's colour kept with its text, and
/// the quote's bar in that colour; front matter `styles:` restyle both. No layout, no Cairo.
final class AlertLoweringTests: XCTestCase {
    private func paragraphs(_ source: String) -> [AttributedParagraph] {
        let parsed = RTParser.parse(Array(source.utf8), file: "t.md")
        XCTAssertEqual(parsed.diagnostics.count, 0, "\(parsed.diagnostics)")
        let result = Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: { RTParser.parseInlines($0, at: $1) })
        XCTAssertEqual(result.diagnostics.count, 0, "\(result.diagnostics)")
        return result.paragraphs
    }

    func testAlertHasAColouredBoldTitleAndBar() {
        let amber = Color(red: 0x9a / 255.0, green: 0x67 / 255.0, blue: 0)
        let p = paragraphs("> [!WARNING]\n> Careful with *this*.\n\nAfter.\n")
        XCTAssertEqual(p.map(\.text), ["Warning", "Careful with this.", "After."])
        XCTAssertEqual(p[0].attributes(at: 0)?.weight, 700)
        XCTAssertEqual(p[0].attributes(at: 0)?.color, amber)
        XCTAssertTrue(p[0].style.keepWithNext, "the title stays with the alert's text")
        for quoted in p[0...1] { XCTAssertEqual(quoted.style.leftBorder?.color, amber) }
        XCTAssertEqual(p[0].style.leftBorder?.width, 3)
        XCTAssertNotEqual(p[1].attributes(at: 0)?.color, amber, "the text keeps the quote's colour")
        XCTAssertNil(p[2].style.leftBorder)
    }

    func testFrontMatterRestylesAlerts() {
        let p = paragraphs("---\nstyles:\n  alert-note-title: {color: \"#ff0000\"}\n  alert-note: {border-left: \"1pt #00ff00\"}\n---\n"
                           + "> [!NOTE]\n> Text.\n")
        XCTAssertEqual(p[0].attributes(at: 0)?.color, Color(red: 1, green: 0, blue: 0))
        XCTAssertEqual(p[1].style.leftBorder?.width, 1)
        XCTAssertEqual(p[1].style.leftBorder?.color, Color(red: 0, green: 1, blue: 0))
        XCTAssertEqual(p[1].style.leftBorder?.edge, p[0].style.leftBorder?.edge, "one bar at the alert's edge")
        XCTAssertEqual(p[1].style.leftBorder?.group, p[0].style.leftBorder?.group, "one bar for the alert")
    }
}
