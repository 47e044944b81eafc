// A word of a joining script (Arabic) broken between two connected letters in a narrow column: the breaker
// measured the line with the letters' joined forms, and they keep them (zero-width joiners on both sides of the
// break), so the line is as wide as planned and stays in its column.

import XCTest

final class JoinedLetterBreakTests: XCTestCase {
    func testAnArabicWordBrokenBetweenJoinedLettersStaysInItsColumn() throws {
        let words = "مكتبة المستشفيات والمدرسة بالعالمين استقلالية كتاب مرحبا"
        for justify in ["true", "false"] {
            let pdf = try Harness.typesetSource("""
                ---
                columns: 12
                font-size: 9pt
                justify: \(justify)
                hyphenate: true
                ---

                - \(words)

                1. \(words) \(words)

                \(words) \(words)

                """, name: "joined-\(justify)")
            let left = 56.69, column = (595.28 - 2 * 56.69 - 11 * 12) / 12
            let found = try PDF.words(pdf)
            XCTAssertGreaterThan(found.count, 40)
            var past: [String] = []
            for w in found {
                let k = (((w.xMin + w.xMax) / 2 - left + 6) / (column + 12)).rounded(.down)
                let lo = left + k * (column + 12), hi = lo + column
                if w.xMin < lo - 0.5 || w.xMax > hi + 0.5 {
                    past.append("\(w.text) \(String(format: "%.1f-%.1f", w.xMin, w.xMax)) in \(lo)-\(hi)")
                }
            }
            XCTAssertEqual(past, [], "justify: \(justify)")
            let text = try PDF.text(pdf)
            XCTAssertFalse(text.unicodeScalars.contains("\u{200D}"), "the joiners are not read as text")
            XCTAssertTrue(text.contains("مكت"), "the word is broken between its letters")
        }
    }
}
