// @exclude shapes, pages= and margin=, shape= divs and floats, as lowered into layout blocks.

import Foundation
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

    /// Contract section 4: `float=` floats only an image alone in its paragraph; beside text it is ignored
    /// with a warning at the attribute, and the image stays inline.
    func testFloatOnAnImageBesideTextIsIgnoredWithAWarning() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typeset-float-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: folder.appendingPathComponent("a.png"))
        let file = folder.appendingPathComponent("doc.rt").path
        func image(line: Int) -> ImageReference {
            let float = AttributePair(key: "float", value: "left", keyRange: SourceRange(at: SourceLocation(file: file, line: line, column: 12)),
                                      valueRange: SourceRange(at: SourceLocation(file: file, line: line, column: 18)))
            return ImageReference(alt: "", path: "a.png", attributes: Attributes(pairs: [float]),
                                  range: SourceRange(at: SourceLocation(file: file, line: line, column: 3)))
        }
        let result = lower([
            paragraph(text("before "), Inline(.image(image(line: 1)), range: at(1)), text(" after")),
            Block(.imageBlock(image(line: 3)), range: at(3)),
        ])
        XCTAssertEqual(result.warnings.map(\.location), [SourceLocation(file: file, line: 1, column: 12)])
        XCTAssertTrue(result.warnings.first?.message.hasPrefix("float= is ignored") ?? false, "\(result.warnings)")
        XCTAssertEqual(result.paragraphs.first?.text, "before \u{FFFC} after")
        XCTAssertEqual(result.document.blocks.filter { if case .float = $0 { return true } else { return false } }.count, 1)
    }
}
