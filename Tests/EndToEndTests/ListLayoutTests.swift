// Lists in the PDF: the text edge is the marker start plus the widest marker's width plus a 0.5em gap
// (at least 1.5em), and wrapped lines hang at that edge.

import Foundation
import XCTest

final class ListLayoutTests: XCTestCase {
    private func boxes(_ pdf: String) throws -> [(c: String, x: Double, right: Double, y: Double)] {
        let xml = try PDF.tool("mutool", ["draw", "-F", "stext", "-o", "-", pdf])
        return xml.split(separator: "\n").filter { $0.contains("<char ") }.map { line in
            let quad = Chars.attr(line, "quad").split(separator: " ").compactMap { Double($0) }
            return (Stext.character(Chars.attr(line, "c")), quad[0], quad[2], Double(Chars.attr(line, "y")) ?? .nan)
        }
    }

    /// Typesets a one-item list whose marker is `marker` and returns (marker start, marker width, text x,
    /// x of every wrapped line).
    private func geometry(_ source: String, marker: String) throws -> (start: Double, width: Double, text: Double, wrapped: [Double]) {
        let chars = try boxes(try Harness.typesetSource(source, name: "list\(marker)"))
        let lines = Dictionary(grouping: chars, by: \.y).sorted { $0.key < $1.key }.map { $0.value.sorted { $0.x < $1.x } }
        let first = try XCTUnwrap(lines.first)
        let markerChars = Array(first.prefix(marker.count))
        XCTAssertEqual(markerChars.map(\.c).joined(), marker)
        let text = try XCTUnwrap(first.dropFirst(marker.count).first { $0.c != " " })
        return (markerChars[0].x, markerChars.last!.right - markerChars[0].x, text.x, lines.dropFirst().compactMap { $0.first?.x })
    }

    func testTextEdgeFollowsTheMeasuredMarker() throws {
        let long = String(repeating: "wrapping words ", count: 30)
        for (marker, source) in [("1.", "1. \(long)\n"), ("10.", "10. \(long)\n"), ("iv.", "iv. \(long)\n")] {
            let g = try geometry(source, marker: marker)
            // 10pt body: the list's 0.5em margin, then a box of the marker plus a 0.5em gap (at least 1.5em);
            // the ordered marker is right-aligned in it.
            let left = 2 * 72 / 2.54
            XCTAssertEqual(g.text - left, 5 + max(15, g.width + 5), accuracy: 1, marker)
            XCTAssertEqual(g.text - (g.start + g.width), 5, accuracy: 1, marker)
            XCTAssertFalse(g.wrapped.isEmpty)
            for x in g.wrapped { XCTAssertEqual(x, g.text, accuracy: 1, "\(marker): wrapped line hangs at the text edge") }
        }
    }

    /// Ordered markers are right-aligned against the text, as LaTeX's enumerate: `i.`, `ii.`, `iii.` end at one
    /// x and every item's text starts at one x.
    func testRomanMarkersAreRightAlignedAndTextLinesUp() throws {
        let pdf = try Harness.typesetSource("i. one\nii. two\niii. three\niv. four\nviii. eight\n")
        let words = try PDF.words(pdf)
        let markers = words.filter { $0.text.hasSuffix(".") }
        XCTAssertEqual(markers.map(\.text), ["i.", "ii.", "iii.", "iv.", "v."])
        let texts = words.filter { !$0.text.hasSuffix(".") }
        XCTAssertEqual(texts.count, 5)
        for m in markers { XCTAssertEqual(m.xMax, markers[0].xMax, accuracy: 0.3, "\(m.text) ends where i. ends") }
        for t in texts { XCTAssertEqual(t.xMin, texts[0].xMin, accuracy: 0.3, "\(t.text) starts where one starts") }
        XCTAssertGreaterThan(markers[0].xMin, markers[2].xMin + 3, "i. sits further right than iii.")
    }

    func testBulletStyleAndNesting() throws {
        let pdf = try Harness.typesetSource("""
            ---
            styles:
              list: {bullet: "dash, square"}
            ---
            - outer
              - inner
                - deepest

            """)
        let chars = try boxes(pdf)
        XCTAssertEqual(chars.filter { ["\u{2013}", "\u{25AA}"].contains($0.c) }.map(\.c), ["\u{2013}", "\u{25AA}", "\u{2013}"])
        let o = try XCTUnwrap(chars.first { $0.c == "o" }), i = try XCTUnwrap(chars.first { $0.c == "i" })
        let dash = try XCTUnwrap(chars.first { $0.c == "\u{25AA}" })
        XCTAssertEqual(dash.x, o.x, accuracy: 1, "a nested marker starts at the parent's text edge")
        XCTAssertGreaterThan(i.x, dash.right)
    }
}
