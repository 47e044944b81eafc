// @exclude shapes, pages= and margin=, shape= divs and floats, as lowered into layout blocks.

import RTSyntax
@testable import TypesetIR
import XCTest

final class ExclusionLoweringTests: XCTestCase {
    private func exclusions(_ shape: String, _ options: [AttributePair] = []) -> ([LayoutBlock], [Diagnostic]) {
        let result = lower([Block(.directive(.exclude(shape: shape, options: options)), range: at(1))])
        return (result.document.blocks, result.warnings)
    }

    func testShapesResolvePercentagesAgainstTheContentBox() {
        let page = PageGeometry()
        let (blocks, warnings) = exclusions("polygon(100% 0%, 50% 50%, 100% 100%)")
        XCTAssertEqual(warnings.count, 0)
        XCTAssertEqual(blocks, [.exclusion(Exclusion(shape: .polygon([page.contentWidth, 0, page.contentWidth / 2,
                                                                      page.contentHeight / 2, page.contentWidth,
                                                                      page.contentHeight])))])
        XCTAssertEqual(exclusions("rect(1in, 2in, 10%, 3in)").0,
                       [.exclusion(Exclusion(shape: .rect(x: 72, y: 144, width: 10 / 100 * page.contentWidth, height: 216)))])
        XCTAssertEqual(exclusions("ellipse(0, 0, 10pt, 20pt)").0,
                       [.exclusion(Exclusion(shape: .ellipse(cx: 0, cy: 0, rx: 10, ry: 20)))])
    }

    func testPagesAndMarginOptions() {
        let (blocks, warnings) = exclusions("circle(10pt, 10pt, 5pt)", [pair("pages", "2-4"), pair("margin", "6pt")])
        XCTAssertEqual(warnings.count, 0)
        XCTAssertEqual(blocks, [.exclusion(Exclusion(shape: .circle(cx: 10, cy: 10, r: 5), pages: .range(2, 4), margin: 6))])
        XCTAssertEqual(exclusions("circle(1, 1, 1)", [pair("pages", "all")]).0,
                       [.exclusion(Exclusion(shape: .circle(cx: 1, cy: 1, r: 1), pages: .all))])
        XCTAssertEqual(exclusions("circle(1, 1, 1)", [pair("pages", "3")]).0,
                       [.exclusion(Exclusion(shape: .circle(cx: 1, cy: 1, r: 1), pages: .range(3, 3)))])
        XCTAssertEqual(exclusions("circle(1, 1, 1)", [pair("pages", "4-2")]).1.count, 1)
    }

    func testBadShapesWarnAndAreDropped() {
        for bad in ["star(1, 2)", "circle(1, 2)", "rect(1, 2, -3, 4)", "polygon(1 2, 3 4)", "circle 1 2 3"] {
            let (blocks, warnings) = exclusions(bad)
            XCTAssertEqual(blocks, [], bad)
            // An unknown shape name is the parser's warning (at the name); lowering only drops it.
            XCTAssertEqual(warnings.count, bad.hasPrefix("star") ? 0 : 1, bad)
        }
    }

    func testShapedAndFloatingDivs() {
        let circle = Block(.div([paragraph(text("in"))]), attributes: attrs(pair("shape", "circle"), pair("width", "100pt")), range: at(1))
        let blocks = lower([circle]).document.blocks
        XCTAssertEqual(blocks.first, .shapeStart(ShapedContainer(shape: .circle(cx: 0.5, cy: 0.5, r: 0.5), width: 100, height: nil)))
        XCTAssertEqual(blocks.last, .shapeEnd)
        XCTAssertEqual(blocks.count, 3)

        let float = Block(.div([paragraph(text("a")), paragraph(text("b"))]),
                          attributes: attrs(pair("float", "right"), pair("width", "80pt"), pair("margin", "4pt")), range: at(1))
        let result = lower([float])
        XCTAssertEqual(result.warnings.count, 0)
        guard case .float(let box)? = result.document.blocks.first, result.document.blocks.count == 1 else {
            return XCTFail("\(result.document.blocks)")
        }
        XCTAssertEqual(box.side, .right)
        XCTAssertEqual(box.width, 80)
        XCTAssertEqual(box.margin, 4)
        XCTAssertEqual(box.paragraphs.map(\.text), ["a", "b"])
    }
}
