// Section 9 (and 2, 7): what Markdown people already write, parsed as they mean it. One test per rule.

import GrowthCheck
import XCTest
@testable import RTSyntax

final class MarkdownCompatTests: XCTestCase {
    private func expand(_ text: String, vars: [(String, String)] = []) -> ParseResult {
        let data = DataValue.map(vars.map { DataEntry(key: $0.0, value: .text($0.1)) })
        let options = ParseOptions(expansion: ExpansionOptions(data: data))
        return RTParser.parse(Array(text.utf8), file: "doc.md", options: options)
    }

    // MARK: Front matter (section 2)

    func testFrontMatterClosedByThreeDots() {
        let r = parse("---\ntitle: Spec\nversion: 0.31\n...\n\n# Intro\n")
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertEqual(r.document.frontMatter?["title"]?.scalar, "Spec")
        XCTAssertEqual(show(r.document.blocks), "h1#intro[\"Intro\"]")
    }

    func testDashBlockWithoutAnyKeyIsMarkdownNotFrontMatter() {
        // CommonMark: a rule, then setext headings; no YAML mapping can be written without a colon.
        let r = parse("---\nFoo\n---\nBar\n---\nBaz\n")
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertNil(r.document.frontMatter)
        XCTAssertEqual(show(r.document.blocks), "hr h2#foo[\"Foo\"] h2#bar[\"Bar\"] p[\"Baz\"]")
        // A rule then text, never closed, is Markdown too; a first line with a key is unclosed front matter.
        XCTAssertEqual(show(parse("---\nhello\n\nworld\n").document.blocks), "hr p[\"hello\"] p[\"world\"]")
        XCTAssertEqual(errors(parse("---\ntitle: x\n")).map { loc($0.location) }, ["1:1"])
        // With a colon anywhere it is front matter, and bad YAML says so.
        XCTAssertEqual(errors(parse("---\ntitle My report\nauthor: me\n---\n")).count, 1)
    }

    // MARK: GitHub alerts (section 9)

