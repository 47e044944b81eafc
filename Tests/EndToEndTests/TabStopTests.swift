// Tab stops in the PDF: character boxes from `mutool draw -F stext` against the stop positions.

import Foundation
import XCTest

final class TabStopTests: XCTestCase {
    /// The page's left margin (2cm) plus `cm` centimetres: a stop's x on the page.
    private func stop(_ cm: Double) -> Double { (2 + cm) * 72 / 2.54 }

    /// Per-character boxes with their right edges (stext quads).
    private func boxes(_ pdf: String) throws -> [(c: String, x: Double, right: Double, y: Double)] {
        let xml = try PDF.tool("mutool", ["draw", "-F", "stext", "-o", "-", pdf])
        return xml.split(separator: "\n").filter { $0.contains("<char ") }.map { line in
            let quad = Chars.attr(line, "quad").split(separator: " ").compactMap { Double($0) }
            return (Stext.character(Chars.attr(line, "c")), quad[0], quad[2], Double(Chars.attr(line, "y")) ?? .nan)
        }
    }

    func testDecimalStopPutsTheSeparatorsLeftEdgeOnTheStop() throws {
        let pdf = try Harness.typesetSource("""
            {tabs="5cm decimal, 9cm right, 12cm center"}
            Onions\t$2.34\tR\tmid \\
            Peppers\t$15.2443\tRRR\tmiddle \\
            Beans\t$7\tx\tm

            """)
        let chars = try boxes(pdf)
        let points = chars.filter { $0.c == "." }
        XCTAssertEqual(points.count, 2)
        for p in points { XCTAssertEqual(p.x, stop(5), accuracy: 0.5, "separator's left edge on the stop") }
        // A number without a separator ends at the stop.
        let seven = try XCTUnwrap(chars.first { $0.c == "7" })
        XCTAssertEqual(seven.right, stop(5), accuracy: 0.5)
        // Right stops: the text ends there; centre stops: the text's middle is there (also before a hard break).
        for y in Set(chars.map(\.y)) {
            let line = chars.filter { $0.y == y }
            if let r = line.last(where: { $0.c == "R" || $0.c == "x" }) { XCTAssertEqual(r.right, stop(9), accuracy: 0.5) }
            let centred = line.filter { $0.x > stop(10) }
            if let first = centred.first, let last = centred.last {
                XCTAssertEqual((first.x + last.right) / 2, stop(12), accuracy: 0.5)
            }
        }
    }

    func testGermanDecimalCommaAndTabInterval() throws {
        let pdf = try Harness.typesetSource("""
            ---
            lang: de
            ---
            {tabs="4cm decimal"}
            Zwiebeln\t2,34 € \\
            Paprika\t15,2443 € \\
            Bohnen\t7 €

            {tab-interval=2cm}
            a\tb\tc

            """)
        let chars = try boxes(pdf)
        let commas = chars.filter { $0.c == "," }
        XCTAssertEqual(commas.count, 2)
        for c in commas { XCTAssertEqual(c.x, stop(4), accuracy: 0.5) }
        // `7 €` has no separator: the number ends at the stop, the unit follows.
        XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "7" }).right, stop(4), accuracy: 0.5)
        // Default stops every tab-interval from the column's left edge.
        let a = try XCTUnwrap(chars.first { $0.c == "a" && $0.x < stop(0) + 1 })
        XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "b" && $0.y == a.y }).x, stop(2), accuracy: 0.5)
        XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "c" && $0.y == a.y }).x, stop(4), accuracy: 0.5)
    }

    func testTabsInJustifiedRightAndCentredParagraphs() throws {
        let filler = String(repeating: "word ", count: 40)
        let pdf = try Harness.typesetSource("""
            {align=justify tabs="3cm"}
            Q\tZ \(filler)end.

            {align=justify tabs="5cm"}
            two words\tW \(filler)end.

            {align=right tabs="3cm"}
            left\tV

            {align=center tabs="3cm"}
            mid\tU

            """)
        let chars = try boxes(pdf)
        // A leading tab keeps justification and its stop; the first line is justified (it reaches the margin).
        XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "Z" }).x, stop(3), accuracy: 0.5)
        let zLine = try XCTUnwrap(chars.first { $0.c == "Z" }).y
        let rightEdge = (21 - 2) * 72 / 2.54
        XCTAssertEqual(try XCTUnwrap(chars.filter { $0.y == zLine }.last { $0.c != " " }).right, rightEdge, accuracy: 0.5)
        // Spaces before a tab would stretch and push it off its stop: that paragraph is set ragged.
        XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "W" }).x, stop(5), accuracy: 0.5)
        // Right-aligned and centred paragraphs with tabs: the stops win.
        XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "V" }).x, stop(3), accuracy: 0.5)
        XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "U" }).x, stop(3), accuracy: 0.5)
    }
}

enum Stext {
    /// mutool writes characters outside ASCII as `&#xHEX;`.
    static func character(_ c: String) -> String {
        guard c.hasPrefix("&#x"), c.hasSuffix(";"), let v = UInt32(c.dropFirst(3).dropLast(), radix: 16),
              let scalar = Unicode.Scalar(v) else { return c }
        return String(Character(scalar))
    }
}
