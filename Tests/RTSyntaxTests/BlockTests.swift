import XCTest
@testable import RTSyntax

final class BlockTests: XCTestCase {
    func testParagraphsAndRules() {
        let b = blocks("one\ntwo\n\nthree\n\n---\n***\n___\nfour")
        XCTAssertEqual(show(b), "p[\"one\" SB \"two\"] p[\"three\"] hr hr hr p[\"four\"]")
        XCTAssertEqual(loc(b[1].range.start), "4:1")
        XCTAssertEqual(loc(b[2].range.start), "6:1")
    }

    func testHeadingsAndIDs() {
        let b = blocks("# Intro\n## Intro\n### Other {#intro-2 .fancy}\n#### Intro ####\n#no heading\n####### seven\n# Ünïcode & Co.")
        XCTAssertEqual(show(b), """
            h1#intro["Intro"] h2#intro-3["Intro"] h3#intro-2{.fancy #intro-2}["Other"] h4#intro-4["Intro"] \
            p["#no heading" SB "####### seven"] h1#ünïcode-co["Ünïcode & Co."]
            """)
    }

    func testExplicitIDCountsAndDuplicateWarns() {
        let r = parse("# A {#x}\n# x\n# B {#x}")
        XCTAssertEqual(show(r.document.blocks), "h1#x{#x}[\"A\"] h1#x-2[\"x\"] h1#x{#x}[\"B\"]")
        XCTAssertEqual(warnings(r).count, 1)
        XCTAssertEqual(loc(warnings(r)[0].location), "3:1")
    }

    func testHeadingRangeAndAttrKeyRange() {
        let b = blocks("\n  ## Title {lang=de}")
        XCTAssertEqual(loc(b[0].range.start), "2:3")
        XCTAssertEqual(loc(b[0].attributes["lang"]?.keyRange.start), "2:13")
        guard case .heading(_, let c, _) = b[0].kind else { return XCTFail() }
        XCTAssertEqual(loc(c[0].range.start), "2:6")
    }

    func testCodeBlocks() {
        let r = parse("```swift extra\nlet x = 1\n\n  *not em* {% not a comment %}\n```\n\n````\n```\n````")
        XCTAssertEqual(show(r.document.blocks),
                       "code(swift)[let x = 1\n\n  *not em* {% not a comment %}] code(-)[```]")
        XCTAssertTrue(r.diagnostics.isEmpty)
    }

    func testUnclosedFenceWarns() {
        let r = parse("text\n\n```\ncode\nmore")
        XCTAssertEqual(show(r.document.blocks), "p[\"text\"] code(-)[code\nmore]")
        XCTAssertEqual(warnings(r).count, 1)
        XCTAssertEqual(loc(warnings(r)[0].location), "3:1")
        XCTAssertTrue(errors(r).isEmpty)
    }

    func testBlockQuotes() {
        let b = blocks("> # Q\n> text\nlazy\n>\n> > inner\n\nafter")
        XCTAssertEqual(show(b), "quote[h1#q[\"Q\"] p[\"text\" SB \"lazy\"] quote[p[\"inner\"]]] p[\"after\"]")
        guard case .blockQuote(let inner) = b[0].kind else { return XCTFail() }
        XCTAssertEqual(loc(inner[1].range.start), "2:3")
    }

    func testImageBlock() {
        let b = blocks("![Logo](img/logo.png){float=right margin=4mm}\n\ntext ![i](a.png)")
        XCTAssertEqual(show(b), "image<img/logo.png> p[\"text \" img<a.png>(i)]")
        guard case .imageBlock(let image) = b[0].kind else { return XCTFail() }
        XCTAssertEqual(image.alt, "Logo")
        XCTAssertEqual(image.attributes["float"]?.value, "right")
        XCTAssertEqual(image.attributes["margin"]?.value, "4mm")
    }

    func testBlockAttributes() {
        let r = parse("{tabs=\"4cm, 9cm decimal\" indent=0}\n{.note}\nParagraph\n\n{#sec}\n# Title {.big}")
        XCTAssertEqual(show(r.document.blocks),
                       "p{.note tabs=4cm, 9cm decimal indent=0}[\"Paragraph\"] h1#sec{.big #sec}[\"Title\"]")
        let dangling = parse("text\n\n{.x}\n")
        XCTAssertEqual(warnings(dangling).count, 1)
        XCTAssertEqual(loc(warnings(dangling)[0].location), "3:1")
    }

