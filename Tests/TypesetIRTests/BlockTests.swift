import Foundation
import RTSyntax
@testable import TypesetIR
import XCTest

final class HeadingTests: XCTestCase {
    func testHeadingOutlineAnchorAndStyle() throws {
        let result = lower([
            Block(.heading(level: 2, content: [text("Über "), strong(text("alles")), Inline(.hardBreak, range: at(1))], id: "uber-alles"), range: at(3)),
            paragraph(text("x")),
        ])
        let h = result.paragraphs[0]
        XCTAssertEqual(h.outline, OutlineEntry(level: 2, title: "Über alles", id: "uber-alles"))
        XCTAssertEqual(h.anchors, ["uber-alles", "über-alles"], "its id, then GitHub's anchor for it")
        XCTAssertTrue(h.style.keepWithNext)
        XCTAssertEqual(h.runs[0].attributes.fontFamily, "DejaVu Sans")
        XCTAssertEqual(h.runs[0].attributes.weight, 700)
        XCTAssertEqual(h.runs[0].attributes.fontSize, 16)
        XCTAssertEqual(h.location, loc(3))
        XCTAssertNil(result.paragraphs[1].outline)
        XCTAssertFalse(result.paragraphs[1].style.keepWithNext)
    }

    func testHeadingSizesDecrease() {
        let sizes = (1...6).map { lower([heading($0, "H", id: "h")]).paragraphs[0].runs[0].attributes.fontSize }
        XCTAssertEqual(sizes, [20, 16, 13, 11.5, 10.5, 10])
    }

    func testInternalLinksResolveToHeadingsAndMissingOnesWarn() {
        let result = lower([
            paragraph(link("#later", text("a"), line: 1, column: 4), link("#nowhere", text("b"), line: 2, column: 7), link("https://x.org", text("c"))),
            heading(1, "Later", id: "later"),
        ])
        XCTAssertEqual(result.warnings.map(\.location), [loc(2, 7)])
        let p = result.paragraphs[0]
        XCTAssertEqual(p.attributes(of: "a")?.link, .destination("later"))
        XCTAssertEqual(p.attributes(of: "c")?.link, .url("https://x.org"))
        XCTAssertEqual(p.attributes(of: "c")?.color, Color.parse("#1a4fb0"))
    }

    /// A link that differs from a heading's id only in case finds the heading, as on GitHub.
    func testALinkThatDiffersInCaseFindsItsHeading() {
        let result = lower([
            paragraph(link("#Описание", text("a"), line: 1, column: 4), link("#Nowhere", text("b"), line: 2, column: 7)),
            heading(1, "Описание", id: "описание"),
        ])
        XCTAssertEqual(result.warnings.map(\.location), [loc(2, 7)])
        XCTAssertTrue(result.paragraphs[1].anchors.contains("Описание"), "the link's id names the heading too")
    }

    /// A percent-encoded fragment names the heading its decoded text names, as in a browser.
    func testAPercentEncodedLinkFindsItsHeading() {
        let result = lower([
            paragraph(link("#%D8%B1%D8%A7-x", text("a"), line: 1, column: 4), link("#100%", text("b"), line: 2, column: 7)),
            heading(1, "را x", id: "را-x"),
        ])
        XCTAssertEqual(result.paragraphs[0].attributes(of: "a")?.link, .destination("را-x"))
        XCTAssertEqual(result.warnings.map(\.location), [loc(2, 7)], "a malformed escape stays as written")
        XCTAssertEqual(result.paragraphs[0].attributes(of: "b")?.link, .destination("100%"))
    }
}

final class ListTests: XCTestCase {
    func markers(_ style: ListMarkerStyle, start: Int = 1, delimiter: Character = ".", count: Int = 3) -> [String] {
        let items = (0..<count).map { _ in [paragraph(text("item"))] }
        return lower([list(style, start: start, delimiter: delimiter, items)]).paragraphs.map {
            String($0.text.prefix { $0 != "\t" })
        }
    }

