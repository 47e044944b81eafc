@testable import TypesetLayout
import Foundation
import TypesetIR
import XCTest

/// Ragged-right text with `hyphenate` on: broken total-fit (ragged2e's way), hyphenated at the patterns'
/// points, its spaces left at their width; and total-fit lines of right-to-left text at the right margin. Pango's greedy wrapping ignored `hyphenate` there: long words left
/// short lines, and a word wider than the line broke between any two letters.
final class RaggedHyphenationTests: XCTestCase {
    private static let prose = """
        Internationalization considerations notwithstanding, the representativeness of characteristically \
        incomprehensible documentation necessitates uncharacteristically comprehensive reconsideration of \
        telecommunications infrastructure responsibilities. The committee examined the considerable \
        development of the railway while the engineer recorded every remarkable measurement of the \
        temperature near the harbour.
        """
    private static let right = 220.0  // page 260pt wide, margins 40pt

    private func ragged(hyphenate: Bool) -> ParagraphStyle {
        var style = ParagraphStyle()
        style.alignment = .left
        style.hyphenate = hyphenate
        style.protrusion = false  // no line end may pass the margin
        return style
    }

    /// The lines of a one-column page, each its words left to right.
    private func rows(_ style: ParagraphStyle, name: String) throws -> [[PDFTool.Word]] {
        var doc = Fixture.document([.paragraph(Fixture.paragraph(Self.prose, style: style))])
        doc.page.width = 260
        doc.page.margins = EdgeInsets(all: 40)
        var rows: [[PDFTool.Word]] = []
        let path = try PDFTool.render(doc, name: name, untagged: true)
        for w in try PDFTool.words(path).sorted(by: { ($0.page, $0.yMax, $0.xMin) < ($1.page, $1.yMax, $1.xMin) }) {
            if let last = rows.last?.last, abs(last.yMax - w.yMax) < 2 { rows[rows.count - 1].append(w) }
            else { rows.append([w]) }
        }
        return rows
    }

    func testRaggedTextIsHyphenatedAtHyphenationPointsWithSpacesAtTheirWidth() throws {
        let rows = try rows(ragged(hyphenate: true), name: "ragged-hyphenated")
        XCTAssertGreaterThan(rows.count, 6)
        let hyphenator = try XCTUnwrap(HyphenationDictionaries.hyphenator(for: "en").hyphenator)
        var hyphens = 0
        for (i, row) in rows.enumerated() {
            XCTAssertLessThanOrEqual(row.last!.xMax, Self.right + 0.5, "past the margin: \(row.map(\.text))")
            guard let end = row.last?.text, end.hasSuffix("-"), i + 1 < rows.count else { continue }
            hyphens += 1
            // The word split here, and the split is one of its hyphenation points.
            let head = String(end.dropLast()), tail = rows[i + 1][0].text
            let word = (head + tail).trimmingCharacters(in: .punctuationCharacters)
            XCTAssertTrue(hyphenator.hyphenationPoints(word).contains(head.unicodeScalars.count),
                          "\(head)-\(tail) is not a hyphenation point of \(word)")
        }
        XCTAssertGreaterThan(hyphens, 0, "no line ends in a hyphen: \(rows.map { $0.last!.text })")
        // Not justified: spaces keep one width (each gap within 0.3pt of the narrowest), and the lines end
        // at different places.
        let gaps = rows.flatMap { row in zip(row, row.dropFirst()).map { $1.xMin - $0.xMax } }
        let narrowest = try XCTUnwrap(gaps.min())
        XCTAssertGreaterThan(narrowest, 2)
        for gap in gaps { XCTAssertEqual(gap, narrowest, accuracy: 0.3) }
        let ends = rows.dropLast().map { $0.last!.xMax }
        XCTAssertGreaterThan(ends.max()! - ends.min()!, 5, "ragged lines all end at one x: \(ends)")
        // Every word is set once, whole after joining the hyphenated halves.
        var text = ""
        for row in rows {
            for w in row { text += w.text.hasSuffix("-") && w.text == row.last!.text ? String(w.text.dropLast()) : w.text + " " }
        }
        XCTAssertEqual(text.split(separator: " "), Self.prose.split(separator: " "))
    }

