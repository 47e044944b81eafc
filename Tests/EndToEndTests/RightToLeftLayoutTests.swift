// A right-to-left list item is the mirror image of a left-to-right one: marker and hanging indent on the
// right, nested lists further in from the right, on every line of an item however long. A right-to-left
// contents entry has its page number at the left. Right-to-left text beside a shape reads from the right-hand
// piece of each line to the left-hand one.

import XCTest

final class RightToLeftLayoutTests: XCTestCase {
    private static let left = 56.69, right = 595.28 - 56.69
    private static let arabic = "كتاب مدرسة قلم باب شمس قمر بحر جبل نهر شجرة زهرة طريق مدينة قرية بيت".split(separator: " ")

    private static func arabicWords(_ count: Int, seed: Int) -> String {
        (0..<count).map { arabic[($0 * 7 + seed * 3 + $0 / 5) % arabic.count] }.joined(separator: " ")
    }

    /// Lines of the words in `words`, by their rows: (left end, right end).
    private static func rows(_ words: [PDF.Word]) -> [(xMin: Double, xMax: Double)] {
        Dictionary(grouping: words) { ($0.yMin * 2).rounded() }.sorted { $0.key < $1.key }
            .map { ($0.value.map(\.xMin).min()!, $0.value.map(\.xMax).max()!) }
    }

    func testARightToLeftListItemHangsFromTheRight() throws {
        let pdf = try Harness.typesetSource("""
            - \(Self.arabicWords(40, seed: 1))
              - \(Self.arabicWords(30, seed: 2))

            Between.

            - hanging indent text hanging indent text hanging indent text hanging indent text hanging indent text
              hanging indent text hanging indent text

            """)
        let words = try PDF.words(pdf)
        let bullets = words.filter { $0.text == "•" }
        XCTAssertEqual(bullets.count, 2)
        let between = try XCTUnwrap(words.first { $0.text == "Between." })
        let (rtlBullet, ltrBullet) = (bullets.min { $0.yMin < $1.yMin }!, bullets.max { $0.yMin < $1.yMin }!)
        let nested = try XCTUnwrap(words.first { $0.text == "◦" })
        let outer = words.filter { $0.yMin < nested.yMin - 2 && $0.text != "•" }
        let inner = words.filter { $0.yMin > nested.yMin - 2 && $0.yMax < between.yMin && $0.text != "◦" }
        let english = words.filter { $0.yMin > between.yMax && $0.text != "•" }
        let ltrText = english.map(\.xMin).min()! - Self.left

        // The marker stands in from the right edge as far as a left-to-right one does from the left.
        XCTAssertEqual(Self.right - rtlBullet.xMax, ltrBullet.xMin - Self.left, accuracy: 1)
        XCTAssertGreaterThan(Self.right - rtlBullet.xMax, 3, "the marker is indented, not at the edge")
        // Every line of the item ends at its text edge on the right, and reaches the left edge, not past it.
        let outerRows = Self.rows(outer)
        XCTAssertGreaterThan(outerRows.count, 2)
        for row in outerRows {
            XCTAssertEqual(Self.right - row.xMax, ltrText, accuracy: 1, "lines hang at the text edge on the right")
            XCTAssertGreaterThanOrEqual(row.xMin, Self.left - 0.5)
        }
        XCTAssertLessThan(outerRows.dropLast().map(\.xMin).max()!, Self.left + 60, "the item uses the left side")
        // The nested list starts at the outer item's text edge, from the right.
        XCTAssertEqual(Self.right - nested.xMax, ltrText, accuracy: 1.5)
        for row in Self.rows(inner) {
            XCTAssertLessThan(row.xMax, nested.xMin, "a nested item's lines hang inside its marker")
        }
    }

