// Issue 8: a paragraph of 50,000 reference links asked Pango for each link's x range, and Pango walks the
// run's glyphs twice per question. LineLinkGeometry answers from one pass per line; it must agree with Pango
// to the unit, and ask Pango at most once per line for plain text (work counted, no clock).

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class LinkGeometryTests: XCTestCase {
    private func pango(_ line: UnsafeMutablePointer<PangoLayoutLine>, _ range: Range<Int>) -> [[Int32]] {
        var ranges: UnsafeMutablePointer<Int32>? = nil
        var count: Int32 = 0
        pango_layout_line_get_x_ranges(line, Int32(range.lowerBound), Int32(range.upperBound), &ranges, &count)
        defer { g_free(ranges) }
        guard let ranges else { return [] }
        return (0..<Int(count)).map { [ranges[2 * $0], ranges[2 * $0 + 1]] }
    }

    /// Every link range of every line, from the table and from Pango; the Pango calls the table made per line.
    private func check(_ words: [String], alignment: TextAlignment = .left,
                       file: StaticString = #filePath, line: UInt = #line) -> [Int] {
        var pieces: [(String, CharacterAttributes)] = []
        for (k, word) in words.enumerated() {
            pieces.append((word, Fixture.attributes(link: .url("https://x.org/\(k)"))))
            pieces.append((" ", Fixture.attributes()))
        }
        var style = ParagraphStyle()
        style.alignment = alignment
        let p = Fixture.paragraph(pieces, style: style)
        var diagnostics: [Diagnostic] = []
        let l = ParagraphLayout(single: p, columnWidth: 200, engine: .shared, images: ImageCache(),
                                diagnostics: &diagnostics)
        var calls: [Int] = []
        for (i, box) in l.lines.enumerated() {
            var geometry = LineLinkGeometry(line: l.linePointers[i])
            let lineRange = box.startIndex..<(box.startIndex + box.length)
            for span in l.linkSpans where span.range.overlaps(lineRange) {
                let range = span.range.clamped(to: lineRange)
                let expected = pango(l.linePointers[i], range)
                var mine: [(Int32, Int32)] = [(1, 2)]
                geometry.xRanges(range, into: &mine)
                XCTAssertEqual(mine.map { [$0.0, $0.1] }, expected, "\(range)", file: file, line: line)
            }
            calls.append(geometry.pangoCalls)
        }
        XCTAssertGreaterThan(calls.count, 3, file: file, line: line)
        XCTAssertEqual(l.linkSpans.count, words.count, file: file, line: line)
        return calls
    }

    func testPlainLinksAskPangoOncePerLine() {
        let words = (0..<300).map { ["[a]", "link\($0)", "x", "Wörd.", "A"][$0 % 5] }
        for alignment in [TextAlignment.left, .center, .right, .justify] {
            let calls = check(words, alignment: alignment)
            XCTAssertTrue(calls.allSatisfy { $0 <= 1 }, "\(alignment): \(calls)")
        }
    }

    func testOtherTextAgreesWithPango() {
        // Ligatures, combining marks, a link ending in non-ASCII, right-to-left words, an emoji sequence.
        let words = (0..<200).map { ["office", "fi", "e\u{0301}", "éa", "שלום", "x\u{05D0}", "👩‍👩‍👧", "a"][$0 % 8] }
        for alignment in [TextAlignment.left, .justify] { _ = check(words, alignment: alignment) }
    }
}
