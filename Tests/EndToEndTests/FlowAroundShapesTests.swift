// Text flowing around shapes, read back from the PDF's word boxes: nothing inside an exclusion (with its
// margin), text on both sides of a central one, `pages=`, justified fragments, floats and shaped containers.

import Foundation
import XCTest

final class FlowAroundShapesTests: XCTestCase {
    /// Margin 50pt on A4: the content box is x 50...545.28, y 50...791.89.
    private let header = "---\nmargin: 50pt\njustify: true\n---\n"

    private func text(_ paragraphs: Int, words: Int = 90) -> String {
        let pool = ["shape", "river", "line", "column", "margin", "fragment", "word", "paper", "quiet", "bend",
                    "circle", "stone", "harbour", "evening", "window", "lantern", "garden", "market"]
        return (0..<paragraphs).map { p in
            (0..<words).map { pool[($0 * 7 + p * 3 + $0 / 5) % pool.count] }.joined(separator: " ") + "."
        }.joined(separator: "\n\n")
    }

    /// A word box meets `inside` (a test on points) anywhere on a 7x5 grid over it.
    private func meets(_ w: PDF.Word, _ inside: (Double, Double) -> Bool) -> Bool {
        for i in 0...6 {
            for j in 0...4 {
                let x = w.xMin + (w.xMax - w.xMin) * Double(i) / 6, y = w.yMin + 1 + (w.yMax - w.yMin - 2) * Double(j) / 4
                if inside(x, y) { return true }
            }
        }
        return false
    }

    private func inCircle(cx: Double, cy: Double, r: Double) -> (Double, Double) -> Bool {
        { x, y in (x - cx) * (x - cx) + (y - cy) * (y - cy) < r * r }
    }

    private func inPolygon(_ p: [(Double, Double)]) -> (Double, Double) -> Bool {
        { x, y in
            var inside = false
            var j = p.count - 1
            for i in 0..<p.count {
                if (p[i].1 > y) != (p[j].1 > y), x < (p[j].0 - p[i].0) * (y - p[i].1) / (p[j].1 - p[i].1) + p[i].0 { inside.toggle() }
                j = i
            }
            return inside
        }
    }

    /// A word too long for the band beside a shape goes below it; the layout cut before it ended at the space
    /// before the word, and a line that began with that space was planned with flex it could not use: 7pt past
    /// the column (fuzz documents 270208246 and 270308127).
    func testALongWordAfterAShapeStaysInsideTheColumn() throws {
        let pdf = try Harness.typesetSource("---\njustify: true\n---\n@exclude polygon(0 0, 100% 0, 50% 40%) pages=all margin=4pt\n\n"
                                            + "word " + String(repeating: "a", count: 1000) + " end\n")
        let words = try PDF.words(pdf)
        XCTAssertGreaterThan(words.count, 10)
        XCTAssertEqual(words.filter { $0.xMax > 595.28 - 56.69 + 0.5 }.map(\.xMax), [], "nothing past the right margin")
        XCTAssertFalse(words.contains { $0.text == "word" && $0.yMin > 200 }, "the short word stays beside the shape")
    }

    func testRectangleExclusionOnThisPageOnlyWithTextOnBothSides() throws {
        let pdf = try Harness.typesetSource(header + "@exclude rect(150pt, 100pt, 150pt, 200pt) margin=6pt\n\n" + text(12))
        let words = try PDF.words(pdf)
        XCTAssertGreaterThan(Set(words.map(\.page)).count, 1)
        let rect: (Double, Double) -> Bool = { x, y in x > 195 && x < 355 && y > 145 && y < 355 }
        XCTAssertEqual(words.filter { $0.page == 1 && meets($0, rect) }.map(\.text), [])
        let beside = words.filter { $0.page == 1 && $0.yMin > 160 && $0.yMax < 340 }
        XCTAssertTrue(beside.contains { $0.xMax < 200 }, "no text left of the rectangle")
        XCTAssertTrue(beside.contains { $0.xMin > 350 }, "no text right of the rectangle")
        // pages=this: page 2 is set across the whole width there.
        XCTAssertTrue(words.contains { $0.page == 2 && meets($0, rect) }, "page 2 should not be excluded")
    }

