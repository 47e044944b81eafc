// Tables in the PDF: column positions, alignments in cells, wrapping inside a column, the header repeated
// on the next page, nothing past the margins.

import Foundation
import XCTest

final class TableLayoutTests: XCTestCase {
    private typealias Box = (c: String, x: Double, right: Double, y: Double, page: Int)

    private func boxes(_ pdf: String) throws -> [Box] {
        let xml = try PDF.tool("mutool", ["draw", "-F", "stext", "-o", "-", pdf])
        var page = 0
        var result: [Box] = []
        for line in xml.split(separator: "\n") {
            if line.contains("<page ") { page += 1; continue }
            guard line.contains("<char ") else { continue }
            let quad = Chars.attr(line, "quad").split(separator: " ").compactMap { Double($0) }
            result.append((Stext.character(Chars.attr(line, "c")), quad[0], quad[2], Double(Chars.attr(line, "y")) ?? .nan, page))
        }
        return result
    }

    /// Characters of the line holding word `w` (the first such line).
    private func line(of word: String, in chars: [Box], page: Int = 1) throws -> [Box] {
        let lines = Dictionary(grouping: chars.filter { $0.page == page }, by: \.y).values.map { $0.sorted { $0.x < $1.x } }
        return try XCTUnwrap(lines.first { $0.map(\.c).joined().contains(word) }, "no line with \(word)")
    }

    private let left = 2 * 72 / 2.54, right = 19 * 72 / 2.54

    func testColumnsAlignmentsAndWrapping() throws {
        let note = String(repeating: "long note words ", count: 20)
        let pdf = try Harness.typesetSource("""
            | Item | Qty | Price | Notes |
            |:--|--:|-.-|:-:|
            | Onions | 3 | 2.34 | ok |
            | Peppers | 12 | 15.2443 | \(note)|
            | Beans | 100 | 7 | dry |

            """)
        let chars = try boxes(pdf)
        // Item column at the margin plus the cell padding (0.5em).
        XCTAssertEqual(try line(of: "Onions", in: chars)[0].x, left + 5, accuracy: 0.5)
        let points = chars.filter { $0.c == "." }
        // Right column: the numbers end at the same x.
        let ends = try ["3", "12", "100"].map { n -> Double in
            let row = try line(of: n == "3" ? "Onions" : n == "12" ? "Peppers" : "Beans", in: chars)
            return try XCTUnwrap(row.last { $0.c == String(n.last!) && $0.x > left + 40 && $0.x < points[0].x - 12 }).right
        }
        for e in ends { XCTAssertEqual(e, ends[0], accuracy: 0.5) }
        // Decimal column: separators share one x; `7` ends there.
        XCTAssertEqual(points.count, 2)
        XCTAssertEqual(points[0].x, points[1].x, accuracy: 0.5)
        let seven = try XCTUnwrap(try line(of: "Beans", in: chars).first { $0.c == "7" })
        XCTAssertEqual(seven.right, points[0].x, accuracy: 0.5)
        // The long note wraps: several lines, all inside the Notes column and the margins.
        let noteLines = Set(chars.filter { $0.c == "g" }.map(\.y))
        XCTAssertGreaterThan(noteLines.count, 2)
        let priceRight = try line(of: "Peppers", in: chars).filter { $0.c == "3" }.last!.right
        for c in chars where noteLines.contains(c.y) && c.x > priceRight {
            XCTAssertGreaterThan(c.x, priceRight + 5)
            XCTAssertLessThanOrEqual(c.right, right + 0.5)
        }
        // Centred column: "ok" is centred on the same axis as "dry".
        let ok = try line(of: "Onions", in: chars).filter { $0.c == "o" || $0.c == "k" }.suffix(2)
        let dry = try line(of: "Beans", in: chars).suffix(3)
        XCTAssertEqual((ok.first!.x + ok.last!.right) / 2, (dry.first!.x + dry.last!.right) / 2, accuracy: 0.5)
    }

    func testHeaderRepeatsOnTheNextPage() throws {
        let rows = (1...80).map { "| Row \($0) | \($0).5 |" }.joined(separator: "\n")
        let pdf = try Harness.typesetSource("| Name | Value |\n|:--|-.-|\n\(rows)\n")
        XCTAssertGreaterThanOrEqual(try PDF.pageCount(pdf), 2)
        let chars = try boxes(pdf)
        for page in [1, 2] {
            let header = try line(of: "Name", in: chars, page: page)
            let firstY = chars.filter { $0.page == page }.map(\.y).min()!
            XCTAssertEqual(header[0].y, firstY, "page \(page) starts with the header row")
        }
        // Every row exactly once, never split, and nothing below the bottom margin.
        let text = try PDF.text(pdf)
        for n in [1, 40, 80] { XCTAssertEqual(text.components(separatedBy: "Row \(n)\n").count - 1, 1, "Row \(n)") }
        let bottom = (29.7 - 2) * 72 / 2.54
        XCTAssertTrue(chars.allSatisfy { $0.y <= bottom && $0.right <= right + 0.5 && $0.x >= left - 0.5 })
    }
}
