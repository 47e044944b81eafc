// `[](#id){ref=page}` and `Table: caption` lines next to pipe tables.

import XCTest
@testable import RTSyntax

final class CrossReferenceSyntaxTests: XCTestCase {
    func testCrossReferenceTakesOptionsOtherLinksDoNot() {
        XCTAssertEqual(show("[](#fig-a)"), "link<#fig-a>()")
        let options = inlines("see [](#fig-a){ref=page}.")
        guard options.count == 3, case .span(let content, let attributes) = options[1].kind else {
            return XCTFail("expected a span around the link: \(show("see [](#fig-a){ref=page}."))")
        }
        XCTAssertEqual(attributes["ref"]?.value, "page")
        guard case .link(let destination, let inner) = content.first?.kind else { return XCTFail("no link") }
        XCTAssertEqual(destination, "#fig-a")
        XCTAssertTrue(inner.isEmpty)
        // A link with text, or to a URL, keeps braces after it as text (unchanged).
        XCTAssertEqual(show("[x](#a){b}"), "link<#a>(\"x\") \"{b}\"")
        XCTAssertEqual(show("[](https://x.org){b}"), "link<https://x.org>() \"{b}\"")
    }

    func testTableCaptionLineEndsAParagraphRightAboveATable() {
        let direct = blocks("Table: Results\n| a | b |\n|---|---|\n| 1 | 2 |\n")
        XCTAssertEqual(direct.count, 2, show(direct))
        if case .paragraph = direct[0].kind {} else { XCTFail("caption paragraph first") }
        if case .table = direct[1].kind {} else { XCTFail("then the table") }
        // Any other line of text ends there too (GitHub's tables interrupt a paragraph), but is no caption.
        let other = blocks("Tables: x\n| a | b |\n|---|---|\n")
        XCTAssertEqual(other.count, 2, show(other))
        if case .paragraph(let p) = other[0].kind { XCTAssertEqual(plainText(p), "Tables: x") } else { XCTFail(show(other)) }
    }
}