    func testCircleOnAllPagesInTwoColumnsHasTextOnBothSides() throws {
        let source = "---\nmargin: 50pt\njustify: true\ncolumns: 2\ncolumn-gap: 18pt\n---\n"
            + "@exclude circle(50%, 300pt, 80pt) pages=all margin=8pt\n\n" + text(30)
        let words = try PDF.words(try Harness.typesetSource(source))
        let pages = Set(words.map(\.page))
        XCTAssertGreaterThanOrEqual(pages.count, 2)
        let cx = 50 + 495.28 / 2, cy = 350.0
        for page in pages.sorted() {
            XCTAssertEqual(words.filter { $0.page == page && meets($0, inCircle(cx: cx, cy: cy, r: 87)) }.map(\.text), [],
                           "page \(page)")
        }
        for page in pages.sorted().dropLast() {  // the last page's columns are balanced and may end above it
            let onPage = words.filter { $0.page == page }
            let band = onPage.filter { $0.yMin > cy - 30 && $0.yMax < cy + 30 }
            // Each column has text on both sides of the circle: the far sides and the gap sides.
            XCTAssertTrue(band.contains { $0.xMax < cx - 150 }, "page \(page): left column, outer side")
            XCTAssertTrue(band.contains { $0.xMin > cx - 100 && $0.xMax < cx - 80 } || band.contains { $0.xMax < cx - 88 && $0.xMin > cx - 140 },
                          "page \(page): left column, beside the circle")
            XCTAssertTrue(band.contains { $0.xMin > cx + 150 }, "page \(page): right column, outer side")
        }
    }

    func testEllipseAndPolygonLeaveTheirAreaEmpty() throws {
        let ellipse = try PDF.words(try Harness.typesetSource(header + "@exclude ellipse(30%, 200pt, 90pt, 120pt) margin=4pt\n\n" + text(6)))
        let ex = 50 + 0.3 * 495.28, ey = 250.0
        XCTAssertEqual(ellipse.filter { $0.page == 1 && meets($0) { x, y in
            let dx = (x - ex) / 93, dy = (y - ey) / 123
            return dx * dx + dy * dy < 1
        } }.map(\.text), [])
        XCTAssertTrue(ellipse.contains { $0.page == 1 && $0.yMin > 240 && $0.yMax < 260 && $0.xMin > ex + 93 })

        let triangle = [(545.28, 100.0), (300.0, 250.0), (545.28, 400.0)]
        let polygon = try PDF.words(try Harness.typesetSource(
            header + "@exclude polygon(100% 50pt, 250pt 200pt, 100% 350pt) margin=6pt\n\n" + text(6)))
        XCTAssertEqual(polygon.filter { $0.page == 1 && meets($0, inPolygon(triangle)) }.map(\.text), [])
        // The lines narrow towards the tip, then widen again.
        func lineEnd(near y: Double) -> Double { polygon.filter { $0.page == 1 && abs(($0.yMin + $0.yMax) / 2 - y) < 6 }.map(\.xMax).max() ?? 0 }
        XCTAssertGreaterThan(lineEnd(near: 160), lineEnd(near: 250) + 60)
        XCTAssertGreaterThan(lineEnd(near: 340), lineEnd(near: 250) + 60)
    }

    func testPagesRangeAppliesOnlyThere() throws {
        let source = header + "@exclude rect(0pt, 0pt, 60%, 100%) pages=2-2\n\n" + text(24)
        let words = try PDF.words(try Harness.typesetSource(source))
        XCTAssertGreaterThanOrEqual(Set(words.map(\.page)).count, 3)
        let left: (Double, Double) -> Bool = { x, _ in x < 50 + 0.6 * 495.28 - 0.5 }
        XCTAssertTrue(words.contains { $0.page == 1 && meets($0, left) })
        XCTAssertEqual(words.filter { $0.page == 2 && meets($0, left) }.map(\.text), [])
        XCTAssertTrue(words.contains { $0.page == 3 && meets($0, left) })
    }