    func testMarkers() {
        XCTAssertEqual(markers(.bullet("-")), ["•", "•", "•"])
        XCTAssertEqual(markers(.decimal, start: 9, delimiter: ")"), ["9)", "10)", "11)"])
        XCTAssertEqual(markers(.lowerAlpha, start: 3), ["c.", "d.", "e."])
        XCTAssertEqual(markers(.upperAlpha, start: 25), ["Y.", "Z.", "AA."])
        XCTAssertEqual(markers(.lowerRoman, start: 4), ["iv.", "v.", "vi."])
        XCTAssertEqual(markers(.upperRoman, start: 1999, count: 1), ["MCMXCIX."])
    }

    func testBulletGlyphPerNestingLevel() {
        let inner2 = list(.bullet("*"), [[paragraph(text("c"))]])
        let inner1 = list(.bullet("+"), [[paragraph(text("b")), inner2]])
        let result = lower([list(.bullet("-"), [[paragraph(text("a")), inner1]])])
        XCTAssertEqual(result.paragraphs.map(\.text), ["•\ta", "◦\tb", "▪\tc"])
    }

    func testHangingIndentGeometry() throws {
        let result = lower([list(.decimal, tight: false, [[paragraph(text("first")), paragraph(text("second para"))], [paragraph(text("x"))]])])
        let em = 10.0
        let markerStart = 0.5 * em   // the built-in list style's margin-left
        let first = result.paragraphs[0]
        XCTAssertEqual(first.text, "1.\tfirst")
        XCTAssertEqual(first.style.firstLineHeadIndent, markerStart)
        XCTAssertEqual(first.style.tabStops.first?.position, first.style.headIndent)
        XCTAssertEqual(first.style.headIndent, markerStart + 1.5 * em)
        // A later paragraph of the item starts at the text edge, first line too.
        let second = result.paragraphs[1]
        XCTAssertEqual(second.text, "second para")
        XCTAssertEqual(second.style.firstLineHeadIndent, first.style.headIndent)
        XCTAssertEqual(second.style.headIndent, first.style.headIndent)
    }

    func testWideMarkersPushTheTextEdge() {
        let items = (0..<12).map { _ in [paragraph(text("i"))] }
        let result = lower([list(.decimal, items)])
        // Without a measurer "12." is estimated at 3 × 0.5em, plus the 0.5em gap; every item shares that edge.
        for p in result.paragraphs { XCTAssertEqual(p.style.headIndent, 5 + 20, accuracy: 1e-9) }
        XCTAssertEqual(Set(result.paragraphs.map(\.style.headIndent)).count, 1)
    }

    func testNestedListStartsAtParentTextEdge() {
        let nested = list(.bullet("-"), [[paragraph(text("inner"))]])
        let result = lower([list(.bullet("-"), [[paragraph(text("outer")), nested]])])
        let outer = result.paragraphs[0], inner = result.paragraphs[1]
        XCTAssertEqual(inner.style.firstLineHeadIndent, outer.style.headIndent)
        XCTAssertEqual(inner.style.headIndent, outer.style.headIndent + 15)
        XCTAssertEqual(inner.style.tabStops.first?.position, inner.style.headIndent)
    }

    func testTightListSpacing() {
        let tight = lower([list(.bullet("-"), tight: true, [[paragraph(text("a"))], [paragraph(text("b"))]])]).paragraphs
        XCTAssertEqual(tight.map(\.style.spaceAfter), [2, 6])
        let loose = lower([list(.bullet("-"), tight: false, [[paragraph(text("a"))], [paragraph(text("b"))]])]).paragraphs
        XCTAssertEqual(loose.map(\.style.spaceAfter), [6, 6])
    }

    func testItemStartingWithCodeGetsMarkerLine() {
        let code = Block(.codeBlock(language: nil, text: "x = 1\n"), range: at(1))
        let result = lower([list(.bullet("-"), [[code]])])
        XCTAssertEqual(result.paragraphs.map(\.text), ["•", "x = 1"])
        // The code box starts at the item's text edge; its text is inset by the box padding.
        let codeStyle = result.paragraphs[1].style
        XCTAssertGreaterThan(codeStyle.backgroundPadding, 0)
        XCTAssertEqual(codeStyle.headIndent - codeStyle.backgroundPadding, result.paragraphs[0].style.headIndent, accuracy: 1e-9)
    }
}

