// Issue 8: a paragraph of thousands of coloured spans and inline code. Pango walked its attribute list from the
// start for every run (`` `a` `` x 250,000 took 12 s a MB) and past 3,000 styled spans the rest were set plain;
// now every span keeps its colour and ground, and the grounds of a line are filled before its text.

import Foundation
import XCTest

final class StyledSpanTests: XCTestCase {
    /// `mutool trace`'s elements of the first page, in drawing order: fills of text and of paths with colours.
    private func trace(_ pdf: String) throws -> [(kind: String, color: String, text: String)] {
        let trace = try PDF.tool("mutool", ["trace", pdf])
        var out: [(kind: String, color: String, text: String)] = []
        for line in trace.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<fill_text") || trimmed.hasPrefix("<fill_path") {
                let color = trimmed.range(of: " color=\"").map { String(trimmed[$0.upperBound...].prefix { $0 != "\"" }) }
                out.append((trimmed.hasPrefix("<fill_text") ? "text" : "path", color ?? "", ""))
            } else if let r = trimmed.range(of: "<g unicode=\""), !out.isEmpty {
                out[out.count - 1].text += String(trimmed[r.upperBound...].prefix { $0 != "\"" })
            }
        }
        return out
    }

    func testThousandsOfColouredAndCodeSpansKeepTheirStyle() throws {
        let n = 3_500
        let source = "---\nfont-size: 6pt\n---\n\n"
            + Array(repeating: "[a]{color=red} `b`", count: n).joined(separator: " ") + "\n"
        let dir = try Harness.scratch()
        try Harness.write(source, to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "", "no span is set plain")
        let pdf = dir + "/doc.pdf"
        let drawn = try trace(pdf)
        let redGlyphs = drawn.filter { $0.kind == "text" && $0.color == "1 0 0" }.map(\.text).joined()
        XCTAssertEqual(redGlyphs.filter { $0 == "a" }.count, n, "every red span is red")
        XCTAssertEqual(drawn.filter { $0.kind == "text" && $0.color != "1 0 0" }.map(\.text).joined().filter { $0 == "a" }
            .count, 0)
        let grounds = drawn.filter { $0.kind == "path" && $0.color == ".94902 .94902 .94902" }
        XCTAssertEqual(grounds.count, n, "every code span has its ground")
        // A line's grounds come before its text: the first ground before the first red `a`, which starts the line.
        let firstGround = drawn.firstIndex { $0.kind == "path" && $0.color == ".94902 .94902 .94902" }
        let firstRed = drawn.firstIndex { $0.kind == "text" && $0.color == "1 0 0" }
        XCTAssertLessThan(try XCTUnwrap(firstGround), try XCTUnwrap(firstRed))
        XCTAssertEqual(try PDF.text(pdf).filter { $0 == "b" }.count, n)
        XCTAssertEqual(try TaggedPDFTests.marking(pdf).unmarked, [], "grounds are drawn inside their line's content")
    }

    /// Lines the tagging stage draws in parts (a list item's label and text, stretches in other languages) fill
    /// their grounds once, inside the line's content, measured by the whole line.
    func testGroundsOfLinesDrawnInParts() throws {
        let source = "- `code` first, [ein `Wort` hier]{lang=de} and ==marked==\n"
            + "- [`Code` auf Deutsch]{lang=de} and `more`\n"
        let pdf = try Harness.typesetSource(source)
        let drawn = try trace(pdf)
        let grounds = drawn.filter { $0.kind == "path" && $0.color == ".94902 .94902 .94902" }
        XCTAssertEqual(grounds.count, 4, "each code span's ground once")
        XCTAssertEqual(drawn.filter { $0.kind == "path" && $0.color == "1 .945006 .463005" }.count, 1, "the mark's")
        XCTAssertEqual(try TaggedPDFTests.marking(pdf).unmarked, [])
        let untagged = try Harness.typesetSource(source, name: "untagged", environment: ["TYPESET_UNTAGGED": "1"])
        XCTAssertEqual(try trace(untagged).filter { $0.kind == "path" }.count, drawn.filter { $0.kind == "path" }.count)
    }
}
