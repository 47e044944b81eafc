// Issue 8: paragraphs past Pango's int range lost their text; unbreakable text and long words near exclusions
// were quadratic. Complexity is checked by counting the text handed to Pango (LayoutWork), never by a clock.

import Foundation
import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class LongParagraphTests: XCTestCase {
    private func layout(_ p: AttributedParagraph, width: Double = 481.89) -> ParagraphLayout {
        var diagnostics: [Diagnostic] = []
        return ParagraphLayout(p, columnWidth: width, engine: .shared, images: ImageCache(), diagnostics: &diagnostics)
    }

    /// The lines cover the text from its first byte to its last, in order, without gaps.
    private func assertCoversText(_ l: ParagraphLayout, file: StaticString = #filePath, line: UInt = #line) {
        var at = 0
        for box in l.lines {
            XCTAssertEqual(box.startIndex, at, file: file, line: line)
            at = box.startIndex + box.length
        }
        XCTAssertEqual(at, l.paragraph.text.utf8.count, file: file, line: line)
    }

    private func resetWork() {
        LayoutWork.bytesLaidOut = 0
        LayoutWork.largestLayout = 0
    }

    func testParagraphPastPangosRangeKeepsAllItsLines() {
        // 72,465 words gave one line ("word word ... wor") and nothing else: one more word than fits in Pango's int.
        resetWork()
        let text = String(repeating: "word ", count: 72_465)
        let l = layout(Fixture.paragraph(text))
        assertCoversText(l)
        XCTAssertGreaterThan(l.lines.count, 3_000)
        XCTAssertTrue(l.lines.allSatisfy { $0.width <= 481.89 + 0.5 })
        XCTAssertLessThanOrEqual(LayoutWork.largestLayout, 2 * ParagraphLayout.maxPieceBytes)
        XCTAssertLessThan(Double(LayoutWork.bytesLaidOut), 1.1 * Double(text.utf8.count))
        // Every line can be drawn: its Pango line holds the bytes the box says.
        for i in stride(from: 0, to: l.lines.count, by: 97) {
            let (piece, local) = l.piece(ofLine: i)
            XCTAssertEqual(Int(piece.pangoLine(local).pointee.length), piece.lines[local].length)
        }
    }

    func testJustifiedHugeFontDoesNotOverflow() {
        // 1000pt, justified: the total-fit measurement of the whole paragraph as one line passed 2^31 Pango units.
        var style = ParagraphStyle()
        style.alignment = .justify
        let l = layout(Fixture.paragraph(String(repeating: "word ", count: 1_800), style: style,
                                         attributes: Fixture.attributes(size: 1000)), width: 5_000)
        assertCoversText(l)
        XCTAssertGreaterThanOrEqual(l.lines.count, 900)
        XCTAssertLessThanOrEqual(LayoutWork.largestLayout, 2 * ParagraphLayout.maxPieceBytes)
    }

    func testUnbreakableTextCostsLinearWork() {
        var work: [Int] = []
        for n in [20_000, 80_000] {
            resetWork()
            let l = layout(Fixture.paragraph(String(repeating: "a", count: n)))
            assertCoversText(l)
            XCTAssertLessThanOrEqual(LayoutWork.largestLayout, 2 * ParagraphLayout.maxPieceBytes)
            work.append(LayoutWork.bytesLaidOut)
        }
        XCTAssertLessThan(Double(work[1]) / Double(work[0]), 5, "\(work)")
    }

    func testPaginatedUnbreakableTextIsLaidOutOnce() throws {
        // A long word is laid out in pieces of a few lines; placing a column used to lay out again the
        // pieces whose layouts were dropped while the paginator looked ahead (twice the work).
        for columns in [1, 4] {
            let n = 40_000
            let doc = Fixture.document([.paragraph(Fixture.paragraph(String(repeating: "a", count: n)))],
                                       columns: columns)
            resetWork()
            var characters = 0
            _ = try DocumentLayout.paginate(doc) { page in
                for line in page.lines { characters += line.box.length }
            }
            XCTAssertEqual(characters, n)
            // Each piece lays out its last line again for the next one: about a quarter more, never twice.
            XCTAssertLessThan(Double(LayoutWork.bytesLaidOut), 1.5 * Double(n), "\(columns) columns")
            // Pieces hold a few lines, not kilobytes: Pango's cost within a piece grows with its lines squared.
            XCTAssertLessThanOrEqual(LayoutWork.largestLayout, 4 * 100, "\(columns) columns")
        }
    }

    func testLongWordBesideAnExclusionCostsLinearWork() throws {
        // Each line of a word too long for the space beside a shape laid out all the rest of the word again.
        var work: [Int] = []
        for n in [4_000, 16_000] {
            let doc = Fixture.document([.exclusion(Exclusion(shape: .circle(cx: 240, cy: 60, r: 50))),
                                        .paragraph(Fixture.paragraph(String(repeating: "x", count: n)))])
            resetWork()
            var characters = 0
            _ = try DocumentLayout.paginate(doc) { page in
                for line in page.lines { characters += line.box.length }
            }
            XCTAssertEqual(characters, n)
            work.append(LayoutWork.bytesLaidOut)
        }
        XCTAssertLessThan(Double(work[1]) / Double(work[0]), 6, "\(work)")
    }

    func testThePageLimitCountsEveryPage() throws {
        var style = ParagraphStyle()
        style.breakBefore = .page
        let blocks = (0...DocumentLayout.maxPages).map { _ in LayoutBlock.paragraph(Fixture.paragraph("x", style: style)) }
        var pages = 0
        let summary = try DocumentLayout.paginate(Fixture.document(blocks)) { _ in pages += 1 }
        XCTAssertGreaterThanOrEqual(pages, DocumentLayout.maxPages - 1)  // the page at the limit is not finished
        XCTAssertLessThanOrEqual(pages, DocumentLayout.maxPages)
        let errors = summary.diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.count, 1)
        XCTAssertTrue(errors.first?.message.contains("\(DocumentLayout.maxPages) pages") ?? false, "\(errors)")
    }

    func testAnExclusionOverEveryPageIsAnErrorAtIt() throws {
        let here = SourceLocation(file: "doc.rt", line: 3, column: 1)
        let doc = Fixture.document([
            .exclusion(Exclusion(shape: .rect(x: 0, y: 0, width: 481.89, height: 728.5), pages: .all, location: here)),
            .paragraph(Fixture.paragraph(String(repeating: "word ", count: 2_000))),
        ])
        var drawn = 0
        let summary = try DocumentLayout.paginate(doc) { page in drawn += page.lines.count }
        XCTAssertEqual(drawn, 0, "no line is drawn inside the exclusion")
        let errors = summary.diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.location), [here])
        XCTAssertLessThanOrEqual(summary.pageCount, 2)
    }
}
