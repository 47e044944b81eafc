// Tab stops in the PDF: character boxes from `mutool draw -F stext` against the stop positions.

import Foundation
import XCTest

final class TabStopTests: XCTestCase {
    /// The page's left margin (2cm) plus `cm` centimetres: a stop's x on the page.
    private func stop(_ cm: Double) -> Double { (2 + cm) * 72 / 2.54 }

    /// Every tab-stop test runs plain and with `justify` and `hyphenate` on (contract section 6: justification
    /// never moves a tab stop's text). `extra` are more front matter lines.
    private func variants(_ body: String, extra: [String] = [], _ check: ([Box]) throws -> Void) throws {
        for settings in [[], ["justify: true", "hyphenate: true"]] {
            let keys = extra + settings
            let front = keys.isEmpty ? "" : "---\n" + keys.joined(separator: "\n") + "\n---\n"
            let pdf = try Harness.typesetSource(front + body, name: "tabs\(settings.count)")
            try check(try boxes(pdf))
        }
    }

    typealias Box = (c: String, x: Double, right: Double, y: Double)

    /// Per-character boxes with their right edges (stext quads).
    private func boxes(_ pdf: String) throws -> [Box] {
        let xml = try PDF.tool("mutool", ["draw", "-F", "stext", "-o", "-", pdf])
        return xml.split(separator: "\n").filter { $0.contains("<char ") }.map { line in
            let quad = Chars.attr(line, "quad").split(separator: " ").compactMap { Double($0) }
            return (Stext.character(Chars.attr(line, "c")), quad[0], quad[2], Double(Chars.attr(line, "y")) ?? .nan)
        }
    }

    func testDecimalStopPutsTheSeparatorsLeftEdgeOnTheStop() throws {
        try variants("""
            {tabs="5cm decimal, 9cm right, 12cm center"}
            Onions\t$2.34\tR\tmid \\
            Peppers\t$15.2443\tRRR\tmiddle \\
            Beans\t$7\tx\tm

            """) { chars in
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
    }

    func testGermanDecimalCommaAndTabInterval() throws {
        try variants("""
            {tabs="4cm decimal"}
            Zwiebeln\t2,34 € \\
            Paprika\t15,2443 € \\
            Bohnen\t7 €

            {tab-interval=2cm}
            a\tb\tc

            """, extra: ["lang: de"]) { chars in
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
    }

    func testTabsInJustifiedRightAndCentredParagraphs() throws {
        let filler = String(repeating: "word ", count: 40)
        try variants("""
            {align=justify tabs="3cm"}
            Q\tZ \(filler)end.

            {align=justify tabs="5cm"}
            two words\tW \(filler)end.

            {align=justify tabs="4cm decimal"}
            Label\t12.5 Y \(filler)end.

            {align=right tabs="3cm"}
            left\tV

            {align=center tabs="3cm"}
            mid\tU

            """) { chars in
            let rightEdge = (21 - 2) * 72 / 2.54
            // A label, a TAB and a number before the first space is a tabbed line too, not a list marker.
            let label = try XCTUnwrap(chars.first { $0.c == "Y" })
            XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "." && $0.y == label.y }).x, stop(4), accuracy: 0.5)
            for (mark, position) in [("Z", 3.0), ("W", 5.0), ("Y", -1)] {
                let z = try XCTUnwrap(chars.first { $0.c == mark })
                if position > 0 { XCTAssertEqual(z.x, stop(position), accuracy: 0.5) }
                // The line with the tab is not stretched: its words keep their natural spaces (DejaVu Serif
                // 10pt: 3.18pt), while the justified line after it has wider ones.
                // A space's own box keeps its advance whatever justification adds after it: the gap is measured
                // from the space to the letter after it.
                let line = chars.filter { $0.y == z.y }
                let spaces = zip(line, line.dropFirst()).filter { $0.0.c == " " && $0.1.c != " " }.map { $0.1.x - $0.0.x }
                XCTAssertFalse(spaces.isEmpty)
                for w in spaces { XCTAssertEqual(w, 3.18, accuracy: 0.05, "a space on the tabbed line '\(mark)'") }
                // The wrapped lines after it (no tab) are justified: they reach the right margin.
                let next = try XCTUnwrap(chars.filter { $0.y > z.y }.map(\.y).min())
                XCTAssertEqual(try XCTUnwrap(chars.filter { $0.y == next }.last { $0.c != " " }).right, rightEdge,
                               accuracy: 0.5)
            }
            // Right-aligned and centred paragraphs with tabs: the stops win.
            XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "V" }).x, stop(3), accuracy: 0.5)
            XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "U" }).x, stop(3), accuracy: 0.5)
        }
    }

    /// A form and a price list set with `justify` and `hyphenate`: every character lands exactly where it does
    /// without them (no line with a tab or ending in a hard break is stretched or letter-spaced).
    func testJustifiedFormAndPriceListKeepTheirStops() throws {
        let source = """
            {tabs="3cm, 8cm decimal"}
            Name:\tAlice Smith \\
            Street:\tLong Road 12 \\
            Onions\t\t$2.34 \\
            Peppers\t\t$15.2443 \\
            Saffron\t\t$1,250.75

            {lang=de tabs="6cm decimal"}
            Zwiebeln\t2,34 € \\
            Bohnen\t7 €

            """
        var runs: [[Box]] = []
        try variants(source) { runs.append($0) }
        XCTAssertEqual(runs.count, 2)
        guard runs.count == 2 else { return }
        XCTAssertEqual(runs[0].map(\.c), runs[1].map(\.c))
        for (plain, justified) in zip(runs[0], runs[1]) {
            XCTAssertEqual(plain.x, justified.x, accuracy: 0.01, "'\(plain.c)' moved under justify")
            XCTAssertEqual(plain.y, justified.y, accuracy: 0.01)
        }
        let chars = runs[1]
        XCTAssertEqual(try XCTUnwrap(chars.first { $0.c == "A" }).x, stop(3), accuracy: 0.5)
        let smith = try XCTUnwrap(chars.first { $0.c == "S" && $0.x > stop(3) })
        XCTAssertLessThan(smith.x, stop(3) + 60, "'Smith' stays next to 'Alice'")
        for point in chars.filter({ $0.c == "." }) { XCTAssertEqual(point.x, stop(8), accuracy: 0.5) }
        let euro = chars.filter { $0.c == "€" }
        XCTAssertEqual(euro.count, 2)
        for e in euro { XCTAssertLessThan(e.x, stop(8)) }
    }

    /// Outside tables of tabs too: the line before a hard break is never stretched, also in paragraphs that
    /// Pango wraps itself (`max-lines`).
    func testLinesEndingInHardBreaksAreNotStretched() throws {
        let filler = String(repeating: "many words here ", count: 12)
        let pdf = try Harness.typesetSource("""
            ---
            justify: true
            hyphenate: true
            ---
            Short line \\
            \(filler)end.

            {max-lines=6}
            Another short one \\
            \(filler)end.

            """)
        let words = try PDF.words(pdf)
        let rightEdge = (21 - 2) * 72 / 2.54
        for last in ["line", "one"] {
            let word = try XCTUnwrap(words.first { $0.text == last })
            XCTAssertLessThan(word.xMax, rightEdge / 2, "'\(last)' ends a hard-broken line: not stretched")
            // The next line wraps and is justified to the margin.
            let next = words.filter { $0.yMin > word.yMax && $0.yMin < word.yMax + 20 }
            XCTAssertEqual(try XCTUnwrap(next.map(\.xMax).max()), rightEdge, accuracy: 0.5)
        }
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