    func testDivs() {
        let r = parse("::: note warning {box=true}\ninside\n\n::: {columns=2}\n- a\n:::\n:::\nout")
        XCTAssertEqual(show(r.document.blocks),
                       "div{.note .warning box=true}[p[\"inside\"] div{columns=2}[list(bullet(\"-\"),1,.,tight)[item[p[\"a\"]]]]] p[\"out\"]")
        XCTAssertTrue(r.diagnostics.isEmpty)
        XCTAssertEqual(loc(r.document.blocks[0].range.end), "7:4")
    }

    func testDivIgnoresFenceContent() {
        let b = blocks("::: x\n```\n:::\n```\n:::")
        XCTAssertEqual(show(b), "div{.x}[code(-)[:::]]")
    }

    func testUnclosedDivIsErrorAtOpeningLine() {
        let r = parse("intro\n\n::: box\ncontent\n\nmore")
        XCTAssertEqual(errors(r).count, 1)
        XCTAssertEqual(loc(errors(r)[0].location), "3:1")
        XCTAssertTrue(errors(r)[0].message.contains("add a line ':::'"))
        XCTAssertEqual(show(r.document.blocks), "p[\"intro\"] div{.box}[p[\"content\"] p[\"more\"]]")
    }

    func testStrayDivCloserWarns() {
        let r = parse("a\n\n:::\nb")
        XCTAssertEqual(warnings(r).count, 1)
        XCTAssertEqual(show(r.document.blocks), "p[\"a\"] p[\"b\"]")
    }

    func testDirectives() {
        let r = parse("@pagebreak\n@columnbreak\n@toc\n@exclude circle(50%, 50%, 3cm) pages=2-3 margin=4mm\n@frobnicate now")
        XCTAssertEqual(show(r.document.blocks), """
            @pageBreak @columnBreak @toc(options: []) @exclude(shape: "circle(50%, 50%, 3cm)", options: \
            \(ListCheck.pairs(r.document.blocks[3])) p["@frobnicate now"]
            """)
        XCTAssertEqual(warnings(r).count, 0)
        guard case .directive(.exclude(_, let options)) = r.document.blocks[3].kind else { return XCTFail() }
        XCTAssertEqual(options.map { "\($0.key)=\($0.value)" }, ["pages=2-3", "margin=4mm"])
    }

