// CommonMark constructs that RT gives no other meaning (contract section 9): one test per rule, on the tree.

import XCTest
@testable import RTSyntax

final class MarkdownTests: XCTestCase {
    // MARK: - Emphasis

    /// `*` opens when left-flanking and closes when right-flanking, inside words too.
    func testStarEmphasisInsideWords() {
        XCTAssertEqual(show("**Ty**pesetting"), "strong(\"Ty\") \"pesetting\"")
        XCTAssertEqual(show("foo*bar*"), "\"foo\" em(\"bar\")")
        XCTAssertEqual(show("5*6*78"), "\"5\" em(\"6\") \"78\"")
        XCTAssertEqual(show("2*3*4"), "\"2\" em(\"3\") \"4\"")
    }

    /// `_` still may not open or close inside a word, and a `*` with spaces on both sides stays literal.
    func testUnderscoreAndSpacedStarStayLiteral() {
        XCTAssertEqual(show("snake_case_name"), "\"snake_case_name\"")
        XCTAssertEqual(show("foo_bar_"), "\"foo_bar_\"")
        XCTAssertEqual(show("5 * 3 and 4 * 2"), "\"5 * 3 and 4 * 2\"")
    }

    /// Two or more spaces at the end of a line make a hard break, as a backslash does; one space is soft.
    func testHardBreakByTrailingSpaces() {
        XCTAssertEqual(show("a  \nb\\\nc \nd"), "\"a\" HB \"b\" HB \"c\" SB \"d\"")
        XCTAssertEqual(show("end  "), "\"end\"")
    }

    // MARK: - Character references

    /// Named references from the HTML5 list, decimal and hex: each becomes its character.
    func testEntityAndNumericReferences() {
        XCTAssertEqual(show("&copy; 2026 &amp; &AElig; &ngE;"), "\"\u{A9} 2026 & \u{C6} \u{2267}\u{338}\"")
        XCTAssertEqual(show("&#35; &#1234; &#X22; &#xA9;"), "\"# \u{4D2} \" \u{A9}\"")
        XCTAssertEqual(show("&#0; &#xD800;"), "\"\u{FFFD} \u{FFFD}\"")
    }

    /// Not a reference: no `;`, unknown names, too many digits; and never inside code.
    func testNonReferencesStayLiteral() {
        XCTAssertEqual(show("&copy &MadeUp; &#87654321; &#xabcdef0; & x"),
                       "\"&copy &MadeUp; &#87654321; &#xabcdef0; & x\"")
        XCTAssertEqual(show("`&amp;`"), "code(&amp;)")
    }

    /// A decoded `*` is text: it opens no emphasis.
    func testReferencesMakeNoMarkup() {
        XCTAssertEqual(show("&#42;a&#42;"), "\"*a*\"")
    }

    // MARK: - Blocks

    /// Front matter may end with YAML's `...` as well as `---`.
    func testFrontMatterClosedByDots() {
        let r = parse("---\ntitle: T\n...\nBody")
        XCTAssertEqual(r.document.frontMatter?.entries.count, 1)
        XCTAssertTrue(errors(r).isEmpty, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks), "p[\"Body\"]")
    }

    /// Text underlined by `===` is a level-1 heading, by `---` level 2; several lines may be underlined.
    func testSetextHeadings() {
        XCTAssertEqual(show(blocks("Title\n=====\n\nSub *part*\n---\ntext")),
                       "h1#title[\"Title\"] h2#sub-part[\"Sub \" em(\"part\")] p[\"text\"]")
        XCTAssertEqual(show(blocks("one\ntwo\n===")), "h1#one-two[\"one\" SB \"two\"]")
        XCTAssertEqual(show(blocks("Named {#n}\n--")), "h2#n{#n}[\"Named\"]")
    }

    /// Not an underline: after a blank line it is a rule; `= =` is text; `- - -` is still a rule.
    func testSetextNeedsParagraphAndOneRun() {
        XCTAssertEqual(show(blocks("a\n\n---")), "p[\"a\"] hr")
        XCTAssertEqual(show(blocks("a\n= =")), "p[\"a\" SB \"= =\"]")
        XCTAssertEqual(show(blocks("a\n- - -")), "p[\"a\"] hr")
    }

    /// Lines indented four columns are code, blank lines inside kept, trailing ones dropped.
    func testIndentedCode() {
        XCTAssertEqual(show(blocks("text\n\n    let a = 1\n\n      b *c*\n\nafter")),
                       "p[\"text\"] code(-)[let a = 1\n\n  b *c*] p[\"after\"]")
        XCTAssertEqual(show(blocks("\tx")), "code(-)[x]")
    }

    /// Indented lines continue a paragraph; in a list item they are measured from the item's content.
    func testIndentedCodeDoesNotInterruptAParagraph() {
        XCTAssertEqual(show(blocks("a\n    b")), "p[\"a\" SB \"b\"]")
        XCTAssertEqual(show(blocks("- a\n\n      code")), "list(bullet(\"-\"),1,.,loose)[item[p[\"a\"] code(-)[code]]]")
    }

    /// A line belongs to a list item only when indented to the item's content column; less makes a sibling.
    func testListItemsNestByContentColumn() {
        XCTAssertEqual(show(blocks("- a\n - b\n  - c\n   - d")),
                       "list(bullet(\"-\"),1,.,tight)[item[p[\"a\"]] item[p[\"b\"]] item[p[\"c\"]] item[p[\"d\"]]]")
        XCTAssertEqual(show(blocks("1. a\n   - b")),
                       "list(decimal,1,.,tight)[item[p[\"a\"] list(bullet(\"-\"),1,.,tight)[item[p[\"b\"]]]]]")
    }

    /// A line indented four columns after paragraph text continues it, in a quote too (lazily).
    func testIndentedLineContinuesParagraph() {
        XCTAssertEqual(show(blocks("> foo\n    - bar")), "quote[p[\"foo\" SB \"- bar\"]]")
        XCTAssertEqual(show(blocks("a\n    # b")), "p[\"a\" SB \"# b\"]")
    }

    /// Markers stacked on one line open nested lists.
    func testStackedListMarkers() {
        XCTAssertEqual(show(blocks("1. - 2. foo")),
                       "list(decimal,1,.,tight)[item[list(bullet(\"-\"),1,.,tight)[item[list(decimal,2,.,tight)[item[p[\"foo\"]]]]]]]")
    }

    /// `~~~` fences like backticks; the closer needs the same character; backticks are allowed in the info.
    func testTildeFences() {
        XCTAssertEqual(show(blocks("~~~ swift\nlet a = `b`\n```\n~~~~\nafter")),
                       "code(swift)[let a = `b`\n```] p[\"after\"]")
        XCTAssertEqual(show(blocks("~~~ a`b\nx\n~~~")), "code(a`b)[x]")
        XCTAssertEqual(show(blocks("~~strike~~")), "p[del(\"strike\")]")
        XCTAssertEqual(show(blocks("~~~\n{% not a comment %}\n```\n~~~")), "code(-)[{% not a comment %}\n```]")
    }
}

