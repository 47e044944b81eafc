import XCTest
@testable import RTSyntax

final class EdgeCaseTests: XCTestCase {
    func testSpanAtEndOfHeadingIsNotHeadingAttributes() {
        XCTAssertEqual(show(blocks("# A [b]{.c}")), "h1#a-b[\"A \" span{.c}(\"b\")]")
        XCTAssertEqual(show(blocks("# Price {{amount}}")), "h1#price-amount[\"Price \" var(amount)]")
    }

    func testVariableAloneOnALineIsAParagraph() {
        XCTAssertEqual(show(blocks("{{intro}}")), "p[var(intro)]")
    }

    func testBlockAttributesOnListsAndDivs() {
        XCTAssertEqual(show(blocks("{.compact}\n- a\n\n{#d}\n::: note {box=true}\nx\n:::")),
                       "list(bullet(\"-\"),1,.,tight){.compact}[item[p[\"a\"]]] div{.note #d box=true}[p[\"x\"]]")
    }

    func testBlockIDsAreAvoidedBySlugs() {
        XCTAssertEqual(show(blocks("{#intro}\ntext\n\n# Intro")), "p{#intro}[\"text\"] h1#intro-2[\"Intro\"]")
    }

    func testCommentLinesInsideListsAndAcrossParagraphLines() {
        XCTAssertEqual(show(blocks("- a\n{% note %}\n- b")),
                       "list(bullet(\"-\"),1,.,tight)[item[p[\"a\"]] item[p[\"b\"]]]")
        XCTAssertEqual(show(blocks("a {% x\ny %} b")), "p[\"a\" SB \"b\"]")
    }

    func testDirectivesInsideContainers() {
        XCTAssertEqual(show(blocks("> @pagebreak\n\n- @toc")), "quote[@pageBreak] list(bullet(\"-\"),1,.,tight)[item[@toc(options: [])]]")
        let r = parse("@toc now")
        XCTAssertEqual(warnings(r).count, 1)
        XCTAssertEqual(loc(warnings(r)[0].location), "1:6")
    }

    func testIncludeInsideListItemKeepsIncludedLocations() {
        let r = parse("- @include part.rt", files: ["part.rt": "\n\nincluded *text*"])
        guard case .list(let l) = r.document.blocks.first?.kind, case .paragraph(let c) = l.items[0].blocks[0].kind else {
            return XCTFail(show(r.document.blocks))
        }
        XCTAssertEqual(c[1].range.start.description, "part.rt:3:10")
    }

    func testMalformedAttributesWarnButKeepRest() {
        let r = parse("{.ok =oops key=\"unclosed}\ntext")
        XCTAssertEqual(r.document.blocks.count, 1)
        XCTAssertTrue(errors(r).isEmpty)
        let s = parse("[x]{.a # b=1 =c}")
        guard case .paragraph(let c) = s.document.blocks[0].kind, case .span(_, let a) = c[0].kind else {
            return XCTFail(show(s.document.blocks))
        }
        XCTAssertEqual(a.styles.map(\.name), ["a"])
        XCTAssertEqual(a["b"]?.value, "1")
        XCTAssertEqual(warnings(s).count, 2)
    }

    /// A `\` that ends a paragraph as written is literal (CommonMark); only a hard break whose next line
    /// came out empty from expansion is dropped (ExpansionTests).
    func testBackslashAtParagraphEndStaysLiteral() {
        XCTAssertEqual(show(blocks("end\\")), "p[\"end\\\"]")
        XCTAssertEqual(show(blocks("end\\\n\nnext")), show(blocks("end\\\\\n\nnext")))
    }

    func testCodeBlockKeepsTabsAndCRLFIsDropped() {
        let r = RTParser.parse(Array("```\r\n\tx\r\n```\r\n".utf8), file: "c.rt")
        XCTAssertEqual(show(r.document.blocks), "code(-)[\tx]")
    }
}
