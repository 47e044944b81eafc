// `@chart` end to end (RT section 4): bars read back from the PDF's content stream are proportional to their
// values, the chart's text is real text, several series get a legend, and bad data is an error at the directive.

import Foundation
import XCTest

final class ChartTests: XCTestCase {
    /// A filled rectangle of the page content: `x y w h re f` under the last `r g b rg`.
    struct FilledRect { var x, y, width, height: Double; var color: String }

    static func filledRects(_ pdf: String) throws -> [FilledRect] {
        var rects: [FilledRect] = []
        var color = ""
        for line in try PDF.objects(pdf).split(separator: "\n") {
            let tokens = line.split(separator: " ").map(String.init)
            if let rg = tokens.firstIndex(of: "rg"), rg >= 3 { color = tokens[(rg - 3) ..< rg].joined(separator: " ") }
            guard let re = tokens.lastIndex(of: "re"), re >= 4, tokens.dropFirst(re + 1).first == "f" else { continue }
            let n = tokens[(re - 4) ..< re].compactMap(Double.init)
            guard n.count == 4 else { continue }
            rects.append(FilledRect(x: n[0], y: n[1], width: n[2], height: abs(n[3]), color: color))
        }
        return rects
    }

    static let blue = "0 0.447059 0.698039", orange = "0.901961 0.623529 0"

    private func typeset(_ source: String, data: String? = nil, name: String = #function) throws -> (RunResult, String) {
        let dir = try Harness.scratch(name)
        try Harness.write(source, to: dir + "/doc.rt")
        var arguments = ["doc.rt", "-o", "doc.pdf"]
        if let data {
            try Harness.write(data, to: dir + "/data.json")
            arguments += ["--data", "data.json"]
        }
        return (try Harness.typeset(arguments, cwd: dir), dir + "/doc.pdf")
    }

