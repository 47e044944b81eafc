// A paragraph is laid out in parts when it is long (pieces) or beside a shape (a fragment per band). Each part must
// set its lines as the whole paragraph would (the same direction), and beside shapes the parts must not cost a
// layout per try (issue 8: 10-40 s for 100-400 KB beside an @exclude). Work is counted, never timed.

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class PartsOfAParagraphTests: XCTestCase {
    private let hebrew = "שלום"

    private func placedLines(_ blocks: [LayoutBlock], columns: Int = 1) throws -> [PlacedLine] {
        var lines: [PlacedLine] = []
        _ = try DocumentLayout.paginate(Fixture.document(blocks, columns: columns)) { page in lines += page.lines }
        return lines
    }

    private func direction(_ line: PlacedLine) -> UInt32 {
        line.paragraph.pangoLine(line.lineIndex).pointee.resolved_dir
    }

    /// A left-to-right paragraph whose every word after the first is Hebrew: each part after the first starts
    /// with a right-to-left word, from which Pango guessed that part's direction (its lines went to the right).
    private var leftToRight: AttributedParagraph {
        Fixture.paragraph("Shalom " + Array(repeating: hebrew, count: 6_000).joined(separator: " "))
    }

    private var rightToLeft: AttributedParagraph {
        Fixture.paragraph(hebrew + " " + Array(repeating: "shalom", count: 6_000).joined(separator: " "))
    }

    func testPiecesOfALongParagraphKeepItsDirection() throws {
        for (paragraph, expected) in [(leftToRight, PANGO_DIRECTION_LTR), (rightToLeft, PANGO_DIRECTION_RTL)] {
            let lines = try placedLines([.paragraph(paragraph)])
            XCTAssertGreaterThan(lines.count, 100)
            XCTAssertGreaterThan(Set(lines.map { ObjectIdentifier($0.paragraph) }).count, 3, "laid out in pieces")
            let wrong = lines.filter { direction($0) != expected.rawValue }
            XCTAssertEqual(wrong.count, 0, "lines of another direction than the paragraph's")
            // Ragged lines start at the column's left edge (left to right) or end at its right edge.
            let column = Fixture.document([]).page.width - Fixture.document([]).page.margins.left
                - Fixture.document([]).page.margins.right
            for line in lines.dropLast() {
                let left = line.x - line.originX + line.paragraph.left
                if expected == PANGO_DIRECTION_LTR {
                    XCTAssertEqual(left, 0, accuracy: 0.5)
                } else {
                    XCTAssertEqual(left + line.box.width, column, accuracy: 0.5)
                }
            }
        }
    }

    func testFragmentsBesideAShapeKeepTheParagraphsDirection() throws {
        let circle = LayoutBlock.exclusion(Exclusion(shape: .circle(cx: 240, cy: 200, r: 80), pages: .all))
        for (paragraph, expected) in [(leftToRight, PANGO_DIRECTION_LTR), (rightToLeft, PANGO_DIRECTION_RTL)] {
            let lines = try placedLines([circle, .paragraph(paragraph)], columns: 2)
            XCTAssertGreaterThan(lines.count, 100)
            XCTAssertEqual(lines.filter { direction($0) != expected.rawValue }.count, 0)
        }
    }

    /// Lays `paragraph` out beside `shape` and returns the text handed to Pango per byte of the paragraph, after
    /// checking that every byte is on a line.
    /// `insertedHyphens`: lines broken inside words longer than the line end with a hyphen the layout adds (at
    /// most 3 bytes each).
    private func workPerByte(beside shape: FlowShape, _ paragraph: AttributedParagraph, columns: Int = 1,
                             insertedHyphens: Bool = false,
                             file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        let exclusion = LayoutBlock.exclusion(Exclusion(shape: shape, pages: .all))
        LayoutWork.bytesLaidOut = 0
        let lines = try placedLines([exclusion, .paragraph(paragraph)], columns: columns)
        let bytes = paragraph.text.utf8.count
        let placed = lines.reduce(0) { $0 + $1.box.length }
        if insertedHyphens {
            XCTAssertLessThanOrEqual(placed - bytes, 3 * lines.count, file: file, line: line)
            XCTAssertGreaterThanOrEqual(placed, bytes, "every byte is on a line", file: file, line: line)
        } else {
            XCTAssertEqual(placed, bytes, "every byte is on a line", file: file, line: line)
        }
        return Double(LayoutWork.bytesLaidOut) / Double(bytes)
    }

    func testALongWordBesideACircleIsNotLaidOutOncePerTryAndWidth() throws {
        // Beside a circle each band is narrower or wider than the last: a fragment too narrow for the word at the
        // same offset was laid out again at every width and every try a little lower (44,000 layouts for a
        // 72,000-letter word). A narrower fragment than one found too narrow is skipped. (Old code: 17x.)
        let text = "one\ttwo three " + String(repeating: "x", count: 30_000) + " four five"  // a tab elsewhere changes nothing
        XCTAssertLessThan(try workPerByte(beside: .circle(cx: 240, cy: 300, r: 90), Fixture.paragraph(text)), 6)
    }

    func testWordsBesideASlantedEdgeAreNotTriedAtEveryWidth() throws {
        // Beside a triangle each band down is a little wider; a word too wide for one band was laid out again in
        // each (25 layouts a band for 9-letter words at 18pt). It is measured once instead. (Old code: 27x.)
        var style = ParagraphStyle()
        style.firstLineHeadIndent = 54
        let text = String(repeating: "dhamsjclc cviqwkofav hjfcyuiktu ", count: 1_000)
        let paragraph = Fixture.paragraph([(text, Fixture.attributes(size: 18))], style: style)
        XCTAssertLessThan(try workPerByte(beside: .polygon([0, 0, 481.89, 0, 240, 290]), paragraph, columns: 2), 10)
    }

    func testAWordTooWideForABandIsTriedOnItsOwn() throws {
        // Beside a slanted edge a word too wide for the band is tried again a band lower, a little wider, until it
        // fits: each try laid out eight lines' worth of narrow lines to look at the first (a fuzzed 363 KB page of
        // right-aligned words made 19,675 such layouts). The first word is tried alone first. (Old code: 9.2x of
        // the text laid out, new: 6.4x.)
        var style = ParagraphStyle()
        style.alignment = .right
        var words: [String] = [], seed: UInt64 = 7
        for _ in 0..<3_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let count = 1 + Int((seed >> 33) % 15)
            words.append(String((0..<count).map { k in Character(UnicodeScalar(97 + UInt8((Int(seed >> 20) + k * 7) % 26))) }))
        }
        let paragraph = Fixture.paragraph([(words.joined(separator: " "), Fixture.attributes(size: 18))], style: style)
        XCTAssertLessThan(try workPerByte(beside: .polygon([0, 0, 481.89, 0, 240, 290]), paragraph, columns: 2), 7.5)
    }

    func testAWordWiderThanTheColumnIsNotTriedAtEveryBand() throws {
        // Justified words of 300 letters beside a triangle in narrow columns: no fragment beside the slanted edge
        // can hold one, but a word over 256 bytes was not measured, so each band down tried a layout again
        // (16,555 failed layouts for a fuzzed 255 KB page). Its first 256 bytes bound it. (Old code: 16.8x of the
        // text laid out, new: 12.8x.)
        var style = ParagraphStyle()
        style.alignment = .justify
        let long = String(repeating: "abcdefghij", count: 30)
        let text = Array(repeating: "one two " + long, count: 60).joined(separator: " ")
        let paragraph = Fixture.paragraph([(text, Fixture.attributes(size: 12))], style: style)
        XCTAssertLessThan(try workPerByte(beside: .polygon([0, 0, 481.89, 0, 240, 290]), paragraph, columns: 6,
                                          insertedHyphens: true), 14.5)
    }

    func testAParagraphBesideAShapeIsNotFirstLaidOutWhole() throws {
        // Deciding that a paragraph meets a shape, and the widow check at each column's end, laid out the whole
        // paragraph at the column's width before its fragments were laid out: twice the work for a long one.
        // (Old code: 2.4x.)
        let text = String(repeating: "word and more words ", count: 10_000)
        let rect = FlowShape.rect(x: 0, y: 0, width: 100, height: 200)
        XCTAssertLessThan(try workPerByte(beside: rect, Fixture.paragraph(text), columns: 3), 1.6)
    }

    func testNarrowColumnsBesideAShapeCostAboutOneLayoutOfTheText() throws {
        // Ragged lines in narrow columns: a fresh layout at every column laid out some 60 bytes for 20 used.
        // (Old code: 3.3x.)
        let text = String(repeating: "ab cd ef gh ", count: 8_000)
        let rect = FlowShape.rect(x: 0, y: 0, width: 100, height: 200)
        XCTAssertLessThan(try workPerByte(beside: rect, Fixture.paragraph(text), columns: 12), 2.0)
    }
}