final class OtherBlockTests: XCTestCase {
    func testBlockQuoteIndentsAndDrawsBar() {
        let result = lower([Block(.blockQuote([paragraph(text("q")), Block(.blockQuote([paragraph(text("qq"))]), range: at(1))]), range: at(1))])
        let q = result.paragraphs[0], qq = result.paragraphs[1]
        XCTAssertEqual(q.style.headIndent, 15)
        XCTAssertEqual(qq.style.headIndent, 30)
        XCTAssertEqual(q.style.leftBorder?.width, 2)
        XCTAssertEqual(q.runs[0].attributes.color, Color.parse("#333333"))
    }

    func testCodeBlock() {
        let result = lower([Block(.codeBlock(language: "swift", text: "let a = 1\n  b()\n"), range: at(4))])
        let p = result.paragraphs[0]
        XCTAssertEqual(p.text, "let a = 1\n  b()")
        XCTAssertEqual(p.runs.count, 1)
        XCTAssertEqual(p.runs[0].attributes.fontFamily, "DejaVu Sans Mono")
        XCTAssertEqual(p.runs[0].attributes.fontSize, 9)
        XCTAssertNil(p.runs[0].attributes.background)
        XCTAssertEqual(p.style.background, Color.parse("#f2f2f2"))
        XCTAssertEqual(p.style.wrap, .char)
    }

    func testRulesBreaksAndDirectives() {
        let result = lower([
            Block(.rule, range: at(1)),
            Block(.directive(.pageBreak), range: at(2)),
            Block(.directive(.columnBreak), range: at(3)),
            Block(.directive(.toc(options: [])), range: at(4)),
            Block(.directive(.exclude(shape: "circle(1cm, 1cm, 1cm)", options: [])), range: at(5)),
            Block(.directive(.unknown(name: "chapter", arguments: "")), range: at(6)),
        ])
        let cm = 72 / 2.54
        XCTAssertEqual(result.document.blocks, [.rule(HorizontalRule()), .pageBreak, .columnBreak,
                                                .exclusion(Exclusion(shape: .circle(cx: cm, cy: cm, r: cm)))])
        XCTAssertEqual(result.warnings.map(\.location), [], "the parser warns about unknown directives, lowering does not repeat it")
    }

    func testDivAppliesToEverythingInsideAndBoxIndentsItsContent() {
        let div = Block(.div([paragraph(text("a")), list(.bullet("-"), [[paragraph(text("b"))]])]),
                        attributes: attrs(pair("color", "red"), pair("columns", "2"), pair("box", "true", line: 3, column: 5), pair("margin-left", "1cm"), id: "d"),
                        range: at(3))
        let result = lower([div])
        XCTAssertEqual(result.warnings.map(\.location), [])
        XCTAssertEqual(result.paragraphs.map { $0.runs[0].attributes.color }, [Color(red: 1, green: 0, blue: 0), Color(red: 1, green: 0, blue: 0)])
        // Inside the box: the div's margin, then the default border (0.5pt) and padding (6pt).
        XCTAssertEqual(result.paragraphs[0].style.headIndent, 72 / 2.54 + 6.5, accuracy: 1e-9)
        guard case .boxStart(let box)? = result.document.blocks.first(where: { if case .boxStart = $0 { true } else { false } }) else {
            return XCTFail("no box")
        }
        XCTAssertEqual(box.headIndent, 72 / 2.54, accuracy: 1e-9)
        XCTAssertEqual(result.document.blocks.filter { $0 == .boxEnd }.count, 1)
        XCTAssertEqual(result.paragraphs[0].anchors, ["d"])
    }

    func testContainerSpacingGoesToItsEdges() {
        let div = Block(.div([paragraph(text("a")), paragraph(text("b")), paragraph(text("c"))]),
                        attributes: attrs(pair("space-before", "20pt"), pair("space-after", "30pt"), pair("break-before", "page")), range: at(1))
        let ps = lower([div]).paragraphs
        XCTAssertEqual(ps.map(\.style.spaceBefore), [20, 0, 0])
        XCTAssertEqual(ps.map(\.style.spaceAfter), [6, 6, 30])
        XCTAssertEqual(ps.map(\.style.breakBefore), [.page, .none, .none])
        let listed = lower([list(.bullet("-"), tight: false, [[paragraph(text("a"))], [paragraph(text("b"))]], attributes: attrs(pair("space-before", "9pt")))]).paragraphs
        XCTAssertEqual(listed.map(\.style.spaceBefore), [9, 0])
    }