    func testBarHeightsInThePDFAreProportionalToTheValues() throws {
        let (result, pdf) = try typeset("""
            Before.

            @chart bar data=tests x=name y=seconds title="Slowest tests"

            After.
            """, data: #"{"tests": [{"name": "parse", "seconds": 4}, {"name": "layout", "seconds": 10.5}, {"name": "render", "seconds": 22.25}, {"name": "cli", "seconds": 0.5}]}"#)
        XCTAssertEqual(result.status, 0, result.stderr)
        let bars = try Self.filledRects(pdf).filter { $0.color == Self.blue }
        XCTAssertEqual(bars.count, 4, "\(bars)")
        let values = [4, 10.5, 22.25, 0.5]
        let perUnit = bars[2].height / values[2]
        for (bar, value) in zip(bars.sorted { $0.x < $1.x }, values) {
            XCTAssertEqual(bar.height, value * perUnit, accuracy: 0.5, "\(bars)")
            XCTAssertEqual(bar.width, bars[0].width, accuracy: 0.01)
        }
        // Real text: title, labels and round ticks can be searched.
        let text = try PDF.text(pdf)
        for word in ["Slowest tests", "parse", "layout", "render", "cli", "seconds", "0", "5", "25"] {
            XCTAssertTrue(text.contains(word), "'\(word)' missing: \(text)")
        }
        // Default size: the column width, 40% of that high (481.89 pt x 193 pt), between the paragraphs.
        let words = try PDF.words(pdf)
        let before = try XCTUnwrap(words.first { $0.text == "Before." }), after = try XCTUnwrap(words.first { $0.text == "After." })
        XCTAssertEqual(after.yMin - before.yMax, 193, accuracy: 25)
        let title = try XCTUnwrap(words.first { $0.text == "Slowest" })
        XCTAssertLessThan(title.yMax, bars.map { $0.y }.min() ?? 0, "the title is above the bars")
    }

    func testGroupedAndStackedBarsWithALegend() throws {
        let data = #"{"suites": [{"name": "RTSyntax", "passed": 120, "failed": 3}, {"name": "Layout", "passed": 80, "failed": 0}, {"name": "EndToEnd", "passed": 45, "failed": 7}]}"#
        let (result, pdf) = try typeset("""
            @chart bar data=suites x=name y=passed,failed title="Grouped"

            @chart bar data=suites x=name y=passed,failed stack=true title="Stacked"
            """, data: data)
        XCTAssertEqual(result.status, 0, result.stderr)
        let rects = try Self.filledRects(pdf)
        // Legend swatches are 8 x 8; bars are wider.
        let blue = rects.filter { $0.color == Self.blue && $0.width > 9 }, orange = rects.filter { $0.color == Self.orange && $0.width > 9 }
        XCTAssertEqual(blue.count, 6, "\(blue)")
        XCTAssertEqual(orange.count, 4, "Layout's 0 failures draw nothing, in both charts: \(orange)")
        XCTAssertEqual(rects.filter { abs($0.width - 8) < 0.01 && abs($0.height - 8) < 0.01 }.count, 4, "two legend swatches per chart")
        let text = try PDF.text(pdf)
        XCTAssertEqual(text.components(separatedBy: "passed").count - 1, 2, "legend: \(text)")
        XCTAssertEqual(text.components(separatedBy: "failed").count - 1, 2, "legend: \(text)")
        // Grouped: orange beside blue; stacked: orange on top of blue in the same column.
        let columns = Set(orange.map { ($0.x * 100).rounded() / 100 })
        let blueColumns = Set(blue.map { ($0.x * 100).rounded() / 100 })
        XCTAssertFalse(columns.isDisjoint(with: blueColumns), "stacked segments share a column")
        XCTAssertFalse(columns.isSubset(of: blueColumns), "grouped bars stand side by side")
    }

    func testBadDataIsAnErrorAtTheDirective() throws {
        let (result, _) = try typeset("""
            # Tests

            @chart bar data=tests x=name y=seconds
            """, data: #"{"tests": [{"name": "a", "seconds": 1}, {"name": "b", "seconds": 2}, {"name": "c", "seconds": "slow"}]}"#)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("doc.rt:3:1: error: item 3 of 'tests' has no number in 'seconds' (it is 'slow')"), result.stderr)
        let (missing, _) = try typeset("@chart line data=runs x=build y=seconds\n")
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("doc.rt:1:1: error: @chart data 'runs' is not defined"), missing.stderr)
    }

    func testExtremeDataStaysBoundedAndTheDocumentStillBuilds() throws {
        // 2,000 items (the bound) with long labels and values at the limit: a valid PDF, labels thinned out.
        let long = String(repeating: "x", count: 300)
        let items = (0 ..< 2000).map { #"{"name": "\#(long)\#($0)", "v": \#($0 % 2 == 0 ? "1e15" : "-1e15"), "w": 1e-300}"# }
        let (result, pdf) = try typeset("""
            @chart bar data=items x=name y=v,w

            @chart line data=items x=name y=w

            After.
            """, data: #"{"items": ["# + items.joined(separator: ",") + "]}")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(try PDF.text(pdf).contains("After."))
        let (over, _) = try typeset("@chart bar data=items x=name y=v\n",
                                    data: #"{"items": ["# + Array(repeating: #"{"name": "a", "v": 1}"#, count: 2001).joined(separator: ",") + "]}")
        XCTAssertEqual(over.status, 1)
        XCTAssertTrue(over.stderr.contains("doc.rt:1:1: error: @chart data 'items' has 2001 items; a chart draws at most 2000"), over.stderr)
        let (huge, _) = try typeset("@chart bar data=items x=name y=v\n", data: #"{"items": [{"name": "a", "v": 1e16}]}"#)
        XCTAssertEqual(huge.status, 1)
        XCTAssertTrue(huge.stderr.contains("item 1 of 'items' has no number in 'v' (it is '1e16')"), huge.stderr)
    }

    /// Examples/ci-report: a stacked pass/fail chart per suite and the slowest tests, from its JSON.
    func testTheCIReportExampleDrawsItsCharts() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/ci-report").path
        let pdf = try Harness.scratch() + "/report.pdf"
        let result = try Harness.typeset([folder + "/report.rt", "--data", folder + "/results.json", "-o", pdf])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let text = try PDF.text(pdf)
        for expected in ["Results per suite", "Slowest tests", "passed", "failed", "skipped", "testOneMegabyteParagraph"] {
            XCTAssertTrue(text.contains(expected), "'\(expected)' missing")
        }
        // Stacked: passed in green in all three suites, one failed segment in vermillion (TypesetLayoutTests);
        // the slowest-tests chart: 5 blue bars.
        let rects = try Self.filledRects(pdf).filter { $0.width > 9 || $0.height > 9 }
        XCTAssertEqual(rects.filter { $0.color == "0 0.619608 0.45098" }.count, 3, "passed segments")
        XCTAssertEqual(rects.filter { $0.color == "0.835294 0.368627 0" }.count, 1, "failed segments")
        XCTAssertEqual(rects.filter { $0.color == Self.blue }.count, 5, "slowest tests")
    }
}
