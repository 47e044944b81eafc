// `@chart` (RT section 4): the list comes from the variables; every item is checked, and a missing list, a
// missing field or a value that is not a number is an error at the directive naming the item and the field.

import XCTest
@testable import RTSyntax

final class ChartDirectiveTests: XCTestCase {
    private func parseChart(_ text: String, data: DataValue = .map([])) -> ParseResult {
        let options = ParseOptions(readFile: { _ in nil }, expansion: ExpansionOptions(data: data, allowUndefined: false))
        return RTParser.parse(Array(text.utf8), file: "doc.rt", options: options)
    }

    private func item(_ fields: [(String, String)]) -> DataValue {
        .map(fields.map { DataEntry(key: $0.0, value: .text($0.1)) })
    }

    private var tests: DataValue {
        .map([DataEntry(key: "tests", value: .list([
            item([("name", "parser"), ("seconds", "3.2"), ("before", "4")]),
            item([("name", "layout"), ("seconds", "12.9"), ("before", "10")]),
            item([("name", "render"), ("seconds", "oops"), ("before", "22")]),
        ]))])
    }

    private func chart(_ r: ParseResult) -> ImageReference? {
        guard case .imageBlock(let image)? = r.document.blocks.last?.kind else { return nil }
        return image
    }

    func testAChartIsAnImageBlockCarryingTheTableCaptionAndId() throws {
        let r = parseChart("""
            ---
            vars:
              runs:
                - {build: "41", seconds: 40.5, failed: 2}
                - {build: "42", seconds: 38, failed: 0}
            ---
            @chart line data=runs x=build y=seconds,failed title="Per build" caption="Time per build" #fig-runs
            """)
        XCTAssertEqual(errors(r).map(\.message), [])
        let image = try XCTUnwrap(chart(r))
        let table = try XCTUnwrap(image.chart?.table)
        XCTAssertEqual(image.chart?.type, "line")
        XCTAssertEqual(table.categories, ["41", "42"])
        XCTAssertEqual(table.seriesNames, ["seconds", "failed"])
        XCTAssertEqual(table.seriesValues, [[40.5, 38], [2, 0]])
        XCTAssertEqual(image.attributes.id, "fig-runs")
        XCTAssertEqual(image.attributes["caption"]?.value, "Time per build")
        XCTAssertNil(image.attributes["data"], "chart options are not image attributes")
        // The accessible description lists every value.
        XCTAssertEqual(image.alt, "Per build. Chart of seconds, failed: 41: seconds 40.5, failed 2; 42: seconds 38, failed 0")
    }

    /// `alt=` replaces the generated description, and reaches lowering, which checks PDF/UA's need for it.
    func testAltIsKeptForTheFigure() throws {
        let r = parseChart("---\nvars:\n  d:\n    - {k: a, v: 1}\n---\n@chart bar data=d x=k y=v alt=\"My chart\"\n")
        XCTAssertEqual(errors(r).map(\.message), [])
        let image = try XCTUnwrap(chart(r))
        XCTAssertEqual(image.alt, "My chart")
        XCTAssertEqual(image.attributes["alt"]?.value, "My chart")
    }

    func testDataFromTheDataFileWinsAndDottedNamesReachIntoMaps() throws {
        let data = DataValue.map([DataEntry(key: "ci", value: tests)])
        let r = parseChart("@chart bar data=ci.tests x=name y=before\n", data: data)
        XCTAssertEqual(errors(r).map(\.message), [])
        XCTAssertEqual(chart(r)?.chart?.table?.seriesValues, [[4, 10, 22]])
    }

    func testAValueThatIsNotANumberNamesTheItemAndTheField() {
        let r = parseChart("Text.\n\n@chart bar data=tests x=name y=seconds\n", data: tests)
        XCTAssertEqual(errors(r).map(\.message), ["item 3 of 'tests' has no number in 'seconds' (it is 'oops')"])
        XCTAssertEqual(errors(r).map { loc($0.location) }, ["3:1"])
        XCTAssertNil(chart(r))
    }

    func testMissingListFieldsAndOptionsAreLocatedErrors() {
        let cases: [(String, String)] = [
            ("@chart bar data=nothing x=name y=seconds", "@chart data 'nothing' is not defined"),
            ("@chart bar data=tests x=title y=seconds", "item 1 of 'tests' has no 'title' (the x field)"),
            ("@chart bar data=tests x=name y=before,minutes", "item 1 of 'tests' has no number in 'minutes' (the field is missing)"),
            ("@chart bar data=tests x=name", "@chart needs y="),
            ("@chart pie data=tests x=name y=before", "@chart needs a type: bar, hbar or line (not 'pie')"),
            ("@chart bar data=tests.0 x=name y=before", "@chart data 'tests.0' is not defined"),
        ]
        for (line, message) in cases {
            let r = parseChart("# Title\n\n" + line + "\n", data: tests)
            XCTAssertEqual(errors(r).count, 1, line)
            XCTAssertTrue(errors(r).first?.message.hasPrefix(message) ?? false, "\(line): \(errors(r).map(\.message))")
            XCTAssertEqual(errors(r).first?.location?.line, 3, line)
        }
    }

    func testUnknownOptionsWarn() {
        let r = parseChart("@chart bar data=tests x=name y=before legend=no\n", data: tests)
        XCTAssertEqual(errors(r).count, 0)
        XCTAssertTrue(r.diagnostics.contains { $0.message.hasPrefix("unknown @chart option 'legend'") && loc($0.location) == "1:39" },
                      "\(r.diagnostics.map { "\(loc($0.location)) \($0.message)" })")
    }

    func testNumbersAreReadAsDataWritesThem() {
        XCTAssertEqual(ChartData.number("12"), 12)
        XCTAssertEqual(ChartData.number("-3.5"), -3.5)
        XCTAssertEqual(ChartData.number("1e3"), 1000)
        for bad in ["", "abc", "nan", "inf", "1e999", "0x10", "1,5", " 2"] {
            XCTAssertNil(ChartData.number(bad), bad)
        }
    }
}