    /// A header of thousands of columns over many one-cell rows would pad to rows x columns cells: an error.
    func testTooWideTableIsALocatedError() {
        let cell = { (s: String) in TableCell(content: [text(s)], range: at(1)) }
        let wide = Table(alignments: [], header: (0 ..< 5_000).map { _ in cell("h") },
                         rows: (0 ..< 5_000).map { _ in [cell("x")] })
        let result = lower([Block(.table(wide), range: at(3))])
        XCTAssertTrue(result.document.blocks.isEmpty)
        XCTAssertEqual(result.diagnostics.map(\.severity), [.error])
        XCTAssertEqual(result.diagnostics.first?.location?.line, 3)
        XCTAssertTrue(result.diagnostics.first?.message.contains("5000 columns") ?? false)
    }

    func testTableBecomesATableBlockOfCellParagraphs() throws {
        let cell = { (s: String) in TableCell(content: [text(s)], range: at(1)) }
        let table = Table(alignments: [.left, .right, .decimal, .center], header: [cell("Item"), cell("Qty"), cell("Price")],
                          rows: [[cell("Apple"), cell("3"), cell("1.25")], [cell("Pear"), cell("12")]])
        let result = lower([Block(.table(table), range: at(1))])
        guard case .table(let t) = try XCTUnwrap(result.document.blocks.first) else { return XCTFail("no table block") }
        XCTAssertEqual(t.columns, [.left, .right, .decimal, .center])
        XCTAssertEqual(t.headerRowCount, 1)
        let mark = String(AttributedParagraph.decimalMark)
        XCTAssertEqual(t.rows.map { $0.map(\.text) }, [["Item", "Qty", "Price", ""], ["Apple", "3", "\t1\(mark).25", ""],
                                                       ["Pear", "12", "\t", ""]])
        XCTAssertEqual(t.rows[0][0].runs[0].attributes.weight, 700)
        XCTAssertEqual(t.rows[1][0].runs[0].attributes.weight, 400)
        XCTAssertEqual(t.rows[1].map(\.style.alignment), [.left, .right, .left, .center])
        XCTAssertEqual(t.rows[0][2].style.alignment, .right, "a decimal column's header sits right over the numbers")
        XCTAssertEqual(t.rows[1][2].style.tabStops.map(\.alignment), [.decimal])
        XCTAssertEqual(t.cellPadding.left, 5)
    }

    func testImages() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typeset-ir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: folder.appendingPathComponent("a.png"))
        try Data("hello".utf8).write(to: folder.appendingPathComponent("notes.png"))
        let file = folder.appendingPathComponent("doc.rt").path
        func image(_ path: String, _ attributes: Attributes = .empty, line: Int = 1) -> ImageReference {
            ImageReference(alt: "alt", path: path, attributes: attributes, range: SourceRange(at: SourceLocation(file: file, line: line, column: 3)))
        }
        let blocks = [
            Block(.imageBlock(image("a.png", attrs(pair("width", "50%"), pair("align", "middle"), pair("fit", "fill"), pair("baseline", "2pt")))), range: at(1)),
            paragraph(text("x "), Inline(.image(image("a.png")), range: at(2)), text(" y")),
            Block(.imageBlock(image("missing.png", line: 7)), range: at(7)),
            Block(.imageBlock(image("notes.png", line: 8)), range: at(8)),
        ]
        let result = lower(blocks)
        XCTAssertEqual(result.errors.map(\.location), [SourceLocation(file: file, line: 7, column: 3), SourceLocation(file: file, line: 8, column: 3)])
        XCTAssertEqual(result.referencedFiles, [folder.appendingPathComponent("a.png").path])
        let block = result.paragraphs[0]
        XCTAssertEqual(block.text, "\u{FFFC}")
        XCTAssertEqual(block.style.alignment, .center)
        let image = try XCTUnwrap(block.attachments.first?.image)
        XCTAssertEqual(image.path, folder.appendingPathComponent("a.png").path)
        XCTAssertEqual(image.width ?? 0, PageGeometry().columnWidth / 2, accuracy: 1e-9)
        XCTAssertNil(image.height)
        XCTAssertEqual(image.alignment, .middle)
        XCTAssertEqual(image.fit, .fill)
        XCTAssertEqual(image.baselineOffset, 2)
        let inline = result.paragraphs[1]
        XCTAssertEqual(inline.attachments.map(\.offset), [2])
        XCTAssertEqual(inline.text, "x \u{FFFC} y")
        assertRunsCover(inline)
    }
}

