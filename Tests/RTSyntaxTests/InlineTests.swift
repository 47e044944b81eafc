import XCTest
@testable import RTSyntax

final class InlineTests: XCTestCase {
    func testEmphasisForms() {
        XCTAssertEqual(show("**strong** *em* _em_ __u__"),
                       "strong(\"strong\") \" \" em(\"em\") \" \" em(\"em\") \" \" u(\"u\")")
        XCTAssertEqual(show("~~del~~ H~2~O x^2^ ==hi=="),
                       "del(\"del\") \" H\" sub(\"2\") \"O x\" sup(\"2\") \" \" mark(\"hi\")")
        XCTAssertEqual(show("***both***"), "em(strong(\"both\"))")
        XCTAssertEqual(show("**a *b* c**"), "strong(\"a \" em(\"b\") \" c\")")
    }

    /// GFM's strikethrough rules (cmark-gfm's extension examples): tildes pair only with a run as long, and a
    /// run of three or more is text. RT reads one tilde as subscript, two as strikethrough.
    func testTildesPairOnlyWithARunAsLongAndLongRunsAreText() {
        XCTAssertEqual(show("This is not ~~~~~one~~~~~ huge strikethrough."),
                       "\"This is not ~~~~~one~~~~~ huge strikethrough.\"")
        XCTAssertEqual(show("~one~ ~~two~~ ~~~three~~~"), "sub(\"one\") \" \" del(\"two\") \" ~~~three~~~\"")
        XCTAssertEqual(show("No ~mismatch~~"), "\"No ~mismatch~~\"")
        XCTAssertEqual(show("~~a~ b~~"), "\"~~a~ b~~\"")
        // The nearest opener decides: of another length, neither pairs (cmark-gfm), and what lay between is text.
        XCTAssertEqual(show("~~a ~b~~"), "\"~~a ~b~~\"")
        XCTAssertEqual(show("~a ~~b~ c~"), "sub(\"a ~~b~ c\")")
        XCTAssertEqual(show("~~a *b ~c~~ d*"), "\"~~a \" em(\"b ~c~~ d\")")
    }

    func testFlankingKeepsLiterals() {
        XCTAssertEqual(show("snake_case_name"), "\"snake_case_name\"")
        XCTAssertEqual(show("a ~ b"), "\"a ~ b\"")
        XCTAssertEqual(show("a = b == c"), "\"a = b == c\"")
        XCTAssertEqual(show("5 * 3 and 4 * 2"), "\"5 * 3 and 4 * 2\"")
    }

    func testUnclosedEmphasisStaysLiteral() {
        let r = parse("**open and *never closed")
        XCTAssertEqual(show(r.document.blocks), "p[\"**open and *never closed\"]")
        XCTAssertTrue(errors(r).isEmpty)
        XCTAssertEqual(show("a **b"), "\"a **b\"")
        XCTAssertEqual(show("*a **b*"), "\"*a *\" em(\"b\")")
    }

    func testCodeSpans() {
        XCTAssertEqual(show("use `a*b*c` here"), "\"use \" code(a*b*c) \" here\"")
        XCTAssertEqual(show("``a ` b``"), "code(a ` b)")
        XCTAssertEqual(show("` `` `"), "code(``)")
        XCTAssertEqual(show("`open only"), "\"`open only\"")
        XCTAssertEqual(show("`a\nb`"), "code(a b)")
    }

    func testLinksAndAutolinks() {
        XCTAssertEqual(show("[text](https://x.org/a_(b))"), "link<https://x.org/a_(b)>(\"text\")")
        XCTAssertEqual(show("[see](#intro)"), "link<#intro>(\"see\")")
        XCTAssertEqual(show("<https://x.org>"), "link<https://x.org>(\"https://x.org\")")
        XCTAssertEqual(show("<me@example.com>"), "link<mailto:me@example.com>(\"me@example.com\")")
        XCTAssertEqual(show("[**b** c](u \"title\")"), "link<u>(strong(\"b\") \" c\")")
        XCTAssertEqual(show("[just brackets]"), "\"[just brackets]\"")
        XCTAssertEqual(show("a < b > c"), "\"a < b > c\"")
        XCTAssertEqual(show("[a [b](c)](d)"), "\"[a \" link<c>(\"b\") \"](d)\"")
    }

    func testImagesAndSpans() {
        XCTAssertEqual(show("x ![a cat](cat.png){width=3cm .pic} y"),
                       "\"x \" img<cat.png>(a cat){.pic width=3cm} \" y\"")
        XCTAssertEqual(show("[red]{color=red .loud #r}"), "span{.loud #r color=red}(\"red\")")
        XCTAssertEqual(show("[x] {a=b}"), "\"[x] {a=b}\"")
        XCTAssertEqual(show("[[inner]{a=1}]{b=2}"), "span{b=2}(span{a=1}(\"inner\"))")
        XCTAssertEqual(show("[x]{{v}}"), "\"[x]\" var(v)")
    }

