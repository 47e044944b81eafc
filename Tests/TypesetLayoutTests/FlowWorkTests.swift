// The work text beside shapes costs, counted (bytes laid out for line fragments), not timed: each band of a
// paragraph beside a shape takes a line from a layout of the text after it, and a layout made for one line where
// its lines could serve several bands, or made only to learn that a piece is too narrow, shows up here.

import Foundation
import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class FlowWorkTests: XCTestCase {
    /// Bytes laid out for fragments per byte of paragraph text (all of them, and those that showed their piece
    /// too narrow), and the lines set, for `body` after `frontMatter` and an `@exclude` on every page.
    private func work(frontMatter: String, exclude: String,
                      body: String) throws -> (perByte: Double, tooNarrowPerByte: Double, lines: Int) {
        let source = "---\n\(frontMatter)\n---\n\n@exclude \(exclude) pages=all\n\n\(body)\n"
        let parsed = RTParser.parse(Array(source.utf8), file: "test.rt")
        let lowered = Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: RTParser.parseInlines)
        var lines = 0
        let summary = try DocumentLayout.paginate(lowered.document) { page in lines += page.lines.count }
        XCTAssertFalse(summary.diagnostics.contains { $0.severity == .error }, "\(summary.diagnostics)")
        let size = Double(body.utf8.count)
        return (Double(summary.fragmentBytes) / size, Double(summary.tooNarrowBytes) / size, lines)
    }

    /// Justified 40pt words beside a circle: the piece left of it is too narrow for them at every band. A probe
    /// of the next word finds that out; an eight-line layout per band did before, which the total-fit breaker
    /// tried hard to fit (a fuzzed 386 KB document: 7.4 s of CPU, 5.5 with the probe).
    func testAPieceTooNarrowForTheNextWordIsFoundByAProbe() throws {
        let body = "{line-height=2}\n1. " + Array(repeating: "pbyr wxixkysdzwn", count: 600).joined(separator: " ")
        let result = try work(frontMatter: "font-size: 40pt\njustify: true\nhyphenate: true", exclude: "circle(50%, 30%, 3cm)",
                              body: body)
        XCTAssertGreaterThan(result.lines, 300)
        XCTAssertLessThan(result.tooNarrowPerByte, 1, "bytes laid out for pieces too narrow, per byte of text")
    }

    /// Justified text in three narrow columns with a circle on every page: the lines a fragment layout has left
    /// go on in the next column, as in a paragraph without shapes, rather than a new layout at every column top
    /// (6.6 bytes laid out per byte of text before, 5.0 with this and the probe above).
    func testTotalFitLinesGoOnIntoTheNextColumnBesideShapes() throws {
        let words = "the quick brown fox jumps over lazy dog lorem ipsum dolor sit amet consectetur elit".split(separator: " ")
        let body = (0..<3000).map { words[($0 * 7 + $0 / 5) % words.count] }.joined(separator: " ")
        let result = try work(frontMatter: "page: 300pt x 400pt\nmargin: 20pt\ncolumns: 3\nfont-size: 24pt\njustify: true",
                              exclude: "circle(50%, 50%, 60pt)", body: body)
        XCTAssertGreaterThan(result.lines, 1000)
        XCTAssertLessThan(result.perByte, 5.75, "bytes laid out for fragments per byte of text")
    }
}