/// Tabs in code blocks advance from the code's own left edge, four characters a stop.
final class CodeTabTests: XCTestCase {
    func testTabsInCodeAdvanceToMultiplesOfFour() {
        XCTAssertEqual(DocumentLowerer.expandingTabs("\tfoo\tbaz\t\tbim"), "    foo baz     bim")
        XCTAssertEqual(DocumentLowerer.expandingTabs("ab\tc\n\td"), "ab  c\n    d")
        XCTAssertEqual(DocumentLowerer.expandingTabs("no tabs"), "no tabs")
    }
}

/// Headings also answer to GitHub's anchors, so a README's table of contents links resolve.
final class GitHubAnchorTests: XCTestCase {
    func testGitHubSlugs() {
        XCTAssertEqual(DocumentLowerer.githubSlug("Vim/Neovim plugin"), "vimneovim-plugin")
        XCTAssertEqual(DocumentLowerer.githubSlug("Environment variables / Aliases"), "environment-variables--aliases")
        XCTAssertEqual(DocumentLowerer.githubSlug("`--height` mode"), "--height-mode")
    }

    /// ASCII headings take a byte path: it must give what the Unicode path gives, on any ASCII text.
    func testTheASCIIPathAgreesWithTheUnicodePath() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array(" \t\n\r\u{0B}\u{0C}aZz09-_/.`'!?()[]{}#*~Q".unicodeScalars)
        for length in 0 ..< 400 {
            let text = String(String.UnicodeScalarView((0 ..< length % 40).map { _ in alphabet.randomElement(using: &rng)! }))
            XCTAssertEqual(DocumentLowerer.asciiSlug(text), DocumentLowerer.unicodeSlug(text), "for \(text.debugDescription)")
        }
        XCTAssertNil(DocumentLowerer.asciiSlug("Größe"))
        XCTAssertEqual(DocumentLowerer.githubSlug("  Größe der Welt "), "größe-der-welt")
    }

    func testLinkToAGitHubAnchorResolves() {
        let heading = Block(.heading(level: 2, content: [text("Vim/Neovim plugin")], id: "vim-neovim-plugin"), range: at(1))
        let link = paragraph(Inline(.link(destination: "#vimneovim-plugin", content: [text("plugin")]), range: at(3)))
        let result = lower([heading, link])
        XCTAssertEqual(result.diagnostics.filter { $0.message.contains("no heading") }.count, 0, "\(result.diagnostics)")
    }

    /// github.com numbers repeated headings' anchors `setup`, `setup-1`, `setup-2` (github-slugger), counting past
    /// an anchor a heading took by its own text ("Setup 1"); READMEs' tables of contents link to them.
    func testRepeatedHeadingsGetGitHubsNumberedAnchors() {
        var slugs = GitHubSlugs()
        XCTAssertEqual(["Setup", "Setup", "Setup 1", "Setup", "Other"].map { slugs.next($0) },
                       ["setup", "setup-1", "setup-1-1", "setup-2", "other"])
        var taken = GitHubSlugs()
        XCTAssertEqual(["Setup 1", "Setup", "Setup"].map { taken.next($0) }, ["setup-1", "setup", "setup-2"])
        let headings = (1 ... 3).map { k in
            Block(.heading(level: 2, content: [text("Setup")], id: k == 1 ? "setup" : "setup-\(k)"), range: at(k))
        }
        let links = ["#setup", "#setup-1", "#setup-2"].enumerated().map { k, target in
            paragraph(Inline(.link(destination: target, content: [text("go")]), range: at(10 + k)))
        }
        let result = lower(links + headings)
        XCTAssertEqual(result.diagnostics.filter { $0.message.contains("no heading") }, [], "\(result.diagnostics)")
    }
}
