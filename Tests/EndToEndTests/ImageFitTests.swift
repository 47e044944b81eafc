// A picture given no size is set at 96 px per inch, scaled down to fit the text's width and the page's height
// (a README's screenshot 2,000 px wide ran off the page); one given a size is set as asked.

import XCTest

final class ImageFitTests: XCTestCase {
    /// A PNG `width` x `height` points of typeset's own page image (150 px per inch: 6,250 px for 3,000pt).
    private func writePNG(_ name: String, width: Int, height: Int, in dir: String) throws {
        try Harness.write("---\npage: \(width)pt x \(height)pt\nmargin: 5pt\n---\nPicture\n", to: dir + "/\(name).rt")
        XCTAssertEqual(try Harness.typeset(["\(name).rt", "-o", "\(name).png"], cwd: dir).status, 0)
        try FileManager.default.moveItem(atPath: dir + "/\(name)-1.png", toPath: dir + "/\(name).png")
    }

    /// The drawn size (width, height) of each image, in the order drawn (mutool's trace of the page).
    private func drawnSizes(_ pdf: String) throws -> [(Double, Double)] {
        try PDF.tool("mutool", ["draw", "-F", "trace", "-o", "-", pdf]).split(separator: "\n")
            .filter { $0.contains("<fill_image") }.compactMap { line -> (Double, Double)? in
                guard let r = line.range(of: "transform=\"") else { return nil }
                let rest = line[r.upperBound...]
                let m = rest[..<(rest.firstIndex(of: "\"") ?? rest.endIndex)].split(separator: " ").compactMap { Double($0) }
                return m.count == 6 ? (abs(m[0]), abs(m[3])) : nil
            }
    }

    func testAPictureGivenNoSizeFitsTheColumnAndThePage() throws {
        let dir = try Harness.scratch()
        try writePNG("wide", width: 3000, height: 400, in: dir)
        try writePNG("tall", width: 300, height: 3000, in: dir)
        try writePNG("small", width: 60, height: 40, in: dir)
        try Harness.write("""
            ![A wide graph](wide.png)

            - In a list: ![wide](wide.png)

            ![A tall one](tall.png)

            ![Asked for](wide.png){width=200pt} and ![small](small.png)

            """, to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("taller than the column"), result.stderr)
        PDF.assertValid(dir + "/doc.pdf")
        let sizes = try drawnSizes(dir + "/doc.pdf")
        XCTAssertEqual(sizes.count, 5)
        guard sizes.count == 5 else { return }
        let column = 595.28 - 2 * 56.69, content = 841.89 - 2 * 56.69
        // 6,250 px at 96 px per inch would be 4,687pt wide: the column's width, proportions kept.
        XCTAssertEqual(sizes[0].0, column, accuracy: 0.5)
        XCTAssertEqual(sizes[0].1, column * 400 / 3000, accuracy: 0.5)
        XCTAssertLessThan(sizes[1].0, column - 10, "in a list item: the item's text width")
        XCTAssertLessThanOrEqual(sizes[2].1, content - 11, "a tall picture fits the page's height")
        XCTAssertEqual(sizes[2].0 / sizes[2].1, 0.1, accuracy: 0.002)
        XCTAssertEqual(sizes[3].0, 200, accuracy: 0.01, "a given width is kept")
        // 125 x 83 px (150 px per inch) at 96 px per inch: natural size, not scaled.
        XCTAssertEqual(sizes[4].0, 125 * 0.75, accuracy: 1)
        let pages = try PDF.pageCount(dir + "/doc.pdf")
        XCTAssertLessThanOrEqual(pages, 3)
    }
}
