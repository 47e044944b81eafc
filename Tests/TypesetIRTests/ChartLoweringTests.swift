// `@chart` lowering: a chart is an image attachment carrying a ChartSpec, the column width wide and 40% of that
// high unless `width`/`height` say otherwise, in the body font, with Okabe-Ito colours unless `colors=`.

import RTSyntax
@testable import TypesetIR
import XCTest

final class ChartLoweringTests: XCTestCase {
    private func chartBlock(_ options: [AttributePair], type: String = "bar", values: [[Double]] = [[1, 2], [3, 4]],
                            id: String? = nil, kept: [AttributePair] = []) -> Block {
        let table = ChartTable(categories: ["a", "b"], seriesNames: values.indices.map { "s\($0)" }, seriesValues: values)
        var image = ImageReference(alt: table.description(title: nil), path: "", attributes: attrs(id: id), range: at(3))
        image.attributes.pairs = kept
        image.chart = ChartSource(type: type, options: options, table: table)
        return Block(.imageBlock(image), range: at(3))
    }

    private func attachment(_ result: LoweringResult) throws -> ImageAttachment {
        try XCTUnwrap(result.paragraphs.first?.attachments.first?.image)
    }

    func testDefaultSizeIsTheColumnWidthAndFortyPercentOfIt() throws {
        let result = lower([chartBlock([pair("title", "Times")], id: "fig-times")])
        XCTAssertEqual(result.errors.map(\.message), [])
        let image = try attachment(result)
        XCTAssertEqual(image.width ?? 0, 481.89, accuracy: 0.01)
        XCTAssertEqual(image.height ?? 0, (481.89 * 0.4).rounded(), accuracy: 0.01)
        let spec = try XCTUnwrap(image.chart)
        XCTAssertEqual(spec.kind, .bar)
        XCTAssertEqual(spec.title, "Times")
        XCTAssertEqual(spec.colors, ChartSpec.okabeIto)
        XCTAssertEqual(spec.font.fontFamily, "DejaVu Serif", "the body font")
        XCTAssertEqual(result.paragraphs.first?.anchors, ["fig-times"])
        XCTAssertEqual(result.paragraphs.first?.style.alignment, .center)
    }

    func testWidthHeightColorsAndStack() throws {
        let result = lower([chartBlock([pair("stack", "true"), pair("colors", "#009E73, rgb(213, 94, 0)")],
                                       kept: [pair("width", "50%"), pair("height", "3cm")])])
        let image = try attachment(result)
        XCTAssertEqual(image.width ?? 0, 481.89 / 2, accuracy: 0.01)
        XCTAssertEqual(image.height ?? 0, 85.04, accuracy: 0.01)
        let spec = try XCTUnwrap(image.chart)
        XCTAssertTrue(spec.stacked)
        XCTAssertEqual(spec.colors.count, 2)
        XCTAssertEqual(spec.colors[1].red, 213.0 / 255, accuracy: 1e-9)
    }

    func testBadOptionsWarnAndNegativeStacksAreErrors() throws {
        let warned = lower([chartBlock([pair("colors", "#12, nope", line: 3, column: 20), pair("stack", "maybe", line: 3, column: 40)])])
        XCTAssertEqual(warned.warnings.map { "\($0.location!.column)" }, ["27", "46"])
        XCTAssertNotNil(try attachment(warned).chart, "still drawn, with the defaults")
        let negative = lower([chartBlock([pair("stack", "true")], values: [[1, -2]])])
        XCTAssertEqual(negative.errors.map(\.message), ["@chart stack=true needs values of 0 or more: 's0' has a negative one"])
        XCTAssertEqual(negative.errors.first?.location, loc(3))
    }
}