    /// `> [!NOTE]` alone on a quote's first line (any case, five kinds) makes a titled alert: the marker line
    /// becomes a "Note" paragraph with the kind's title style and the quote takes the kind's style. A marker
    /// with nothing after it, with text on its line, or of another kind leaves an ordinary quote (as GitHub).
    func testGitHubAlertsBecomeTitledQuotes() {
        let r = parse("> [!NOTE]\n> Read this.\n\n> [!caution]  \n> Careful.\n>\n> More.\n\n> [!TIP]\nLazy.\n")
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks),
                       "quote{.alert-note}[p{.alert-note-title}[\"Note\"] p[\"Read this.\"]] "
                       + "quote{.alert-caution}[p{.alert-caution-title}[\"Caution\"] p[\"Careful.\"] p[\"More.\"]] "
                       + "quote{.alert-tip}[p{.alert-tip-title}[\"Tip\"] p[\"Lazy.\"]]")
        guard case .blockQuote(let inner) = r.document.blocks[1].kind else { return XCTFail() }
        XCTAssertEqual(loc(inner[0].range.start), "4:3", "the title is where the marker is written")
        XCTAssertEqual(show(parse("> [!IMPORTANT]\n> # Heading\n").document.blocks),
                       "quote{.alert-important}[p{.alert-important-title}[\"Important\"] h1#heading[\"Heading\"]]")
        // CommonMark first: `[!NOTE]` over `===` is a setext heading's text; a marker with only a comment after it
        // is alone.
        for plain in ["> [!NOTE]\n", "> [!NOTE] Read this.\n", "> [!NOTES]\n> x\n", "> [!NOTE]\n>\n", "> [ !NOTE]\n> x\n",
                      "> [!NOTE]\n> ===\n", "> [!NOTE]\n> {% a comment %}\n", ">\n> [!NOTE]\n> x\n"] {
            let quote = parse(plain).document.blocks
            XCTAssertTrue(show(quote).hasPrefix("quote["), "\(plain): \(show(quote))")
            XCTAssertTrue(show(quote).contains("[!NOTE") || show(quote).contains("[ !NOTE"), "\(plain): \(show(quote))")
        }
    }

    // MARK: Variables inside code (section 7)

    func testUndefinedVariableInCodeSpanStaysLiteral() {
        let r = expand("Use `${{ secrets.TOKEN }}` here.\n")
        XCTAssertEqual(errors(r).count, 0, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks), "p[\"Use \" code(${{ secrets.TOKEN }}) \" here.\"]")
    }

    func testUndefinedVariableInFencedBlocksStaysLiteral() {
        let r = expand("```yaml\ntoken: ${{ secrets.TOKEN }}\n```\n\n~~~\nx: {{ matrix.os }}\n~~~\n")
        XCTAssertEqual(errors(r).count, 0, "\(r.diagnostics)")
        let texts = r.document.blocks.map { b -> String in
            switch b.kind {
            case .codeBlock(_, let t): return t
            case .paragraph(let c): return plainText(c)   // tilde fences are the block parser's to read
            default: return ""
            }
        }
        XCTAssertEqual(texts.first, "token: ${{ secrets.TOKEN }}")
        XCTAssertTrue(texts.dropFirst().contains { $0.contains("matrix.os") }, "\(texts)")
    }

    func testUndefinedVariableInAFenceInsideAListItemStaysLiteral() {
        let r = expand("1. Add the step:\n\n    ```yaml\n    run: echo ${{ secrets.TOKEN }}\n    ```\n")
        XCTAssertEqual(errors(r).count, 0, "\(r.diagnostics)")
    }

    func testUndefinedSectionTagsInCodeStayLiteral() {
        let r = expand("```handlebars\n{{#each items}}\n  <li>{{name}}</li>\n{{/each}}\n```\n\nUse `{{^empty}}` too.\n")
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks),
                       "code(handlebars)[{{#each items}}\n  <li>{{name}}</li>\n{{/each}}] p[\"Use \" code({{^empty}}) \" too.\"]")
        let defined = expand("```\n{{#items}}- {{.}}\n{{/items}}\n```\n",
                             vars: [("items", "x")])
        XCTAssertEqual(show(defined.document.blocks), "code(-)[- x]")
    }

    /// An indented code block is code too (CommonMark's four spaces after a blank line, in a quote as well): an
    /// undefined name there stays as written. Indented lines that are not code (a list item's paragraph, a
    /// paragraph's continuation line) still report it, at the tag.
    func testUndefinedVariableInIndentedCodeStaysLiteral() {
        let r = expand("Text.\n\n    echo {{x}}\n\n> quote\n>\n>     code {{q}}\n")
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks), "p[\"Text.\"] code(-)[echo {{x}}] quote[p[\"quote\"] code(-)[code {{q}}]]")
        XCTAssertEqual(errors(expand("- item\n\n    more {{y}} text\n")).map { loc($0.location) }, ["3:10"])
        XCTAssertEqual(errors(expand("Para\n    continued {{z}}\n")).map { loc($0.location) }, ["2:15"])
        XCTAssertEqual(errors(expand("Para\n\n    code {{w}}\n    {{w}} again\n")).count, 0)
        // Code right after a list marker or in a quote in a list, and a map-valued tag in indented code (review).
        XCTAssertEqual(errors(expand("-     echo {{x}}\n\n- >     echo {{y}}\n\nPara\n\n    {{.}}\n")).count, 0)
        XCTAssertEqual(errors(expand("Text {{.}} here\n")).map { loc($0.location) }, ["1:6"])
    }

    /// An indented line under text continues the paragraph; it cannot start a table there (review).
    func testAnIndentedHeaderRowDoesNotEndAParagraph() {
        let b = blocks("Text\n    a | b\n--|--\n")
        XCTAssertFalse(b.contains { if case .codeBlock = $0.kind { true } else { false } }, show(b))
    }

    /// A map has no text: in code the tag documents the syntax (`{{.}}` outside a section is the whole data) and
    /// stays as written; outside code it is still an error at the tag.
    func testMapValuedTagInCodeStaysLiteral() {
        let r = expand("Inside, `{{.}}` is the item.\n\n```\n{{.}}\n```\n", vars: [("title", "T")])
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks), "p[\"Inside, \" code({{.}}) \" is the item.\"] code(-)[{{.}}]")
        let prose = expand("The data: {{.}}\n", vars: [("title", "T")])
        XCTAssertEqual(errors(prose).map { loc($0.location) }, ["1:11"])
    }

    func testDefinedVariableInCodeStillExpands() {
        let r = expand("Run `tool --version {{version}}`.\n\n```\nv={{version}}\n```\n", vars: [("version", "1.2*3")])
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks), "p[\"Run \" code(tool --version 1.2*3) \".\"] code(-)[v=1.2*3]")
    }

    func testUndefinedVariableOutsideCodeIsStillAnError() {
        let r = expand("Text {{ secrets.TOKEN }} and `{{ok}}`.\n")
        XCTAssertEqual(errors(r).map { loc($0.location) }, ["1:6"])
    }

    // MARK: Task lists

    func testTaskListBoxesAreTakenOffTheText() {
        let r = parse("- [ ] open\n- [x] done\n- plain\n\n* [X] upper\n\n- [ ]\n")
        XCTAssertEqual(r.diagnostics.count, 0)
        let lists = r.document.blocks.compactMap { b -> ListBlock? in if case .list(let l) = b.kind { return l } else { return nil } }
        XCTAssertEqual(lists.count, 3)
        XCTAssertEqual(lists[0].items.map(\.task), [.open, .done, nil])
        XCTAssertEqual(lists[0].items.map { show($0.blocks) }, ["p[\"open\"]", "p[\"done\"]", "p[\"plain\"]"])
        XCTAssertEqual(lists[1].items.map(\.task), [.done])
        XCTAssertEqual(lists[2].items.map(\.task), [nil], "a box with no text after it stays text")
    }

    // MARK: HTML blocks (section 9)

    func testHTMLHeadingKeepsItsLevelAlignmentAndInlineTags() {
        let r = parse("<h1 align=\"center\"><img src=\"logo.png\" width=\"120\"><br>Project</h1>\n\n<h3>Small</h3>\n")
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks),
                       "h1#project{align=center}[img<logo.png>(){width=120px} HB \"Project\"] h3#small[\"Small\"]")
    }

    func testHTMLContainersVanishAndTheirTextStaysAsParagraphs() {
        let r = parse("<details>\n<summary>More</summary>\n<p>First</p><div>Second\nline</div>\n</details>\n")
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks), "p[\"More\"] p[\"First\"] p[\"Second line\"]")
    }

    func testMarkdownBetweenHTMLBlocksIsMarkdown() {
        let r = parse("<details>\n<summary>Click</summary>\n\nHidden **text**.\n\n</details>\n\nAfter.\n")
        XCTAssertEqual(show(r.document.blocks), "p[\"Click\"] p[\"Hidden \" strong(\"text\") \".\"] p[\"After.\"]")
    }

    func testAlignCenterOnParagraphsDivsAndCenter() {
        let r = parse("<p align=\"center\">\n  <a href=\"https://ci\"><img src=\"https://x/b.svg\" alt=\"build\"></a>\n</p>\n\n"
                      + "<center>Mid</center>\n\n<p align=\"right\">R</p>\n")
        XCTAssertEqual(show(r.document.blocks),
                       "p{align=center}[link<https://ci>(img<https://x/b.svg>(build))] p{align=center}[\"Mid\"] p{align=right}[\"R\"]")
    }

    func testAlignedDivReachesMarkdownBlocksUntilItCloses() {
        let r = parse("<div align=\"center\">\n\n# Title\n\nTagline\n\n</div>\n\nBody\n")
        XCTAssertEqual(show(r.document.blocks), "h1#title{align=center}[\"Title\"] p{align=center}[\"Tagline\"] p[\"Body\"]")
        // The block's own alignment comes later, so it wins.
        XCTAssertEqual(show(blocks("<div align=\"center\">\n\n{align=left}\nLeft\n\n</div>\n")), "p{align=center align=left}[\"Left\"]")
    }

    /// A script or style sheet inside a paragraph is code, not content: hidden with its tags up to the closing
    /// tag, as an HTML block of them is; prose that names `<script>` without closing it keeps its text.
    func testInlineScriptTextIsHiddenUpToItsClosingTag() {
        let r = parse("Text <script>alert(1)</script> more.\n\nAdd a <script> tag here.\n")
        XCTAssertEqual(r.document.blocks.compactMap { b -> String? in
            if case .paragraph(let c) = b.kind { return plainText(c) } else { return nil }
        }, ["Text  more.", "Add a  tag here."])
        XCTAssertEqual(r.diagnostics.map(\.message), ["HTML tag <script> has no meaning in RT: the tag is dropped, and its text up to </script>"])
    }

    /// `<pre>` in a README (a directory tree, ASCII art): a code block with its lines and spaces, tags inside dropped
    /// and references decoded, with a warning; text after `</pre>` on its line keeps the paragraph reading.
    func testHTMLPreIsACodeBlock() {
        let r = parse("<pre>\nsrc/\n├── main.rs   &lt;entry&gt;\n└── <b>lib.rs</b>\n</pre>\n\n<pre>one</pre> trailing\n")
        XCTAssertEqual(show(r.document.blocks).components(separatedBy: " p[").first,
                       "code(-)[src/\n├── main.rs   <entry>\n└── lib.rs]")
        XCTAssertEqual(r.diagnostics.map { loc($0.location) }, ["1:1", "7:1"])
        XCTAssertTrue(show(r.document.blocks).contains("trailing"))
    }

    /// Any text in a `<pre>` block: no trap, every input either a code block or the paragraphs it was before.
    func testPreBlocksOfAnyShapeParse() {
        var rng = SystemRandomNumberGenerator()
        let pieces = ["<pre>", "</pre>", "</PRE >", "<pre class=\"x\">", "<b>", "</b>", "<", ">", "/", "&amp;", "&lt",
                      "\n", "\n\n", " ", "text", "</pr", "<pre", "e>", "<!-- c -->", "\t"]
        for _ in 0 ..< 1500 {
            let body = (0 ..< Int.random(in: 0 ... 12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            _ = parse("<pre" + body)
            _ = parse("<pre>" + body + "</pre>")
        }
    }

    func testHTMLRuleIsARule() {
        XCTAssertEqual(show(blocks("Above\n\n<hr>\n\nBelow\n")), "p[\"Above\"] hr p[\"Below\"]")
    }

    func testHTMLBlockTextIsNotMarkdown() {
        // As CommonMark: inside an HTML block, `*x*` is text; entity references resolve.
        XCTAssertEqual(show(blocks("<div>\n*hello* &amp; &copy;\n</div>\n")), "p[\"*hello* & ©\"]")
    }

    func testHTMLBlockInterruptsAParagraphButAnInlineTagDoesNot() {
        XCTAssertEqual(show(blocks("Text\n<div>Box</div>\n")), "p[\"Text\"] p[\"Box\"]")
        XCTAssertEqual(show(blocks("Text\n<b>bold</b>\n")), "p[\"Text\" SB strong(\"bold\")]")
    }

    // MARK: Inline HTML (section 5)

    func testInlineTagsGetTheirRTMeaning() {
        let s = show("<b>b</b> <strong>s</strong> <i>i</i> <em>e</em> <u>u</u> <s>x</s> <del>d</del> <sub>2</sub> "
                     + "<sup>3</sup> <code>a*b</code> <kbd>Ctrl</kbd> <mark>m</mark> <a href=\"https://x\">l</a>")
        XCTAssertEqual(s, "strong(\"b\") \" \" strong(\"s\") \" \" em(\"i\") \" \" em(\"e\") \" \" u(\"u\") \" \" del(\"x\") \" \" "
                       + "del(\"d\") \" \" sub(\"2\") \" \" sup(\"3\") \" \" code(a*b) \" \" code(Ctrl) \" \" mark(\"m\") \" \" "
                       + "link<https://x>(\"l\")")
    }

    func testLineBreakAndImageTags() {
        XCTAssertEqual(show("a<br>b<br/>c <img src=\"p.png\" alt=\"P\" width=\"100px;\" height=\"50%\">"),
                       "\"a\" HB \"b\" HB \"c \" img<p.png>(P){width=100px height=50% fit=fill}")
        // One size keeps the proportions; both stretch the picture to them, as a browser does.
        XCTAssertEqual(show("<img src=\"p.png\" width=\"96\">"), "img<p.png>(){width=96px}")
        // Sizes that are not CSS pixels or percentages are ignored, as a browser ignores them.
        XCTAssertEqual(show("<img src=\"p.png\" width=\"2cm\" height=\"auto\">"), "img<p.png>()")
    }

    func testWhiteSpaceAroundALineBreakTagGoes() {
        XCTAssertEqual(show("with a <br/> break"), "\"with a\" HB \"break\"")
        XCTAssertEqual(show(blocks("<p>\n  one<br>\n  two\n</p>\n")), "p[\"one\" HB \"two\"]")
    }

    func testUnpairedInlineTagsVanishAndKeepTheirText() {
        XCTAssertEqual(show("a <b>bold and </i>more"), "\"a \" \"bold and \" \"more\"")
        XCTAssertEqual(show("<span>x</span> <a name=\"top\"></a>"), "\"x\" \" \" span{#top}()")
    }

    func testUnknownTagsAreDroppedWithOneWarningPerName() {
        let r = parse("<blink>a</blink> <blink>b</blink>\n\nMore <blink>c</blink> <marquee>d</marquee>\n")
        XCTAssertEqual(show(r.document.blocks), "p[\"a\" \" \" \"b\"] p[\"More \" \"c\" \" \" \"d\"]")
        XCTAssertEqual(warnings(r).map { loc($0.location) }, ["1:1", "3:23"])
        XCTAssertTrue(warnings(r)[0].message.contains("<blink>"))
    }

    func testHTMLCommentsVanishSilently() {
        let r = parse("<!-- top -->\nText <!-- inline --> more\n<!--\nmulti\nline\n-->\nEnd `<!-- kept -->`\n")
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks), "p[\"Text more\" SB \"End \" code(<!-- kept -->)]")
    }

    func testCommentsInAnIndentedCodeBlockStayLiteral() {
        let r = parse("  <!-- foo -->\n\n    <!-- bar -->\n    code\n\nText <!-- gone --> end\n")
        XCTAssertEqual(show(r.document.blocks), "code(-)[<!-- bar -->\ncode] p[\"Text end\"]")
        // In a list item four columns are the item's own paragraph, which is HTML: it vanishes.
        XCTAssertEqual(show(parse("- item\n\n    <!-- c -->\n    more\n").document.blocks), "list(bullet(\"-\"),1,.,loose)[item[p[\"item\"] p[\"more\"]]]")
    }

    func testProcessingInstructionsDeclarationsAndCDATAVanish() {
        let r = parse("a <?php echo 1; ?> b <!DOCTYPE html> c <![CDATA[x > y]]> d\n\n> <!x\n> quoted\n")
        XCTAssertEqual(r.diagnostics.count, 0, "\(r.diagnostics)")
        XCTAssertEqual(show(r.document.blocks), "p[\"a b c d\"] quote[p[\"<!x\" SB \"quoted\"]]")
    }

    func testLessThanThatIsNoTagStaysText() {
        XCTAssertEqual(show("1 < 2 and a <b c=\"unclosed"), "\"1 < 2 and a <b c=\"unclosed\"")
    }

    func testScanningTagsStaysLinear() {
        let pieces = ["<a b=\"", "<x y='", "<div ", "</", "<b>", "<img src=\"u\" "]
        Growth.assertLinear("html tags", size: 50_000) { size in
            var text = ""
            var k = 0
            while text.utf8.count < size {
                text += pieces[k % pieces.count]
                k += 1
            }
            _ = RTParser.parse(Array(("<div>" + text + "\n\nPara " + text + "\n").utf8), file: "doc.md")
        }
    }

    func testCodeSpansForVariablesAndUnclosedCommentsStayLinear() {
        let piece = "`a` {{v}} ``b {{w}}`` ``` {{v}} <!x <? <!-- <![CDATA[ "
        let options = ParseOptions(expansion: ExpansionOptions(data: .map([DataEntry(key: "v", value: .text("1"))])))
        for lineLength in [200, 20_000] {   // many short lines, then one long line
            Growth.assertLinear("code spans, \(lineLength)", size: 50_000) { size in
                var text = ""
                while text.utf8.count < size {
                    var line = ""
                    while line.utf8.count < lineLength { line += piece }
                    text += line + "\n"
                }
                _ = RTParser.parse(Array(text.utf8), file: "doc.md", options: options)
            }
        }
    }
}