    func testJustifiedFragmentsEndAtTheCircle() throws {
        let pdf = try Harness.typesetSource(header + "@exclude circle(50%, 200pt, 100pt)\n\n" + text(4, words: 160))
        let words = try PDF.words(pdf).filter { $0.page == 1 }
        let cx = 50 + 495.28 / 2, cy = 250.0
        var lines: [Double: [PDF.Word]] = [:]
        for w in words where w.yMin > cy - 60 && w.yMax < cy + 60 { lines[(w.yMin * 2).rounded() / 2, default: []].append(w) }
        XCTAssertGreaterThan(lines.count, 5)
        var checked = 0
        for (_, line) in lines {
            let left = line.filter { $0.xMax < cx }, right = line.filter { $0.xMin > cx }
            guard let end = left.map(\.xMax).max(), !right.isEmpty else { continue }
            // The circle's left edge over this line's height.
            let top = line.map(\.yMin).min()!, bottom = line.map(\.yMax).max()!
            let dy = max(0, min(abs(top - cy), abs(bottom - cy)))
            let edge = cx - (100 * 100 - dy * dy).squareRoot()
            XCTAssertLessThanOrEqual(end, edge + 0.5, "line at \(top) runs into the circle")
            // Each piece is justified to its edge, or set ragged with natural spaces where justifying it would
            // open gaps over 1.6 spaces (issue 9: no loose or letter-spaced lines beside shapes).
            for (piece, pieceEnd, limit) in [(left, end, edge), (right, right.map(\.xMax).max()!, 545.28)] {
                let sorted = piece.sorted { $0.xMin < $1.xMin }
                let gaps = zip(sorted, sorted.dropFirst()).map { $1.xMin - $0.xMax }
                for g in gaps { XCTAssertLessThanOrEqual(g, 1.6 * 3.18 + 0.1, "line at \(top): a loose gap") }
                if pieceEnd < limit - 4 {
                    for g in gaps { XCTAssertEqual(g, 3.18, accuracy: 0.1, "line at \(top) is neither justified nor ragged") }
                }
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 4)
    }

    func testFloatImageHasTextBesideIt() throws {
        let dir = try Harness.scratch()
        try XCTUnwrap(Data(base64Encoded: TypographyTests.jpeg)).write(to: URL(fileURLWithPath: dir + "/p.jpg"))
        let source = header + "![](p.jpg){float=right width=120pt height=90pt margin=10pt}\n\n" + text(3)
        try Harness.write(source, to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("float"), result.stderr)
        let words = try PDF.words(dir + "/doc.pdf")
        // The image sits at the top right of the column: 425.28...545.28 x 50...140.
        XCTAssertEqual(words.filter { meets($0) { x, y in x > 417 && y < 148 } }.map(\.text), [])
        XCTAssertTrue(words.contains { $0.yMax < 130 && $0.xMax > 350 }, "no text beside the float")
        XCTAssertTrue(words.contains { $0.yMin > 160 && $0.xMax > 540 }, "text below the float is not full width")
    }

    func testCircleContainerKeepsLinesInsideAndContinuesBelow() throws {
        let source = header + "::: {shape=circle width=200pt}\n" + text(1, words: 200) + "\n:::\n\nAfter the circle.\n"
        let words = try PDF.words(try Harness.typesetSource(source))
        // The circle's box is centred in the column at the top: centre (297.64, 150), radius 100.
        let cx = 50 + 495.28 / 2, cy = 150.0
        let inside = words.filter { $0.page == 1 && $0.yMax < 250 }
        XCTAssertGreaterThan(inside.count, 40)
        for w in inside {
            for (x, y) in [(w.xMin, w.yMin + 1), (w.xMax, w.yMin + 1), (w.xMin, w.yMax - 1), (w.xMax, w.yMax - 1)] {
                XCTAssertLessThan(((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot(), 101, "'\(w.text)' outside the circle")
            }
        }
        // What does not fit continues below the circle at the full width.
        XCTAssertTrue(words.contains { $0.yMin > 250 && $0.xMax > 540 }, "no overflow below the circle")
        XCTAssertTrue(words.contains { $0.text == "After" && $0.yMin > 250 })
    }

    // RT section 4, positioned shapes: the page's text flows around a shaped div placed with x= and y= (its
    // shape plus `margin`, 6pt by default) without an @exclude of its own, unless it says `wrap=none`.
    func testPositionedCircleMakesTheTextOfItsPageGoAroundIt() throws {
        let shape = "::: {shape=circle x=100pt y=100pt width=120pt}\nQUOTE\n:::\n\n"
        let words = try PDF.words(try Harness.typesetSource(header + "Opening line.\n\n" + shape + text(6)))
        // The circle's box: content box (50, 50) + (100, 100), 120pt wide: centre (210, 210), radius 60 + 6.
        let body = words.filter { $0.page == 1 && $0.text != "QUOTE" }
        XCTAssertEqual(body.filter { meets($0, inCircle(cx: 210, cy: 210, r: 65)) }.map(\.text), [])
        let band = body.filter { $0.yMin > 180 && $0.yMax < 240 }
        XCTAssertTrue(band.contains { $0.xMax < 144 }, "no text left of the circle")
        XCTAssertTrue(band.contains { $0.xMin > 276 }, "no text right of the circle")
        let quote = try XCTUnwrap(words.first { $0.text == "QUOTE" })
        XCTAssertTrue(inCircle(cx: 210, cy: 210, r: 60)((quote.xMin + quote.xMax) / 2, quote.yMax), "\(quote)")
        // wrap=none: the text runs under the shape.
        let under = shape.replacingOccurrences(of: "width=120pt", with: "width=120pt wrap=none")
        let plain = try PDF.words(try Harness.typesetSource(header + "Opening line.\n\n" + under + text(6), name: "wrapNone"))
        XCTAssertFalse(plain.filter { $0.page == 1 && $0.text != "QUOTE" && meets($0, inCircle(cx: 210, cy: 210, r: 50)) }.isEmpty)
    }

    func testPositionedBoxIsSetAtItsPlaceAndTheTextGoesAroundIt() throws {
        let box = "::: {box=true x=200pt y=150pt width=150pt border=\"1pt red\" padding=6pt margin=10pt}\n"
            + "BOXED words inside a box that is placed on the page.\n:::\n\n"
        let result = try Harness.typesetSource(header + "Opening line.\n\n" + box + text(6))
        let words = try PDF.words(result)
        let boxed = words.filter { ["BOXED", "inside", "placed"].contains($0.text) }
        XCTAssertEqual(boxed.count, 3)
        // The box: x 250...400 from the page's left, top at 200.
        for w in boxed { XCTAssertTrue(w.xMin > 250 && w.xMax < 400 && w.yMin > 200, "\(w)") }
        let bottom = try XCTUnwrap(boxed.map(\.yMax).max()) + 6
        let inBox: Set<String> = ["BOXED", "words", "inside", "a", "box", "that", "is", "placed", "on", "the", "page."]
        let body = words.filter { $0.page == 1 && !inBox.contains($0.text) }
        XCTAssertEqual(body.filter { meets($0) { x, y in x > 242 && x < 408 && y > 192 && y < bottom + 8 } }.map(\.text), [])
        XCTAssertTrue(body.contains { $0.yMin > 205 && $0.yMax < bottom && $0.xMax < 240 }, "no text left of the box")
        XCTAssertTrue(body.contains { $0.yMin > 205 && $0.yMax < bottom && $0.xMin > 410 }, "no text right of the box")
        XCTAssertTrue(try PDF.objects(result).contains("1 0 0 rg"), "the box's red border is not drawn")
    }

    /// `pages=this` is the whole page: text set on it before the directive is met goes around the shape too
    /// (a second pass registers it from the page's start), on page 2 after a break, and for a positioned shape.
    func testTextBeforeAnExclusionOnItsPageGoesAroundItToo() throws {
        let source = header + "Intro.\n\n@pagebreak\n\nPage two starts here with a few words.\n\n"
            + "@exclude rect(0pt, 0pt, 200pt, 80pt) margin=0pt\n\n" + text(4)
        let words = try PDF.words(try Harness.typesetSource(source))
        let area: (Double, Double) -> Bool = { x, y in x > 51 && x < 249 && y > 51 && y < 129 }
        XCTAssertEqual(words.filter { $0.page == 2 && meets($0, area) }.map(\.text), [])
        let start = try XCTUnwrap(words.first { $0.page == 2 && $0.text == "Page" })
        XCTAssertGreaterThan(start.xMin, 249, "the first line of page 2 starts right of the rectangle")
        XCTAssertTrue(words.contains { $0.page == 1 && $0.text == "Intro." && $0.xMin < 60 }, "page 1 is not excluded")

        let positioned = header + "Opening words of the page, set before the shape is met.\n\n"
            + "::: {shape=circle x=0pt y=0pt width=100pt}\nQ\n:::\n\n" + text(3)
        let placed = try PDF.words(try Harness.typesetSource(positioned, name: "positioned"))
        XCTAssertEqual(placed.filter { $0.text != "Q" && meets($0, inCircle(cx: 100, cy: 100, r: 55)) }.map(\.text), [])
    }

    /// `box=true` on a float div draws its border and background around its text, inside its width, with its
    /// padding (it was a warning and nothing drawn).
    func testABoxedFloatDrawsItsBoxAndPadsItsText() throws {
        let source = header + "::: {float=right width=150pt margin=10pt box=true border=\"1pt #ff0000\" padding=8pt}\n"
            + "Boxed words inside.\n:::\n\n" + text(2)
        let dir = try Harness.scratch()
        try Harness.write(source, to: dir + "/doc.rt")
        let pdf = dir + "/doc.pdf"
        let result = try Harness.typeset([dir + "/doc.rt", "-o", pdf])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("not drawn"), result.stderr)
        XCTAssertTrue(try PDF.objects(pdf).contains("1 0 0 rg"), "no red border")
        let words = try PDF.words(pdf)
        // The float: x 395.28...545.28 on the page; its text starts after the 8pt padding.
        let boxed = try XCTUnwrap(words.first { $0.text == "Boxed" })
        XCTAssertEqual(boxed.xMin, 395.28 + 8, accuracy: 0.6)
        XCTAssertGreaterThan(boxed.yMin, 50 + 7)
        XCTAssertEqual(words.filter { $0.text != "Boxed" && $0.text != "words" && $0.text != "inside." && meets($0) { x, y in x > 386 && y < 80 } }.map(\.text), [])
    }
}