    func testVariablesTabsEscapes() {
        XCTAssertEqual(show("Hi {{ name }}!"), "\"Hi \" var(name) \"!\"")
        XCTAssertEqual(show("a\tb\\tc"), "\"a\" TAB \"b\" TAB \"c\"")
        XCTAssertEqual(show("\\*not em\\* \\[x\\]"), "\"*not em* [x]\"")
        XCTAssertEqual(show("10\\ km"), "\"10\u{00A0}km\"")
        XCTAssertEqual(show("C:\\dir"), "\"C:\\dir\"")
        XCTAssertEqual(show("a {b} c"), "\"a {b} c\"")
    }

    func testBreaks() {
        XCTAssertEqual(show("one\ntwo\\\nthree  \nfour"), "\"one\" SB \"two\" HB \"three\" HB \"four\"")
        XCTAssertEqual(show("  lead\n   more  "), "\"lead\" SB \"more\"")
    }

    func testRangesOfNestedInlines() throws {
        // Line 3 of the file: "- **bold _it_**"
        let r = parse("para\n\n- **bold _it_**\n")
        guard case .list(let list) = r.document.blocks[1].kind,
              case .paragraph(let content) = list.items[0].blocks[0].kind,
              case .strong(let inner) = content[0].kind else { return XCTFail(show(r.document.blocks)) }
        XCTAssertEqual(loc(content[0].range.start), "3:3")
        XCTAssertEqual(loc(content[0].range.end), "3:16")
        XCTAssertEqual(loc(inner[1].range.start), "3:10")
        XCTAssertEqual(loc(inner[1].range.end), "3:14")
        XCTAssertEqual(inner[1].range.start.file, "doc.rt")
    }

    func testColumnsCountScalars() {
        let c = inlines("é€😀 *x*")
        XCTAssertEqual(loc(c[1].range.start), "1:5")
        XCTAssertEqual(show(c), "\"é€😀 \" em(\"x\")")
    }

    func testInlineComment() {
        XCTAssertEqual(show("a {% hidden *x* %} b"), "\"a b\"")
        XCTAssertEqual(show("keep `{% code %}` literal"), "\"keep \" code({% code %}) \" literal\"")
    }

    func testParseInlinesForHeaderFooter() {
        let start = SourceLocation(file: "doc.rt", line: 4, column: 9)
        let (c, d) = RTParser.parseInlines("*{{title}}*\t{{page}} of {{pages}}", at: start)
        XCTAssertTrue(d.isEmpty)
        XCTAssertEqual(show(c), "em(var(title)) TAB var(page) \" of \" var(pages)")
        XCTAssertEqual(loc(c[0].range.start), "4:9")
        XCTAssertEqual(loc(c[1].range.start), "4:20")
    }

    func testAttributeRangesAndWarnings() {
        let r = parse("[x]{key=\"a b\" k2='c' bad=}")
        guard case .paragraph(let c) = r.document.blocks[0].kind, case .span(_, let a) = c[0].kind else {
            return XCTFail(show(r.document.blocks))
        }
        XCTAssertEqual(a.pairs.map(\.key), ["key", "k2", "bad"])
        XCTAssertEqual(a["key"]?.value, "a b")
        XCTAssertEqual(a["k2"]?.value, "c")
        XCTAssertEqual(loc(a.pairs[0].keyRange.start), "1:5")
        XCTAssertEqual(loc(a.pairs[0].valueRange.start), "1:10")
        XCTAssertEqual(loc(a.pairs[0].valueRange.end), "1:13")
        XCTAssertEqual(warnings(r).count, 1)
        XCTAssertEqual(loc(warnings(r).first?.location), "1:22")
    }

    func testSlug() {
        XCTAssertEqual(RTParser.slug("  Hello, World! 2024 "), "hello-world-2024")
        XCTAssertEqual(RTParser.slug("Über  uns"), "über-uns")
        XCTAssertEqual(RTParser.slug("!!!"), "")
        // Marks and joiners stay in their word, as GitHub's ids keep them.
        XCTAssertEqual(RTParser.slug("مهندسی نرم\u{200C}افزار"), "مهندسی-نرم\u{200C}افزار")
        XCTAssertEqual(RTParser.slug("हिन्दी भाषा"), "हिन्दी-भाषा")
        XCTAssertEqual(RTParser.slug("e\u{301}te\u{301} -- \u{200C}x"), "e\u{301}te\u{301}-x")
    }
}
