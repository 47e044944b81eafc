// Shape interval math and line-fragment placement, checked on the placed pages (no PDF).

import Foundation
@testable import TypesetLayout
import TypesetIR
import XCTest

final class FlowShapeTests: XCTestCase {
    func testOuterSpansOfEachShape() throws {
        let rect = FlowShape.rect(x: 100, y: 100, width: 50, height: 20)
        XCTAssertNil(rect.outerSpan(top: 0, bottom: 90, margin: 5))
        XCTAssertEqual(rect.outerSpan(top: 0, bottom: 96, margin: 5)?.0, 95)
        let circle = FlowShape.circle(cx: 0, cy: 0, r: 10)
        let mid = try XCTUnwrap(circle.outerSpan(top: -1, bottom: 1, margin: 0))
        XCTAssertEqual(mid.0, -10, accuracy: 1e-9)
        // A band above the centre: the widest point is its bottom edge.
        let high = try XCTUnwrap(circle.outerSpan(top: -8, bottom: -6, margin: 0))
        XCTAssertEqual(high.1, 8, accuracy: 1e-9)
        XCTAssertNil(circle.outerSpan(top: 10.5, bottom: 12, margin: 0))
        let triangle = FlowShape.polygon([100, 0, 50, 50, 100, 100])
        let span = try XCTUnwrap(triangle.outerSpan(top: 20, bottom: 30, margin: 0))
        XCTAssertEqual(span.0, 70, accuracy: 1e-9)
        XCTAssertEqual(span.1, 100, accuracy: 1e-9)
    }

    func testInnerSpansStayInsideTheShape() throws {
        let circle = FlowShape.circle(cx: 0, cy: 0, r: 10)
        let band = try XCTUnwrap(circle.innerSpan(top: -8, bottom: -6))
        XCTAssertEqual(band.1, 6, accuracy: 1e-9)  // narrowest at the top edge
        XCTAssertNil(circle.innerSpan(top: 9, bottom: 11))
        let diamond = FlowShape.polygon([50, 0, 100, 50, 50, 100, 0, 50])
        let middle = try XCTUnwrap(diamond.innerSpan(top: 45, bottom: 55))
        XCTAssertEqual(middle.0, 5, accuracy: 1e-9)
        XCTAssertEqual(middle.1, 95, accuracy: 1e-9)
    }

    func testFreeIntervalsSplitAndDropNarrowPieces() {
        let pieces = FreeIntervals.compute(base: (0, 300), top: 0, bottom: 10, container: nil,
                                           exclusions: [PlacedShape(shape: .rect(x: 100, y: 0, width: 50, height: 50), margin: 5),
                                                        PlacedShape(shape: .rect(x: 280, y: 0, width: 50, height: 50), margin: 0)],
                                           minimum: 30)
        XCTAssertEqual(pieces.map(\.x), [0, 155])
        XCTAssertEqual(pieces.map(\.width), [95, 125])
    }

    func testLinesAroundACentralExclusionAreSplitIntoFragments() {
        var style = ParagraphStyle()
        style.alignment = .justify
        let text = Array(repeating: "flowing words around a central shape in the middle of the page", count: 12).joined(separator: " ")
        let geometry = PageGeometry()
        let blocks: [LayoutBlock] = [
            .exclusion(Exclusion(shape: .circle(cx: geometry.contentWidth / 2, cy: 60, r: 50), margin: 4)),
            .paragraph(Fixture.paragraph(text, style: style)),
        ]
        let (pages, _) = DocumentLayout.pages(Fixture.document(blocks))
        let lines = pages[0].lines
        let cx = geometry.margins.left + geometry.contentWidth / 2, cy = geometry.margins.top + 60
        var split = 0
        for line in lines {
            let top = line.top, bottom = line.top + line.box.height
            guard let span = FlowShape.circle(cx: cx, cy: cy, r: 50).outerSpan(top: top, bottom: bottom, margin: 4) else { continue }
            XCTAssertTrue(line.x + line.box.width <= span.0 + 0.01 || line.x >= span.1 - 0.01,
                          "line at \(top) (\(line.x)...\(line.x + line.box.width)) meets the circle \(span)")
            if line.x >= span.1 - 0.01 { split += 1 }
        }
        XCTAssertGreaterThan(split, 5, "lines right of the circle")
        // All text is placed: the fragments together hold every character once.
        let placed = lines.reduce(0) { $0 + $1.box.length }
        XCTAssertGreaterThanOrEqual(placed, text.utf8.count - lines.count * 3)
    }
}
