// A quote's bar: one line at the quote's text edge beside everything the quote holds (its paragraphs, a list
// and the list's nested items), joined across the space between them; two quotes in a row keep two bars.

import XCTest

final class QuoteBarTests: XCTestCase {
    /// The quote style's bar: 2pt wide, #c8c8c8.
    private func bars(_ pdf: String) throws -> [ChartTests.FilledRect] {
        try ChartTests.filledRects(pdf).filter { abs($0.width - 2) < 0.01 && $0.color == "0.784314 0.784314 0.784314" }
    }

    func testAQuoteHasOneBarBesideItsParagraphsAndItsList() throws {
        let pdf = try Harness.typesetSource("""
            > A first paragraph of the quote, long enough to wrap onto a second line in this column, it goes on.
            >
            > - an item
            > - another item
            >   - a nested item
            >
            > The quote's last paragraph.

            Between.

            > A second quote.

            > A third quote, right after it.

            """)
        PDF.assertValid(pdf)
        let found = try bars(pdf)
        XCTAssertEqual(found.count, 3, "one bar a quote: \(found)")
        guard found.count == 3 else { return }
        XCTAssertEqual(Set(found.map { ($0.x * 100).rounded() }).count, 1, "all at the quote's edge: \(found.map(\.x))")
        let words = try PDF.words(pdf)
        let first = try XCTUnwrap(words.first { $0.text == "first" }), last = try XCTUnwrap(words.first { $0.text == "last" })
        // (cairo draws in page coordinates from the top.) The first bar spans the quote's first line to its last.
        let top = found[0].y, bottom = found[0].y + found[0].height
        XCTAssertLessThan(top, first.yMin + 1)
        XCTAssertGreaterThan(bottom, last.yMax - 1)
        XCTAssertLessThan(found[0].x + 2, try XCTUnwrap(words.first { $0.text == "•" }).xMin, "before the markers")
    }

    /// A quote in a quote: the outer bar goes on beside the inner quote, whose own bar stands further in.
    func testAQuoteInAQuoteKeepsTheOuterBar() throws {
        let pdf = try Harness.typesetSource("""
            > Outer first.
            >
            > > Inner quote.
            >
            > Outer last.

            """)
        let found = try bars(pdf)
        XCTAssertEqual(found.count, 2, "the outer bar and the inner one: \(found)")
        guard found.count == 2 else { return }
        let words = try PDF.words(pdf)
        let outer = found.min { $0.x < $1.x }!, inner = found.max { $0.x < $1.x }!
        XCTAssertGreaterThan(inner.x, outer.x + 5)
        let first = try XCTUnwrap(words.first { $0.text == "first." }), last = try XCTUnwrap(words.first { $0.text == "last." })
        let nested = try XCTUnwrap(words.first { $0.text == "Inner" })
        XCTAssertLessThan(outer.y, first.yMin + 1)
        XCTAssertGreaterThan(outer.y + outer.height, last.yMax - 1, "one outer bar from the first line to the last")
        XCTAssertLessThan(inner.y, nested.yMin + 1)
        XCTAssertLessThan(inner.y + inner.height, last.yMin, "the inner bar stops with the inner quote")
    }
}