final class ReferenceLinkTests: XCTestCase {
    /// `[text][label]` takes the definition's destination; the definition line itself is not text.
    func testFullReference() {
        XCTAssertEqual(show(blocks("See [the docs][d].\n\n[d]: https://x.org/docs")),
                       "p[\"See \" link<https://x.org/docs>(\"the docs\") \".\"]")
    }

    /// `[label][]` and `[label]` use the text as the label.
    func testCollapsedAndShortcutReferences() {
        XCTAssertEqual(show(blocks("[a][] and [a].\n\n[a]: /one")),
                       "p[link</one>(\"a\") \" and \" link</one>(\"a\") \".\"]")
    }

    /// Labels match case-insensitively with whitespace collapsed; the first definition wins.
    func testLabelsAreCaseFoldedAndFirstDefinitionWins() {
        XCTAssertEqual(show(blocks("[Foo  Bar] [ẞ]\n\n[foo bar]: /first\n[FOO BAR]: /second\n[SS]: /ss")),
                       "p[link</first>(\"Foo  Bar\") \" \" link</ss>(\"ẞ\")]")
    }

    /// A definition before its use, in a list or quote, with a title in any of the three quotings.
    func testDefinitionsAnywhereWithTitles() {
        XCTAssertEqual(show(blocks("[a]: <b c> \"t\"\n[d]:\n  /e\n  'title'\n[f]: /g (t)\n\n> [a] [d] [f]")),
                       "quote[p[link<b c>(\"a\") \" \" link</e>(\"d\") \" \" link</g>(\"f\")]]")
        XCTAssertEqual(show(blocks("- [x]\n\n- [x]: /later")), "list(bullet(\"-\"),1,.,loose)[item[p[link</later>(\"x\")]] item[]]")
    }

    /// Undefined labels and a full reference to an undefined label stay as written; `[^1]` is a footnote
    /// mark and `[^1]: note` a footnote definition, never link references (FootnoteTests).
    func testUndefinedReferencesStayText() {
        XCTAssertEqual(show(blocks("[a] [b][c] [^1]\n\n[b]: /b")), "p[\"[a] [b][c] \" fnref(1)]")
        XCTAssertEqual(show(blocks("[^1]: note")), "fndef(1)[p[\"note\"]]")
    }

    /// Images take references too; a definition cannot interrupt a paragraph.
    func testImageReferenceAndNoInterruption() {
        XCTAssertEqual(show(blocks("![logo][l]\n\n[l]: logo.png")), "image<logo.png>")
        XCTAssertEqual(show(blocks("text\n[a]: /b")), "p[\"text\" SB \"[a]: /b\"]")
    }

    /// Inline links accept titles in parentheses, and references in destinations are decoded.
    func testInlineLinkTitleInParentheses() {
        XCTAssertEqual(show("[a](/u (title)) [b](/x&amp;y)"), "link</u>(\"a\") \" \" link</x&y>(\"b\")")
    }

    /// Lazy continuation lines are paragraph text: never a setext underline, never a list item.
    func testLazyLinesStayParagraphText() {
        XCTAssertEqual(show(blocks("> foo\nbar\n===\n")), #"quote[p["foo" SB "bar" SB "==="]]"#)
        let list = show(blocks("- a\n - b\n  - c\n   - d\n    - e\n"))
        XCTAssertTrue(list.hasSuffix(#"p["d" SB "- e"]]]"#), list)
    }
}