    /// RT section 9: only `@` and a directive name make a directive; any other `@word` line is text, and a
    /// near miss of a directive name is a warning at it, the text kept.
    func testAtWordsThatAreNotDirectivesAreText() {
        let r = parse("@someone said hi\n\n@pagebrake\n\n@include-me later")
        XCTAssertEqual(show(r.document.blocks), #"p["@someone said hi"] p["@pagebrake"] p["@include-me later"]"#)
        XCTAssertEqual(warnings(r).map { loc($0.location) }, ["3:1"])
        XCTAssertTrue(warnings(r).first?.message.contains("did you mean @pagebreak") == true)
    }

    func testExcludeWithoutShapeIsAWarning() {
        let r = parse("@exclude pages=all")
        XCTAssertEqual(errors(r).count, 0)
        XCTAssertEqual(warnings(r).map { loc($0.location) }, ["1:10"])
        XCTAssertTrue(r.document.blocks.isEmpty)
    }

    func testComments() {
        let r = parse("one\n{% a comment\nover lines %}\ntwo {% x %}\n\n{%\nlone\n%}\nthree")
        XCTAssertEqual(show(r.document.blocks), "p[\"one\" SB \"two\"] p[\"three\"]")
        XCTAssertTrue(r.diagnostics.isEmpty)
        let unclosed = parse("a {% b")
        XCTAssertEqual(show(unclosed.document.blocks), "p[\"a {% b\"]")
        XCTAssertEqual(warnings(unclosed).count, 1)
    }

    func testTables() {
        let r = parse("| Name | Qty | Price | Note | x |\n|:--|:-:|--:|-.-|---|\n| a \\| b | **2** | 3.5 | | y |\n| c |\n\nafter")
        let b = r.document.blocks
        XCTAssertEqual(show(b), "table(5x2) p[\"after\"]")
        guard case .table(let t) = b[0].kind else { return XCTFail() }
        XCTAssertEqual(t.alignments, [.left, .center, .right, .decimal, .none])
        XCTAssertEqual(t.header.map { plainText($0.content) }, ["Name", "Qty", "Price", "Note", "x"])
        XCTAssertEqual(show(t.rows[0][0].content), "\"a | b\"")
        XCTAssertEqual(show(t.rows[0][1].content), "strong(\"2\")")
        XCTAssertEqual(t.rows[0][3].content.count, 0)
        XCTAssertEqual(t.rows[1].count, 1, "short rows stay short; lowering fills them")
        XCTAssertEqual(loc(t.rows[0][2].range.start), "3:20")
    }

    /// GFM: the row is split on unescaped pipes first, so `\\|` is a pipe inside a code span of a cell too.
    func testEscapedPipeInACellsCodeSpanIsAPipe() {
        let b = blocks("| a | b |\n|---|---|\n| `x \\| y` | c \\| d |\n\n`p \\| q`")
        guard case .table(let t) = b[0].kind else { return XCTFail(show(b)) }
        XCTAssertEqual(t.rows.map { $0.map { plainText($0.content) } }, [["x | y", "c | d"]])
        guard case .paragraph(let p) = b[1].kind else { return XCTFail(show(b)) }
        XCTAssertEqual(plainText(p), "p \\| q", "outside a table a code span keeps its backslash")
    }

    /// GFM: a pipe table may start right under a line of text (GitHub shows a paragraph, then the table) when its
    /// header row has as many cells as the delimiter row; otherwise the lines stay the paragraph's.
    func testATableRightUnderTextEndsTheParagraph() {
        let b = blocks("foo\n| a | b |\n| --- | --- |\n| c | d |\n\nx\ny | z\n--- | --- | ---\n")
        XCTAssertEqual(b.count, 3, show(b))
        guard case .paragraph(let p) = b[0].kind, case .table(let t) = b[1].kind else { return XCTFail(show(b)) }
        XCTAssertEqual(plainText(p), "foo")
        XCTAssertEqual(t.header.map { plainText($0.content) }, ["a", "b"])
        XCTAssertEqual(t.rows.map { $0.map { plainText($0.content) } }, [["c", "d"]])
        guard case .paragraph = b[2].kind else { return XCTFail(show(b)) }
    }

    /// GFM: a header row with more or fewer cells than the delimiter row starts no table; its lines are a
    /// paragraph with all their text (cmark-gfm's examples 203 and `| a | b | c |` over two delimiters), with
    /// a warning at the header row. Extra cells of a body row are still dropped with a warning.
    func testAHeaderRowThatDoesNotMatchTheDelimiterRowIsText() {
        for source in ["| abc | def |\n| --- |\n| bar |\n", "| a | b | c |\n| --- | --- |\n| this | isn't | okay |\n"] {
            let r = parse(source)
            let b = r.document.blocks
            XCTAssertEqual(b.count, 1, show(b))
            guard case .paragraph(let p) = b[0].kind else { return XCTFail(show(b)) }
            let text = plainText(p)
            for word in ["def", "bar", "c", "okay", "---"] where source.contains(word) {
                XCTAssertTrue(text.contains(word), "'\(word)' kept: \(text)")
            }
            XCTAssertEqual(warnings(r).map(\.message).filter { $0.contains("looks like a pipe table") }.count, 1,
                           "\(warnings(r))")
            XCTAssertEqual(warnings(r).first.map { loc($0.location!) }, "1:1")
        }
        // Under a line of text too (the paragraph goes on, as on GitHub).
        let under = parse("Intro\n| a | b |\n|---|\n")
        XCTAssertEqual(show(under.document.blocks), "p[\"Intro\" SB \"| a | b |\" SB \"|---|\"]")
        XCTAssertEqual(warnings(under).map { loc($0.location!) }, ["2:1"])
        let extra = parse("| a | b |\n| --- | --- |\n| 1 | 2 | 3 |\n")
        guard case .table(let t) = extra.document.blocks[0].kind else { return XCTFail(show(extra.document.blocks)) }
        XCTAssertEqual(t.rows.map { $0.map { plainText($0.content) } }, [["1", "2"]])
        XCTAssertEqual(warnings(extra).map(\.message), ["table row has 3 cells but the delimiter row has 2 columns: the extra cells are dropped"])
    }

    func testTableWithoutOuterPipes() {
        let b = blocks("a | b\n--- | ---\n1 | 2")
        guard case .table(let t) = b[0].kind else { return XCTFail(show(b)) }
        XCTAssertEqual(t.rows.map { $0.map { plainText($0.content) } }, [["1", "2"]])
    }
}

enum ListCheck {
    static func pairs(_ b: Block) -> String {
        guard case .directive(.exclude(_, let options)) = b.kind else { return "?" }
        return "\(options))"
    }
}
