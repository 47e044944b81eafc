import RTSyntax
@testable import TypesetIR
import GrowthCheck
import XCTest

final class InlineTests: XCTestCase {
    func testRunsCoverTextWithUTF8Offsets() throws {
        let p = try XCTUnwrap(lower([paragraph(text("Grüße, "), strong(text("日本")), text(" and "), emphasis(text("😀!")), text(" end"))]).paragraphs.first)
        XCTAssertEqual(p.text, "Grüße, 日本 and 😀! end")
        assertRunsCover(p)
        XCTAssertEqual(p.runs.map(\.range), [0..<9, 9..<15, 15..<20, 20..<25, 25..<29])
        XCTAssertEqual(p.runs[1].attributes.weight, 700)
        XCTAssertEqual(p.runs[3].attributes.style, .italic)
        XCTAssertEqual(p.attributes(of: "end")?.weight, 400)
    }

    func testAdjacentEqualRunsMerge() throws {
        let p = try XCTUnwrap(lower([paragraph(text("a"), text("b"), Inline(.softBreak, range: at(1)), text("c"), strong(text("d")), strong(text("e")))]).paragraphs.first)
        XCTAssertEqual(p.text, "ab cde")
        XCTAssertEqual(p.runs.map(\.range), [0..<4, 4..<6])
    }

    func testBreaksAndTabs() throws {
        let p = try XCTUnwrap(lower([paragraph(text("a"), Inline(.softBreak, range: at(1)), text("b"), Inline(.hardBreak, range: at(1)),
                                               text("c"), Inline(.tab, range: at(1)), text("d"))]).paragraphs.first)
        XCTAssertEqual(p.text, "a b\u{2028}c\td")
    }

    func testInlineFormatting() throws {
        func inline(_ kind: InlineKind) -> Inline { Inline(kind, range: at(1)) }
        let p = try XCTUnwrap(lower([paragraph(
            inline(.underline([text("u")])), inline(.strikethrough([text("s")])), inline(.superscript([text("p")])),
            inline(.subscript([text("b")])), inline(.highlight([text("h")])), inline(.code("c")),
            emphasis(text("i"), emphasis(text("r"))))]).paragraphs.first)
        XCTAssertEqual(p.attributes(of: "u")?.underline, .single)
        XCTAssertEqual(p.attributes(of: "s")?.strike, .single)
        XCTAssertEqual(p.attributes(of: "p")?.fontSize ?? 0, 7, accuracy: 1e-9)
        XCTAssertGreaterThan(p.attributes(of: "p")?.baselineShift ?? 0, 0)
        XCTAssertLessThan(p.attributes(of: "b")?.baselineShift ?? 0, 0)
        XCTAssertNotNil(p.attributes(of: "h")?.background)
        XCTAssertEqual(p.attributes(of: "c")?.fontFamily, "DejaVu Sans Mono")
        XCTAssertEqual(p.attributes(of: "c")?.fontSize ?? 0, 9, accuracy: 1e-9)
        XCTAssertEqual(p.attributes(of: "i")?.style, .italic)
        XCTAssertEqual(p.attributes(of: "r")?.style, .italic, "emphasis nested in emphasis stays italic (section 5)")
        assertRunsCover(p)
    }

    func testSpanAttributesAndId() throws {
        let result = lower([paragraph(text("a "), span(attrs(pair("color", "green"), pair("link", "https://e.org"), id: "s"), text("b")))])
        let p = try XCTUnwrap(result.paragraphs.first)
        XCTAssertEqual(p.attributes(of: "b")?.color, Color.parse("green"))
        XCTAssertEqual(p.attributes(of: "b")?.link, .url("https://e.org"))
        XCTAssertEqual(p.anchors, ["s"])
        XCTAssertEqual(result.diagnostics, [])
    }

    func testEmptyParagraphKeepsOneRun() throws {
        let p = try XCTUnwrap(lower([paragraph()]).paragraphs.first)
        XCTAssertEqual(p.text, "")
        XCTAssertEqual(p.runs.count, 1)
        XCTAssertEqual(p.runs[0].range, 0..<0)
    }
}

final class VariableTests: XCTestCase {
    let vars = FrontMatter(entries: [
        yamlPair("vars", YAMLValue(.mapping([
            YAMLPair(key: "who", keyLocation: loc(3), value: scalar("front matter")),
            YAMLPair(key: "what", keyLocation: loc(4), value: scalar("*not markup*")),
        ]), at: loc(3))),
    ], range: at(1))

    func testFrontMatterVarsAndOptionsPrecedence() {
        let blocks = [paragraph(variable("who"), text(" / "), variable("what"))]
        XCTAssertEqual(lower(blocks, frontMatter: vars).paragraphs[0].text, "front matter / *not markup*")
        let overridden = lower(blocks, frontMatter: vars, options: LoweringOptions(variables: ["who": "command line"]))
        XCTAssertEqual(overridden.paragraphs[0].text, "command line / *not markup*")
    }

    func testUndefinedVariableIsAnErrorAtItsLocation() {
        let result = lower([paragraph(text("a"), variable("nope", line: 5, column: 9))])
        XCTAssertEqual(result.errors.map(\.location), [loc(5, 9)])
        XCTAssertEqual(result.errors.first?.message.contains("nope"), true)
        let allowed = lower([paragraph(text("a"), variable("nope"))], options: LoweringOptions(allowUndefined: true))
        XCTAssertEqual(allowed.diagnostics, [])
        XCTAssertEqual(allowed.paragraphs[0].text, "a")
    }

    func testPageIsAnOrdinaryVariableOutsideHeaders() {
        let result = lower([paragraph(variable("page"))])
        XCTAssertEqual(result.errors.count, 1)
    }
}

final class PerformanceTests: XCTestCase {
    /// ~70,000 words (twice the target) in 1,000 paragraphs with formatting, headings and lists.
    static func bigDocument() -> [Block] {
        let sentence = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. "
        var blocks: [Block] = []
        for i in 0..<1000 {
            if i % 50 == 0 { blocks.append(heading(2, "Section \(i)", id: "s\(i)")) }
            var inlines: [Inline] = []
            for j in 0..<2 {
                inlines.append(text(sentence))
                inlines.append(strong(text("bold words")))
                inlines.append(Inline(.softBreak, range: at(1)))
                inlines.append(emphasis(text("emphasised \(j)")))
                inlines.append(text(" " + sentence))
            }
            blocks.append(Block(.paragraph(inlines), range: at(i)))
            if i % 100 == 0 { blocks.append(list(.decimal, (0..<5).map { _ in [paragraph(text(sentence))] })) }
        }
        return blocks
    }

    func testLowersLargeDocumentInLinearTime() {
        let blocks = Self.bigDocument()
        _ = lower(blocks)   // warm up
        // A quarter of the document and all of it: lowering time grows with the size, not faster.
        Growth.assertLinear("lowering", size: blocks.count / 4) { _ = lower(Array(blocks.prefix($0))) }
        let result = lower(blocks)
        let words = result.paragraphs.reduce(0) { $0 + $1.text.split(separator: " ").count }
        XCTAssertGreaterThan(words, 35_000)
    }
}

final class SpaceCollapsingTests: XCTestCase {
    func testRunsOfSpacesSetAsOne() {
        let result = lower([paragraph(text("continues   with "), text(" spaces"))])
        XCTAssertEqual(result.paragraphs.first?.text, "continues with spaces")
    }
}
