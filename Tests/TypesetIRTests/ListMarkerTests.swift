// List markers: the text edge follows the widest marker's measured width; bullets can be restyled.

import RTSyntax
@testable import TypesetIR
import XCTest

/// Every character 4pt wide, except `W` at 9pt: easy to predict.
private struct FixedMeasurer: TextMeasurer {
    func width(of text: String, attributes: CharacterAttributes) -> Double {
        text.reduce(0) { $0 + ($1 == "W" ? 9 : 4) } * attributes.fontSize / 10
    }
    func useFonts(_ paths: [String]) {}
}

final class ListMarkerTests: XCTestCase {
    private func lowerMeasured(_ blocks: [Block]) -> LoweringResult {
        Lowering.lower(RTDocument(file: testFile, frontMatter: nil, blocks: blocks),
                       options: LoweringOptions(measurer: FixedMeasurer()), parseInlines: stubParseInlines)
    }

    func testTextEdgeIsMarkerStartPlusWidestMeasuredMarkerPlusGap() {
        let items = (0..<12).map { _ in [paragraph(text("item"))] }
        let result = lowerMeasured([list(.decimal, items)])
        // "12." measures 12pt, plus the 0.5em gap (5pt): 17pt past the marker start (the list style's 0.5em).
        for (i, p) in result.paragraphs.enumerated() {
            // Ordered markers are right-aligned: each ends 0.5em before the text edge.
            let markerWidth = Double("\(i + 1).".count) * 4
            XCTAssertEqual(p.style.firstLineHeadIndent, 5 + 17 - 5 - markerWidth, accuracy: 1e-9)
            XCTAssertEqual(p.style.headIndent, 5 + 17, accuracy: 1e-9)
            XCTAssertEqual(p.style.tabStops.first?.position, p.style.headIndent)
        }
        // Short markers keep the 1.5em minimum box.
        let short = lowerMeasured([list(.decimal, [[paragraph(text("a"))]])]).paragraphs[0]
        XCTAssertEqual(short.style.headIndent, 5 + 15, accuracy: 1e-9)
    }

    func testBulletAttributeOverridesGlyphsPerLevel() {
        let inner = list(.bullet("-"), [[paragraph(text("b"))]])
        let outer = list(.bullet("-"), [[paragraph(text("a")), inner]], attributes: attrs(pair("bullet", "dash, W")))
        let result = lowerMeasured([outer])
        XCTAssertEqual(result.paragraphs.map(\.text), ["\u{2013}\ta", "W\tb"])
        XCTAssertTrue(result.warnings.isEmpty)
        let styled = lowerMeasured([list(.bullet("-"), [[paragraph(text("x"))]], attributes: attrs(pair("bullet", "square")))])
        XCTAssertEqual(styled.paragraphs[0].text, "\u{25AA}\tx")
    }

    /// Every paragraph of a list, nested lists included, carries the edges of the container the outermost list
    /// is in (a right-to-left item mirrors its indents inside them); a quote inside an item starts afresh.
    func testListParagraphsCarryTheOutermostListsContainerEdges() {
        let nested = list(.bullet("-"), [[paragraph(text("b"))]])
        let quoted = Block(.blockQuote([paragraph(text("q"))]), range: at(1))
        let outer = list(.bullet("-"), [[paragraph(text("a")), nested, paragraph(text("c")), quoted]])
        let inQuote = Block(.blockQuote([list(.bullet("-"), [[paragraph(text("d"))]])]), range: at(1))
        let result = lowerMeasured([paragraph(text("before")), outer, inQuote])
        let byText = Dictionary(uniqueKeysWithValues: result.paragraphs.map { ($0.text, $0.style) })
        XCTAssertNil(byText["before"]?.mirrorEdges)
        for item in ["\u{2022}\ta", "\u{25E6}\tb", "c"] {
            XCTAssertEqual(byText[item]?.mirrorEdges, MirrorEdges(left: 0, right: 0), item)
        }
        XCTAssertNil(byText["q"]?.mirrorEdges, "a quote keeps its indents on the left")
        XCTAssertGreaterThan(byText["q"]?.headIndent ?? 0, 22, "the quote sits inside the item's text edge")
        let d = byText["\u{2022}\td"]
        XCTAssertEqual(d?.mirrorEdges?.left ?? -1, 15, accuracy: 1e-9, "a list in a quote mirrors inside the quote")
        XCTAssertEqual(d?.mirrorEdges?.right ?? -1, 0, accuracy: 1e-9)
    }

    func testUnknownBulletValueWarnsAndKeepsTheDefault() {
        let result = lowerMeasured([list(.bullet("-"), [[paragraph(text("x"))]], attributes: attrs(pair("bullet", "stars")))])
        XCTAssertEqual(result.paragraphs[0].text, "\u{2022}\tx")
        XCTAssertEqual(result.warnings.count, 1)
        XCTAssertTrue(result.warnings[0].message.contains("bullet"))
    }
}

final class TocNumberTests: XCTestCase {
    /// Wrapped contents entries hang after the title's own number.
    func testLeadingNumberOfATitle() {
        let cases: [(String, String?)] = [("3. Protecting rights", "3. "), ("2.1 Methods", "2.1 "), ("2 Methods", "2 "),
                                          ("IV. Results", "IV. "), ("B) Appendix", "B) "), ("A story", nil),
                                          ("Introduction", nil), ("2024 in review", nil), ("3.", nil)]
        for (title, number) in cases { XCTAssertEqual(DocumentLowerer.leadingNumber(title), number, title) }
    }
}
