import XCTest
@testable import RTSyntax

final class ListTests: XCTestCase {
    func testBulletsAndTightness() {
        XCTAssertEqual(show(blocks("- a\n- b\n* c")),
                       "list(bullet(\"-\"),1,.,tight)[item[p[\"a\"]] item[p[\"b\"]]] list(bullet(\"*\"),1,.,tight)[item[p[\"c\"]]]")
        XCTAssertEqual(show(blocks("+ a\n\n+ b")), "list(bullet(\"+\"),1,.,loose)[item[p[\"a\"]] item[p[\"b\"]]]")
    }

    func testOrderedStylesAndStarts() {
        XCTAssertEqual(show(blocks("3. a\n4. b")), "list(decimal,3,.,tight)[item[p[\"a\"]] item[p[\"b\"]]]")
        XCTAssertEqual(show(blocks("1) a")), "list(decimal,1,),tight)[item[p[\"a\"]]]")
        XCTAssertEqual(show(blocks("c. a\nd. b")), "list(lowerAlpha,3,.,tight)[item[p[\"a\"]] item[p[\"b\"]]]")
        XCTAssertEqual(show(blocks("B. a")), "list(upperAlpha,2,.,tight)[item[p[\"a\"]]]")
        XCTAssertEqual(show(blocks("i. a\nii. b\niii. c")),
                       "list(lowerRoman,1,.,tight)[item[p[\"a\"]] item[p[\"b\"]] item[p[\"c\"]]]")
        XCTAssertEqual(show(blocks("IV. a")), "list(upperRoman,4,.,tight)[item[p[\"a\"]]]")
    }

    func testIInsideLetteredListIsALetter() {
        let b = blocks("g. a\nh. b\ni. c\nj. d")
        guard case .list(let l) = b[0].kind else { return XCTFail(show(b)) }
        XCTAssertEqual(b.count, 1)
        XCTAssertEqual(l.style, .lowerAlpha)
        XCTAssertEqual(l.start, 7)
        XCTAssertEqual(l.items.count, 4)
    }

    func testNestingAndMultiParagraphItems() {
        let text = """
            1. first
               - sub a
                 - deep
               - sub b

               second paragraph
            2. next
            """
        XCTAssertEqual(show(blocks(text)), """
            list(decimal,1,.,loose)[item[p["first"] list(bullet("-"),1,.,tight)[item[p["sub a"] \
            list(bullet("-"),1,.,tight)[item[p["deep"]]]] item[p["sub b"]]] p["second paragraph"]] item[p["next"]]]
            """)
    }

    func testItemContentAndLazyLines() {
        XCTAssertEqual(show(blocks("- a long\nlazy line\n- > quoted\n- ```\n  code\n  ```")), """
            list(bullet("-"),1,.,tight)[item[p["a long" SB "lazy line"]] item[quote[p["quoted"]]] item[code(-)[code]]]
            """)
    }

    func testListItemRange() {
        let b = blocks("text\n\n  - one\n    two\n  - three")
        guard case .list(let l) = b[1].kind else { return XCTFail(show(b)) }
        XCTAssertEqual(loc(l.items[0].range.start), "3:3")
        XCTAssertEqual(loc(l.items[0].range.end), "4:8")
        XCTAssertEqual(loc(l.items[1].blocks[0].range.start), "5:5")
    }

    func testListEndsAtUnindentedParagraph() {
        XCTAssertEqual(show(blocks("- a\n\nafter")), "list(bullet(\"-\"),1,.,tight)[item[p[\"a\"]]] p[\"after\"]")
    }

    func testOrderedOnlyInterruptsParagraphAtOne() {
        XCTAssertEqual(show(blocks("The year\n2024. was good")), "p[\"The year\" SB \"2024. was good\"]")
        XCTAssertEqual(show(blocks("Steps:\n1. go")), "p[\"Steps:\"] list(decimal,1,.,tight)[item[p[\"go\"]]]")
    }

    func testRuleIsNotAListItem() {
        XCTAssertEqual(show(blocks("- a\n- - -\n- b")),
                       "list(bullet(\"-\"),1,.,tight)[item[p[\"a\"]]] hr list(bullet(\"-\"),1,.,tight)[item[p[\"b\"]]]")
    }

    func testTabIndentedSublist() {
        XCTAssertEqual(show(blocks("- a\n\t- b")),
                       "list(bullet(\"-\"),1,.,tight)[item[p[\"a\"] list(bullet(\"-\"),1,.,tight)[item[p[\"b\"]]]]]")
    }

    func testMarkerIndentedFourColumnsAfterABlankLineIsCode() {
        // The item `2. b` has its content at column 5: `    3. c` is neither inside it nor a new item.
        XCTAssertEqual(show(blocks("1. a\n\n  2. b\n\n    3. c\n")),
                       "list(decimal,1,.,loose)[item[p[\"a\"]] item[p[\"b\"]]] code(-)[3. c]")
    }
}