/// A TAB decides for the whole paragraph: its lines have no optical margins, and centred or right-aligned lines
/// are set left. A long paragraph's pieces decided by their own text, so a line was set one way or the other by
/// which piece held it, and `--jobs 2` (pieces cut where a guessed line start met the true ones) moved lines
/// 0.2pt from `--jobs 1` (found by `make pipeline-fuzz`).
final class TabbedPiecesTests: XCTestCase {
    func testEveryPieceOfATabbedParagraphIsSetAsTheWhole() throws {
        // Lines start with letters optical margins move (`v`, `w`, `y`) and the only TAB is near the start.
        let words = (0 ..< 4_000).map { ["vow", "yew", "wave", "a"][$0 % 4] }
        let text = "Name\t" + words.joined(separator: " ")
        for alignment in [TextAlignment.left, .center] {
            var style = ParagraphStyle()
            style.alignment = alignment
            let p = Fixture.paragraph(text, style: style)
            var diagnostics: [Diagnostic] = []
            let whole = ParagraphLayout(single: p, columnWidth: 120, engine: .shared, images: ImageCache(),
                                        diagnostics: &diagnostics)
            let pieces = ParagraphLayout(p, columnWidth: 120, engine: .shared, images: ImageCache(),
                                         diagnostics: &diagnostics)
            XCTAssertNotNil(pieces.pieceSet, "laid out in pieces")
            let a = whole.lines, b = pieces.lines
            XCTAssertEqual(a.map(\.startIndex), b.map(\.startIndex), "\(alignment): the same breaks")
            let moved = zip(a, b).filter { abs($0.x - $1.x) > 0.001 || abs($0.width - $1.width) > 0.001 }
            XCTAssertEqual(moved.count, 0, "\(alignment): lines set unlike the whole paragraph's")
            XCTAssertTrue(b.dropFirst().allSatisfy { abs($0.x - b[1].x) < 0.001 }, "\(alignment): all set left")
        }
    }
}