    /// With optical margins (the default) a ragged line may start left of the margin but never end past the
    /// column: the breaker gave it the room a justified line's hanging hyphen or comma gets (181.5 of 180pt).
    func testRaggedLinesWithProtrusionStayInsideTheColumn() throws {
        var style = ragged(hyphenate: true)
        style.protrusion = true
        var doc = Fixture.document([.paragraph(Fixture.paragraph(
            String(repeating: "representativeness, ", count: 12), style: style))])
        doc.page.width = 200
        doc.page.margins = EdgeInsets(all: 20)
        let words = try PDFTool.words(PDFTool.render(doc, name: "ragged-protrusion", untagged: true))
        XCTAssertTrue(words.contains { $0.text.hasSuffix("-") }, "hyphenated")
        for w in words { XCTAssertLessThanOrEqual(w.xMax, 180.05, "'\(w.text)' ends past the column") }
    }

    func testRaggedTextWithoutHyphenationGetsNoHyphens() throws {
        let rows = try rows(ragged(hyphenate: false), name: "ragged-plain")
        XCTAssertFalse(rows.contains { $0.last!.text.hasSuffix("-") }, "\(rows.map { $0.last!.text })")
        for row in rows { XCTAssertLessThanOrEqual(row.last!.xMax, Self.right + 0.5) }
    }

    /// Total-fit lines are laid out with no width, so Pango aligned a right-to-left line against the widest line
    /// instead of the column: a one-line justified Hebrew paragraph sat at the left margin, and ragged hyphenated
    /// Hebrew lines ended short of the right one.
    func testRightToLeftTotalFitLinesEndAtTheRightMargin() throws {
        let hebrew = "שלום עולם זהו טקסט בעברית שנועד לבדוק יישור של שורות בפסקה ארוכה עם מילים רבות "
        var justified = ParagraphStyle()
        justified.alignment = .justify
        justified.spaceAfter = 6
        var raggedStyle = ragged(hyphenate: true)
        raggedStyle.alignment = .start
        raggedStyle.spaceAfter = 6
        for (name, style, text) in [("rtl-justified-one-line", justified, "שלום עולם"),
                                    ("rtl-ragged-hyphenated", raggedStyle, String(repeating: hebrew, count: 3))] {
            XCTAssertTrue(ParagraphLayout.usesTotalFit(style, hasTab: false, lineBreaking: .totalFit))
            var doc = Fixture.document([.paragraph(Fixture.paragraph(text, style: style))])
            doc.page.width = 260
            doc.page.margins = EdgeInsets(all: 40)
            var ends: [Int: Double] = [:]
            for w in try PDFTool.words(PDFTool.render(doc, name: name, untagged: true)) {
                ends[Int(w.yMax.rounded()), default: 0] = max(ends[Int(w.yMax.rounded()), default: 0], w.xMax)
            }
            XCTAssertFalse(ends.isEmpty)
            for (_, end) in ends { XCTAssertEqual(end, Self.right, accuracy: 0.5, "\(name): lines end at \(ends)") }
        }
    }

    func testRaggedHyphenationIsTotalFitOnlyForRaggedRightText() {
        var style = ragged(hyphenate: true)
        XCTAssertTrue(ParagraphLayout.usesTotalFit(style, hasTab: false, lineBreaking: .totalFit))
        style.alignment = .start
        XCTAssertTrue(ParagraphLayout.usesTotalFit(style, hasTab: false, lineBreaking: .totalFit))
        for alignment in [TextAlignment.center, .right] {
            style.alignment = alignment
            XCTAssertFalse(ParagraphLayout.usesTotalFit(style, hasTab: false, lineBreaking: .totalFit), "\(alignment)")
        }
        style.alignment = .left
        style.hyphenate = false
        XCTAssertFalse(ParagraphLayout.usesTotalFit(style, hasTab: false, lineBreaking: .totalFit))
        style.hyphenate = true
        XCTAssertFalse(ParagraphLayout.usesTotalFit(style, hasTab: true, lineBreaking: .totalFit), "tabs stay with Pango")
        XCTAssertFalse(ParagraphLayout.usesTotalFit(style, hasTab: false, lineBreaking: .greedy))
    }
}