    /// A long item is laid out in pieces; every piece keeps the indent on the right, in both columns.
    func testALongRightToLeftListItemKeepsItsIndentOnEveryLine() throws {
        let pdf = try Harness.typesetSource("""
            ---
            columns: 2
            ---

            - \(Self.arabicWords(2500, seed: 3))

            """)
        let words = try PDF.words(pdf).filter { $0.text != "•" }
        XCTAssertGreaterThan(Set(words.map(\.page)).count, 1)
        let column = (Self.right - Self.left - 12) / 2
        var ends: [Double] = []  // from the column's right edge
        for page in Set(words.map(\.page)) {
            for k in 0..<2 {
                let columnRight = Self.left + Double(k) * (column + 12) + column
                let inColumn = words.filter {
                    $0.page == page && abs(($0.xMin + $0.xMax) / 2 - (columnRight - column / 2)) < column / 2
                }
                for row in Self.rows(inColumn) {
                    ends.append(columnRight - row.xMax)
                    XCTAssertGreaterThanOrEqual(row.xMin, columnRight - column - 0.5, "page \(page) column \(k)")
                }
            }
        }
        XCTAssertGreaterThan(ends.count, 150)
        // One line (the marker's) ends nearer the edge; all the others at the text edge, however many pieces.
        let hang = ends.sorted()[ends.count / 2]
        XCTAssertGreaterThan(hang, 10)
        XCTAssertGreaterThanOrEqual(ends.filter { abs($0 - hang) < 1 }.count, ends.count - 1,
                                    "ends of lines from the right: \(ends.map { Int($0.rounded()) })")
    }

    /// Beside a circle in the middle of the column, a right-to-left paragraph starts in the right-hand piece and
    /// goes on in the left-hand one, as its reader reads.
    func testRightToLeftTextBesideAShapeStartsOnTheRight() throws {
        let pdf = try Harness.typesetSource("""
            @exclude circle(50%, 30pt, 50pt) margin=6pt

            > \(Self.arabicWords(2, seed: 4)) FIRST \(Self.arabicWords(300, seed: 5)) LAST

            """)
        let words = try PDF.words(pdf)
        let middle = 595.28 / 2
        let first = try XCTUnwrap(words.first { $0.text == "FIRST" })
        XCTAssertGreaterThan(first.xMin, middle, "the paragraph's first words are in the right-hand piece")
        let firstLine = words.filter { abs($0.yMin - first.yMin) < 1 }
        XCTAssertTrue(firstLine.contains { $0.xMax < middle - 50 }, "the line goes on left of the circle")
        let last = try XCTUnwrap(words.first { $0.text == "LAST" })
        XCTAssertGreaterThan(last.yMin, first.yMin)
    }

    /// A right-to-left contents entry: title at the right (a lower level further in), leaders, number at the left.
    func testARightToLeftContentsEntryHasItsNumberAtTheLeft() throws {
        let pdf = try Harness.typesetSource("""
            @toc

            @pagebreak
            # مقدمة المشروع

            نص.

            ## النتائج

            # English section

            """)
        // (pdftotext gives each Arabic letter as a word of its own: rows are found by their numbers.)
        let words = try PDF.words(pdf).filter { $0.page == 1 }
        let numbers = words.filter { $0.text == "2" && $0.xMin < 300 }.sorted { $0.yMin < $1.yMin }
        XCTAssertEqual(numbers.count, 2, "both right-to-left entries have their number at the left")
        for (number, indent) in zip(numbers, [0.0, 1.5 * 11]) {
            let row = words.filter { abs($0.yMin - number.yMin) < 2 && $0.xMin > number.xMax }
            let leaders = row.filter { !$0.text.isEmpty && $0.text.allSatisfy { $0 == "." } }
            let title = row.filter { !leaders.map(\.xMin).contains($0.xMin) }
            XCTAssertEqual(number.xMin, Self.left, accuracy: 0.5, "the number starts at the left edge")
            XCTAssertEqual(title.map(\.xMax).max() ?? 0, Self.right - indent, accuracy: 2, "the title ends at the right")
            XCTAssertFalse(leaders.isEmpty)
            XCTAssertLessThan(leaders.map(\.xMax).max() ?? .infinity, title.map(\.xMin).min() ?? 0, "leaders before the title")
        }
        let english = try XCTUnwrap(words.first { $0.text == "English" })
        let englishRow = words.filter { abs($0.yMin - english.yMin) < 2 }
        XCTAssertEqual(englishRow.max { $0.xMax < $1.xMax }?.text, "2", "a left-to-right entry keeps its number at the right")
    }
}
